"""Events as seats see them: each action of a game written as the protocol's replies and
an external agent's messages carry it, a chance outcome none of the seats saw masked.

    {"player": 0, "action": "attack 7s"}                     a decision, seen by all
    {"player": None, "action": "deal ?", "seen_by": [1]}     an outcome the seats did not see
    {"player": None, "action": "deal 7s", "seen_by": [0]}    one they saw

`then` lists what followed beyond the action itself (a match laid, a deal's scores), lines
every seat sees.  One function writes events for every reader, so none of them can say
more than its seats saw.
"""

from __future__ import annotations

#: the word that stands for a card or outcome a seat did not see
UNKNOWN = "?"


def masked(text: str) -> str:
    """An outcome as a seat that did not see it writes it: `deal 7s` -> `deal ?`."""
    words = text.split()
    return f"{words[0]} {UNKNOWN}" if len(words) > 1 else UNKNOWN


def apply_told(state, action: int, seats) -> dict:
    """Apply `action` to `state` (a koloda game's state) and return its event as `seats`
    see it."""
    core = state.core
    player = core.current_player()
    since = len(core.events)
    if player < 0:
        seen = [p for p in range(core.rules.num_players) if core.chance_seen_by(p, action)]
        text = state.action_to_string(player, action)
        if not any(seat in seen for seat in seats):
            text = masked(text)
        event = {"player": None, "action": text, "seen_by": seen}
    else:
        event = {"player": player, "action": state.action_to_string(player, action)}
    state.apply_action(action)
    followed = state.narration(since)
    if followed:
        event["then"] = followed
    return event


def history_told(state, seats, since: int = 0) -> list[dict]:
    """The events of `state`'s history from action `since` on, as `seats` see them (the
    game replayed from its start: every event's `then` needs the state it followed)."""
    replay = state.get_game().new_initial_state()
    events = []
    for index, action in enumerate(state.history()):
        if index < since:
            replay.apply_action(action)
        else:
            events.append(apply_told(replay, action, seats))
    return events
