"""The heuristic as a prior in the tree (the hint of solvers/search/evaluators.py): the
hinted move is tried first and holds the search while its bonus lasts; with it, search
runs on the Python tree (compiled in Snitch, whose heuristic is a kernel function) and
plays legally in every game with a heuristic."""

import random

import pytest

from koloda import solvers
from koloda.solvers.search.compiled_tree import CompiledSearch
from koloda.solvers.search.evaluators import HeuristicHint, evaluator_for
from koloda.solvers.search.ismcts import search_for
from koloda.solvers.search.tree import Tree
from koloda.solvers.search.worlds import determinizer_for

from .positions import midgame_states

GAMES = ["durak", "snitch", "platinum_fish"]


@pytest.mark.parametrize("game_string", GAMES)
def test_the_hint_is_the_heuristics_move_and_is_tried_first(game_string):
    game, states = midgame_states(game_string, count=3, seed=5)
    heuristic = solvers.load_agent(game, "heuristic", seed=0)
    hint = HeuristicHint(game)
    for state in states:
        player = state.current_player()
        worlds = determinizer_for(state, player)
        expected = heuristic.step(state)
        # the searcher's own move reads only its hand and what is public: one hint in
        # every world
        assert {hint(worlds.sample(random.Random(k))) for k in range(5)} == {expected}
        tree = Tree(player, 0.7, random.Random(1), hint=hint, prior=1.0)
        tree.simulate(worlds.sample(tree.rng))
        assert list(tree.root.children) == [expected]


@pytest.mark.parametrize("game_string", GAMES)
def test_a_strong_prior_holds_the_search_on_the_hinted_move(game_string):
    game, states = midgame_states(game_string, count=3, seed=6)
    hint = HeuristicHint(game)
    for state in states:
        player = state.current_player()
        worlds = determinizer_for(state, player)
        legal = state.legal_actions()
        sims = 200
        held = Tree(player, 0.7, random.Random(2), hint=hint, prior=1000.0)
        plain = Tree(player, 0.7, random.Random(2))
        for tree in (held, plain):
            for _ in range(sims):
                tree.simulate(worlds.sample(tree.rng))
        hinted = hint(worlds.sample(random.Random(0)))
        # every other move is tried once; the rest of the budget goes to the hint
        assert held.root_visits()[hinted] == sims - (len(legal) - 1)
        assert set(plain.root_visits()) == set(legal)


@pytest.mark.parametrize("game_string", GAMES)
def test_ismcts_with_a_prior_searches_where_the_game_offers_it_and_plays_legally(game_string):
    game, states = midgame_states(game_string, count=2, seed=7)
    agent = solvers.load_agent(game, "ismcts(prior=0.5,sims=50)", seed=3)
    plain = solvers.load_agent(game, "ismcts(sims=50)", seed=3)
    for state in states:
        player = state.current_player()
        compiled = isinstance(search_for(agent, state, player), CompiledSearch)
        assert compiled == (evaluator_for(game_string).hint.kernel is not None)
        assert isinstance(search_for(plain, state, player), CompiledSearch)
        assert agent.step(state) in state.legal_actions()
        assert agent.last_simulations == 50


def test_a_prior_out_of_range_is_refused():
    game, _ = midgame_states(count=1, seed=1)
    with pytest.raises(solvers.AgentSpecError,
                       match=r"^agent ismcts parameter prior must be 0\.0\.\.100\.0, not -1\.0$"):
        solvers.load_agent(game, "ismcts(prior=-1)")
