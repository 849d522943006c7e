"""Every action has one string, accepted back by `string_to_action`; bad strings raise
ActionError (a ValueError) that says what is wrong."""

import functools
import random

import pytest

from koloda.games.errors import ActionError, IllegalActionError, MalformedActionError

from .games_under_test import GAMES, malformed_actions
from .random_play import load, random_history, spread, states_along

SEEDS = (10, 11)


def _legal_strings(state) -> dict[str, int]:
    player = state.current_player()
    return {state.action_to_string(player, action): action for action in state.legal_actions()}


@functools.cache
def _strings_seen(game_string: str) -> frozenset[str]:
    """Every string of an action that was legal somewhere in the random games of SEEDS."""
    game = load(game_string)
    seen = set()
    for seed in SEEDS:
        for state in states_along(game, random_history(game_string, seed)):
            seen.update(_legal_strings(state))
    return frozenset(seen)


@pytest.mark.parametrize("seed", SEEDS, ids="seed{}".format)
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_every_legal_action_string_parses_back_to_its_action(case, seed):
    game = load(case.game_string)
    for state in states_along(game, random_history(case.game_string, seed)):
        player = state.current_player()
        legal = state.legal_actions()
        strings = [state.action_to_string(player, action) for action in legal]
        assert len(set(strings)) == len(strings), f"two legal actions share a string: {strings}"
        for action, text in zip(legal, strings):
            assert text.strip(), f"action {action} has an empty string"
            assert state.action_to_string(action) == text
            assert state.string_to_action(player, text) == action, text
            assert state.string_to_action(text) == action, text


def _probe_states(case):
    """The first chance node, the first decision, and states spread over a random game."""
    game = load(case.game_string)
    states = list(states_along(game, random_history(case.game_string, seed=12)))
    first_decision = next(s for s in states if s.is_player_node())
    return [states[0], first_decision] + spread(states, 8)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_malformed_action_strings_raise_malformed_action_error(case):
    for state in _probe_states(case):
        player = state.current_player()
        for text in malformed_actions(case):
            with pytest.raises(MalformedActionError) as error:
                state.string_to_action(text)
            assert str(error.value).strip(), f"empty message for {text!r}"
            if not state.is_terminal():
                with pytest.raises(MalformedActionError) as error:
                    state.string_to_action(player, text)
                assert str(error.value).strip(), f"empty message for {text!r}"


def test_both_action_errors_are_action_errors_and_value_errors():
    for error in (MalformedActionError, IllegalActionError):
        assert issubclass(error, ActionError) and issubclass(error, ValueError)
    assert not issubclass(MalformedActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, MalformedActionError)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_well_formed_but_illegal_action_strings_raise_illegal_action_error_naming_them(case):
    """Strings of actions legal elsewhere in the game are rejected where they are not legal."""
    rng = random.Random(13)
    seen = sorted(_strings_seen(case.game_string))
    game = load(case.game_string)
    checked = 0
    for state in states_along(game, random_history(case.game_string, seed=13)):
        player = state.current_player()
        legal = _legal_strings(state)
        illegal = [text for text in seen if text not in legal]
        for text in rng.sample(illegal, min(6, len(illegal))):
            with pytest.raises(IllegalActionError) as error:
                state.string_to_action(text)
            assert text in str(error.value), f"{error.value} does not name {text!r}"
            if not state.is_terminal():
                with pytest.raises(IllegalActionError) as error:
                    state.string_to_action(player, text)
                assert text in str(error.value), f"{error.value} does not name {text!r}"
            checked += 1
    assert checked > 0
