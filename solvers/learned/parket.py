"""What a Parket position is worth, learned: the features a value model reads
(learned/value.py values a search's leaf with them).

Parket hides nothing, so a leaf is the position itself, read from one seat as its own
side and the other's:
- each cell: a card of the seat's colour on it, a card of the other's, and whether each
  side could place a card of its hand there now (the main phase's corners, `room`);
- each side: its hand's size and ranks, the ranks its corners let in anywhere, and its
  room to move: its placements (card and cell), the cards that have a cell, the cells
  that take one of its cards, and whether it has any;
- whose turn it is, the phase, the relocations in a row, the empty cells and their
  parity, and the difference of the hands.

The game is a race to place the last card, blocked by the corners: room to move is what
decides it, which random playouts measure only by playing it out.  The features are
computed on the kernel state by compiled code, so the compiled search and the fitting
read the same numbers.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from koloda.games.kit.kernel import popcount
from koloda.games.parket.board import DECK, EMPTY, NUM_CARDS, NUM_CELLS, NUM_RANKS
from koloda.games.parket.kernel import (
    BOARD,
    CARD_RED_A,
    HANDS,
    MAIN,
    PLAYER,
    R_MAX_RELOCATIONS,
    R_SEAT_RED,
    RELOCATIONS,
    ROOM,
)
from koloda.solvers.learned.value import ValueFeatures

#: the features' name, which a model records: a change to them is a new name
FEATURE_SET = "parket-1"
#: the parameters that change the features' meaning: a model fits one variant (the
#: colours are read as the seat's and the other's, so `first_color` changes nothing)
VARIANT_KEYS = ("corner_order", "max_relocations")
PER_CELL = 4                 # the seat's card, the other's card, each side could place
PER_SIDE = 2 * NUM_RANKS + 5  # hand ranks, room ranks, size, placements, cards, cells, any
SCALARS = 7                  # mover, main, relocations, empty, parity, hand difference, bias
HAND = NUM_CARDS // 2        # the cards of one colour
SUITS = DECK.num_suits       # a card is rank * SUITS + suit
SUIT_MASK = (1 << SUITS) - 1
#: placements counted at most (a side rarely has more; more reads as this)
MANY_PLACEMENTS = 60


@njit(cache=True)
def count(r):
    """Inputs of a Parket value model (the same under every rules array)."""
    return NUM_CELLS * PER_CELL + 2 * PER_SIDE + SCALARS


@njit(cache=True)
def kernel_features(st, r, seat, f):
    """The features of the kernel state `st` from `seat`, written to `f` (`count(r)`
    long)."""
    f[:] = 0.0
    sides = (seat, seat ^ 1)
    side_at = NUM_CELLS * PER_CELL
    empty = 0
    for k in range(2):
        side = sides[k]
        red = r[R_SEAT_RED + side]
        room = ROOM + red * NUM_CELLS
        hand = st[HANDS + side]
        at = side_at + k * PER_SIDE
        held_of = np.empty(NUM_RANKS, np.int64)  # cards of each rank in the hand
        ranks_held = 0
        for rank in range(NUM_RANKS):
            held_of[rank] = popcount(hand >> (SUITS * rank) & SUIT_MASK)
            if held_of[rank]:
                ranks_held |= 1 << rank
            f[at + rank] = held_of[rank] / 2      # two cards of a rank in a colour
        size = popcount(hand)
        placements = 0
        cells = 0
        fits = 0                                 # the ranks that have a cell
        open_ranks = 0                           # the ranks some cell lets in
        for cell in range(NUM_CELLS):
            card = st[BOARD + cell]
            if card != EMPTY:
                if k == 0:
                    mine = CARD_RED_A[card] == red
                    f[cell * PER_CELL + (0 if mine else 1)] = 1.0
                continue
            if k == 0:
                empty += 1
            let_in = st[room + cell]
            open_ranks |= let_in
            held = let_in & ranks_held
            if held:
                cells += 1
                fits |= held
                f[cell * PER_CELL + 2 + k] = 1.0
                for rank in range(NUM_RANKS):
                    if held >> rank & 1:
                        placements += held_of[rank]
        for rank in range(NUM_RANKS):
            if open_ranks >> rank & 1:
                f[at + NUM_RANKS + rank] = 1.0
        at += 2 * NUM_RANKS
        playable = 0
        for rank in range(NUM_RANKS):
            if fits >> rank & 1:
                playable += held_of[rank]
        f[at] = size / HAND
        f[at + 1] = min(placements, MANY_PLACEMENTS) / MANY_PLACEMENTS
        f[at + 2] = playable / max(1, size)
        f[at + 3] = cells / NUM_CELLS
        f[at + 4] = 1.0 if cells else 0.0
    at = side_at + 2 * PER_SIDE
    f[at] = 1.0 if st[PLAYER] == seat else 0.0
    f[at + 1] = 1.0 if st[MAIN] else 0.0
    f[at + 2] = st[RELOCATIONS] / max(1, r[R_MAX_RELOCATIONS])
    f[at + 3] = empty / NUM_CELLS
    f[at + 4] = empty % 2
    f[at + 5] = (f[side_at + 2 * NUM_RANKS] - f[side_at + PER_SIDE + 2 * NUM_RANKS])
    f[at + 6] = 1.0


FEATURES = ValueFeatures(kernel_features, count, FEATURE_SET, VARIANT_KEYS,
                         sys.modules[__name__])
