"""Chance is explicit: a game replays bit for bit from its action history, and a state
survives serialization."""

import random

import pyspiel
import pytest

from .games_under_test import GAMES
from .random_play import (
    load,
    random_action,
    random_history,
    replay,
    snapshot,
    spread,
    states_along,
)

SEEDS = (0, 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS, ids="seed{}".format)
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_rebuilding_from_the_history_gives_the_same_state_at_every_step(case, seed):
    game = load(case.game_string)
    rng = random.Random(seed)
    state = game.new_initial_state()
    # `rebuilt` only ever receives actions read back from `state.history()`: at every step
    # it is `game.new_initial_state()` with each action of that history applied.
    rebuilt = game.new_initial_state()
    while True:
        for action in state.history()[len(rebuilt.history()):]:
            rebuilt.apply_action(action)
        assert snapshot(rebuilt) == snapshot(state), f"after {len(state.history())} actions"
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_rebuilding_a_finished_game_from_scratch_gives_the_same_state(case):
    game = load(case.game_string)
    history = random_history(case.game_string, seed=2)
    final = replay(game, history)
    assert final.is_terminal()
    assert final.history() == list(history)
    assert snapshot(replay(game, final.history())) == snapshot(final)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_deserialize_state_round_trip(case):
    game = load(case.game_string)
    history = random_history(case.game_string, seed=3)
    for state in spread(list(states_along(game, history)), 12):
        restored = game.deserialize_state(state.serialize())
        assert snapshot(restored) == snapshot(state)
        # The restored state also plays on exactly like the original.
        for action in history[len(state.history()):]:
            restored.apply_action(action)
        assert restored.history() == list(history)
        assert str(restored) == str(replay(game, history))


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_serialize_game_and_state_round_trip(case):
    game = load(case.game_string)
    history = random_history(case.game_string, seed=4)
    for state in spread(list(states_along(game, history)), 12):
        text = pyspiel.serialize_game_and_state(game, state)
        restored_game, restored = pyspiel.deserialize_game_and_state(text)
        assert str(restored_game) == str(game)
        assert restored_game.get_parameters() == game.get_parameters()
        assert snapshot(restored) == snapshot(state)
