"""Parket's parameters, validated once, and the start position every state of one game
begins from.

A card is a kind of the kit's 36-card suited deck (`rank * 4 + suit`, ranks 6..A, suits
c d h s); a cell is `row * 7 + column`.  Action ids: placing card c on cell x is
`c * 35 + x`; relocating card c to cell x is `PLACE_ACTIONS + c * 35 + x` (action_id
writes one, action_parts reads it; the engine's own loops spell it out for speed).
"""

from __future__ import annotations

from koloda.games.errors import GameParameterError
from koloda.games.kit.params import Param, format_call, validate
from koloda.games.parket.board import BLACK_MASK, NUM_CARDS, NUM_CELLS, RED_MASK
from koloda.games.parket.position import (
    BLACK,
    COLOUR_NAMES,
    MAX_LENGTH,
    RED,
    format_position,
    read_position,
    start_position,
)

PLACE_ACTIONS = NUM_CARDS * NUM_CELLS
CORNER_ORDERS = ("path", "any")


def action_id(card: int, cell: int, relocation: bool = False) -> int:
    """The action id of placing `card` on `cell`, or of relocating it there."""
    return (PLACE_ACTIONS if relocation else 0) + card * NUM_CELLS + cell


def action_parts(action: int) -> tuple[bool, int, int]:
    """(whether it relocates, the card, the cell) of an action id: action_id undone."""
    relocation = action >= PLACE_ACTIONS
    card, cell = divmod(action - PLACE_ACTIONS if relocation else action, NUM_CELLS)
    return relocation, card, cell


PARAMETERS = (
    Param("first_color", str, "red", "the colour of player 0, who moves first",
          choices=COLOUR_NAMES),
    Param("corner_order", str, "path", "path: X, A, B a sequence with the corner card A "
          "in the middle; any: three consecutive ranks in any order", choices=CORNER_ORDERS),
    Param("max_relocations", int, 4, "relocations in a row (no placement between) that "
          "draw the game", low=1, high=100),
    Param("position", str, "", "the position to start from, in the notation of "
          "docs/rules/parket.md (empty: the start position)", max_length=MAX_LENGTH),
)


class ParketRules:
    """Validated parameters, the seats' colours and the start position."""

    num_players = 2
    num_actions = 2 * PLACE_ACTIONS
    max_chance_outcomes = 0
    max_chance_nodes = 0

    def __init__(self, params: dict):
        values = validate(PARAMETERS, params, "parket", GameParameterError)
        self.params = values
        first = COLOUR_NAMES.index(values["first_color"])
        self.seat_colour = (first, 1 - first)
        self.seat_of_colour = (self.seat_colour.index(RED), self.seat_colour.index(BLACK))
        self.colour_cards = (RED_MASK, BLACK_MASK)
        self.seat_cards = tuple(self.colour_cards[c] for c in self.seat_colour)
        self.seat_is_red = tuple(c == RED for c in self.seat_colour)
        self.corner_order = CORNER_ORDERS.index(values["corner_order"])
        self.max_relocations = values["max_relocations"]
        text = values["position"].strip()
        self.start = (read_position(text, first, self.max_relocations) if text
                      else start_position(first))
        # At most 35 placements, and fewer than max_relocations relocations before each
        # placement and after the last.
        self.max_game_length = NUM_CELLS + (NUM_CELLS + 1) * self.max_relocations

    def start_string(self) -> str:
        return format_position(self.start)

    def game_string(self) -> str:
        """The canonical game string: parameters that differ from their defaults, sorted."""
        return format_call("parket", {p.name: self.params[p.name] for p in PARAMETERS
                                      if self.params[p.name] != p.default})
