"""Snitch's worlds for search in the kernel: resample.py's `Determinizer` compiled.

Only the deal in play is redrawn (each deal is a fresh shuffle, and the earlier deals'
cards decide nothing that is still to come): every seat with hidden slots in its card log
gets the cards of its slots still in hand, and the reserve gets the copies left over.  The
viewer's hand, the discard pile, the sets and the scores are public or the viewer's own,
and every count (cards held, the reserve's size) stays as it is.  Snitch's card log never
makes a card known in a hand (nothing is taken into a hand in view of all), so a rebuilt
hand is its in-hand slots alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.cardlog import CardLogResampler
from koloda.games.kit.cardlog_kernel import (
    MAX_KINDS as DRAW_KINDS,
)
from koloda.games.kit.cardlog_kernel import (
    MAX_SLOTS,
    draw,
    hidden_seats,
    pack,
    slot_count,
    slot_seat,
)
from koloda.games.snitch.kernel import HANDS, MAX_KINDS, MAX_SEATS, RESERVE
from koloda.games.snitch.resample import deal_logs


def problem(core, player: int):
    """(template, prob, extra) of `player`'s worlds at `core` (plain Python, once per move):
    the kernel state, the packed draw of the deal in play as the Python Determinizer builds
    it, and no extra data (an unused int64 array)."""
    log = CardLogResampler(deal_logs(core)[-1], core.rules.deck.copies, player)
    if log.known:
        raise ValueError("a Snitch card log knows no card in a hand")
    return core.st.copy(), pack(log), np.zeros(1, np.int64)


@njit(cache=True)
def determinize(template, r, prob, extra, world, x):
    """world[:] = template with the hidden hands and the reserve redrawn (resample.py's
    Determinizer.sample); (x, False) when the draw found no deal.  `x` is the kit's
    xorshift state, a uint64."""
    world[:] = template
    assigned = np.empty(MAX_SLOTS, np.int64)
    in_hand = np.empty(MAX_SLOTS, np.int64)
    leftover = np.zeros(DRAW_KINDS, np.int64)
    x, ok = draw(prob, np.uint64(x), assigned, in_hand, leftover)
    if not ok:
        return x, False
    seats = hidden_seats(prob)
    for seat in range(MAX_SEATS):
        if seats >> seat & 1:
            world[HANDS + seat * MAX_KINDS:HANDS + (seat + 1) * MAX_KINDS] = 0
    for i in range(slot_count(prob)):
        if in_hand[i]:
            world[HANDS + slot_seat(prob, i) * MAX_KINDS + assigned[i]] += 1
    for k in range(MAX_KINDS):
        world[RESERVE + k] = leftover[k]
    return x, True
