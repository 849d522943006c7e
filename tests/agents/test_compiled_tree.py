"""The compiled tree (solvers/search/compiled_tree.py) against tree.py itself: on the
kernel's worlds and random stream (solvers/search/kernel_world.py) the Python tree must
grow the same tree, visit for visit, for ISMCTS and PIMC, with random playouts, learned
leaves and the prior, whether or not the node table had to grow on the way."""

import itertools

import numpy as np
import pytest

from koloda import games, solvers
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.search import compiled_tree
from koloda.solvers.search.compiled_tree import MARGIN, CompiledSearch
from koloda.solvers.search.evaluators import EVALUATORS
from koloda.solvers.search.kernel_world import reference_search

from .positions import other_deal

GAMES = ["parket", "durak", "platinum_fish", "snitch(target_score=300)"]


def _reference(worlds, player, uct_c, seed, sims, roots=0, **options):
    """The root visits of tree.py's search on kernel worlds: ISMCTS (roots=0) or PIMC over
    `roots` worlds, with the compiled search's options."""
    search = reference_search(worlds, player, uct_c, seed, roots=max(roots, 1), **options)
    search.pimc(sims) if roots else search.ismcts(sims)
    return search.root_visits()


def _positions(game_string, count=3):
    game = games.load_game(game_string)
    states = midgame_states(game, count, seed=4, min_history=12)
    out = []
    for state in states:
        player = state.current_player()
        worlds = state.compiled_worlds(player)
        if worlds is not None:
            out.append((player, worlds))
    return out


@pytest.mark.parametrize("game_string", GAMES)
def test_ismcts_builds_the_reference_tree(game_string):
    positions = _positions(game_string)
    if not positions:
        pytest.skip(f"{game_string} has no compiled worlds here")
    for player, worlds in positions:
        seed = seed_state(7)
        search = CompiledSearch(worlds, player, 0.7, seed)
        search.ismcts(150)
        search.ismcts(150)                   # a second call goes on with the same stream
        assert search.simulations == 300
        visits = search.root_visits()
        assert sum(visits.values()) == 300
        assert visits == _reference(worlds, player, 0.7, seed, 300)


@pytest.mark.parametrize("game_string", GAMES)
def test_pimc_builds_the_reference_trees(game_string):
    positions = _positions(game_string, count=2)
    if not positions:
        pytest.skip(f"{game_string} has no compiled worlds here")
    for player, worlds in positions:
        seed = seed_state(9)
        search = CompiledSearch(worlds, player, 0.5, seed, roots=4)
        search.pimc(101)
        search.pimc(99)
        assert search.worlds_drawn == 4
        assert search.root_visits() == _reference(worlds, player, 0.5, seed, 200, roots=4)


@pytest.mark.parametrize("learned,prior,turns", [(True, 0.0, 1), (False, 0.5, 1),
                                                 (True, 0.5, 1), (True, 0.5, 2)])
def test_the_learned_leaf_and_the_prior_build_the_reference_tree(learned, prior, turns):
    """Snitch's compiled search with its learned leaf values and its heuristic as a prior:
    the tree the reference grows from the same kernel functions, for ISMCTS and PIMC."""
    evaluator = EVALUATORS["snitch"]
    leaf = evaluator.leaf("learned" if learned else "random", games.load_game("snitch"))
    for player, worlds in _positions("snitch(target_score=300)"):
        worlds.end_at_deal()
        options = dict(leaf=leaf, hint=evaluator.hint, prior=prior, turns=turns)
        seed = seed_state(5)
        search = CompiledSearch(worlds, player, 0.1, seed, **options)
        search.ismcts(120)
        search.ismcts(80)
        assert search.root_visits() == _reference(worlds, player, 0.1, seed, 200, **options)
        search = CompiledSearch(worlds, player, 0.1, seed, roots=3, **options)
        search.pimc(150)
        assert search.root_visits() == _reference(worlds, player, 0.1, seed, 150, roots=3,
                                                  **options)


def test_a_root_hint_is_tried_first_and_favoured_at_the_root_only():
    """A move hinted at the root (a policy's, read once from the searcher's observation):
    the first simulation tries it, a heavy prior keeps most visits on it, and the compiled
    tree is still the reference's, with no hint deeper down, for ISMCTS and PIMC."""
    for player, worlds in _positions("platinum_fish"):
        game = worlds.game
        legal = np.empty(game.max_legal, np.int64)
        count = game.functions[1](worlds.template, game.r, legal)
        if count < 2:
            continue
        favoured = int(legal[count - 1])
        seed = seed_state(9)
        first = CompiledSearch(worlds, player, 0.7, seed, prior=0.5, root_hint=favoured)
        first.ismcts(1)
        assert first.root_visits() == {favoured: 1}
        held = CompiledSearch(worlds, player, 0.7, seed, prior=1000.0, root_hint=favoured)
        held.ismcts(300)
        assert held.root_visits()[favoured] > 300 - 10 * count
        for roots in (0, 3):
            search = CompiledSearch(worlds, player, 0.7, seed, roots=max(roots, 1),
                                    prior=0.5, root_hint=favoured)
            search.pimc(150) if roots else search.ismcts(150)
            assert search.root_visits() == _reference(worlds, player, 0.7, seed, 150,
                                                      roots=roots, prior=0.5,
                                                      root_hint=favoured)
        plain = CompiledSearch(worlds, player, 0.7, seed)
        plain.ismcts(150)
        assert plain.root_visits() != search.root_visits()


def test_a_tree_that_outgrows_its_table_grows_and_plays_on():
    (player, worlds), = _positions("parket", count=1)
    seed = seed_state(3)
    small = CompiledSearch(worlds, player, 0.7, seed, capacity=1)
    assert small.tree.shape[0] == 1 + 2 * MARGIN
    small.ismcts(3 * MARGIN)
    assert small.tree.shape[0] > 1 + 2 * MARGIN and small.nodes > 2 * MARGIN
    large = CompiledSearch(worlds, player, 0.7, seed, capacity=1 << 16)
    large.ismcts(3 * MARGIN)
    assert small.root_visits() == large.root_visits()


def test_an_impossible_world_is_a_resampling_error(monkeypatch):
    (player, worlds), = _positions("parket", count=1)
    search = CompiledSearch(worlds, player, 0.7, 1)
    monkeypatch.setattr(search, "loops", compiled_tree.Loops(
        lambda *args: (0, compiled_tree.NO_WORLD), None))
    with pytest.raises(compiled_tree.ResamplingError):
        search.ismcts(5)


@pytest.mark.parametrize("spec", ["ismcts(sims=200)", "pimc(sims=200,worlds=5)"])
@pytest.mark.parametrize("game_string", GAMES)
def test_the_agents_search_compiled_unless_told_otherwise(game_string, spec):
    game = games.load_game(game_string)
    state = midgame_states(game, 1, seed=2, min_history=12)[0]
    compiled = solvers.load_agent(game, spec, seed=1)
    python = solvers.load_agent(game, spec.replace("sims", "tree=python,sims"), seed=1)
    compiled.step(state)
    python.step(state)
    if state.compiled_worlds(state.current_player()) is None:
        pytest.skip(f"{game_string} has no compiled worlds here")
    assert sum(compiled.last_visits.values()) == sum(python.last_visits.values()) == 200
    assert compiled.last_visits != python.last_visits      # another stream: another tree
    # With a rollout of Python rules of thumb the search stays on the Python tree.
    heuristic = solvers.load_agent(game, spec.replace("sims", "rollout=heuristic,sims"), seed=1)
    assert heuristic.spec != compiled.spec


@pytest.mark.parametrize("game_string", GAMES[1:])
def test_the_compiled_search_sees_no_hidden_card(game_string):
    """From the true states of two deals that differ only in cards the searcher has not
    seen, the same seed grows the same trees: worlds overwrite every hidden card (with
    Snitch's learned leaf and prior too, which read the other hands of each world)."""
    game = games.load_game(game_string)
    checked = 0
    for i, state in enumerate(midgame_states(game, 4, seed=8, min_history=12)):
        player = state.current_player()
        twin = other_deal(state, player, 100 * i)
        assert twin.information_state_string(player) == state.information_state_string(player)
        worlds = state.compiled_worlds(player)
        if worlds is None:
            continue
        assert not np.array_equal(worlds.template, twin.compiled_worlds(player).template)
        evaluator = EVALUATORS.get(game.get_type().short_name)
        compiled_knowledge = evaluator and evaluator.hint.kernel is not None
        options = [{}] + ([dict(leaf=evaluator.leaf("learned", game), hint=evaluator.hint,
                                prior=0.5)] if compiled_knowledge else [])
        for roots, option in itertools.product((0, 5), options):
            trees = []
            for position in (state, twin):
                search = CompiledSearch(position.compiled_worlds(player), player, 0.7, 99,
                                        roots=max(roots, 1), **option)
                search.pimc(300) if roots else search.ismcts(300)
                trees.append(search.root_visits())
            assert trees[0] == trees[1]
        checked += 1
    assert checked >= 2
