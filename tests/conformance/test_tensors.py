"""Observation and information-state tensors have the declared sizes and finite values."""

import math

import pytest

from .games_under_test import GAMES
from .random_play import load, random_history, spread, states_along


def _states(case, count=25):
    game = load(case.game_string)
    return spread(list(states_along(game, random_history(case.game_string, seed=20))), count)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_declared_shapes_match_declared_sizes(case):
    game = load(case.game_string)
    assert math.prod(game.observation_tensor_shape()) == game.observation_tensor_size()
    assert (math.prod(game.information_state_tensor_shape())
            == game.information_state_tensor_size())


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_observation_tensor_has_the_declared_size_and_is_finite(case):
    game = load(case.game_string)
    size = game.observation_tensor_size()
    assert size > 0
    for state in _states(case):
        for player in range(game.num_players()):
            tensor = state.observation_tensor(player)
            assert len(tensor) == size
            assert all(math.isfinite(value) for value in tensor)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_information_state_tensor_has_the_declared_size_and_is_finite(case):
    game = load(case.game_string)
    size = game.information_state_tensor_size()
    assert size > 0
    for state in _states(case):
        for player in range(game.num_players()):
            tensor = state.information_state_tensor(player)
            assert len(tensor) == size
            assert all(math.isfinite(value) for value in tensor)
