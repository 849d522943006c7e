"""Every game's engine fast paths against the engine protocol's slow, obviously correct
defaults (games/kit/engine.py): the same games, the same worlds, only legal moves."""

import random

import pytest

from koloda.games.kit.engine import Engine, ReplayDeterminizer
from koloda.solvers.search.evaluators import evaluator_for

from .games_under_test import GAMES
from .random_play import Recorder, decision_states, load


def _checked(engine_class):
    """The engine class, refusing any action its own slow lists do not allow."""

    class Checked(engine_class):
        __slots__ = ()

        def apply(self, action):
            if self.is_chance():
                assert action in [a for a, p in self.chance_outcomes() if p > 0], action
            else:
                assert action in self.legal_actions(), action
            super().apply(action)

    return Checked


def _engine(case):
    game = load(case.game_string)
    return type(game.new_initial_state().core), game.rules


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_the_fast_playout_plays_the_default_playouts_game(case):
    engine_class, rules = _engine(case)
    for seed in range(8):
        fast, slow = engine_class(rules), engine_class(rules)
        source = Recorder(seed)
        fast.random_playout(source)
        Engine.random_playout(slow, iter(source.drawn).__next__)
        assert fast.is_terminal() and fast.events == slow.events


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_playouts_play_only_legal_moves_to_the_end(case):
    engine_class, rules = _engine(case)
    checked = _checked(engine_class)
    for seed in range(8):
        heuristic = evaluator_for(case.short_name).leaf("heuristic")
        for leaf in (evaluator_for(case.short_name).leaf("random"), heuristic):
            world = checked(rules)
            leaf.python(world, random.Random(seed).random, 0, 1)
            assert world.is_terminal()


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_the_fast_determinizer_draws_the_worlds_a_replayed_history_gives(case):
    for state in decision_states(case.game_string, seed=3, count=6):
        player = state.current_player()
        fast = state.core.determinizer(player)
        slow = ReplayDeterminizer(state.core, player)
        for seed in range(3):
            world = fast.sample(random.Random(seed))
            assert world.key() == slow.sample(random.Random(seed)).key()
            assert world.legal_actions() == state.core.legal_actions()
