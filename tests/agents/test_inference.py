"""Reading the hidden cards from play (solvers/search/inference.py): each world's weight is
the model's likelihood of the opponents' moves of the deal in progress, recomputed here
plainly on pyspiel states; the worlds are the player's own resamples; the compiled pool
picks its rows uniformly."""

import math
import random

import numpy as np
import pytest

from koloda import games, solvers
from koloda.games.kit.compiled import pool_world, pooled_worlds
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.search.inference import SPREAD, InferredWorlds, OpponentModel


def _reference_log_weights(state, player, noise, count, seed, recent=0):
    """The same candidate histories (the same random stream), weighed on pyspiel states
    with the heuristic agent's own `step`; with `recent`, each opponent's last `recent`
    moves alone."""
    game = state.get_game()
    heuristic = solvers.load_agent(game, "heuristic")
    rng = random.Random(seed)
    deals = state.core.deals_finished()
    weights = []
    for _ in range(count):
        history = state.core.resample_history(player, rng)
        replay, moves = game.new_initial_state(), {}
        for action in history:
            mover = replay.current_player()
            if mover >= 0 and mover != player and replay.core.deals_finished() == deals:
                legal = replay.legal_actions()
                if len(legal) > 1:
                    p = noise / len(legal) + (1 - noise) * (heuristic.step(replay) == action)
                    moves.setdefault(mover, []).append(math.log(p))
            replay.apply_action(action)
        assert replay.information_state_string(player) == \
            state.information_state_string(player)
        weights.append(sum(sum(logs[-recent:] if recent else logs)
                           for logs in moves.values()))
    return weights


@pytest.mark.parametrize("game_string, history", [
    ("snitch(target_score=300)", 150), ("durak", 20), ("platinum_fish", 30)])
def test_the_weights_are_the_models_likelihood_of_the_opponents_moves(game_string, history):
    game = games.load_game(game_string)
    for state in midgame_states(game, 2, seed=5, min_history=history, chance=0.2):
        player = state.current_player()
        inferred = InferredWorlds(state, player, OpponentModel(game, 0.3), 12,
                                  random.Random(8))
        expected = _reference_log_weights(state, player, 0.3, 12, 8)
        assert inferred.log_weights == pytest.approx(expected, rel=1e-9, abs=1e-9)
        top = max(expected)
        shares = [math.exp(inferred.power * (w - top)) for w in expected]
        cumulative = np.cumsum(shares) / sum(shares)
        assert inferred.cumulative == pytest.approx(list(cumulative), rel=1e-9, abs=1e-12)
        # tempered only as far as it must be to leave a quarter of the candidates
        assert inferred.effective >= SPREAD * 12 - 1e-6
        if inferred.power < 1:
            assert inferred.effective == pytest.approx(SPREAD * 12, rel=1e-3)
        for world in inferred.worlds:      # each a world the player cannot tell apart
            assert world.key() is not None
            assert world.current_player() == player


@pytest.mark.parametrize("game_string, history", [
    ("snitch(target_score=300)", 150), ("durak", 40)])
def test_with_recent_each_opponents_last_moves_alone_are_weighed(game_string, history):
    game = games.load_game(game_string)
    for state in midgame_states(game, 2, seed=6, min_history=history, chance=0.2):
        player = state.current_player()
        everything = _reference_log_weights(state, player, 0.3, 12, 8)
        for recent in (1, 3):
            inferred = InferredWorlds(state, player, OpponentModel(game, 0.3, recent), 12,
                                      random.Random(8))
            expected = _reference_log_weights(state, player, 0.3, 12, 8, recent)
            assert inferred.log_weights == pytest.approx(expected, rel=1e-9, abs=1e-9)
            if recent == 1:                        # the window leaves moves out
                assert expected != pytest.approx(everything)


def test_the_compiled_pool_picks_its_rows_uniformly_and_copies_them_whole():
    game = games.load_game("durak")
    states = midgame_states(game, 3, seed=4, min_history=10, chance=0.2)
    engine = states[0].core
    rows = np.stack([s.core.st for s in states])
    worlds = pooled_worlds(engine, rows)
    world = np.empty_like(worlds.template)
    x = np.uint64(12345)
    seen = []
    for _ in range(3000):
        x, ok = pool_world(worlds.template, worlds.game.r, worlds.prob, worlds.extra, world,
                           np.uint64(x))          # numba hands the state back as an int
        assert ok
        index = [i for i in range(len(rows)) if np.array_equal(rows[i], world)]
        assert len(index) == 1
        seen.append(index[0])
    counts = np.bincount(seen, minlength=3)
    assert all(abs(c - 1000) < 4 * math.sqrt(3000 * (1 / 3) * (2 / 3)) for c in counts)


@pytest.mark.parametrize("tree", ["compiled", "python"])
def test_a_search_with_inference_plays_legally(tree):
    game = games.load_game("snitch(target_score=300)")
    agent = solvers.load_agent(game, f"ismcts(infer=16,sims=100,tree={tree})", seed=3)
    for state in midgame_states(game, 3, seed=9, min_history=100, chance=0.2):
        assert agent.step(state) in state.legal_actions()
