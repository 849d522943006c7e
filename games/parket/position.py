"""Parket's position notation, read and written:

    <row 1>/<row 2>/<row 3>/<row 4>/<row 5> <side to move r|b> <phase x|m> <relocations>

Each row is seven two-character cells, a card (`9h`, `Ts`) or `--`.  The hands are implied:
every card not on the board is in its colour's hand.  A position the game cannot reach is
refused with a `PositionError` that says what is wrong, so an analysis never starts from
nonsense.
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.games.errors import CardError, GameParameterError
from koloda.games.kit.params import shown
from koloda.games.parket.board import (
    CARD_IS_RED,
    CARD_RANK,
    CELL_NAMES,
    CENTRE,
    COLUMNS,
    CROSS_CELLS,
    DECK,
    EMPTY,
    INNER_OF,
    NUM_CARDS,
    OUTER_CELLS,
    ROWS,
    adjacent_ranks_mask,
)

RED, BLACK = 0, 1
COLOUR_NAMES = ("red", "black")
SIDE_CHARS = "rb"
CARDS_PER_COLOUR = NUM_CARDS // 2
EMPTY_BOARD = (EMPTY,) * (ROWS * COLUMNS)
FORM = "<row1>/<row2>/<row3>/<row4>/<row5> <r|b> <x|m> <relocations>"
MAX_LENGTH = 100        # the notation's 82 characters at most, with room for extra spaces


class PositionError(GameParameterError):
    """A position string that cannot be read, or a position the game cannot reach."""


@dataclass(frozen=True)
class Position:
    """A board (card or EMPTY per cell), the colour to move, the phase, the relocations in
    a row that led here."""

    board: tuple
    to_move: int
    main: bool
    relocations: int


def start_position(first_colour: int) -> Position:
    return Position(EMPTY_BOARD, first_colour, False, 0)


def write_position(board, to_move: int, main: bool, relocations: int) -> str:
    cells = ["--" if card == EMPTY else DECK.names[card] for card in board]
    rows = "/".join("".join(cells[r * COLUMNS:(r + 1) * COLUMNS]) for r in range(ROWS))
    return f"{rows} {SIDE_CHARS[to_move]} {'m' if main else 'x'} {relocations}"


def format_position(position: Position) -> str:
    return write_position(position.board, position.to_move, position.main,
                          position.relocations)


def read_position(text, first_colour: int = RED, max_relocations: int = 4) -> Position:
    """The position `text` names, checked; PositionError says what is wrong."""
    position = read_layout(text, max_relocations)
    problem = _impossibility(position, first_colour)
    if problem:
        raise PositionError(f"position {text!r} cannot occur: {problem}")
    return position


def read_layout(text, max_relocations: int | None = None) -> Position:
    """The position `text` writes, read as notation only (whether a game reaches it is
    `read_position`'s question): for drawing a position already checked."""
    if not isinstance(text, str):
        raise PositionError(f"a parket position is text like {FORM}, not {shown(text)}")
    if len(text) > MAX_LENGTH:
        raise PositionError(f"a parket position is at most {MAX_LENGTH} characters "
                            f"({FORM}), not {len(text)}: {shown(text, 40)}")
    fields = text.split()
    if len(fields) != 4:
        raise PositionError(f"position {text!r} has {len(fields)} fields; write {FORM}")
    rows, side, phase, relocations = fields
    board = _read_board(rows)
    if side not in SIDE_CHARS:
        raise PositionError(f"position {text!r}: the side to move is r or b, not {side!r}")
    if phase not in ("x", "m"):
        raise PositionError(f"position {text!r}: the phase is x (cross) or m (main), "
                            f"not {phase!r}")
    if not (relocations.isascii() and relocations.isdigit()) or (
            max_relocations is not None and int(relocations) > max_relocations):
        bound = "" if max_relocations is None else f" 0..{max_relocations} (max_relocations)"
        raise PositionError(f"position {text!r}: relocations must be a number{bound}, "
                            f"not {relocations!r}")
    return Position(board, SIDE_CHARS.index(side), phase == "m", int(relocations))


def _read_board(rows: str) -> tuple:
    parts = rows.split("/")
    if len(parts) != ROWS:
        raise PositionError(f"the board {rows!r} has {len(parts)} rows; it has {ROWS}, "
                            f"separated by /")
    board, seen = [], {}
    for number, row in enumerate(parts, 1):
        if len(row) != 2 * COLUMNS:
            raise PositionError(f"row {number} {row!r} has {len(row)} characters; a row is "
                                f"{COLUMNS} cells of two characters (a card like 9h, or --)")
        for column in range(COLUMNS):
            token = row[2 * column:2 * column + 2]
            cell = len(board)
            if token == "--":
                board.append(EMPTY)
                continue
            try:
                card = DECK.parse(token)
            except CardError:
                raise PositionError(f"cell {CELL_NAMES[cell]} holds {token!r}, which is "
                                    f"neither a card (6..A of h d c s, like 9h or Ts) "
                                    f"nor --") from None
            if card in seen:
                raise PositionError(f"{DECK.names[card]} is on the board twice "
                                    f"({CELL_NAMES[seen[card]]} and {CELL_NAMES[cell]})")
            seen[card] = cell
            board.append(card)
    return tuple(board)


def _impossibility(position: Position, first_colour: int) -> str | None:
    """Why no game reaches `position` (None when one can)."""
    board = position.board
    placed = [0, 0]
    for card in board:
        if card != EMPTY:
            placed[BLACK - CARD_IS_RED[card]] += 1
    for colour in (RED, BLACK):
        if placed[colour] == CARDS_PER_COLOUR:
            name = COLOUR_NAMES[colour]
            if position.to_move == colour:
                return (f"{name} has placed every card, so the game ended then, with "
                        f"{COLOUR_NAMES[1 - colour]} to move")
            if position.relocations:
                return (f"{name} won by placing its last card, so no relocation "
                        f"can have followed")
    if position.main:
        return _main_impossibility(board, placed)
    return _cross_impossibility(position, placed, first_colour)


def _main_impossibility(board, placed) -> str | None:
    filled = placed[RED] + placed[BLACK]
    if filled < len(CROSS_CELLS):
        return (f"phase m with {filled} cards on the board: the main phase begins when "
                f"all eight cross cells are filled, and no move takes a card off the board")
    for colour in (RED, BLACK):
        if placed[colour] < len(CROSS_CELLS) // 2:
            return (f"phase m with {placed[colour]} {COLOUR_NAMES[colour]} cards on the "
                    f"board: each player placed four cards in the cross")
    return None


def _cross_impossibility(position: Position, placed, first_colour: int) -> str | None:
    board = position.board
    if board[CENTRE] != EMPTY:
        return "the centre d3 is filled in the cross phase (x), where it stays empty"
    for cell, card in enumerate(board):
        if card != EMPTY and cell not in CROSS_CELLS:
            return (f"{CELL_NAMES[cell]} is filled in the cross phase (x), where only the "
                    f"cross cells d2 c3 e3 d4 d1 b3 f3 d5 take cards")
    for outer in OUTER_CELLS:
        inner, card = INNER_OF[outer], board[outer]
        if card == EMPTY:
            continue
        if board[inner] == EMPTY:
            return (f"{CELL_NAMES[outer]} is filled but its inner cell {CELL_NAMES[inner]} "
                    f"is empty")
        if not adjacent_ranks_mask(CARD_RANK[board[inner]]) >> CARD_RANK[card] & 1:
            return (f"{CELL_NAMES[outer]} ({DECK.names[card]}) is not adjacent in rank to "
                    f"{CELL_NAMES[inner]} ({DECK.names[board[inner]]})")
    if all(board[cell] != EMPTY for cell in CROSS_CELLS):
        return "the cross is complete, so the game is in the main phase (m), not x"
    if position.relocations:
        return f"{position.relocations} relocations in the cross phase, which has none"
    filled = placed[RED] + placed[BLACK]
    second = 1 - first_colour
    want = [0, 0]
    want[first_colour], want[second] = (filled + 1) // 2, filled // 2
    to_move = first_colour if filled % 2 == 0 else second
    if placed != want or position.to_move != to_move:
        first, other = COLOUR_NAMES[first_colour], COLOUR_NAMES[second]
        return (f"the players alternate from {first} (first_color) in the cross phase, so "
                f"after {filled} cards {first} has placed {want[first_colour]} and {other} "
                f"{want[second]}, with {COLOUR_NAMES[to_move]} to move; here red has placed "
                f"{placed[RED]}, black {placed[BLACK]}, and "
                f"{COLOUR_NAMES[position.to_move]} is to move")
    return None
