"""The playout policy is a parameter of search: the tree code calls whatever it is given."""

import random

import pytest

from koloda import solvers
from koloda.solvers import AgentSpecError
from koloda.solvers.search.evaluators import ROLLOUTS
from koloda.solvers.search.tree import Tree
from koloda.solvers.search.worlds import determinizer_for

from .positions import midgame_states


def test_the_tree_values_new_leaves_with_the_rollout_it_is_given():
    game, states = midgame_states(count=1, seed=3)
    state = states[0]
    player = state.current_player()
    calls = []

    def first_legal_rollout(world, rng):
        calls.append(world.key())
        while not world.is_terminal():
            world.apply(world.chance_outcomes()[0][0] if world.is_chance()
                        else world.legal_actions()[0])

    tree = Tree(player, 0.7, random.Random(0), rollout=first_legal_rollout)
    worlds = determinizer_for(state, player)
    for _ in range(40):
        tree.simulate(worlds.sample(tree.rng))
    assert tree.simulations == 40
    assert 0 < len(calls) <= 40          # one playout per expanded leaf


def test_search_agents_name_their_rollout_in_the_spec():
    game, states = midgame_states(count=1, seed=4)
    assert set(ROLLOUTS) == {"random", "heuristic", "learned"}
    for spec in ("ismcts(sims=30,rollout=random)", "pimc(sims=30,worlds=3,rollout=random)"):
        agent = solvers.load_agent(game, spec, seed=1)
        assert agent.rollout == "random"
        assert agent.step(states[0]) in states[0].legal_actions()
    with pytest.raises(AgentSpecError,
                       match="rollout must be random or heuristic or learned, not greedy"):
        solvers.load_agent(game, "ismcts(rollout=greedy)")


@pytest.mark.parametrize("game_string", ["durak", "parket"])
def test_a_game_without_the_leaf_asked_for_searches_as_with_the_leaf_it_has(game_string):
    """Durak and Parket have neither a heuristic playout nor a learned model: asked for
    either, they value leaves by random playouts, in the compiled tree as `random` does
    (same seed, same visits), not on a slower Python tree."""
    game, states = midgame_states(game_string, count=2, seed=5)
    for state in states:
        plain = solvers.load_agent(game, "ismcts(sims=60)", seed=2)
        plain.step(state)
        for rollout in ("heuristic", "learned"):
            agent = solvers.load_agent(game, f"ismcts(sims=60,rollout={rollout})", seed=2)
            agent.step(state)
            assert agent.last_visits == plain.last_visits
