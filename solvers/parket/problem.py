"""A position to solve: read and checked by the game itself, then turned into the
solver's terms (card classes, move codes) and back into action strings.

The root's legal moves come from the game's engine, so every legal action is listed and
named exactly as the game names it; the search only ever sees move codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.games.errors import GameParameterError
from koloda.games.kit.params import shown
from koloda.games.parket import PositionError, from_position
from koloda.games.parket.board import CELL_NAMES, DECK, EMPTY, NUM_CELLS
from koloda.games.parket.engine import DRAW, ParketCore
from koloda.games.parket.position import FORM, RED, format_position, start_position
from koloda.games.parket.rules import CORNER_ORDERS, PLACE_ACTIONS
from koloda.solvers.parket.limits import check_max_relocations
from koloda.solvers.parket.tables import CARD_CLASS, CLASS_CARDS, RELOCATION

METHODS = ("fast", "reference", "minimax")


@dataclass
class Problem:
    """One position with the rule parameters, as the engine sees it and as classes."""

    position: str
    core: ParketCore
    corner_order: int              # 0 path, 1 any
    max_relocations: int

    @property
    def mover(self) -> int:
        """The colour to move: 0 red, 1 black."""
        return 0 if self.core.rules.seat_is_red[self.core.player] else 1

    def classes(self) -> list[int]:
        """The board as a class (or -1) per cell."""
        return [EMPTY if card == EMPTY else CARD_CLASS[card] for card in self.core.board]


def read_problem(position: str, corner_order: str = "path", max_relocations: int = 4,
                 method: str = "fast") -> Problem:
    """The problem `position` states; PositionError (a GameParameterError) when it cannot
    be read or cannot occur, GameParameterError for a bad parameter."""
    if method not in METHODS:
        raise GameParameterError(f"method is one of {', '.join(METHODS)}, not {method!r}")
    if corner_order not in CORNER_ORDERS:
        raise GameParameterError(f"corner_order is path or any, not {corner_order!r}")
    check_max_relocations(max_relocations)
    check_position_text(position, max_relocations)
    params = {"corner_order": corner_order, "max_relocations": max_relocations}
    try:
        state = from_position(position, **params)
    except PositionError as error:
        # The solver does not know who began; a cross position may fit black beginning.
        if " x " not in position:
            raise
        try:
            state = from_position(position, first_color="black", **params)
        except PositionError:
            raise error from None
    return Problem(position.strip(), state.core, CORNER_ORDERS.index(corner_order),
                   max_relocations)


def check_position_text(position, max_relocations: int) -> None:
    """PositionError for texts the game reads otherwise than a solve needs: no string
    (the game would read its repr), a blank one (the game's start position, a solve that
    never ends) and a relocation count of thousands (refused without repeating it)."""
    if not isinstance(position, str):
        raise PositionError(f"a position is a string in the notation {FORM} "
                            f"(docs/rules/parket.md), not {shown(position, 40)}")
    if not position.strip():
        raise PositionError(f"the position is empty; write one as {FORM}, like the start "
                            f"position {format_position(start_position(RED))!r}")
    fields = position.split()
    count = fields[-1]
    if len(fields) == 4 and count.isascii() and count.isdigit() \
            and len(count.lstrip("0")) > 3:
        raise PositionError(f"position {shown(' '.join(fields[:3]), 40)}: relocations "
                            f"must be a number 0..{max_relocations} (max_relocations), "
                            f"not a number of {len(count)} digits")


def terminal_outcome(core: ParketCore) -> str | None:
    """"loss" or "draw" for the side to move at a finished game (a finished game is never
    won by the side to move), None while it goes on."""
    if not core.is_terminal():
        return None
    return "draw" if core.result == DRAW else "loss"


def move_code(core: ParketCore, action: int) -> int:
    """The class-level move code of an engine action."""
    if action < PLACE_ACTIONS:
        card, cell = divmod(action, NUM_CELLS)
        return CARD_CLASS[card] * NUM_CELLS + cell
    card, cell = divmod(action - PLACE_ACTIONS, NUM_CELLS)
    return RELOCATION + core.board.index(card) * NUM_CELLS + cell


def action_of(core: ParketCore, code: int) -> int:
    """The engine action of a move code: a placement takes the lowest card of the class
    in the mover's hand."""
    if code >= RELOCATION:
        source, target = divmod(code - RELOCATION, NUM_CELLS)
        return PLACE_ACTIONS + core.board[source] * NUM_CELLS + target
    klass, cell = divmod(code, NUM_CELLS)
    hand = core.hands[core.player]
    card = next(c for c in CLASS_CARDS[klass] if hand >> c & 1)
    return card * NUM_CELLS + cell


def action_name(core: ParketCore, action: int) -> str:
    relocation = action >= PLACE_ACTIONS
    card, cell = divmod(action - PLACE_ACTIONS if relocation else action, NUM_CELLS)
    text = f"{DECK.names[card]} {CELL_NAMES[cell]}"
    return "move " + text if relocation else text
