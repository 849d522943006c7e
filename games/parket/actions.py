"""Action strings of Parket: `9h d2` places the nine of hearts on d2, `move 9h e4`
relocates the mover's nine of hearts to e4.  There are no chance outcomes."""

from __future__ import annotations

from koloda.games.errors import ActionError, CardError, MalformedActionError
from koloda.games.kit.notation import action_words
from koloda.games.parket.board import CELL_NAMES, DECK, parse_cell
from koloda.games.parket.rules import action_id, action_parts

FORMS = "<card> <cell> to place (9h d2) or move <card> <cell> to relocate (move 9h e4)"


def decision_to_string(rules, action: int) -> str:
    if not 0 <= action < rules.num_actions:
        raise ActionError(f"{action} is not a parket action id (0..{rules.num_actions - 1})")
    relocation, card, cell = action_parts(action)
    text = f"{DECK.names[card]} {CELL_NAMES[cell]}"
    return "move " + text if relocation else text


def chance_to_string(core, outcome: int) -> str:
    raise ActionError(f"parket has no chance outcomes (asked to name {outcome})")


def parse(core, text: str) -> int:
    """The action id `text` names; MalformedActionError if it cannot be read.  Legality
    is checked by the caller."""
    words = action_words(text, "parket", FORMS)
    relocation = words[0].lower() == "move"
    if relocation:
        words = words[1:]
    if len(words) != 2:
        raise MalformedActionError(f"{text!r} is not a parket action; parket actions are "
                                   f"{FORMS}")
    try:
        card = DECK.parse(words[0])
    except CardError as err:
        raise MalformedActionError(f"bad card in action {text!r}: {err}") from None
    cell = parse_cell(words[1])
    if cell is None:
        raise MalformedActionError(f"bad cell in action {text!r}: {words[1]!r} is not a cell; "
                                   f"cells are a1..g5 (columns a..g, rows 1..5)")
    return action_id(card, cell, relocation)
