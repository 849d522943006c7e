"""Seeded Durak positions for agent tests."""

from koloda import games
from koloda.games.kit.random_play import midgame_states as _midgame_states


def midgame_states(game_string="durak", count=6, seed=0, min_history=20):
    """(game, decision nodes with a real choice) from seeded random games."""
    game = games.load_game(game_string)
    return game, _midgame_states(game, count, seed, min_history=min_history, chance=0.2)
