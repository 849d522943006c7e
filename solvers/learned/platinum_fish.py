"""What a Platinum Fish position is worth, learned: the features a value model reads
(learned/value.py values a search's leaf with them).

A leaf of search is a sampled world, so the features read every hand, from one seat:
- each hand in seat order from that seat: its ranks, the ranks everybody knows it
  holds, its matches, its size, whether it pairs the top discard, and the chance that a
  draw pairs it;
- the stock's count of each rank and its size, the top discard, the phase, the offer of
  the last roll, whose turn it is, how far the turn cap is;
- the race: the seat's matches less the best other seat's, alone and one-hot by how much
  of the stock is left, so that a linear model can weigh a lead by how long it must hold.

They are computed on the kernel state by compiled code, so the compiled search and the
fitting read the same numbers.
"""

from __future__ import annotations

import sys

from numba import njit

from koloda.games.platinum_fish.kernel import (
    DISCARD,
    DISCARD_N,
    HANDS,
    KNOWN,
    MATCHES,
    OFFER,
    OVER,
    PHASE,
    R_COPIES,
    R_MAX_HAND,
    R_MAX_TURNS,
    R_NUM_CARDS,
    R_PLAYERS,
    R_RANKS,
    STOCK,
    STOCK_SIZE,
    TURNS,
    current_player,
)
from koloda.solvers.learned.value import ValueFeatures

#: the features' name, which a model records: a change to them is a new name
FEATURE_SET = "platinum_fish-1"
#: the parameters that change the features' size or meaning: a model fits one variant
VARIANT_KEYS = ("players", "ranks", "copies")
PER_SEAT_SCALARS = 4         # matches, hand size, pairs the discard, a draw pairs it
PHASES = OVER                # one-hot of the phases before the end
LEAD = 6                     # leads beyond +-LEAD read as +-LEAD
STOCK_BUCKETS = 4            # the lead one-hot, per quarter of the stock left
RACE = (2 * LEAD + 1) * STOCK_BUCKETS + 2
SCALARS = 3                  # stock size, turns, bias


@njit(cache=True)
def count(r):
    """Inputs of a Platinum Fish value model under the rules `r`."""
    n, ranks = r[R_PLAYERS], r[R_RANKS]
    return n * (2 * ranks + PER_SEAT_SCALARS + 1) + 3 * ranks + PHASES + RACE + SCALARS


@njit(cache=True)
def kernel_features(st, r, seat, f):
    """The features of the kernel state `st` from `seat`, written to `f` (`count(r)`
    long)."""
    n, ranks = r[R_PLAYERS], r[R_RANKS]
    f[:] = 0.0
    stock = st[STOCK_SIZE]
    top = st[DISCARD + st[DISCARD_N] - 1] if st[DISCARD_N] > 0 else -1
    fair = max(1.0, r[R_NUM_CARDS] / (2.0 * n))       # a fair share of the matches
    mover = current_player(st)
    at = 0
    for k in range(n):
        other = (seat + k) % n
        hand = st[HANDS + other]
        known = st[KNOWN + other]
        size = 0
        pairing = 0
        for rank in range(ranks):
            if hand >> rank & 1:
                f[at + rank] = 1.0
                size += 1
                pairing += st[STOCK + rank]
            if known >> rank & 1:
                f[at + ranks + rank] = 1.0
        at += 2 * ranks
        f[at] = st[MATCHES + other] / fair
        f[at + 1] = size / max(1, r[R_MAX_HAND])
        f[at + 2] = 1.0 if top >= 0 and hand >> top & 1 else 0.0
        f[at + 3] = pairing / stock if stock > 0 else 0.0
        f[at + 4] = 1.0 if mover == other else 0.0
        at += PER_SEAT_SCALARS + 1
    for rank in range(ranks):
        f[at + rank] = st[STOCK + rank] / max(1, r[R_COPIES])
        if rank == top:
            f[at + ranks + rank] = 1.0
        if st[OFFER] >> rank & 1:
            f[at + 2 * ranks + rank] = 1.0
    at += 3 * ranks
    if st[PHASE] < PHASES:
        f[at + st[PHASE]] = 1.0
    at += PHASES
    best = -1
    for k in range(1, n):
        best = max(best, st[MATCHES + (seat + k) % n])
    lead = st[MATCHES + seat] - best
    left = stock / max(1, r[R_NUM_CARDS])
    bucket = min(STOCK_BUCKETS - 1, int(left * STOCK_BUCKETS))
    f[at + bucket * (2 * LEAD + 1) + min(LEAD, max(-LEAD, lead)) + LEAD] = 1.0
    at += (2 * LEAD + 1) * STOCK_BUCKETS
    f[at] = lead / fair
    f[at + 1] = lead / fair * (1.0 - left)
    at += 2
    f[at] = left
    f[at + 1] = st[TURNS] / max(1, r[R_MAX_TURNS])
    f[at + 2] = 1.0


FEATURES = ValueFeatures(kernel_features, count, FEATURE_SET, VARIANT_KEYS,
                         sys.modules[__name__])
