"""`apply_action` takes a legal id at once and refuses any other, whether or not the legal
actions were listed first (the wrapper then looks the id up in the engine's list), and an
engine lists no decision where chance or the end of the game is next, so a listed id is
always one a player may choose."""

import random

import pytest

from koloda.games.errors import IllegalActionError

from .games_under_test import GAMES
from .random_play import load, random_history, states_along


def _ids(state) -> range:
    game = state.get_game()
    return range(-2, (game.max_chance_outcomes() if state.is_chance_node()
                      else game.num_distinct_actions()) + 2)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_an_engine_lists_no_decision_at_chance_or_at_the_end(case):
    game = load(case.game_string)
    for state in states_along(game, random_history(case.game_string, seed=21)):
        if state.is_chance_node() or state.is_terminal():
            assert state.core.copy().legal_actions() == [], state.history()


@pytest.mark.parametrize("listed_first", [False, True], ids=["cold", "listed"])
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_apply_action_takes_the_legal_ids_and_refuses_the_rest(case, listed_first):
    rng = random.Random(22)
    game = load(case.game_string)
    for state in states_along(game, random_history(case.game_string, seed=22)):
        legal = set(state.legal_actions())
        illegal = [a for a in _ids(state) if a not in legal]
        for action in rng.sample(illegal, min(8, len(illegal))):
            trial = state.clone()
            if listed_first:
                trial.legal_actions()
            with pytest.raises(IllegalActionError):
                trial.apply_action(action)
            assert trial.history() == state.history() and str(trial) == str(state)
        for action in rng.sample(sorted(legal), min(3, len(legal))):
            trial = state.clone()
            if listed_first:
                trial.legal_actions()
            trial.apply_action(action)
            assert trial.history() == state.history() + [action]
