"""Exhaustive search for the worlds a player cannot tell apart (for small games only).

A world is a history of the same length as the true one, along which the player's
information-state string equals the true one after every action (so the player could not
have told them apart at any point), ending with the same player to move.  The search is the
oracle for `resample_from_infostate` on small games: a resampler must reach these worlds
and no others.
"""

from __future__ import annotations

import pyspiel


class TooManyWorlds(Exception):
    pass


def indistinguishable_worlds(state: pyspiel.State, player: int,
                             max_nodes: int = 200_000) -> set[str]:
    """`str()` of every world `player` cannot tell from `state`."""
    game = state.get_game()
    history = state.history()
    views = []
    prefix = game.new_initial_state()
    views.append(prefix.information_state_string(player))
    for action in history:
        prefix.apply_action(action)
        views.append(prefix.information_state_string(player))

    worlds: set[str] = set()
    nodes = 0

    def search(node: pyspiel.State, depth: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise TooManyWorlds(f"more than {max_nodes} nodes: the game is not small")
        if depth == len(history):
            if node.current_player() == state.current_player():
                worlds.add(str(node))
            return
        if node.is_chance_node():
            actions = [a for a, probability in node.chance_outcomes() if probability > 0]
        else:
            actions = node.legal_actions()
        for action in actions:
            child = node.child(action)
            if child.information_state_string(player) == views[depth + 1]:
                search(child, depth + 1)

    search(game.new_initial_state(), 0)
    return worlds
