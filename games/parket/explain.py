"""Why a well-formed Parket action is not legal here, in the rules' own words, so that an
illegal action's error says what to change and not only what is allowed."""

from __future__ import annotations

from koloda.games.parket.board import (
    ADJACENT_RANKS,
    CARD_IS_RED,
    CARD_RANK,
    CELL_NAMES,
    CROSS_CELLS,
    DECK,
    EMPTY,
    INNER_OF,
)
from koloda.games.parket.position import COLOUR_NAMES
from koloda.games.parket.rules import action_parts


def why_illegal(core, action: int) -> str:
    """The rule `action` breaks in `core` (a position with a player to move)."""
    relocation, card, cell = action_parts(action)
    rules, board = core.rules, core.board
    colour = COLOUR_NAMES[rules.seat_colour[core.player]]
    name, target = DECK.names[card], CELL_NAMES[cell]
    if CARD_IS_RED[card] != rules.seat_is_red[core.player]:
        return f"{name} is not {colour}'s card: {colour} plays only {colour} cards"
    where = board.index(card) if card in board else None
    if board[cell] != EMPTY:
        return f"{target} is taken by {DECK.names[board[cell]]}"
    if relocation:
        if not core.main:
            return "no card is relocated in the cross phase"
        if where is None:
            return f"{name} is not on the board, so it cannot be relocated"
        if not core.must_relocate():
            return f"{colour} can place a card, so it may not relocate one"
        return f"no corner at {target} lets {name} in (judged with {CELL_NAMES[where]} empty)"
    if where is not None:
        return f"{name} is already on the board at {CELL_NAMES[where]}"
    if not core.main:
        if cell not in CROSS_CELLS:
            return ("in the cross phase cards go only on the cross cells "
                    "(d2 c3 e3 d4, then d1 b3 f3 d5)")
        inner = INNER_OF.get(cell)
        if inner is not None and board[inner] == EMPTY:
            return f"{target} takes a card only once its inner cell {CELL_NAMES[inner]} is filled"
        if inner is not None and not ADJACENT_RANKS[CARD_RANK[board[inner]]] >> CARD_RANK[card] & 1:
            return (f"{target} takes a rank adjacent to {DECK.names[board[inner]]} on "
                    f"{CELL_NAMES[inner]}")
        return "not allowed in the cross phase"
    if core.must_relocate():
        return f"{colour} can place no card, so it must relocate one (move <card> <cell>)"
    return (f"no corner at {target} lets {name} in: a corner needs two cards, not both "
            f"{colour}, that {name} continues in sequence")
