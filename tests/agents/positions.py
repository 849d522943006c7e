"""Seeded Durak positions for agent tests, and their twins that differ in hidden cards."""

import pyspiel

from koloda import games
from koloda.games.kit.random_play import midgame_states as _midgame_states


def midgame_states(game_string="durak", count=6, seed=0, min_history=20):
    """(game, decision nodes with a real choice) from seeded random games."""
    game = games.load_game(game_string)
    return game, _midgame_states(game, count, seed, min_history=min_history, chance=0.2)


def other_deal(state, player, seed):
    """The same information state for `player`, other hidden cards (the true state
    differs)."""
    for k in range(50):
        sampler = pyspiel.UniformProbabilitySampler(seed + k, 0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        if str(other) != str(state):
            return other
    raise AssertionError("no resample with different hidden cards")
