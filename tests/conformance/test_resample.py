"""Resampling from a player's information state (DESIGN.md, principle 3).

`state.resample_from_infostate(p, sampler)` must give a state that player p cannot tell
from the true one (same information state, observation, tensors, legal actions when p is
to move, same player to move), reached by legal play, without touching the original; and
the hidden cards must really vary, reproducibly for a seeded sampler.
"""

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from .games_under_test import GAMES, ISMCTS_GAMES
from .random_play import (
    decision_states,
    first_decision_state,
    load,
    random_history,
    spread,
    states_along,
)
from .worlds import indistinguishable_worlds

# Both kinds of sampler a caller may pass: OpenSpiel's, and any callable giving [0, 1).
SAMPLERS = {
    "UniformProbabilitySampler": lambda seed: pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0),
    "random.Random": lambda seed: random.Random(seed).random,
}

SMALL_GAMES = [case for case in GAMES if case.small]
LARGE_GAMES = [case for case in GAMES if not case.small and not case.perfect_information]


def _states_to_resample(case):
    """Decision nodes at several depths of two random games, first decisions included, plus
    a few chance nodes after the deal and the end of one game."""
    game = load(case.game_string)
    states = [state for seed in (30, 31) for state in decision_states(case.game_string, seed, 6)]
    along = list(states_along(game, random_history(case.game_string, seed=30)))
    first_decision = next(i for i, state in enumerate(along) if state.is_player_node())
    later_chance = [state for state in along[first_decision:] if state.is_chance_node()]
    return states + spread(later_chance, 3) + [along[-1]]


def assert_player_cannot_tell(original, resampled, player):
    assert resampled.current_player() == original.current_player()
    assert (resampled.information_state_string(player)
            == original.information_state_string(player))
    assert resampled.observation_string(player) == original.observation_string(player)
    assert (list(resampled.information_state_tensor(player))
            == list(original.information_state_tensor(player)))
    assert list(resampled.observation_tensor(player)) == list(original.observation_tensor(player))
    if player == original.current_player():
        assert resampled.legal_actions() == original.legal_actions()


def assert_reached_by_legal_play(state):
    """Every action of the history was legal (chance: had positive probability) where played."""
    replayed = state.get_game().new_initial_state()
    for step, action in enumerate(state.history()):
        if replayed.is_chance_node():
            possible = {a for a, probability in replayed.chance_outcomes() if probability > 0}
        else:
            possible = set(replayed.legal_actions())
        assert action in possible, f"action {action} at step {step} is not legal there"
        replayed.apply_action(action)
    assert str(replayed) == str(state)


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_resampled_state_looks_the_same_to_the_player(case, sampler):
    make_sampler = SAMPLERS[sampler]
    for state in _states_to_resample(case):
        true_str, true_history = str(state), state.history()
        for player in range(state.get_game().num_players()):
            for seed in (1, 2):
                resampled = state.resample_from_infostate(player, make_sampler(seed))
                assert resampled is not state
                assert_player_cannot_tell(state, resampled, player)
                assert_reached_by_legal_play(resampled)
                assert str(state) == true_str and state.history() == true_history, (
                    "resampling changed the original state")


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_the_same_seed_gives_the_same_resample(case, sampler):
    make_sampler = SAMPLERS[sampler]
    for state in decision_states(case.game_string, seed=32, count=4):
        for player in range(state.get_game().num_players()):
            first = state.resample_from_infostate(player, make_sampler(7))
            second = state.resample_from_infostate(player, make_sampler(7))
            assert first.history() == second.history()
            assert str(first) == str(second)


@pytest.mark.parametrize("case", LARGE_GAMES, ids=str)
def test_hidden_cards_vary_after_the_deal(case):
    """Right after the deal every player has opponents' hands (and often a stock) to guess."""
    for seed in (40, 41, 42):
        state = first_decision_state(case.game_string, seed)
        for player in range(state.get_game().num_players()):
            resamples = {str(state.resample_from_infostate(player, random.Random(k).random))
                         for k in range(30)}
            assert len(resamples) > 1, (
                f"30 resamples for p{player} after the deal (seed {seed}) are all {resamples}")


@pytest.mark.parametrize("case", SMALL_GAMES, ids=str)
def test_resampling_reaches_exactly_the_worlds_the_player_cannot_rule_out(case):
    """On small games the worlds are enumerated: resamples must cover them all, and only them
    (so hidden cards vary exactly where the player has something to guess)."""
    uncertain = 0
    for seed in (50, 51, 52):
        for state in decision_states(case.game_string, seed, count=6):
            for player in range(state.get_game().num_players()):
                worlds = indistinguishable_worlds(state, player)
                assert str(state) in worlds
                samples = 30 + 20 * len(worlds)
                resamples = {str(state.resample_from_infostate(player, random.Random(k).random))
                             for k in range(samples)}
                assert resamples == worlds, (
                    f"p{player} at {state.history()}: resamples missed {sorted(worlds - resamples)}"
                    f" or reached impossible {sorted(resamples - worlds)}")
                uncertain += len(worlds) > 1
    assert uncertain > 0, "no state left any player anything to guess: the test is vacuous"


@pytest.mark.parametrize("game_string", ISMCTS_GAMES)
def test_openspiel_ismcts_searches_a_mid_game_state(game_string):
    game = load(game_string)
    state = next(s for s in decision_states(game_string, seed=60, count=12)[3:]
                 if len(s.legal_actions()) > 1)
    before = (str(state), state.history())
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=20,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=np.random.RandomState(2),
    )
    action = bot.step(state)  # asserts that every resample has the player's info state
    assert action in state.legal_actions()
    assert (str(state), state.history()) == before
