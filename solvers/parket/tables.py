"""The solver's view of Parket: a card reduced to its class (rank and colour), the
corner tables as flat lists, the board's mirror images and the Zobrist numbers.

Two cards of one rank and colour (7h and 7d) play exactly alike, so the search works on
classes: `class = rank * 2 + colour` (the game's colour: 0 red, 1 black); a hand is a count
(0..2) per class.  Move codes are small integers shared by every solver here:
`class * 35 + cell` places a card of that class, `RELOCATION + source * 35 + target`
moves the card on `source`; codes.py turns them into the game's action ids and back.
"""

from __future__ import annotations

import random

from koloda.games.parket.board import (
    CARD_IS_RED,
    CARD_RANK,
    COLUMNS,
    CORNER_RANKS,
    CORNERS,
    CROSS_CELLS,
    INNER_CELLS,
    INNER_OF,
    NUM_CELLS,
    NUM_RANKS,
    OUTER_CELLS,
    ROWS,
)
from koloda.games.parket.position import BLACK, RED

NUM_CLASSES = 2 * NUM_RANKS
RELOCATION = 1000
HISTORY_SHIFT = 24   # a cut-off's history weight is 2**cards in hands, up to 2**HISTORY_SHIFT
TABLE_FROM = 2       # positions of this many cards in hands or fewer go without the table
ENTRY_DEPTH_SHIFT = 44   # a table entry's cards in hands sit from this bit (kernel.py)
# Probes (kernel.py, reference.py): a position of PROBE_FROM cards in hands or more tries
# its moves first with PROBE_START nodes each, then with PROBE_GROWTH times more.
PROBE_FROM = 8
PROBE_START = 256
PROBE_GROWTH = 16    # 8 took 12% more nodes at 18 and 20 cells (reports/parket-endgames.md)
NO_PROBE = 1 << 62   # the node count of "no probe running"


def card_class(card: int) -> int:
    return CARD_RANK[card] * 2 + (RED if CARD_IS_RED[card] else BLACK)


CARD_CLASS = tuple(card_class(card) for card in range(2 * NUM_CLASSES))
CLASS_CARDS = tuple(tuple(c for c in range(2 * NUM_CLASSES) if CARD_CLASS[c] == k)
                    for k in range(NUM_CLASSES))

# Corners as (A, B) pairs per cell, and the ranks each corner lets in per corner order.
CORNER_PAIRS = CORNERS
RANKS_LET_IN = CORNER_RANKS

# The cells whose corners use a given cell: emptying it (a relocation's source) can only
# change what those cells accept.
CELLS_USING = tuple(tuple(sorted({x for x in range(NUM_CELLS)
                                  for a, b in CORNERS[x] if cell in (a, b)}))
                    for cell in range(NUM_CELLS))

CROSS = tuple(sorted(CROSS_CELLS))
INNER = INNER_CELLS
OUTER = OUTER_CELLS
INNER_OF_OUTER = tuple(INNER_OF.get(cell, -1) for cell in range(NUM_CELLS))


def _mirror(cell: int, left_right: bool, top_bottom: bool) -> int:
    row, column = divmod(cell, COLUMNS)
    if left_right:
        column = COLUMNS - 1 - column
    if top_bottom:
        row = ROWS - 1 - row
    return row * COLUMNS + column


# The identity and the three mirror images (left-right, top-bottom, both); each is its
# own inverse.  They keep the cross and every corner (tests/parket_solver checks).
SYMMETRIES = tuple(tuple(_mirror(cell, lr, tb) for cell in range(NUM_CELLS))
                   for lr, tb in ((False, False), (True, False), (False, True), (True, True)))


_rng = random.Random(20240611)
MAX_RELOCATIONS = 100


def _word() -> int:
    return _rng.getrandbits(63)


# ZOBRIST[cell][class]; the side to move, the phase and the relocations in a row too.
ZOBRIST = tuple(tuple(_word() for _ in range(NUM_CLASSES)) for _ in range(NUM_CELLS))
ZOBRIST_BLACK_TO_MOVE = _word()
ZOBRIST_CROSS_PHASE = _word()
ZOBRIST_RELOCATIONS = tuple(_word() for _ in range(MAX_RELOCATIONS + 1))

