"""The engine protocol's defaults against Durak's fast paths: same games, same worlds."""

import random

import pytest

from koloda import games
from koloda.games.durak.engine import DurakCore
from koloda.games.kit.engine import Engine, ReplayDeterminizer
from koloda.games.kit.state import KitState
from koloda.solvers.search.worlds import PyStateWorld, determinizer_for


class _Recorder:
    """A random source that replays the same numbers to a second consumer."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def __call__(self):
        value = self.rng.random()
        self.drawn.append(value)
        return value


def _decision_states(game_string, seed, every=7):
    game = games.load_game(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if not state.is_chance_node() and len(state.history()) % every == 0:
            out.append(state.clone())
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("game_string", ["durak", "durak(players=4,ranks=13)"])
def test_the_fast_playout_plays_the_default_playouts_game(game_string):
    rules = games.load_game(game_string).rules
    for seed in range(10):
        fast, slow = DurakCore(rules), DurakCore(rules)
        source = _Recorder(seed)
        fast.random_playout(source)
        Engine.random_playout(slow, iter(source.drawn).__next__)
        assert fast.key() == slow.key() and fast.returns() == slow.returns()


@pytest.mark.parametrize("game_string", ["durak", "durak(players=3,ranks=13)"])
def test_the_fast_determinizer_draws_the_worlds_a_replayed_history_gives(game_string):
    for state in _decision_states(game_string, seed=3):
        player = state.current_player()
        fast = state.core.determinizer(player)
        slow = ReplayDeterminizer(state.core, player)
        for seed in range(3):
            assert fast.sample(random.Random(seed)).key() == slow.sample(random.Random(seed)).key()


def test_keys_identify_positions_not_histories():
    state = _decision_states("durak", seed=4)[3]
    core = state.core
    twin = core.copy()
    twin.events = []
    assert twin.key() == core.key() and hash(twin.key()) == hash(core.key())
    twin.apply(core.legal_actions()[0])
    assert twin.key() != core.key()


def test_koloda_states_are_kit_states_and_search_uses_their_engines():
    state = _decision_states("durak", seed=5)[0]
    assert isinstance(state, KitState)
    world = determinizer_for(state, state.current_player()).sample(random.Random(0))
    assert isinstance(world, DurakCore)


def test_other_openspiel_games_search_through_the_state_adapter():
    import pyspiel
    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    world = determinizer_for(state, 0).sample(random.Random(0))
    assert isinstance(world, PyStateWorld) and isinstance(world, Engine)
    world.random_playout(random.Random(1).random)
    assert world.is_terminal() and sum(world.returns()) == 0
