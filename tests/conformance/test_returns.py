"""Returns follow the shared formula of rules/README.md ("Returns"), and games stay within
the bounds the game declares."""

import math

import pyspiel
import pytest

from .games_under_test import GAMES
from .random_play import load, random_history, replay, states_along

GAMES_PER_CASE = 12
CHANCE = int(pyspiel.PlayerId.CHANCE)


def winner_returns(num_players: int, winners: set[int]) -> list[float]:
    """The README formula: k of n win; each winner (n-k)/(k(n-1)), each other -1/(n-1);
    no winner or every player a winner is a draw, 0 for all."""
    n, k = num_players, len(winners)
    if k in (0, n):
        return [0.0] * n
    return [(n - k) / (k * (n - 1)) if p in winners else -1 / (n - 1) for p in range(n)]


def test_the_formula_as_written_here():
    assert winner_returns(2, {0}) == [1.0, -1.0]
    assert winner_returns(3, {0, 2}) == [0.25, -0.5, 0.25]
    assert winner_returns(4, {1}) == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])
    assert winner_returns(3, set()) == winner_returns(3, {0, 1, 2}) == [0.0] * 3


def assert_fits_a_winner_set(returns: list[float]) -> None:
    """The returns are the formula's for some set of winners: those with a positive return."""
    winners = {p for p, value in enumerate(returns) if value > 0}
    assert returns == pytest.approx(winner_returns(len(returns), winners), abs=1e-12), (
        f"returns {returns} fit no set of winners")


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_terminal_returns_follow_the_formula_and_sum_to_zero(case):
    game = load(case.game_string)
    for seed in range(GAMES_PER_CASE):
        state = replay(game, random_history(case.game_string, seed))
        assert state.is_terminal()
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert_fits_a_winner_set(returns)
        assert math.fsum(returns) == pytest.approx(0.0, abs=1e-12)
        assert all(game.min_utility() <= value <= game.max_utility() for value in returns)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_returns_are_zero_before_the_end(case):
    game = load(case.game_string)
    for seed in range(3):
        for state in states_along(game, random_history(case.game_string, seed)):
            if not state.is_terminal():
                assert state.returns() == [0.0] * game.num_players(), state.history()


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_games_stay_within_the_declared_length_and_chance_bounds(case):
    game = load(case.game_string)
    max_chance = getattr(game, "max_chance_nodes_in_history", None)
    for seed in range(GAMES_PER_CASE):
        state = replay(game, random_history(case.game_string, seed))
        assert len(state.history()) <= game.max_game_length()
        if max_chance is not None:
            chance_nodes = sum(1 for step in state.full_history() if step.player == CHANCE)
            assert chance_nodes <= max_chance()
