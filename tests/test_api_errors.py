"""The Python API under careless calls: every bad argument gets the documented koloda error
with a message naming it, never an AttributeError or IndexError from inside."""

import random

import pytest

from koloda import games, solvers
from koloda.games.errors import (
    ArgumentError, GameParameterError, IllegalActionError, KolodaError, MalformedActionError,
)
from koloda.solvers import AgentSpecError


@pytest.fixture
def dealt():
    state = games.load_game("durak").new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize("bad", [None, 3, ["durak"], ""])
def test_load_game_refuses_what_is_not_a_game_string(bad):
    with pytest.raises(GameParameterError, match="game string"):
        games.load_game(bad)


def test_load_agent_refuses_a_missing_spec_or_game(dealt):
    game = dealt.get_game()
    with pytest.raises(AgentSpecError, match="agent spec"):
        solvers.load_agent(game, None)
    with pytest.raises(AgentSpecError, match="expected name"):
        solvers.load_agent(game, "")
    with pytest.raises(AgentSpecError, match="needs a game"):
        solvers.load_agent(None, "random")


@pytest.mark.parametrize("bad", [None, 7, b"take"])
def test_string_to_action_refuses_what_is_not_text(dealt, bad):
    with pytest.raises(MalformedActionError):
        dealt.string_to_action(bad)


def test_applying_an_illegal_action_id_says_what_is_legal_and_changes_nothing(dealt):
    history = dealt.history()
    legal = dealt.legal_actions()
    illegal = next(a for a in range(dealt.get_game().num_distinct_actions()) if a not in legal)
    for action in (illegal, -1, 10**6):
        with pytest.raises(IllegalActionError, match=rf"action id {action} is not legal here"):
            dealt.apply_action(action)
    assert dealt.history() == history and dealt.legal_actions() == legal
    dealt.apply_action(legal[0])           # the state is still usable


def test_applying_a_card_that_is_not_in_the_stock_is_refused():
    state = games.load_game("durak").new_initial_state()
    state.apply_action(5)
    with pytest.raises(IllegalActionError, match="deal 6c"):
        state.apply_action(5)              # that card was dealt already
    assert state.history() == [5]


def test_no_action_applies_after_the_end():
    state = games.load_game("durak(max_moves=1)").new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)


@pytest.mark.parametrize("player", [-1, 2, 2.0, None, "0"])
def test_resampling_refuses_a_seat_outside_the_game(dealt, player):
    with pytest.raises(ArgumentError, match="player must be a seat 0..1"):
        dealt.resample_from_infostate(player, random.Random(0).random)
    with pytest.raises(ArgumentError, match="player must be a seat"):
        dealt.determinizer(player)


@pytest.mark.parametrize("value", [1.0, -0.1, 7, float("nan"), None, "0.5"])
def test_resampling_refuses_a_sampler_outside_zero_to_one(dealt, value):
    with pytest.raises(ArgumentError, match=r"\[0, 1\)"):
        dealt.resample_from_infostate(0, lambda: value)


def test_every_api_error_is_a_koloda_error_and_a_value_error():
    for error in (ArgumentError, GameParameterError, IllegalActionError, MalformedActionError,
                  AgentSpecError):
        assert issubclass(error, KolodaError) and issubclass(error, ValueError)


def test_numpy_integer_actions_apply_as_openspiel_algorithms_pass_them(dealt):
    import numpy as np
    action = dealt.legal_actions()[0]
    dealt.apply_action(np.int64(action))
    assert dealt.history()[-1] == action
    with pytest.raises(IllegalActionError, match="integer"):
        dealt.apply_action("take")
