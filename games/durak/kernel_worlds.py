"""Durak's determinizer compiled: the worlds of games/durak/resample.py's `Determinizer`,
drawn in numba for search.

`problem(core, player)` fixes, once per move, what a world of `player`'s may be: the kernel
state of the position (`template`; determinize overwrites every hidden card in it), the
packed card-log draw (`prob`, games/kit/cardlog_kernel.py) and the int64 array `extra`:

* X_KNOWN: the cards everybody knows to be in each seat's hand (DurakCore.known);
* X_TRUMP_IN_STOCK: the face-up trump as a mask, while it is still in the stock;
* X_CHECK_FIRST, X_FIRST: whether the dealt hands decide the first attacker, and who it
  was (DurakResampler's accept rule);
* X_DEALT: per seat, the dealt cards the player saw; X_DEAL_SLOTS: how many deals were
  hidden, then at X_SLOTS a (slot, seat) pair per hidden deal.

`determinize` then builds a world as `Determinizer.sample` does: each seat with hidden
slots holds its known cards plus the cards of its slots still in hand, the stock holds the
trump (if still there) plus the cards left over; draws whose dealt hands give another first
attacker are drawn again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.durak.kernel import (
    HANDS,
    MAX_SEATS,
    STOCK,
    TRUMP_SUIT,
    from_engine,
    lead_of_hands,
)
from koloda.games.durak.resample import DurakResampler
from koloda.games.kit.cardlog import _MAX_TRIES
from koloda.games.kit.cardlog_kernel import (
    MAX_KINDS,
    MAX_SLOTS,
    draw,
    hidden_seats,
    pack,
    slot_count,
    slot_seat,
)

# --- layout of `extra` -------------------------------------------------------------------
X_CHECK_FIRST, X_FIRST, X_TRUMP_IN_STOCK, X_DEAL_SLOTS = 0, 1, 2, 3
X_KNOWN = 4                          # MAX_SEATS known masks
X_DEALT = X_KNOWN + MAX_SEATS        # MAX_SEATS masks of seen dealt cards
X_SLOTS = X_DEALT + MAX_SEATS        # (slot, seat) per hidden deal


def problem(core, player):
    """(template, prob, extra) of `player`'s worlds at `core` (plain Python, once per move).
    Durak's Determinizer never replays, so this is never None."""
    resampler = DurakResampler(core, player)
    return from_engine(core), pack(resampler.log), _extra(core, resampler)


def _extra(core, resampler) -> np.ndarray:
    rule = resampler.first_attacker_rule()
    deal_slots = rule[1] if rule else []
    extra = np.zeros(X_SLOTS + 2 * len(deal_slots), np.int64)
    trump = core.trump_card
    if trump >= 0 and core.stock >> trump & 1:
        extra[X_TRUMP_IN_STOCK] = 1 << trump
    extra[X_KNOWN:X_KNOWN + len(core.known)] = core.known
    if rule:
        dealt, _, first = rule
        extra[X_CHECK_FIRST] = 1
        extra[X_FIRST] = first
        extra[X_DEALT:X_DEALT + len(dealt)] = dealt
        extra[X_DEAL_SLOTS] = len(deal_slots)
        for j, (slot, seat) in enumerate(deal_slots):
            extra[X_SLOTS + 2 * j] = slot
            extra[X_SLOTS + 2 * j + 1] = seat
    return extra


@njit(cache=True)
def determinize(template, r, prob, extra, world, x):
    """world[:] = template with the hidden hands and the stock redrawn (Determinizer.sample);
    (x, False) when no draw was found.  `x` is a uint64 xorshift state (pass np.uint64 from
    Python)."""
    x = np.uint64(x)
    world[:] = template
    assigned = np.empty(MAX_SLOTS, np.int64)
    in_hand = np.empty(MAX_SLOTS, np.int64)
    leftover = np.zeros(MAX_KINDS, np.int64)
    dealt = np.empty(MAX_SEATS, np.int64)
    for _ in range(_MAX_TRIES):
        x, ok = draw(prob, x, assigned, in_hand, leftover)
        if not ok:
            return x, False
        if _same_first_attacker(template, r, extra, assigned, dealt):
            _write_world(world, prob, extra, assigned, in_hand, leftover)
            return x, True
    return x, False


@njit(cache=True)
def _same_first_attacker(template, r, extra, assigned, dealt):
    """In a single game the dealt hands decide who led: a draw must keep that seat
    (DurakResampler._same_first_attacker)."""
    if not extra[X_CHECK_FIRST]:
        return True
    for seat in range(MAX_SEATS):
        dealt[seat] = extra[X_DEALT + seat]
    for j in range(extra[X_DEAL_SLOTS]):
        dealt[extra[X_SLOTS + 2 * j + 1]] |= np.int64(1) << assigned[extra[X_SLOTS + 2 * j]]
    return lead_of_hands(dealt, 0, template[TRUMP_SUIT], r) == extra[X_FIRST]


@njit(cache=True)
def _write_world(world, prob, extra, assigned, in_hand, leftover):
    seats = hidden_seats(prob)
    for seat in range(MAX_SEATS):
        if seats >> seat & 1:
            world[HANDS + seat] = extra[X_KNOWN + seat]
    for i in range(slot_count(prob)):
        if in_hand[i]:
            world[HANDS + slot_seat(prob, i)] |= np.int64(1) << assigned[i]
    stock = extra[X_TRUMP_IN_STOCK]
    for kind in range(MAX_KINDS):
        if leftover[kind]:
            stock |= np.int64(1) << kind
    world[STOCK] = stock
