"""Reading what a person types at `koloda play`'s prompt: a move's number, a move in card
notation (suit symbols copied from the screen read as letters), or a command.

Only the reading is here; whether a typed move is legal the protocol judges, so the
person gets the same word on it as any app."""

from __future__ import annotations

from dataclasses import dataclass

from koloda.games.kit.params import cut
from koloda.play.cardtext import plain_notation

#: digits of a move number read; no game lists a million moves, and int() refuses 4300+
MOST_DIGITS = 6

COMMANDS = {"hint": "hint", "h": "hint", "?": "hint", "help": "help",
            "quit": "quit", "q": "quit", "exit": "quit"}


@dataclass(frozen=True)
class Choice:
    """`kind` is "move" (`text` the action), "hint", "help", "quit", "empty" (nothing
    typed) or "error" (`text` says what was wrong)."""
    kind: str
    text: str = ""


def read_choice(line: str, legal: list[str]) -> Choice:
    typed = " ".join(line.split())
    if not typed:
        return Choice("empty")
    command = COMMANDS.get(typed.lower())
    if command:
        return Choice(command)
    if typed.isdigit():
        number = _move_number(typed)
        if number is not None and 1 <= number <= len(legal):
            return Choice("move", legal[number - 1])
        return Choice("error", f"no move {cut(typed, 20)}: type a number from 1 to "
                      f"{len(legal)}, or a move as listed")
    action = plain_notation(typed)
    for move in legal:                     # as listed, whatever the case
        if move.lower() == action.lower():
            return Choice("move", move)
    return Choice("move", action)


def _move_number(typed: str) -> int | None:
    """The number `typed` in ASCII digits, or None: `²` and `١` are digits to isdigit()
    but no number of a listed move, and a long number cannot be one either."""
    if not typed.isascii() or len(typed) > MOST_DIGITS:
        return None
    return int(typed)
