"""The card-log resampler against a brute-force enumeration of consistent deals."""

import itertools
import random
from collections import Counter

import pytest

from koloda.games.kit.cardlog import (
    DEALT,
    PLAYED,
    REVEALED,
    SHOWN,
    TAKEN,
    CardLogResampler,
    CardMove,
    ResamplingError,
)

A, B, C = range(3)
COPIES = (2, 2, 2)       # a rank-only deck: two copies of each of three cards


def _log(*moves):
    return [CardMove(flow, seat, card, event) for event, (flow, seat, card) in enumerate(moves)]


# Viewer 0 is dealt A; seat 1 gets three cards face down; C is turned up; seat 1 plays B
# (so B was among its first two cards... any of its three, all dealt before the play),
# seat 0 takes that B, seat 1 reveals a C it holds.
LOG = _log(
    (DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, B), (DEALT, 1, C),
    (SHOWN, -1, C), (PLAYED, 1, B), (TAKEN, 0, B), (REVEALED, 1, C),
)


def _consistent(log, viewer, assignment):
    """Replay a full assignment of the hidden slots: every play and reveal possible."""
    hands = {}
    slots = iter(assignment)
    for move in log:
        hand = hands.setdefault(move.seat, Counter())
        if move.flow == DEALT:
            hand[move.card if move.seat == viewer else next(slots)] += 1
        elif move.flow == SHOWN and move.seat >= 0 or move.flow == TAKEN:
            hand[move.card] += 1
        elif move.flow == PLAYED:
            if not hand[move.card]:
                return False
            hand[move.card] -= 1
        elif move.flow == REVEALED and not hand[move.card]:
            return False
    return True


def _all_worlds(log, viewer, copies):
    """Every assignment of cards to hidden slots that the deck and the log allow."""
    hidden = sum(1 for m in log if m.flow == DEALT and m.seat != viewer)
    left = Counter({card: n for card, n in enumerate(copies)})
    for m in log:
        if m.flow == DEALT and m.seat == viewer or m.flow == SHOWN:
            left[m.card] -= 1
    worlds = set()
    for combo in itertools.product(range(len(copies)), repeat=hidden):
        if all(Counter(combo)[c] <= left[c] for c in combo) and _consistent(log, viewer, combo):
            worlds.add(combo)
    return worlds


def test_draws_reach_exactly_the_consistent_worlds():
    resampler = CardLogResampler(LOG, COPIES, viewer=0)
    expected = _all_worlds(LOG, 0, COPIES)
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        assigned, free, leftover = resampler.draw(rng)
        seen.add(tuple(assigned))
        # Every card is placed once: in a slot or left in the stock.
        forced = Counter(card for _, _, card in resampler.forced)
        assert Counter(assigned) + Counter(leftover) == Counter(resampler.pool) + forced
        assert sum(len(ids) for ids in free.values()) == len(assigned) - len(resampler.forced)
    assert seen == expected


def test_forced_cards_and_known_cards():
    resampler = CardLogResampler(LOG, COPIES, viewer=0)
    assert resampler.forced == [(5, 1, B), (7, 1, C)]
    assert resampler.known == {0: {B: 1}, 1: {C: 1}}
    # Left for the hidden slots: one A (the viewer holds the other), one B and no C once
    # the forced B and C are placed (the other C is turned up).
    assert sorted(resampler.pool) == [A, B]


def test_leftover_cards_are_the_pool_not_dealt():
    log = _log((DEALT, 0, A), (DEALT, 1, B), (PLAYED, 1, C))
    resampler = CardLogResampler(log, COPIES, viewer=0)
    for seed in range(20):
        assigned, free, leftover = resampler.draw(random.Random(seed))
        assert assigned == [C] and free == {1: []}
        assert Counter(leftover) == Counter({A: 1, B: 2, C: 1})


def test_a_game_constraint_rejects_draws():
    log = _log((DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, B))
    wants_b_first = CardLogResampler(log, COPIES, viewer=0, accept=lambda a: a[0] == B)
    for seed in range(20):
        assert wants_b_first.draw(random.Random(seed))[0][0] == B
    impossible = CardLogResampler(log, COPIES, viewer=0, accept=lambda a: False)
    with pytest.raises(ResamplingError):
        impossible.draw(random.Random(0))


def test_a_log_that_places_too_many_copies_is_refused():
    log = _log((SHOWN, -1, A), (SHOWN, -1, A), (SHOWN, -1, A))
    with pytest.raises(ValueError, match="more copies"):
        CardLogResampler(log, COPIES, viewer=0)


def test_event_cards_map_slots_to_their_events():
    resampler = CardLogResampler(LOG, COPIES, viewer=0)
    assigned, _, _ = resampler.draw(random.Random(1))
    assert sorted(resampler.event_cards(assigned)) == [1, 2, 3]


def test_game_constraints_are_met_and_every_world_they_allow_is_reached():
    """Three copies of A and B, two of C; the viewer holds an A, a B is turned up; seat 1
    has two hidden cards and seat 2 three.  Seat 1 was seen not to hold B, hands hold
    distinct cards, and the stock holds no C: the draws must reach exactly the worlds an
    enumeration allows."""
    copies = (3, 3, 2)
    log = _log((DEALT, 0, A), (DEALT, 1, A), (DEALT, 1, A),
               (DEALT, 2, A), (DEALT, 2, A), (DEALT, 2, A), (SHOWN, -1, B))
    resampler = CardLogResampler(log, copies, viewer=0, forbidden=[(1, B, 7)], distinct=True,
                                 stock_lacks=[C])
    left = Counter({A: 2, B: 2, C: 2})
    expected = set()
    for combo in itertools.product(range(3), repeat=5):
        seat1, seat2 = combo[:2], combo[2:]
        used = Counter(combo)
        if (all(used[c] <= left[c] for c in used) and B not in seat1
                and len(set(seat1)) == 2 and len(set(seat2)) == 3 and used[C] == left[C]):
            expected.add(combo)
    assert len(expected) > 4
    rng = random.Random(9)
    seen = set()
    for _ in range(2000):
        assigned, _, leftover = resampler.draw(rng)
        seen.add(tuple(assigned))
        assert C not in leftover
    assert seen == expected
