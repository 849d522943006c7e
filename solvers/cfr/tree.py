"""Walks of a miniature's whole tree.

Policies here are tables keyed by information-state strings.  A table is read off a
solver, an agent or a file by visiting each information state once, at the first history
that reaches it (`first_states`): agents decide from the information state alone, so any
history of it gives the same question.
"""

from __future__ import annotations

from koloda.games.errors import KolodaError

#: trees larger than this are refused: the methods here are for miniatures
MAX_HISTORIES = 5_000_000


class TreeTooLargeError(KolodaError, ValueError):
    """The game is no miniature: its tree is too large to walk whole."""


def walk(game, limit: int = MAX_HISTORIES):
    """Every history of the game, depth first (parents before children)."""
    stack = [game.new_initial_state()]
    seen = 0
    while stack:
        state = stack.pop()
        seen += 1
        if seen > limit:
            raise TreeTooLargeError(f"{game} has more than {limit:,} histories; the exact "
                                    f"methods are for miniatures")
        yield state
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        for action in reversed(actions):
            stack.append(state.child(action))


def first_states(game, limit: int = MAX_HISTORIES):
    """(information state string, player, state) for the first history of each
    information state of the players."""
    seen = set()
    for state in walk(game, limit):
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        if key not in seen:
            seen.add(key)
            yield key, player, state


def tree_size(game, limit: int = MAX_HISTORIES) -> tuple[int, int]:
    """(histories, information states) of the whole tree."""
    histories, infosets = 0, set()
    for state in walk(game, limit):
        histories += 1
        if not (state.is_terminal() or state.is_chance_node()):
            infosets.add(state.information_state_string(state.current_player()))
    return histories, len(infosets)


def uniform(legal) -> list[tuple[int, float]]:
    return [(a, 1.0 / len(legal)) for a in legal]


def table_from(game, policy_at) -> dict:
    """{infostate: [(action, probability)]} with `policy_at(state, player)` asked once per
    information state."""
    return {key: list(policy_at(state, player)) for key, player, state in first_states(game)}
