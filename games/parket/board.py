"""The geometry of Parket: the 5 x 7 rectangle, its cell names, the cross, the corners
of every cell, and the rank cycle 6..A with the ranks each corner lets in.

Everything here is a table built once at import, so the engine's rules are lookups.
"""

from __future__ import annotations

from koloda.games.kit.cards import deck

ROWS, COLUMNS = 5, 7
NUM_CELLS = ROWS * COLUMNS
COLUMN_CHARS = "abcdefg"
EMPTY = -1

DECK = deck(9, 4)                    # ranks 6 7 8 9 T J Q K A, suits c d h s
NUM_CARDS = DECK.num_kinds           # 36
NUM_RANKS = DECK.num_ranks           # 9: the rank cycle
RED_MASK = DECK.red_mask
BLACK_MASK = DECK.full_mask ^ RED_MASK
CARD_RANK = tuple(card // DECK.num_suits for card in range(NUM_CARDS))
CARD_IS_RED = tuple(DECK.is_red(card) for card in range(NUM_CARDS))


def cell_of(row: int, column: int) -> int:
    return row * COLUMNS + column


CELL_NAMES = tuple(f"{COLUMN_CHARS[c]}{r + 1}" for r in range(ROWS) for c in range(COLUMNS))
CELL_BY_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}
CENTRE = CELL_BY_NAME["d3"]

# The cross: each outer cell beyond its inner cell.
INNER_CELLS = tuple(CELL_BY_NAME[n] for n in ("d2", "c3", "e3", "d4"))
OUTER_CELLS = tuple(CELL_BY_NAME[n] for n in ("d1", "b3", "f3", "d5"))
INNER_OF = dict(zip(OUTER_CELLS, INNER_CELLS))
CROSS_CELLS = frozenset(INNER_CELLS + OUTER_CELLS)


def _neighbours(cell: int, horizontal: bool) -> tuple[int, ...]:
    row, column = divmod(cell, COLUMNS)
    steps = ((0, -1), (0, 1)) if horizontal else ((-1, 0), (1, 0))
    return tuple(cell_of(row + dr, column + dc) for dr, dc in steps
                 if 0 <= row + dr < ROWS and 0 <= column + dc < COLUMNS)


def _corners(cell: int) -> tuple[tuple[int, int], ...]:
    """(A, B) for every corner at `cell`: A beside it in a row and B above or below A, or
    A above or below it and B beside A in a row."""
    out = []
    for horizontal in (True, False):
        for a in _neighbours(cell, horizontal):
            out.extend((a, b) for b in _neighbours(a, not horizontal))
    return tuple(out)


CORNERS = tuple(_corners(cell) for cell in range(NUM_CELLS))

# AFFECTED[c]: the cells with a corner through c, whose placements change when c does.
AFFECTED = tuple(tuple(x for x in range(NUM_CELLS) if x != c and any(c in corner
                                                                       for corner in CORNERS[x]))
                 for c in range(NUM_CELLS))


def rank_step(low: int, high: int) -> int:
    """`high - low` on the cycle of nine ranks, as -4..4."""
    step = (high - low) % NUM_RANKS
    return step - NUM_RANKS if step > NUM_RANKS // 2 else step


def adjacent_ranks_mask(rank: int) -> int:
    return 1 << (rank + 1) % NUM_RANKS | 1 << (rank - 1) % NUM_RANKS


ADJACENT_RANKS = tuple(adjacent_ranks_mask(rank) for rank in range(NUM_RANKS))


def _path_ranks(a: int, b: int) -> int:
    """Ranks X for which X, a, b is a sequence in that order (a the middle)."""
    step = rank_step(a, b)
    return 1 << (a - step) % NUM_RANKS if step in (1, -1) else 0


def _any_order_ranks(a: int, b: int) -> int:
    """Ranks X for which X, a, b are three consecutive ranks of the cycle, in any order."""
    mask = 0
    for x in range(NUM_RANKS):
        if any({x, a, b} == {low % NUM_RANKS, (low + 1) % NUM_RANKS, (low + 2) % NUM_RANKS}
               for low in range(NUM_RANKS)):
            mask |= 1 << x
    return mask


# CORNER_RANKS[order][rank A][rank B]: the ranks a corner (A, B) lets in; order 0 is `path`,
# 1 is `any`.
CORNER_RANKS = tuple(tuple(tuple(rule(a, b) for b in range(NUM_RANKS)) for a in range(NUM_RANKS))
                     for rule in (_path_ranks, _any_order_ranks))

# RANK_CARDS[mask]: the cards of the ranks in a rank mask.
RANK_CARDS = tuple(sum(DECK.rank_masks[r] for r in range(NUM_RANKS) if mask >> r & 1)
                   for mask in range(1 << NUM_RANKS))


def parse_cell(text: str) -> int | None:
    """The cell named `a1`..`g5`, or None."""
    return CELL_BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
