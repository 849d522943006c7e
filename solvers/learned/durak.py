"""What a Durak position is worth, learned: the features a value model reads
(learned/value.py values a search's leaf with them).

A leaf of search is a sampled world, every hand in it, so the value reads the whole
position, from one seat: each hand in seat order from that seat, the stock, the table,
the open card, the discard (a bit a card), then the phase, the seats' roles, hand and
stock sizes.  Cards are written with the trump suit first (suit 0) and the others in their
order after it, so a model learns one game where the deal has four (a card's worth hangs
on whether it is trump, not on its suit's name).  The features are computed on the kernel
state by compiled code, so the compiled search and the fitting read the same numbers.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from koloda.games.durak.kernel import (
    ATTACK,
    ATTACKER,
    ATTACKS,
    DEFEND,
    DEFENDER,
    DISCARD,
    HANDS,
    OPEN_CARD,
    PHASE,
    R_HAND_SIZE,
    R_MAX_ATTACK,
    R_PLAYERS,
    R_SIZE,
    R_SUITS,
    STOCK,
    TABLE_MASK,
    THROW,
    TRUMP_SUIT,
    current_player,
    popcount,
)
from koloda.solvers.learned.value import ValueFeatures

#: the features' name, which a model records: a change to them is a new name
FEATURE_SET = "durak-1"
#: the parameters that change the features' size or meaning: a model fits one variant
VARIANT_KEYS = ("players", "ranks", "suits", "hand_size")
CARD_SETS = 4                # after the hands: stock, table, open card, discard
SCALARS = 8                  # phase (3), attacks, stock size, my hand size, trump known, bias


@njit(cache=True)
def feature_count(players, cards):
    """Inputs of a Durak value model for `players` seats and a deck of `cards`."""
    return (players + CARD_SETS) * cards + SCALARS + 4 * players


@njit(cache=True)
def _canonical(card, trump, suits):
    """The card with the trump suit first: (rank, suit) -> rank * suits + the suit's place
    (trump 0, the others in order)."""
    rank = card // suits
    suit = card % suits
    if trump >= 0:
        if suit == trump:
            suit = 0
        elif suit < trump:
            suit += 1
    return rank * suits + suit


@njit(cache=True)
def _bits(mask, base, trump, suits, size, f):
    """The cards of `mask` as bits at f[base:base + size], in canonical order."""
    while mask:
        low = mask & -mask
        card = popcount(low - 1)
        f[base + _canonical(card, trump, suits)] = 1.0
        mask ^= low


@njit(cache=True)
def kernel_features(st, r, seat, f):
    """The features of the kernel state `st` from `seat`, written to `f` (feature_count
    long; zeros first)."""
    n, size, suits = r[R_PLAYERS], r[R_SIZE], r[R_SUITS]
    trump = st[TRUMP_SUIT]
    f[:] = 0.0
    for k in range(n):
        _bits(st[HANDS + (seat + k) % n], k * size, trump, suits, size, f)
    base = n * size
    _bits(st[STOCK], base, trump, suits, size, f)
    _bits(st[TABLE_MASK], base + size, trump, suits, size, f)
    if st[OPEN_CARD] >= 0:
        f[base + 2 * size + _canonical(st[OPEN_CARD], trump, suits)] = 1.0
    _bits(st[DISCARD], base + 3 * size, trump, suits, size, f)
    at = base + CARD_SETS * size
    phase = st[PHASE]
    f[at] = 1.0 if phase == ATTACK else 0.0
    f[at + 1] = 1.0 if phase == DEFEND else 0.0
    f[at + 2] = 1.0 if phase == THROW else 0.0
    f[at + 3] = st[ATTACKS] / max(1, r[R_MAX_ATTACK])
    f[at + 4] = popcount(st[STOCK]) / size
    f[at + 5] = popcount(st[HANDS + seat]) / max(1, r[R_HAND_SIZE])
    f[at + 6] = 1.0 if trump >= 0 else 0.0
    f[at + 7] = 1.0
    at += SCALARS
    mover = current_player(st)
    for k in range(n):
        other = (seat + k) % n
        f[at + k] = 1.0 if st[ATTACKER] == other else 0.0
        f[at + n + k] = 1.0 if st[DEFENDER] == other else 0.0
        f[at + 2 * n + k] = 1.0 if mover == other else 0.0
        f[at + 3 * n + k] = popcount(st[HANDS + other]) / max(1, r[R_HAND_SIZE])


@njit(cache=True)
def count(r):
    """Inputs of a Durak value model under the rules `r`."""
    return feature_count(r[R_PLAYERS], r[R_SIZE])


def features(core, seat: int) -> np.ndarray:
    """The features of the engine `core` from `seat`."""
    return FEATURES.of(core, seat)


FEATURES = ValueFeatures(kernel_features, count, FEATURE_SET, VARIANT_KEYS,
                         sys.modules[__name__])
