"""The card-log resampler's draw (games/kit/cardlog.py) compiled, for search in the kernels.

`pack(log)` writes what a `CardLogResampler` fixed for one (card log, viewer) into one
int64 array, once per move; `draw(prob, x, assigned, in_hand, leftover)` then fills the
hidden slots as `CardLogResampler.draw` does, with the same distribution (not the same
random numbers: the kernels' xorshift stream, games/kit/kernel.py), many thousands of times
a second.  A game's kernel_worlds.py turns a draw into a world: the hands of the seats with
hidden slots and the stock.

The packed array: a header (the counts, the flags, the stock's constraints and the seats
with hidden slots as masks), then per slot its seat, its event and the kinds it may not
hold (a mask), the forced cards as (event, seat, card), the unplaced copies per kind, and
per seat the kinds known to be in its hand (what `distinct` keeps out of its slots).
Kinds are below MAX_KINDS, so a set of kinds is an int64 mask.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.cardlog import _MAX_TRIES, CardLogResampler
from koloda.games.kit.kernel import below

MAX_SLOTS = 256
MAX_KINDS = 63
MAX_SEATS = 8

# --- the packed array ------------------------------------------------------------------
H_SLOTS, H_FORCED, H_KINDS, H_FLAGS, H_LACKS, H_HOLDS, H_SEATS = range(7)
HEADER = 8
DISTINCT, CONSTRAINED = 1, 2          # flags


def pack(log: CardLogResampler) -> np.ndarray:
    """The draw problem of `log`, as the int64 array `draw` reads (plain Python)."""
    slots = log.slots
    kinds = len(log.unplaced)
    if len(slots) > MAX_SLOTS or kinds > MAX_KINDS:
        raise ValueError(f"a card log of {len(slots)} hidden slots and {kinds} kinds is "
                         f"more than the compiled draw takes ({MAX_SLOTS}, {MAX_KINDS})")
    seats = [move.seat for move in slots]
    if any(not 0 <= seat < MAX_SEATS for seat in seats) or any(
            not 0 <= seat < MAX_SEATS for seat in log.known):
        raise ValueError(f"the compiled draw takes seats 0..{MAX_SEATS - 1}")
    flags = (DISTINCT if log.distinct else 0) | (CONSTRAINED if log.constrained else 0)
    known = [0] * MAX_SEATS
    for seat, hand in log.known.items():
        for card, copies in hand.items():
            if copies:
                known[seat] |= 1 << card
    header = [len(slots), len(log.forced), kinds, flags, _mask(log.stock_lacks),
              _mask(log.stock_holds), _mask(log.slots_by_seat), 0]
    body = (seats + [move.event for move in slots]
            + [_mask(cards) for cards in log.slot_forbidden]
            + [value for forced in log.forced for value in forced]
            + list(log.unplaced) + known)
    return np.array(header + body, np.int64)


def _mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


@njit(cache=True)
def slot_count(prob):
    return prob[H_SLOTS]


@njit(cache=True)
def slot_seat(prob, i):
    return prob[HEADER + i]


@njit(cache=True)
def hidden_seats(prob):
    """The seats with hidden slots: those whose hand a world rebuilds from its slots."""
    return prob[H_SEATS]


@njit(cache=True)
def _offsets(prob):
    """Where the slot events, the forbidden masks, the forced cards, the unplaced counts
    and the known masks start."""
    s = prob[H_SLOTS]
    events = HEADER + s
    forbidden = events + s
    forced = forbidden + s
    unplaced = forced + 3 * prob[H_FORCED]
    known = unplaced + prob[H_KINDS]
    return events, forbidden, forced, unplaced, known


@njit(cache=True)
def draw(prob, x, assigned, in_hand, leftover):
    """Fills the hidden slots as CardLogResampler.draw: assigned[i] the kind of slot i,
    in_hand[i] 1 where slot i is still in hand (not a forced card's), leftover[k] the
    copies of kind k left to the stock; (x, False) when every attempt hit a dead end.
    `x` is the caller's xorshift state, a uint64 (pass np.uint64 from Python)."""
    x = np.uint64(x)
    s = prob[H_SLOTS]
    kinds = prob[H_KINDS]
    constrained = prob[H_FLAGS] & CONSTRAINED
    for _ in range(_MAX_TRIES):
        x, ok = _place_forced(prob, x, assigned, in_hand)
        if ok:
            if constrained:
                x, ok = _fill(prob, x, assigned, in_hand, leftover)
            else:
                x, ok = _shuffle(prob, x, assigned, in_hand, leftover)
        if ok:
            return x, True
    for i in range(s):
        in_hand[i] = 0
    for k in range(kinds):
        leftover[k] = 0
    return x, False


@njit(cache=True)
def _place_forced(prob, x, assigned, in_hand):
    """Each forced card (one an opponent played unseen in its hand) into a random slot of
    its seat dealt before the play and not yet taken, in log order."""
    s = prob[H_SLOTS]
    events, _, forced, _, _ = _offsets(prob)
    for i in range(s):
        assigned[i] = -1
        in_hand[i] = 1
    for f in range(prob[H_FORCED]):
        event = prob[forced + 3 * f]
        seat = prob[forced + 3 * f + 1]
        card = prob[forced + 3 * f + 2]
        count = 0
        for i in range(s):
            if in_hand[i] and prob[HEADER + i] == seat and prob[events + i] < event:
                count += 1
        if count == 0:
            return x, False
        x, pick = below(x, count)
        for i in range(s):
            if in_hand[i] and prob[HEADER + i] == seat and prob[events + i] < event:
                if pick == 0:
                    in_hand[i] = 0
                    assigned[i] = card
                    break
                pick -= 1
    return x, True


@njit(cache=True)
def _shuffle(prob, x, assigned, in_hand, leftover):
    """No constraints: the unplaced cards shuffled over the slots still in hand, the rest
    to the stock."""
    s = prob[H_SLOTS]
    kinds = prob[H_KINDS]
    _, _, _, unplaced, _ = _offsets(prob)
    total = 0
    for k in range(kinds):
        leftover[k] = prob[unplaced + k]
        total += leftover[k]
    for i in range(s):
        if not in_hand[i]:
            continue
        if total == 0:
            return x, False
        x, pick = below(x, total)          # a uniform card of those left: a shuffle
        k = 0
        while pick >= leftover[k]:
            pick -= leftover[k]
            k += 1
        assigned[i] = k
        leftover[k] -= 1
        total -= 1
    return x, True


@njit(cache=True)
def _fill(prob, x, assigned, in_hand, leftover):
    """CardLogResampler._fill: one copy of each card the stock holds kept back, every
    copy of each card it lacks placed in a hand, then each open slot in random order draws
    from the cards it may hold, weighted by copies; False at a dead end."""
    s = prob[H_SLOTS]
    kinds = prob[H_KINDS]
    distinct = prob[H_FLAGS] & DISTINCT
    lacks = prob[H_LACKS]
    holds = prob[H_HOLDS]
    _, forbidden, _, unplaced, known = _offsets(prob)
    counts = leftover
    for k in range(kinds):
        counts[k] = prob[unplaced + k]
    for k in range(kinds):
        if holds >> k & 1:
            if counts[k] == 0:
                return x, False
            counts[k] -= 1
    held = np.zeros(MAX_SEATS, np.int64)
    if distinct:
        for seat in range(MAX_SEATS):
            held[seat] = prob[known + seat]
    open_slots = np.empty(s, np.int64)
    n = 0
    for i in range(s):
        if in_hand[i]:
            open_slots[n] = i
            n += 1
    for j in range(n - 1, 0, -1):           # a uniform order of the open slots
        x, pick = below(x, j + 1)
        open_slots[j], open_slots[pick] = open_slots[pick], open_slots[j]
    for k in range(kinds):
        if not lacks >> k & 1:
            continue
        while counts[k]:
            options = 0
            for j in range(n):
                i = open_slots[j]
                if assigned[i] < 0 and _allowed(prob, forbidden, held, distinct, i, k):
                    options += 1
            if options == 0:
                return x, False
            x, pick = below(x, options)
            for j in range(n):
                i = open_slots[j]
                if assigned[i] < 0 and _allowed(prob, forbidden, held, distinct, i, k):
                    if pick == 0:
                        _place(prob, held, distinct, counts, assigned, i, k)
                        break
                    pick -= 1
    for j in range(n):
        i = open_slots[j]
        if assigned[i] >= 0:
            continue
        total = 0
        for k in range(kinds):
            if counts[k] and not lacks >> k & 1 and _allowed(prob, forbidden, held,
                                                              distinct, i, k):
                total += counts[k]
        if total == 0:
            return x, False
        x, pick = below(x, total)
        for k in range(kinds):
            if counts[k] and not lacks >> k & 1 and _allowed(prob, forbidden, held,
                                                              distinct, i, k):
                if pick < counts[k]:
                    _place(prob, held, distinct, counts, assigned, i, k)
                    break
                pick -= counts[k]
    for k in range(kinds):
        if holds >> k & 1:
            counts[k] += 1
    return x, True


@njit(cache=True)
def _allowed(prob, forbidden, held, distinct, i, k):
    if prob[forbidden + i] >> k & 1:
        return False
    return not (distinct and held[prob[HEADER + i]] >> k & 1)


@njit(cache=True)
def _place(prob, held, distinct, counts, assigned, i, k):
    assigned[i] = k
    counts[k] -= 1
    if distinct:
        held[prob[HEADER + i]] |= 1 << k

