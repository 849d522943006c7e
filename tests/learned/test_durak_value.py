"""Durak's value features and leaf: the kernel's values are the numpy reference's, the
features see the trump suit and not the suits' names, and a search valuing its leaves by
a model plays legal moves in both trees, the compiled one visit for visit as tree.py
(that it never reads a hidden card: tests/agents/test_agents_see_no_hidden_cards.py)."""

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.learned import durak as durak_value
from koloda.solvers.learned import mlp
from koloda.solvers.registry import load_agent
from koloda.solvers.search.compiled_tree import CompiledSearch
from koloda.solvers.search.evaluators import EVALUATORS
from koloda.solvers.search.kernel_world import reference_search

from .helpers import install_test_model

GAME = "durak"


def _states(count=6):
    return midgame_states(games.load_game(GAME), count, seed=3, min_history=8)


def test_the_kernel_values_are_the_numpy_reference_less_their_mean(tmp_path, monkeypatch):
    weights = install_test_model(tmp_path, monkeypatch)
    for state in _states():
        core = state.core
        raw = [mlp.forward_reference(weights, durak_value.features(core, seat))[0]
               for seat in range(2)]
        expected = np.array(raw) - np.mean(raw)
        np.testing.assert_allclose(durak_value.values(core, weights), expected, atol=1e-12)


def test_the_features_read_the_seat_first_and_the_trump_suit_first():
    for state in _states():
        core = state.core
        size = core.rules.deck.size
        mine, theirs = durak_value.features(core, 0), durak_value.features(core, 1)
        np.testing.assert_array_equal(mine[:size], theirs[size:2 * size])   # hands rotate
        trump = core.trump_suit
        hand = [c for c in range(size) if core.hands[0] >> c & 1]
        trumps = {c // 4 for c in hand if c % 4 == trump}
        assert {c // 4 for c in range(size) if mine[c] and c % 4 == 0} == trumps


def _renamed(core, to):
    """`core` with its trump suit renamed `to` and the other suits after it in their
    order: the same deal, as the features should see it."""
    from koloda.games.durak import kernel as k
    trump = core.trump_suit
    others = [s for s in range(4) if s != trump]
    placed = [s for s in range(4) if s != to]
    suit = {trump: to, **dict(zip(others, placed))}

    def card(c):
        return c - c % 4 + suit[c % 4]

    def mask(m):
        return sum(1 << card(c) for c in range(36) if m >> c & 1)
    other = core.copy()
    st = other.st
    for at in [k.STOCK, k.DISCARD, k.TABLE_MASK, k.HANDS, k.HANDS + 1]:
        st[at] = mask(int(st[at]))
    if st[k.OPEN_CARD] >= 0:
        st[k.OPEN_CARD] = card(int(st[k.OPEN_CARD]))
    st[k.TRUMP_SUIT] = to
    return other


def test_the_features_see_which_suit_is_trump_not_its_name():
    for state in _states():
        core = state.core
        for to in range(4):
            renamed = _renamed(core, to)
            assert renamed.trump_suit == to
            for seat in range(2):
                np.testing.assert_array_equal(durak_value.features(core, seat),
                                              durak_value.features(renamed, seat))
        moved = _renamed(core, (core.trump_suit + 1) % 4)
        moved.st[type(core).kernel.TRUMP_SUIT] = core.trump_suit      # trump not renamed
        assert not np.array_equal(durak_value.features(core, 0),
                                  durak_value.features(moved, 0))


@pytest.mark.parametrize("mix, name", [(1.0, "value"), (0.5, "mixed")])
def test_a_search_valued_by_a_model_grows_the_reference_tree(tmp_path, monkeypatch, mix,
                                                             name):
    install_test_model(tmp_path, monkeypatch)
    leaf = EVALUATORS["durak"].model_leaf("durak-v9", games.load_game(GAME), mix)
    assert leaf.name == name
    for state in _states(3):
        player = state.current_player()
        worlds = state.compiled_worlds(player)
        seed = seed_state(11)
        search = CompiledSearch(worlds, player, 0.7, seed, leaf=leaf)
        search.ismcts(200)
        reference = reference_search(worlds, player, 0.7, seed, leaf=leaf)
        reference.ismcts(200)
        assert search.root_visits() == reference.root_visits()


@pytest.mark.parametrize("tree", ["compiled", "python"])
def test_agents_valued_by_a_model_play_legal_moves(tmp_path, monkeypatch, tree):
    install_test_model(tmp_path, monkeypatch)
    game = games.load_game(GAME)
    for spec in (f"ismcts(value=durak-v9,sims=60,tree={tree})",
                 f"ismcts(value=durak-v9,mix=0.5,sims=60,tree={tree})",
                 f"pimc(value=durak-v9,sims=60,worlds=4,tree={tree})"):
        agent = load_agent(game, spec, seed=2)
        for state in _states(3):
            assert agent.step(state) in state.legal_actions()


def test_the_mixed_leaf_weighs_the_model_against_one_playout_from_the_same_world(
        tmp_path, monkeypatch):
    from koloda.games.durak import kernel
    weights = install_test_model(tmp_path, monkeypatch)
    for state in _states(4):
        core = state.core
        x = np.uint64(seed_state(5))
        mixed = core.st.copy()
        out = np.empty(2)
        x_mixed, valued = durak_value.mixed_leaf(mixed, core.r, x, 0, 1,
                                                 np.concatenate([[0.3], weights]),
                                                 np.empty(64, np.int64), out)
        alone = core.st.copy()
        value = np.empty(2)
        durak_value.kernel_values(alone, core.r, weights, value)
        x_alone = kernel.playout(alone, core.r, x)
        ends = np.empty(2)
        kernel.returns(alone, core.r, ends)
        assert valued and x_mixed == x_alone
        np.testing.assert_array_equal(mixed, alone)            # the same playout
        np.testing.assert_allclose(out, 0.3 * value + 0.7 * ends, atol=1e-12)


def test_mix_without_a_model_is_refused():
    from koloda.solvers.errors import AgentSpecError
    with pytest.raises(AgentSpecError, match="mix weighs a value model"):
        load_agent(games.load_game(GAME), "ismcts(mix=0.5)")
