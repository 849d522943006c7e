"""Checks every game's action-string reader shares: the text split into words, a player's
decision where chance moves, and a chance outcome of the wrong kind (or at a decision)."""

from __future__ import annotations

from koloda.games.errors import IllegalActionError, MalformedActionError


def action_words(text, game: str, forms: str) -> list[str]:
    """The words of an action string; MalformedActionError, with the game's forms, for
    something that is not text or is empty."""
    if not isinstance(text, str):
        raise MalformedActionError(f"an action string is text, not {text!r}; "
                                   f"{game} actions are {forms}")
    words = text.split()
    if not words:
        raise MalformedActionError(f"empty action string; {game} actions are {forms}")
    return words


def check_decision(text: str, chance_verb: str | None) -> None:
    """`text` names a decision; refuse it at a chance node, whose verb is `chance_verb`
    (None at a decision)."""
    if chance_verb:
        raise IllegalActionError(f"{text!r} is a player's decision, but this state expects "
                                 f"'{chance_verb} ...' (a chance outcome)")


def check_chance(text: str, verb: str, chance_verb: str | None) -> None:
    """`text` is a chance outcome with `verb`; refuse it unless this chance node's verb is
    that one."""
    if chance_verb != verb:
        now = f"'{chance_verb} ...'" if chance_verb else "a player's decision"
        raise IllegalActionError(f"{text!r} is a chance outcome, but this state expects {now}")
