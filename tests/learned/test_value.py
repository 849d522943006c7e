"""The learned value leaf (solvers/learned/value.py) in every game with value features: the
kernel form's values are the numpy reference's, mixed with the very playout the kernel
plays, and a search valuing its leaves by a model grows the reference tree visit for visit
and plays legal moves in both trees (that it never reads a hidden card:
tests/agents/test_agents_see_no_hidden_cards.py)."""

import numpy as np
import pytest
from numba import njit

from koloda import games
from koloda.games.kit.compiled import CompiledGame
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.learned.models import index, load_model
from koloda.solvers.learned.value import value_leaf
from koloda.solvers.registry import check_spec, load_agent
from koloda.solvers.search.compiled_tree import CompiledSearch
from koloda.solvers.search.evaluators import EVALUATORS
from koloda.solvers.search.kernel_world import reference_search

from .helpers import install_test_model
from .test_policy import play_out

GAMES = [name for name, evaluator in EVALUATORS.items() if evaluator.values is not None]


def _states(game_string, count=6):
    return midgame_states(games.load_game(game_string), count, seed=3, min_history=8)


def _install(game_string, tmp_path, monkeypatch):
    return install_test_model(tmp_path, monkeypatch, name=f"{game_string}-v9",
                              game_string=game_string)


def _compiled_leaf(core, features):
    game = CompiledGame.of(type(core).kernel, core.rules)
    return njit(game.bind(value_leaf, features.names()))


def test_every_game_with_a_learned_value_is_tested():
    assert {"durak", "platinum_fish", "snitch", "parket"} <= set(GAMES)


@pytest.mark.parametrize("game_string", GAMES)
@pytest.mark.parametrize("mix", [1.0, 0.3])
def test_the_kernel_leaf_is_the_numpy_reference_mixed_with_its_own_playout(
        game_string, mix, tmp_path, monkeypatch):
    weights = _install(game_string, tmp_path, monkeypatch)
    features = EVALUATORS[game_string].values
    leaf = None
    for state in _states(game_string, 4):
        core = state.core
        leaf = leaf or _compiled_leaf(core, features)
        n = core.rules.num_players
        legal = np.empty(type(core).kernel.MAX_LEGAL, np.int64)
        x = np.uint64(seed_state(5))
        world, out = core.copy(), np.empty(n)
        x_leaf, valued = leaf(world.st, core.r, x, 0, 1, np.concatenate([[mix], weights]),
                              legal, out)
        walked = core.copy()                                       # where the model reads
        x = np.uint64(features.walk(walked.st, core.r, x, 0, 1, legal))
        expected = features.values(walked, weights)
        assert valued
        if mix < 1.0:
            alone = walked.copy()
            x_alone = type(core).kernel.playout(alone.st, core.r, x)
            np.testing.assert_array_equal(world.st, alone.st)      # the same playout
            assert x_leaf == x_alone
            expected = mix * expected + (1 - mix) * np.array(alone.returns())
        else:
            np.testing.assert_array_equal(world.st, walked.st)     # nothing more played
        np.testing.assert_allclose(out, expected, atol=1e-12)


@pytest.mark.parametrize("game_string", GAMES)
def test_the_reference_values_are_the_model_read_from_each_seat_less_their_mean(
        game_string, tmp_path, monkeypatch):
    from koloda.solvers.learned import mlp
    weights = _install(game_string, tmp_path, monkeypatch)
    features = EVALUATORS[game_string].values
    for state in _states(game_string, 3):
        core = state.core
        raw = [float(mlp.forward_reference(weights, features.of(core, seat))[0])
               for seat in range(core.rules.num_players)]
        np.testing.assert_allclose(features.values(core, weights), np.array(raw) -
                                   np.mean(raw), atol=1e-12)


@pytest.mark.parametrize("game_string", GAMES)
@pytest.mark.parametrize("mix", [1.0, 0.5])
def test_a_search_valued_by_a_model_grows_the_reference_tree(game_string, mix, tmp_path,
                                                             monkeypatch):
    _install(game_string, tmp_path, monkeypatch)
    game = games.load_game(game_string)
    leaf = EVALUATORS[game_string].model_leaf(f"{game_string}-v9", game, mix)
    for state in _states(game_string, 3):
        player = state.current_player()
        worlds = state.compiled_worlds(player)
        seed = seed_state(11)
        search = CompiledSearch(worlds, player, 0.7, seed, leaf=leaf)
        search.ismcts(200)
        reference = reference_search(worlds, player, 0.7, seed, leaf=leaf)
        reference.ismcts(200)
        assert search.root_visits() == reference.root_visits()


@pytest.mark.parametrize("game_string", GAMES)
@pytest.mark.parametrize("tree", ["compiled", "python"])
def test_agents_valued_by_a_model_play_legal_moves(game_string, tree, tmp_path, monkeypatch):
    _install(game_string, tmp_path, monkeypatch)
    game = games.load_game(game_string)
    model = f"{game_string}-v9"
    for spec in (f"ismcts(value={model},sims=60,tree={tree})",
                 f"ismcts(value={model},mix=0.5,sims=60,tree={tree})",
                 f"pimc(value={model},sims=60,worlds=4,tree={tree})"):
        agent = load_agent(game, spec, seed=2)
        for state in _states(game_string, 3):
            assert agent.step(state) in state.legal_actions()


def test_a_model_of_other_features_is_refused(tmp_path, monkeypatch):
    install_test_model(tmp_path, monkeypatch, name="platinum_fish-v8",
                       game_string="platinum_fish")
    entries = tmp_path / "index.json"
    entries.write_text(entries.read_text().replace('"platinum_fish-1"', '"platinum_fish-0"'))
    load_model.cache_clear()
    with pytest.raises(AgentSpecError, match="reads the features platinum_fish-0"):
        load_agent(games.load_game("platinum_fish"), "ismcts(value=platinum_fish-v8)")


def test_mix_without_a_model_is_refused():
    with pytest.raises(AgentSpecError, match="mix weighs a value model"):
        load_agent(games.load_game("durak"), "ismcts(mix=0.5)")


#: per game, a variant its value models play (no variant key changed) and one they refuse
VARIANTS = {
    "durak": ("durak(max_attack_cards=5)", "durak(players=3)"),
    "platinum_fish": ("platinum_fish(max_turns=200)", "platinum_fish(copies=4)"),
    "snitch": ("snitch(players=4,target_score=300)", None),   # features of every variant
    "parket": ("parket(first_color=black)", "parket(corner_order=any)"),
}


@pytest.mark.parametrize("name", sorted(n for n, e in index().items() if e["kind"] == "value"))
def test_every_shipped_value_model_plays_the_variants_it_accepts_and_refuses_the_others(name):
    entry = index()[name]
    assert entry["game"] in VARIANTS, f"{name}: say which variants it accepts and refuses"
    features = EVALUATORS[entry["game"]].values
    assert load_model(name).features == features.name
    accepted, refused = VARIANTS[entry["game"]]
    for variant in (entry["game"], accepted):
        game = games.load_game(variant)
        agents = [load_agent(game, f"ismcts(value={name},mix=0.5,sims=20)", seed=s)
                  for s in range(game.num_players())]
        assert play_out(game, agents, seed=2) > 0
    if refused is not None:
        with pytest.raises(AgentSpecError, match=f"model {name} was fitted for"):
            check_spec(games.load_game(refused), f"ismcts(value={name})")
