"""Platinum Fish's determinizer compiled: worlds for search drawn as resample.py's
`Determinizer` draws them, on the kernel state (games/platinum_fish/kernel.py).

Only the dealt hands are hidden, so a world is the true position with the hands of the
seats that have hidden slots rebuilt (what everybody knows to be in the hand plus the
cards drawn for its slots still in hand) and the stock set to the cards left over.  The
draw itself is the kit's compiled card-log draw (games/kit/cardlog_kernel.py) over the
same `CardLogResampler` the Python determinizer builds.  During the deal, while pairs are
still to be laid, the Python determinizer replays a whole history: `problem` gives None
there, and a search keeps to the Python tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.cardlog_kernel import (
    MAX_KINDS,
    MAX_SLOTS,
    draw,
    hidden_seats,
    pack,
    slot_count,
    slot_seat,
)
from koloda.games.platinum_fish.kernel import (
    DEAL,
    HAND,
    HANDS,
    KNOWN,
    R_PLAYERS,
    R_RANKS,
    STOCK,
    from_engine,
)
from koloda.games.platinum_fish.resample import _resampler


def problem(core, player):
    """(template, packed draw problem, extra) for worlds `player` cannot tell from `core`,
    or None during the deal, where the Python determinizer replays (plain Python).  What
    everybody knows to be in each hand is the template's own (kernel.py's KNOWN), so
    `extra` is empty."""
    if core.phase in (HAND, DEAL):
        return None
    return from_engine(core), pack(_resampler(core, player)), np.zeros(1, np.int64)


@njit(cache=True)
def determinize(template, r, prob, extra, world, x):
    """world[:] = a world drawn from `template` (its hidden hands and stock overwritten);
    (x, False) when the draw found none."""
    world[:] = template
    assigned = np.empty(MAX_SLOTS, np.int64)
    in_hand = np.empty(MAX_SLOTS, np.int64)
    leftover = np.empty(MAX_KINDS, np.int64)
    x, ok = draw(prob, x, assigned, in_hand, leftover)
    if not ok:
        return x, False
    seats = hidden_seats(prob)
    for seat in range(r[R_PLAYERS]):
        if seats >> seat & 1:
            world[HANDS + seat] = template[KNOWN + seat]
    for i in range(slot_count(prob)):
        if in_hand[i]:
            world[HANDS + slot_seat(prob, i)] |= np.int64(1) << assigned[i]
    for k in range(r[R_RANKS]):
        world[STOCK + k] = leftover[k]
    return x, True
