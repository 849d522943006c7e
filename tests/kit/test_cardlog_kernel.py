"""The compiled draw (games/kit/cardlog_kernel.py) against the card-log resampler: the same
worlds, as often, on logs with forced cards and with every constraint a game adds."""

import math
import random
from collections import Counter

import numpy as np
import pytest

from koloda.games.kit import cardlog_kernel as CK
from koloda.games.kit.cardlog import (
    DEALT,
    PLAYED,
    REVEALED,
    SHOWN,
    TAKEN,
    CardLogResampler,
    CardMove,
)
from koloda.games.kit.kernel import seed_state

A, B, C = range(3)


def _log(*moves):
    return [CardMove(flow, seat, card, event) for event, (flow, seat, card) in enumerate(moves)]


# Forced cards: seat 1 plays a B and reveals a C it was dealt face down.
FORCED = (_log((DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, B), (DEALT, 1, C),
               (SHOWN, -1, C), (PLAYED, 1, B), (TAKEN, 0, B), (REVEALED, 1, C)),
          (2, 2, 2), {})
# Every constraint: seat 1 seen without a B, hands of distinct cards, no C in the stock.
CONSTRAINED = (_log((DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, A), (DEALT, 2, A), (DEALT, 2, A),
                    (DEALT, 2, A), (SHOWN, -1, B)),
               (3, 3, 2), dict(forbidden=[(1, B, 7)], distinct=True, stock_lacks=[C]))
# A card the stock holds, a hand known to hold one, forced cards and distinct hands.
HOLDS = (_log((DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, A), (TAKEN, 1, C),
              (DEALT, 2, A), (DEALT, 2, A), (PLAYED, 2, B)),
         (3, 3, 3), dict(distinct=True, stock_holds=[A]))
LOGS = {"forced": FORCED, "constrained": CONSTRAINED, "holds": HOLDS}


def _world(assigned, in_hand, leftover):
    """A draw as what a game builds from it: the cards of the slots in hand, the stock."""
    return tuple(card if hand else -1 for card, hand in zip(assigned, in_hand)), tuple(leftover)


def _python_worlds(log, runs):
    rng = random.Random(3)
    worlds = Counter()
    for _ in range(runs):
        assigned, free, leftover = log.draw(rng)
        in_hand = [0] * len(assigned)
        for ids in free.values():
            for i in ids:
                in_hand[i] = 1
        counts = [0] * len(log.unplaced)
        for card in leftover:
            counts[card] += 1
        worlds[_world(assigned, in_hand, counts)] += 1
    return worlds


def _compiled_worlds(log, runs):
    prob = CK.pack(log)
    kinds = len(log.unplaced)
    assigned = np.empty(CK.MAX_SLOTS, np.int64)
    in_hand = np.empty(CK.MAX_SLOTS, np.int64)
    leftover = np.empty(CK.MAX_KINDS + 1, np.int64)
    x = np.uint64(seed_state(11))
    worlds = Counter()
    s = CK.slot_count(prob)
    for _ in range(runs):
        x, ok = CK.draw(prob, np.uint64(x), assigned, in_hand, leftover)
        assert ok
        worlds[_world(assigned[:s].tolist(), in_hand[:s].tolist(),
                      leftover[:kinds].tolist())] += 1
    return worlds


@pytest.mark.parametrize("name", LOGS)
def test_the_compiled_draw_reaches_the_same_worlds_as_often(name):
    moves, copies, constraints = LOGS[name]
    log = CardLogResampler(moves, copies, viewer=0, **constraints)
    runs = 6000
    python = _python_worlds(log, runs)
    compiled = _compiled_worlds(log, runs)
    assert set(compiled) == set(python)
    assert len(python) > 2
    for world in python:
        p = python[world] / runs
        error = math.sqrt(p * (1 - p) / runs) * math.sqrt(2)
        assert abs(compiled[world] / runs - p) < 4 * error + 1e-9, (world, p)


def test_the_packed_log_names_its_slots_and_seats():
    moves, copies, constraints = HOLDS
    log = CardLogResampler(moves, copies, viewer=0, **constraints)
    prob = CK.pack(log)
    assert CK.slot_count(prob) == len(log.slots) == 4
    assert [CK.slot_seat(prob, i) for i in range(4)] == [1, 1, 2, 2]
    assert CK.hidden_seats(prob) == 0b110


def test_a_draw_with_no_consistent_world_says_so():
    # The stock must hold an A, but every A is in a hand already.
    log = CardLogResampler(_log((DEALT, 0, A), (DEALT, 0, A), (DEALT, 1, B)), (2, 2, 2),
                           viewer=0, stock_holds=[A])
    leftover = np.empty(CK.MAX_KINDS + 1, np.int64)
    x, ok = CK.draw(CK.pack(log), np.uint64(seed_state(1)), np.empty(CK.MAX_SLOTS, np.int64),
                    np.empty(CK.MAX_SLOTS, np.int64), leftover)
    assert not ok


def test_a_log_beyond_the_compiled_limits_is_refused():
    moves = _log(*[(DEALT, 1, 0)] * (CK.MAX_SLOTS + 1))
    log = CardLogResampler(moves, (CK.MAX_SLOTS + 1,), viewer=0)
    with pytest.raises(ValueError, match="hidden slots"):
        CK.pack(log)
