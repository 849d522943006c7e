"""Where the search meets the game: an engine position (ParketCore) in the search's terms,
move codes to and from the engine's action ids, and a finished game's value.

The only translation between the two.  Action ids are the game's (rules.action_id and
action_parts), and a move's name is the game's own (actions.decision_to_string); the
codes are the search's (tables.py).
"""

from __future__ import annotations

from koloda.games.parket.board import EMPTY, NUM_CELLS
from koloda.games.parket.engine import DRAW
from koloda.games.parket.rules import action_id, action_parts
from koloda.solvers.parket.tables import CARD_CLASS, CLASS_CARDS, RELOCATION


def search_args(core) -> tuple:
    """What a search starts from (ReferenceSearch, FastSearch): the board as a class (or
    -1) per cell, the colour to move, the phase, the relocations in a row, the corner
    order and the relocation cap, all read off the engine and its rules."""
    rules = core.rules
    classes = [EMPTY if card == EMPTY else CARD_CLASS[card] for card in core.board]
    return (classes, rules.seat_colour[core.player], core.main, core.relocations,
            rules.corner_order, rules.max_relocations)


def move_code(core, action: int) -> int:
    """The search's code of the engine action `action` at `core`."""
    relocation, card, cell = action_parts(action)
    if relocation:
        return RELOCATION + core.board.index(card) * NUM_CELLS + cell
    return CARD_CLASS[card] * NUM_CELLS + cell


def action_of(core, code: int) -> int:
    """The engine action of a move code at `core`: a placement takes the lowest card of
    the class in the mover's hand."""
    if code >= RELOCATION:
        source, target = divmod(code - RELOCATION, NUM_CELLS)
        return action_id(core.board[source], target, relocation=True)
    klass, cell = divmod(code, NUM_CELLS)
    hand = core.hands[core.player]
    return action_id(next(c for c in CLASS_CARDS[klass] if hand >> c & 1), cell)


def terminal_outcome(core) -> str | None:
    """"loss" or "draw" for the side to move at a finished game (a finished game is never
    won by the side to move), None while it goes on."""
    if not core.is_terminal():
        return None
    return "draw" if core.result == DRAW else "loss"
