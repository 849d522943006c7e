"""Checks every game's action-string reader shares: a player's decision where chance moves,
and a chance outcome of the wrong kind (or at a decision)."""

from __future__ import annotations

from koloda.games.errors import IllegalActionError


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
