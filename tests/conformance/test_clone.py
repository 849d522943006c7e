"""A clone is an independent copy: it equals the original, and playing on either one
leaves the other untouched."""

import random

import pytest

from .games_under_test import GAMES
from .random_play import load, play_on, random_history, snapshot, spread, states_along


def _sample_states(case, seed, count=10):
    game = load(case.game_string)
    return spread(list(states_along(game, random_history(case.game_string, seed))), count)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_a_clone_equals_the_original(case):
    for state in _sample_states(case, seed=5):
        assert snapshot(state.clone()) == snapshot(state)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_playing_on_a_clone_leaves_the_original_untouched(case):
    rng = random.Random(6)
    for state in _sample_states(case, seed=6):
        if state.is_terminal():
            continue
        before = snapshot(state)
        clone = state.clone()
        play_on(clone, rng)
        assert clone.is_terminal()
        assert snapshot(state) == before


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_playing_on_the_original_leaves_a_clone_untouched(case):
    rng = random.Random(7)
    for state in _sample_states(case, seed=7):
        if state.is_terminal():
            continue
        clone = state.clone()
        before = snapshot(clone)
        play_on(state, rng)
        assert snapshot(clone) == before


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_clones_of_one_state_diverge_independently(case):
    rng = random.Random(8)
    for state in _sample_states(case, seed=8):
        if state.is_terminal():
            continue
        first, second = state.clone(), state.clone()
        play_on(first, rng, max_actions=5)
        assert snapshot(second) == snapshot(state)
        first_after = snapshot(first)
        play_on(second, rng, max_actions=5)
        assert snapshot(first) == first_after
