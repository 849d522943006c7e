"""A clone is an independent copy: it equals the original, and playing on either one
leaves the other untouched.  A child is a clone with one action applied, checked as
`apply_action` checks it."""

import random

import pytest

from koloda.games.errors import IllegalActionError

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


def _illegal_ids(state):
    """Action ids `apply_action` refuses here: unlisted ids in range, out of range, no int."""
    game = state.get_game()
    size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    legal = set(state.legal_actions())
    unlisted = [a for a in range(size) if a not in legal]
    return unlisted[:2] + unlisted[-1:] + [-1, size, 10**6, 1.5, "0", None]


def _refusal(apply, action):
    with pytest.raises(Exception) as caught:
        apply(action)
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_child_refuses_an_illegal_action_as_apply_action_does(case):
    for state in _sample_states(case, seed=9):
        before = snapshot(state)
        for action in _illegal_ids(state):
            refused = _refusal(state.child, action)
            assert refused == _refusal(state.clone().apply_action, action)
            assert issubclass(refused[0], IllegalActionError)
        assert snapshot(state) == before


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_child_is_a_clone_with_the_action_applied(case):
    for state in _sample_states(case, seed=10):
        if state.is_terminal():
            continue
        before = snapshot(state)
        for action in spread(state.legal_actions(), 3):
            applied = state.clone()
            applied.apply_action(action)
            assert snapshot(state.child(action)) == snapshot(applied)
        assert snapshot(state) == before
