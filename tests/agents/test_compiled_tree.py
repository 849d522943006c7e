"""The compiled tree (solvers/search/compiled_tree.py) against a plain reference: the same
algorithm written with dicts in Python, calling the same kernel functions on the same
random stream, must build the same tree, visit for visit, for ISMCTS and PIMC, whether
or not the node table had to grow on the way."""

import itertools
import math

import numpy as np
import pyspiel
import pytest

from koloda import games, solvers
from koloda.games.kit.kernel import below, seed_state
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.search import compiled_tree
from koloda.solvers.search.compiled_tree import CHANCE, HIDDEN, MARGIN, TERMINAL, CompiledSearch
from koloda.solvers.search.kernel_leaves import KERNEL_LEAVES

GAMES = ["parket", "durak", "platinum_fish", "snitch(target_score=300)"]


class _Node:
    def __init__(self):
        self.children, self.visits, self.value, self.avail = {}, 0, 0.0, 0


def _reference(worlds, player, uct_c, seed, sims, roots=0, leaves=None, learned=False,
               prior=0.0, turns=1):
    """ISMCTS (roots=0) or PIMC over `roots` worlds, as tree.py's Tree.simulate, on the
    kernel's functions and xorshift stream; with `leaves` (kernel_leaves.py), leaves valued
    by the learned model (`learned`) and the heuristic's move as a prior (`prior`)."""
    g = worlds.game
    weights = leaves.weights() if learned else None
    current_player, legal_actions, sample_chance, chance_seen_by, apply, playout, returns = (
        g.functions)
    x = np.uint64(seed)
    world = np.empty_like(worlds.template)
    legal = np.empty(g.max_legal, np.int64)
    rets = np.zeros(g.num_players)
    trees = [_Node() for _ in range(max(roots, 1))]
    drawn = []

    def determinize(target):
        nonlocal x
        x, ok = g.determinize(worlds.template, g.r, worlds.prob, worlds.extra, target, x)
        x = np.uint64(x)
        assert ok

    def pick(count):
        nonlocal x
        x, chosen = below(x, count)
        x = np.uint64(x)
        return int(chosen)

    for i in range(sims):
        if roots:
            k = i % roots
            if k == len(drawn):
                drawn.append(np.empty_like(worlds.template))
                determinize(drawn[k])
            world[:] = drawn[k]
        else:
            k = 0
            determinize(world)
        node, path, valued = trees[k], [], False
        while True:
            mover = current_player(world)
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                x, outcome = sample_chance(world, g.r, x)
                x = np.uint64(x)
                seen = roots or chance_seen_by(world, g.r, player, outcome)
                key = outcome if seen else HIDDEN
                apply(world, g.r, outcome)
                node = node.children.setdefault(key, _Node())
                continue
            actions = legal[:legal_actions(world, g.r, legal)].tolist()
            hinted = int(leaves.hint(world, g.r, legal)) if prior and len(actions) > 1 else -1
            untried = [a for a in actions if a not in node.children]
            for a in actions:
                if a in node.children:
                    node.children[a].avail += 1
            if untried:
                action = hinted if hinted in untried else untried[pick(len(untried))]
                child = node.children[action] = _Node()
                child.avail = 1
                apply(world, g.r, action)
                path.append((child, mover))
                if learned:
                    x, valued = leaves.leaf(world, g.r, x, player, turns, weights, legal, rets)
                    x = np.uint64(x)
                else:
                    x = np.uint64(playout(world, g.r, x))
                break
            best, best_score = None, -math.inf
            for a in actions:
                c = node.children[a]
                score = c.value / c.visits + uct_c * math.sqrt(math.log(c.avail) / c.visits)
                if a == hinted:
                    score += prior / (1 + c.visits)
                if score > best_score:
                    best, best_score = a, score
            apply(world, g.r, best)
            node = node.children[best]
            path.append((node, mover))
        if not valued:
            returns(world, g.r, rets)
        for node, mover in path:
            node.visits += 1
            node.value += rets[mover]
    visits = {}
    for tree in trees:
        for action, child in tree.children.items():
            if child.visits:
                visits[action] = visits.get(action, 0) + child.visits
    return visits


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
    leaves = KERNEL_LEAVES["snitch"]
    for player, worlds in _positions("snitch(target_score=300)"):
        worlds.end_at_deal()
        options = dict(leaves=leaves, learned=learned, prior=prior, turns=turns)
        seed = seed_state(5)
        search = CompiledSearch(worlds, player, 0.1, seed, **options)
        search.ismcts(120)
        search.ismcts(80)
        assert search.root_visits() == _reference(worlds, player, 0.1, seed, 200, **options)
        search = CompiledSearch(worlds, player, 0.1, seed, roots=3, **options)
        search.pimc(150)
        assert search.root_visits() == _reference(worlds, player, 0.1, seed, 150, roots=3,
                                                  **options)


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


def _twin(state, player, seed):
    """A state with the same information state for `player` and other hidden cards."""
    for k in range(50):
        other = state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(seed + k, 0.0, 1.0))
        if str(other) != str(state):
            return other
    raise AssertionError("no resample with different hidden cards")


@pytest.mark.parametrize("game_string", GAMES[1:])
def test_the_compiled_search_sees_no_hidden_card(game_string):
    """From the true states of two deals that differ only in cards the searcher has not
    seen, the same seed grows the same trees: worlds overwrite every hidden card (with
    Snitch's learned leaf and prior too, which read the other hands of each world)."""
    game = games.load_game(game_string)
    checked = 0
    for i, state in enumerate(midgame_states(game, 4, seed=8, min_history=12)):
        player = state.current_player()
        twin = _twin(state, player, 100 * i)
        assert twin.information_state_string(player) == state.information_state_string(player)
        worlds = state.compiled_worlds(player)
        if worlds is None:
            continue
        assert not np.array_equal(worlds.template, twin.compiled_worlds(player).template)
        leaves = KERNEL_LEAVES.get(game.get_type().short_name)
        options = [{}] + ([dict(leaves=leaves, learned=True, prior=0.5)] if leaves else [])
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
