"""What the games' compiled kernels (games/<game>/kernel.py) share: card masks as int64
bit sets, actions from them, the winners of a score table, and the random numbers of their
playouts (splitmix64 to seed an xorshift64*
generator).  All `njit(cache=True)`.  numba caches a caller's machine code with these
compiled into it and does not see a change here: after one, clear the games' __pycache__.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def popcount(x):
    """Set bits of a non-negative int64 (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def low_card(mask):
    """The lowest set bit's index (mask > 0)."""
    return popcount((mask & -mask) - 1)


@njit(cache=True)
def nth_card(mask, index):
    """The `index`-th card of a mask, lowest first (kit/cards.py nth_card)."""
    while index:
        mask &= mask - 1
        index -= 1
    return low_card(mask)


@njit(cache=True)
def seed_state(seed):
    """A non-zero xorshift state from any seed (splitmix64)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    return z


@njit(cache=True)
def below(x, count):
    """xorshift64* step: (new state, a uniform int in 0..count-1)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    u = (x * np.uint64(2685821657736338717)) >> np.uint64(11)   # 53 random bits
    return x, np.int64((u * np.uint64(count)) >> np.uint64(53))


@njit(cache=True)
def fill_actions(mask, base, out, n):
    """Writes `base + card` for each card of `mask`, lowest first, at out[n:]; the new
    count (the order of cards_of in kit/cards.py)."""
    while mask:
        low = mask & -mask
        out[n] = base + low_card(mask)
        n += 1
        mask ^= low
    return n


@njit(cache=True)
def top_seats(st, at, n):
    """The seats 0..n-1 whose value st[at + seat] is highest, as a bitmask; 0 when all
    tie (nobody wins: kit/outcomes.py)."""
    best = worst = st[at]
    for s in range(1, n):
        best = max(best, st[at + s])
        worst = min(worst, st[at + s])
    if best == worst:
        return 0
    mask = 0
    for s in range(n):
        if st[at + s] == best:
            mask |= 1 << s
    return mask


@njit(cache=True)
def returns_of_mask(mask, n, out):
    """Writes the zero-sum returns when the seats of `mask` win to out[:n]
    (kit/outcomes.py returns_for_winners: none or all winning is a draw)."""
    k = popcount(mask)
    if k == 0 or k == n:
        win = lose = 0.0
    else:
        win = (n - k) / (k * (n - 1))
        lose = -1.0 / (n - 1)
    for s in range(n):
        out[s] = win if mask >> s & 1 else lose
