"""The engine (a `ParketCore`, a thin layer over games/parket/kernel.py) against the rules
written plainly (reference.py): driven side by side through random games, they agree on
every field, the legal actions and the result after every step, and the engine's random
playout plays the game the plain rules play from the same random numbers; the kernel's
own random playouts end well and play the engine's distribution."""

import random

import numpy as np
import pytest
from kernel_playouts import assert_shares_agree, check_playouts_end, kernel_and_other_ends

from koloda import games
from koloda.games.kit.engine import TERMINAL
from koloda.games.parket import kernel as K
from koloda.games.parket.board import EMPTY, NUM_CELLS
from koloda.games.parket.engine import DRAW, ONGOING, ParketCore
from koloda.games.parket.reference import Reference

RULE_SETS = [
    "parket",
    "parket(corner_order=any)",
    "parket(max_relocations=2)",
    "parket(first_color=black)",
]
SEEDS = 300


def _fields(position):
    return {
        "board": list(position.board), "hands": list(position.hands),
        "player": position.player, "main": bool(position.main),
        "relocations": position.relocations, "result": position.result,
    }


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_plays_the_plain_rules_move_by_move(game_string):
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    outcomes = np.empty(K.MAX_CHANCE, np.int64)
    weights = np.empty(K.MAX_CHANCE, np.int64)
    returns = np.empty(2, np.float64)
    results = set()
    relocated = False
    for seed in range(SEEDS):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        assert isinstance(core, ParketCore)
        plain = Reference(game.rules)
        steps = 0
        while True:
            assert _fields(core) == _fields(plain), (seed, steps)
            st = core.st
            assert K.chance_outcomes(st, r, outcomes, weights) == 0 == len(core.chance_outcomes())
            for seat in range(2):
                assert K.chance_seen_by(st, r, seat, 0) == core.chance_seen_by(seat, 0)
            K.returns(st, r, returns)
            assert returns.tolist() == core.returns(), (seed, steps)
            assert K.current_player(st) == core.current_player(), (seed, steps)
            assert core.is_terminal() == (plain.result != ONGOING) == K.is_terminal(st)
            assert not K.is_chance(st)
            legal = plain.legal_actions()
            assert core.legal_actions() == legal, (seed, steps)
            if core.is_terminal():
                break
            action = legal[rng.randrange(len(legal))]
            relocated |= action >= K.PLACE_ACTIONS
            core.apply(action)
            plain.apply(action)
            steps += 1
        assert core.current_player() == TERMINAL == -4
        assert core.returns() == _expected_returns(plain.result)
        assert len(core.events) == steps
        results.add(core.result)
    assert relocated
    assert {0, 1} <= results


def _expected_returns(result):
    return [0.0, 0.0] if result == DRAW else [1.0 if s == result else -1.0 for s in range(2)]


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_playout_is_the_plain_rules_game_from_the_same_numbers(game_string):
    rules = games.load_game(game_string).rules
    start = ParketCore(rules)
    for seed in range(30):
        core = start.copy()
        core.random_playout(random.Random(seed).random)
        plain, rng, played = Reference(rules), random.Random(seed), []
        while plain.result == ONGOING:
            legal = plain.legal_actions()
            played.append(legal[int(rng.random() * len(legal))])
            plain.apply(played[-1])
        assert core.events == played, seed
        assert _fields(core) == _fields(plain), seed
    assert start.events == [] and start.result == ONGOING     # the start is untouched


def test_from_engine_is_the_engines_state_to_keep():
    core = ParketCore(games.load_game("parket").rules)
    st = K.from_engine(core)
    assert np.array_equal(st, core.st) and st is not core.st
    K.apply(st, core.r, core.legal_actions()[0])
    assert core.board == [EMPTY] * NUM_CELLS and core.events == []


def test_equal_positions_by_different_move_orders_have_equal_keys():
    game = games.load_game("parket")
    one, two = game.new_initial_state(), game.new_initial_state()
    for state, moves in ((one, ("9h d2", "Tc c3", "Ah e3")), (two, ("Ah e3", "Tc c3", "9h d2"))):
        for text in moves:
            state.apply_action(state.string_to_action(text))
    assert one.core.key() == two.core.key()
    assert hash(one.core.key()) == hash(two.core.key())
    assert one.core.key() != game.new_initial_state().core.key()


def _check_finished(st):
    assert K.is_terminal(st)
    res = K.result(st)
    assert res in (0, 1, DRAW)
    board = st[K.BOARD:K.BOARD + NUM_CELLS].tolist()
    placed = [c for c in board if c != EMPTY]
    assert len(set(placed)) == len(placed)
    on_board = sum(1 << c for c in placed)
    hands = st[K.HANDS:K.HANDS + 2].tolist()
    assert hands[0] & hands[1] == 0 and (hands[0] | hands[1]) & on_board == 0
    assert popcount_all(hands[0] | hands[1] | on_board) == 36
    if res == DRAW:
        assert st[K.RELOCATIONS] >= 1


def popcount_all(mask):
    return bin(mask).count("1")


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_kernel_random_playout_ends_consistently(game_string):
    game = games.load_game(game_string)
    check_playouts_end(K, game.rules, _check_finished, seeds=500)
    r = K.rules_arrays(game.rules)
    start = K.new_state(r)
    results = np.empty(200, np.int64)
    K.random_playouts(start, r, 7, 200, results)
    assert set(results.tolist()) <= {0, 1, DRAW}
    assert K.result(start) == ONGOING        # the start is untouched


@pytest.mark.parametrize("game_string", ["parket", "parket(corner_order=any)"])
def test_kernel_random_playout_matches_the_engine_distribution(game_string):
    rules = games.load_game(game_string).rules
    start = ParketCore(rules)

    def engine_result(random):
        core = start.copy()
        core.random_playout(random)
        return core.result

    kernel, engine = kernel_and_other_ends(K, rules, engine_result)
    assert_shares_agree(kernel, engine, (0, 1, DRAW))


def _seed(seed):
    """The stream state of `seed` as a uint64: numba hands it back as a Python int, which
    below 2**63 would be passed in again as an int64."""
    return np.uint64(K.seed_state(seed))


@pytest.mark.parametrize("game_string", ["parket", "parket(max_relocations=2)"])
def test_playout_continues_the_stream_as_random_playout_did(game_string):
    """playout(st, r, x) is the uniform loop over legal_actions drawing with `below` from
    x, and returns the stream's state after the last draw; random_playout(seed) is
    playout from seed_state(seed)."""
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    start = K.new_state(r)
    out = np.empty(K.MAX_LEGAL, np.int64)
    x_chained = _seed(99)
    for seed in range(40):
        by_hand = start.copy()
        x = _seed(seed)
        while not K.is_terminal(by_hand):
            x, pick = K.below(np.uint64(x), K.legal_actions(by_hand, r, out))
            K.apply(by_hand, r, out[pick])
        st = start.copy()
        assert K.playout(st, r, _seed(seed)) == x
        assert np.array_equal(st, by_hand), seed
        old = start.copy()
        K.random_playout(old, r, seed)
        assert np.array_equal(old, by_hand), seed
        # the stream goes on, no repeats
        x_chained = K.playout(start.copy(), r, np.uint64(x_chained))
    assert x_chained != _seed(99)
    x_out, outcome = K.sample_chance(start, r, np.uint64(x_chained))
    assert (x_out, outcome) == (x_chained, -1)


def test_playout_takes_a_stream_state_passed_as_an_int64():
    """A seed state below 2**63 handed back from Python arrives as an int64; playout plays
    the same game as from the uint64 (it read `pick` out of range before)."""
    r = K.rules_arrays(games.load_game("parket").rules)
    start = K.new_state(r)
    seed = next(s for s in range(100) if K.seed_state(s) < 2 ** 63)
    as_uint, as_int = start.copy(), start.copy()
    x_uint = K.playout(as_uint, r, _seed(seed))
    x_int = K.playout(as_int, r, np.int64(K.seed_state(seed)))
    assert np.array_equal(as_int, as_uint) and np.uint64(x_int) == x_uint
