"""Snitch's learned value for search (solvers/learned/snitch.py): its features and walk,
the shipped model `snitch-v1`, the fit, and the search that reads it
(`ismcts(rollout=learned)`, which names the model)."""

import random

import numpy as np
import pyspiel
import pytest

from koloda import solvers
from koloda.games.kit.chance import draw_from_counts
from koloda.games.kit.compiled import CompiledGame
from koloda.games.snitch import kernel
from koloda.games.snitch.engine import OVER, SETS, TURN, SnitchCore
from koloda.games.snitch.game import SnitchGame
from koloda.games.snitch.kernel import MAX_LEGAL, PHASE, PLAYER
from koloda.solvers.heuristics.snitch import RULES_OF_THUMB
from koloda.solvers.learned import snitch as value
from koloda.solvers.learned import snitch_fit
from koloda.solvers.learned.mlp import unpack
from koloda.solvers.learned.models import index, load_model
from koloda.solvers.learned.value import value_leaf

from .reference_heuristic import reference_features, reference_values


def _positions(count, seed=0, players=3):
    """Engine positions at turns of heuristic self-play."""
    game = SnitchGame({"players": players})
    rng = random.Random(seed)
    out = []
    core = game.initial_engine(SnitchCore)
    while len(out) < count:
        if core.phase == OVER:
            core = game.initial_engine(SnitchCore)
        elif core.phase in (TURN, SETS):
            if core.phase == TURN and rng.random() < 0.2:
                out.append(core.copy())
            core.apply(RULES_OF_THUMB.action(core, core.player))
        else:
            core.apply(draw_from_counts(core.reserve, core.reserve_size, rng.random))
    return out


def test_the_features_of_every_seat_match_their_names():
    for core in _positions(20, seed=1):
        for seat in range(3):
            f = value.features(core, seat)
            assert len(f) == len(value.FEATURE_NAMES) and f[0] == 1.0
            assert all(isinstance(x, float) or isinstance(x, int) for x in f)


def _shipped():
    return load_model("snitch-v1").weights


def _change_weights():
    """The shipped linear model's weights of the change still to come (without the points
    laid, which it counts as they stand)."""
    (w, b), = unpack(_shipped())
    assert b.tolist() == [0.0]
    change = w[:, 0].copy()
    change[value.LAID_DIFF] -= 1.0
    return change


def test_the_shipped_model_loads_and_its_values_sum_to_zero():
    assert index()["snitch-v1"]["features"] == value.FEATURES.name
    assert len(_change_weights()) == len(value.FEATURE_NAMES)
    for core in _positions(20, seed=2) + _positions(5, seed=3, players=4):
        values = value.FEATURES.values(core, _shipped())
        assert len(values) == core.rules.num_players
        assert abs(sum(values)) < 1e-9 and all(abs(v) < 3 for v in values)


def test_a_joker_in_hand_is_worth_more_than_a_three():
    core = _positions(1, seed=4)[0]
    seat = core.player
    rules = core.rules
    with_joker, with_three = core.copy(), core.copy()
    for position, card in ((with_joker, rules.joker), (with_three, 0)):
        hand = position.hand(seat)
        hand[card] += 1
        position.set_hand(seat, hand)
    assert value.FEATURES.values(with_joker, _shipped())[seat] > \
        value.FEATURES.values(with_three, _shipped())[seat]


def test_the_fitted_model_beats_a_constant_on_held_out_deals():
    rows, labels, groups = snitch_fit.generate(deals=300, seed=5)
    assert len(rows) == len(labels) == len(groups) and max(groups) == 299
    train = [i for i, g in enumerate(groups) if g % 3]
    test = [i for i, g in enumerate(groups) if not g % 3]
    weights = snitch_fit.fit([rows[i] for i in train], [labels[i] for i in train])
    mean = sum(labels[i] for i in train) / len(train)
    constant = [mean] + [0.0] * (len(weights) - 1)
    held = ([rows[i] for i in test], [labels[i] for i in test])
    assert (snitch_fit.mean_squared_error(weights, *held)
            < snitch_fit.mean_squared_error(constant, *held))
    # the shipped weights do too
    shipped = _change_weights()
    assert (snitch_fit.mean_squared_error(shipped, *held)
            < snitch_fit.mean_squared_error(constant, *held))


def test_the_refit_is_seeded(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    snitch_fit.main(["--deals", "40", "--seed", "3", "--out", str(first)])
    snitch_fit.main(["--deals", "40", "--seed", "3", "--out", str(second)])
    assert (first / "snitch-v1.npy").read_bytes() == (second / "snitch-v1.npy").read_bytes()
    assert (first / "index.json").read_text() == (second / "index.json").read_text()


def test_the_walk_stops_at_the_searchers_next_turn_and_the_leaf_reads_the_model_there():
    """The leaf plays the heuristic's rules to the searcher's next turn and reads the model
    there, or gives the returns where the deal ends first."""
    weights = np.concatenate([[1.0], _shipped()])
    change = list(_change_weights())
    leaf = None
    stopped = ended = 0
    for core in _positions(30, seed=6):
        me = core.player
        world = core.copy()
        world.end_at_deal()
        world.apply(RULES_OF_THUMB.action(world, me))
        leaf = leaf or njit_leaf(world)
        walked = world.copy()
        x = value.walk_to_turn(walked.st, world.r, np.uint64(12345), me, 1,
                               np.empty(MAX_LEGAL, np.int64))
        st, out = world.st.copy(), np.zeros(3)
        x_leaf, valued = leaf(st, world.r, np.uint64(12345), me, 1, weights,
                              np.empty(MAX_LEGAL, np.int64), out)
        assert valued and x_leaf == x and np.array_equal(st, walked.st)
        if st[PHASE] == TURN:
            assert st[PLAYER] == me
            assert out.tolist() == pytest.approx(reference_values(change, walked), abs=1e-12)
            stopped += 1
        else:
            assert st[PHASE] == OVER
            assert out.tolist() == walked.returns()
            ended += 1
        assert abs(sum(out)) < 1e-9
    assert stopped > 10 and ended > 0


def njit_leaf(core):
    from numba import njit
    game = CompiledGame.of(kernel, core.rules)
    return njit(game.bind(value_leaf, value.FEATURES.names()))


def test_the_features_and_values_are_the_references():
    """The compiled features and values (solvers/learned/snitch.py) are those written
    plainly (reference_heuristic.py), in positions of several rule sets and off the
    heuristic's path."""
    weights = list(_change_weights())
    checked = 0
    for params in ({"players": 3}, {"players": 4, "target_score": 0},
                   {"players": 5, "target_score": 300},
                   {"ranks": 6, "copies": 4, "hand_size": 4, "max_sets_per_turn": 1}):
        game = SnitchGame(params)
        rng = random.Random(3)
        for _ in range(3):
            core = game.initial_engine(SnitchCore)
            while core.phase != OVER:
                if core.phase in (TURN, SETS):
                    for seat in range(core.rules.num_players):
                        assert value.features(core, seat) == pytest.approx(
                            reference_features(core, seat), abs=1e-12)
                    assert value.FEATURES.values(core, _shipped()).tolist() == \
                        pytest.approx(reference_values(weights, core), abs=1e-12)
                    checked += 1
                    legal = core.legal_actions()
                    core.apply(RULES_OF_THUMB.action(core, core.player)
                               if rng.random() < 0.8 else rng.choice(legal))
                else:
                    core.apply(draw_from_counts(core.reserve, core.reserve_size, rng.random))
    assert checked > 500


@pytest.mark.parametrize("spec", ["ismcts(sims=40,rollout=learned)",
                                  "ismcts(sims=40,rollout=learned,depth=2,uct_c=0.1)",
                                  "pimc(sims=40,worlds=4,rollout=learned)"])
def test_search_with_the_learned_value_plays_legal_moves(spec):
    game = pyspiel.load_game("snitch")
    agent = solvers.load_agent(game, spec, seed=1)
    heuristic = solvers.load_agent(game, "heuristic", seed=2)
    rng = random.Random(7)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 60:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        action = (agent if player == 0 else heuristic).step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += player == 0


def test_a_game_without_a_model_plays_its_learned_rollouts_to_the_end():
    game = pyspiel.load_game("durak")
    agent = solvers.load_agent(game, "ismcts(sims=30,rollout=learned)", seed=1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert agent.step(state) in state.legal_actions()

