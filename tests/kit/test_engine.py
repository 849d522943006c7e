"""Search works on any engine: koloda's own, or any OpenSpiel state through the adapter.
(Durak's fast paths against the protocol's defaults: tests/durak_engine/.)"""

import random

import pyspiel

from koloda import games
from koloda.games.durak.engine import DurakCore
from koloda.games.kit.engine import Engine
from koloda.games.kit.state import KitState
from koloda.solvers.search.worlds import PyStateWorld, determinizer_for


def test_koloda_states_are_kit_states_and_search_uses_their_engines():
    state = games.load_game("durak").new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert isinstance(state, KitState)
    world = determinizer_for(state, state.current_player()).sample(random.Random(0))
    assert isinstance(world, DurakCore)


def test_other_openspiel_games_search_through_the_state_adapter():
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    world = determinizer_for(state, 0).sample(random.Random(0))
    assert isinstance(world, PyStateWorld) and isinstance(world, Engine)
    world.random_playout(random.Random(1).random)
    assert world.is_terminal() and sum(world.returns()) == 0
    assert world.winners() == frozenset(p for p, r in enumerate(world.returns()) if r > 0)
