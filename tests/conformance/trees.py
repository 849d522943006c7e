"""Every history of a small game, and states a player cannot tell apart in a large one:
the material of the tests that compare what two states show one player.

A twin of a history, for one player, replays it with every chance outcome the player does
not see drawn afresh (kept where the fresh one would show, or no longer fits the history).
Along the way the player's information-state string is the same in both, so whatever the
player is shown must be the same too.
"""

from __future__ import annotations

import pyspiel


def _possible(state: pyspiel.State) -> list[int]:
    """The legal actions, or the chance outcomes that can happen."""
    if state.is_chance_node():
        return [a for a, probability in state.chance_outcomes() if probability > 0]
    return state.legal_actions()


def every_state(game: pyspiel.Game):
    """Every state of the game tree, depth first."""
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        yield state
        if not state.is_terminal():
            stack.extend(state.child(action) for action in _possible(state))


def twin_pairs(game: pyspiel.Game, history, player: int, rng, max_steps: int = 200):
    """(state, twin) after each action of `history`, both with `player`'s information
    state: a twin draws a fresh chance outcome wherever the player cannot tell it from
    the true one.  Stops where no twin can follow the history (an outcome the twin's
    stock no longer holds) or after `max_steps` actions."""
    state, twin = game.new_initial_state(), game.new_initial_state()
    for action in history[:max_steps]:
        state.apply_action(action)
        view = state.information_state_string(player)
        step = None
        if twin.is_chance_node():
            fresh = twin.child(rng.choice(_possible(twin)))
            if fresh.information_state_string(player) == view:
                step = fresh
        if step is None:
            if action not in _possible(twin):
                return
            step = twin.child(action)
            if step.information_state_string(player) != view:
                return
        twin = step
        yield state.clone(), twin.clone()
