"""The Python API under careless calls: every bad argument gets the documented koloda error
with a message naming it, never an AttributeError or IndexError from inside."""

import random
import re

import pytest

from koloda import games, solvers
from koloda.games.errors import (
    ArgumentError,
    GameParameterError,
    IllegalActionError,
    KolodaError,
    MalformedActionError,
)
from koloda.games.kit.params import format_call
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


@pytest.mark.parametrize("game_string, says", [
    ("durak(hand_size=20,players=6,ranks=13)", "cannot deal 20 cards to 6 players from 52"),
    ("durak(previous_fool=5)", "previous_fool=5 is out of range: -1 or a seat 0..1"),
    ("parket(position=x)", "position 'x' has 1 fields"),
    ("parket(max_relocations=2,position='" + "-" * 14 + "/" + "-" * 14 + "/" + "-" * 14 + "/"
     + "-" * 14 + "/" + "-" * 14 + " r x 3')", "relocations must be a number 0..2"),
    ("platinum_fish(min_hand=5,max_hand=3)", "min_hand=5 must not exceed max_hand=3"),
    ("platinum_fish(players=6,ranks=2,copies=8)", "needs at least 38 cards for 6 players"),
    ("snitch(copies=3)", "copies must be an even number 2..8"),
    ("snitch(players=8,hand_size=10,ranks=3)", "cannot deal 10 cards to 8 players"),
])
def test_parameters_that_do_not_fit_together_are_refused_before_loading(game_string, says):
    """normalize_game_string runs the game's own checks, so what it passes, loads."""
    with pytest.raises(GameParameterError, match=says):
        games.normalize_game_string(game_string)
    with pytest.raises(GameParameterError, match=says):
        games.load_game(game_string)


@pytest.mark.parametrize("game_string, says", [
    ("durak(max_moves=99999999999)", "max_moves must be 1..100000, not 99999999999"),
    ("durak(hand_size=99999999999)", "hand_size must be 1..26"),
    ("durak(max_attack_cards=99999999999)", "max_attack_cards must be 1..52"),
    ("platinum_fish(max_turns=99999999999)", "max_turns must be 1..100000"),
    ("snitch(max_sets_per_turn=99999999999)", "max_sets_per_turn must be 1..100"),
    ("snitch(target_score=99999999999)", "target_score must be 0..1000000"),
    ("snitch(max_deals=99999999999)", "max_deals must be 1..1000"),
])
def test_integers_beyond_a_parameter_range_are_refused_before_openspiel(game_string, says):
    with pytest.raises(GameParameterError, match=says):
        games.load_game(game_string)


@pytest.mark.parametrize("position", ["\ud800", "9h\udc00", "a\x00b"])
def test_a_position_utf8_cannot_carry_is_refused(position):
    game_string = format_call("parket", {"position": position})
    with pytest.raises(GameParameterError, match="position must be text that UTF-8 can write"):
        games.load_game(game_string)


def test_a_position_longer_than_the_notation_is_refused_with_a_short_message():
    with pytest.raises(GameParameterError, match="position must be at most 100 characters, "
                                                 "not 60000") as caught:
        games.load_game(format_call("parket", {"position": "-" * 60_000}))
    assert len(str(caught.value)) < 200
    with pytest.raises(GameParameterError, match="at most 100 characters"):
        games.parket.parse_position("-" * 60_000)


def test_an_integer_of_4400_digits_is_refused_naming_it_in_a_short_message(dealt):
    digits = "9" * 4400
    with pytest.raises(GameParameterError, match=r"max_moves=9{20}\.\.\. has too many digits") \
            as caught:
        games.load_game(f"durak(max_moves={digits})")
    assert len(str(caught.value)) < 200
    with pytest.raises(AgentSpecError, match=r"sims=9{20}\.\.\. has too many digits") as caught:
        solvers.load_agent(dealt.get_game(), f"ismcts(sims={digits})")
    assert len(str(caught.value)) < 200


def test_a_huge_game_string_gets_a_short_message():
    with pytest.raises(GameParameterError, match="durak has no parameter") as caught:
        games.load_game("durak(" + ",".join(f"k{i}=1" for i in range(10_000)) + ")")
    assert len(str(caught.value)) < 2000
    with pytest.raises(GameParameterError, match="cannot read the value") as caught:
        games.load_game("durak(lead=" + "x y" * 20_000 + ")")
    assert len(str(caught.value)) < 400


def test_load_game_turns_any_failure_of_openspiel_into_a_game_parameter_error(monkeypatch):
    def fails(name, params):
        raise RuntimeError("Unable to cast Python instance of type <class 'int'>")
    monkeypatch.setattr(games.pyspiel, "load_game", fails)
    with pytest.raises(GameParameterError, match=r"game string 'durak\(players=3\)' cannot "
                                                 r"be played: .*Unable to cast"):
        games.load_game("durak(players=3)")


@pytest.mark.parametrize("spec, says", [
    ("ismcts_openspiel(sims=99999999999)", "sims must be 1..1000000"),
    ("random(seed=4294967296)", "seed must be 0..2147483647"),
    ("ismcts(uct_c=1e400)", "uct_c=1e400 is too large for a number"),
    ("ismcts(uct_c=1000)", "uct_c must be 0.0..100.0"),
    ('ismcts(rollout="\ud800")', "rollout must be text that UTF-8 can write"),
    (f'cfr(policy="{"p" * 600}")', "policy must be at most 500 characters, not 600"),
])
def test_agent_parameters_are_bounded(dealt, spec, says):
    with pytest.raises(AgentSpecError, match=says) as caught:
        solvers.load_agent(dealt.get_game(), spec)
    assert len(str(caught.value)) < 200


def test_a_seed_given_beside_the_spec_is_bounded_as_the_spec_seed_is(dealt):
    with pytest.raises(AgentSpecError, match="agent random parameter seed must be "
                                             "0..2147483647, not 1099511627776"):
        solvers.load_agent(dealt.get_game(), "random", seed=2**40)


@pytest.mark.parametrize("seed, says", [
    (-1, "must be 0..2147483647, not -1"),
    (2**31, "must be 0..2147483647, not 2147483648"),
    ("x", "must be int (like seed=0), not 'x'"),
    (1.5, "must be int (like seed=0), not 1.5"),
    (True, "must be int (like seed=0), not True"),
])
def test_a_seed_beside_the_spec_must_be_a_seed(dealt, seed, says):
    with pytest.raises(AgentSpecError, match=re.escape(f"agent random parameter seed {says}")):
        solvers.load_agent(dealt.get_game(), "random", seed=seed)


@pytest.mark.parametrize("seed", [0, 2**31 - 1])
def test_a_seed_at_either_end_of_its_range_is_taken(dealt, seed):
    assert solvers.load_agent(dealt.get_game(), "random", seed=seed).seed == seed
