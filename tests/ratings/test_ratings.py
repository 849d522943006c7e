"""Ratings: pairwise results by placement, the Elo fit, LOS, bootstrap intervals, tables."""

import math

import numpy as np
import pytest

from koloda.games.kit.outcomes import returns_for_winners
from koloda.tournament.ratings import (
    ELO_OPTIONS,
    GameOutcome,
    PairRecord,
    ScoreInterval,
    bootstrap_intervals,
    clustered_score,
    fit_elo,
    head_to_head,
    likelihood_of_superiority,
    pairwise_counts,
    rating_table,
    unbounded_sides,
)

from .simulate import two_player_games

ELO_75 = 400 * math.log10(3)   # 190.85: the Elo gap of a 75% expected score


def game(seats, returns):
    return GameOutcome(list(seats), list(returns))


# --- pairwise conversion ----------------------------------------------------------

def test_two_player_win_loss_and_draw_in_either_seat():
    outcomes = [game("AB", [1, -1]), game("BA", [1, -1]),
                game("BA", [-1, 1]), game("AB", [0, 0])]
    wins, draws = pairwise_counts(outcomes, ["A", "B"])
    assert wins.tolist() == [[0, 2], [1, 0]]
    assert draws.tolist() == [[0, 1], [1, 0]]
    assert wins.dtype.kind == "i" and draws.dtype.kind == "i"


def test_four_player_durak_winners_draw_each_other_and_beat_the_durak():
    # seat 3 is the durak: the three others are winners with equal returns
    outcome = game("ABCD", returns_for_winners(4, {0, 1, 2}))
    wins, draws = pairwise_counts([outcome], list("ABCD"))
    assert wins.tolist() == [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]]
    assert draws.tolist() == [[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 0], [0, 0, 0, 0]]


def test_full_placement_order_gives_every_pair_a_decision():
    wins, draws = pairwise_counts([game("CABD", [1, 3, -1, -3])], list("ABCD"))
    # order: A > C > B > D
    assert wins.tolist() == [[0, 1, 1, 1], [0, 0, 0, 1], [0, 1, 0, 1], [0, 0, 0, 0]]
    assert not draws.any()


def test_copies_of_one_agent_are_not_compared_with_each_other():
    # A against three copies of B; A is the durak, the copies all win
    outcome = game("ABBB", returns_for_winners(4, {1, 2, 3}))
    wins, draws = pairwise_counts([outcome], ["A", "B"])
    assert wins.tolist() == [[0, 0], [3, 0]]
    assert not draws.any()
    # two copies of A and two of B, one copy of B is the durak
    outcome = game("ABAB", returns_for_winners(4, {0, 1, 2}))
    wins, draws = pairwise_counts([outcome], ["A", "B"])
    assert wins.tolist() == [[0, 2], [0, 0]]          # each A beats the durak copy of B
    assert draws.tolist() == [[0, 2], [2, 0]]         # each A draws the winning copy of B


def test_all_equal_returns_are_draws_between_every_pair():
    wins, draws = pairwise_counts([game("ABC", [0, 0, 0])], list("ABC"))
    assert not wins.any()
    assert draws.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


def test_agents_not_in_a_game_and_bad_input():
    wins, draws = pairwise_counts([game("AB", [1, -1])], list("ABC"))
    assert wins[2].sum() == wins[:, 2].sum() == draws[2].sum() == 0
    with pytest.raises(ValueError, match="'Z'"):
        pairwise_counts([game("AZ", [1, -1])], ["A", "B"])
    with pytest.raises(ValueError, match="returns"):
        pairwise_counts([game("AB", [1, -1, 0])], ["A", "B"])


# --- the Elo fit ------------------------------------------------------------------

def test_fit_orders_agents_and_puts_the_anchor_or_the_mean_at_zero():
    # row beats column: D > C > B > A clearly
    wins = np.array([[0, 30, 20, 10], [70, 0, 30, 20], [80, 70, 0, 30], [90, 80, 70, 0]])
    draws = np.zeros_like(wins)
    elo = fit_elo(wins, draws)
    assert list(np.argsort(elo)) == [0, 1, 2, 3]
    assert abs(elo.mean()) < 1e-9
    anchored = fit_elo(wins, draws, anchor_index=2)
    assert anchored[2] == 0.0
    assert np.allclose(anchored - anchored.mean(), elo)   # only the zero moves


def test_a_75_percent_score_is_191_elo():
    # The smoothing (0.01 pseudo-wins per ordered pair) makes the fit
    # 400*log10(300.01/100.01) = 190.83, 0.02 Elo under the exact 190.85; the fit itself
    # converges to 1e-12 on the normalised strengths.  0.1 Elo covers both with room.
    elo = fit_elo([[0, 300], [100, 0]], [[0, 0], [0, 0]], anchor_index=1)
    assert elo[0] == pytest.approx(ELO_75, abs=0.1)
    assert ELO_OPTIONS.smoothing_factor == 0.01


def test_a_draw_counts_as_half_a_win():
    # 50 wins + 50 draws is the same 75% score over the same 100 games as 75 - 25
    with_draws = fit_elo([[0, 50], [0, 0]], [[0, 50], [50, 0]], anchor_index=1)
    decisive = fit_elo([[0, 75], [25, 0]], [[0, 0], [0, 0]], anchor_index=1)
    assert with_draws == pytest.approx(decisive, abs=1e-9)
    assert with_draws[0] == pytest.approx(ELO_75, abs=0.1)
    # all draws: equal ratings
    assert fit_elo([[0, 0], [0, 0]], [[0, 40], [40, 0]]) == pytest.approx([0, 0], abs=1e-9)


def test_fit_is_the_bradley_terry_maximum_likelihood():
    """At the fit, each agent's score equals its expected score (the likelihood equations)."""
    rng = np.random.default_rng(5)
    n = 5
    wins = rng.integers(5, 40, size=(n, n))
    draws = np.triu(rng.integers(0, 10, size=(n, n)), 1)
    draws = draws + draws.T
    np.fill_diagonal(wins, 0)
    elo = fit_elo(wins, draws)
    s = ELO_OPTIONS.smoothing_factor
    scored = wins + 0.5 * draws + s
    np.fill_diagonal(scored, 0)
    games = scored + scored.T
    expected = 1 / (1 + 10 ** ((elo[None, :] - elo[:, None]) / 400))
    np.fill_diagonal(expected, 0)
    assert (games * expected).sum(axis=1) == pytest.approx(scored.sum(axis=1), abs=1e-6)


def test_an_undefeated_agent_gets_a_finite_rating():
    elo = fit_elo([[0, 100], [0, 0]], [[0, 0], [0, 0]], anchor_index=1)
    assert np.isfinite(elo).all()
    assert elo[0] == pytest.approx(400 * math.log10(100.01 / 0.01), abs=0.1)  # 1600


def test_fit_rejects_an_asymmetric_draw_matrix():
    with pytest.raises(ValueError, match="symmetric"):
        fit_elo([[0, 1], [1, 0]], [[0, 1], [0, 0]])


# --- likelihood of superiority ----------------------------------------------------

def test_los_known_values():
    wins = np.array([[0, 10, 6, 5], [0, 0, 0, 0], [4, 0, 0, 0], [5, 0, 0, 0]])
    draws = np.zeros_like(wins)
    los = likelihood_of_superiority(wins, draws)
    assert los[0, 1] == pytest.approx(0.999217, abs=1e-6)    # Phi(10/sqrt(10)) = Phi(3.16)
    assert los[1, 0] == pytest.approx(1 - 0.999217, abs=1e-6)
    assert los[0, 2] == pytest.approx(0.736455, abs=1e-6)    # Phi(2/sqrt(10)) = Phi(0.632)
    assert los[0, 3] == 0.5                                  # w == l
    assert los[1, 2] == 0.5                                  # never a decisive game
    assert np.isnan(np.diag(los)).all()
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((los + los.T)[off], 1.0)


def test_los_ignores_draws():
    wins = np.array([[0, 6], [4, 0]])
    assert np.allclose(likelihood_of_superiority(wins, [[0, 90], [90, 0]]),
                       likelihood_of_superiority(wins, [[0, 0], [0, 0]]), equal_nan=True)


# --- bootstrap --------------------------------------------------------------------

@pytest.fixture(scope="module")
def league():
    rng = np.random.default_rng(11)
    names, outcomes = two_player_games(rng, [0, 80, 160, 240], 60, draw_share=0.3)
    return names, outcomes


def test_bootstrap_is_deterministic_for_a_seed(league):
    names, outcomes = league
    first = bootstrap_intervals(outcomes, names, anchor="p0", samples=200, seed=3)
    again = bootstrap_intervals(outcomes, names, anchor="p0", samples=200, seed=3)
    other = bootstrap_intervals(outcomes, names, anchor="p0", samples=200, seed=4)
    for a, b in zip(first, again):
        assert np.array_equal(a, b)
    assert np.array_equal(first[0], other[0])         # the point estimate uses all games
    assert not np.array_equal(first[1], other[1])


def test_interval_contains_the_estimate_and_the_anchor_is_exact(league):
    names, outcomes = league
    elo, low, high = bootstrap_intervals(outcomes, names, anchor="p1", samples=300)
    assert (low <= elo).all() and (elo <= high).all()
    assert elo[1] == low[1] == high[1] == 0.0
    assert (high[[0, 2, 3]] - low[[0, 2, 3]] > 10).all()
    assert np.array_equal(elo, fit_elo(*pairwise_counts(outcomes, names), anchor_index=1))
    elo, low, high = bootstrap_intervals(outcomes, names, samples=300)   # mean zero
    assert abs(elo.mean()) < 1e-9
    assert (low < elo).all() and (elo < high).all()


def test_ratings_the_data_cannot_bound_get_infinite_ends():
    # A never lost to B; B and C split their games; nobody else played A
    outcomes = [game("AB", [1, -1])] * 5 + [game("BC", [1, -1]), game("BC", [-1, 1])] * 5
    names = list("ABC")
    elo, low, high = bootstrap_intervals(outcomes, names, anchor="B", samples=100)
    assert np.isfinite(elo).all()
    assert high[0] == math.inf and np.isfinite(low[0])
    assert np.isfinite([low[2], high[2]]).all()
    # relative to the mean, B and C fall without bound when A rises without bound
    elo, low, high = bootstrap_intervals(outcomes, names, samples=100)
    assert high[0] == math.inf and low[1] == low[2] == -math.inf
    above, below = unbounded_sides(*pairwise_counts(outcomes, names), anchor_index=0)
    # relative to A, B and C are bounded above (A beat B, B beat C) but not below
    assert above.tolist() == [False, False, False] and below.tolist() == [False, True, True]


def test_bootstrap_without_games():
    elo, low, high = bootstrap_intervals([], ["A", "B"], samples=10)
    assert elo.tolist() == [0.0, 0.0] and np.isnan(low).all() and np.isnan(high).all()


# --- tables -----------------------------------------------------------------------

def test_rating_table_rows():
    outcomes = [
        game("ABCD", returns_for_winners(4, {0, 1, 2})),   # D is the durak
        game("ABCD", returns_for_winners(4, {0, 1, 3})),   # C is the durak
        game("ABCD", returns_for_winners(4, {0, 2, 3})),   # B is the durak
        game("AADD", returns_for_winners(4, {0, 2})),      # copies; A's one copy is a durak
        game("ABCD", [0, 0, 0, 0]),                        # all tied
    ]
    rows = rating_table(outcomes, list("ABCD"), anchor="D", samples=50)
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].agent == "A"
    assert [r.elo for r in rows] == sorted((r.elo for r in rows), reverse=True)
    by = {r.agent: r for r in rows}
    # every seat counts: in game 4 one copy of A wins and the other loses, and so for D
    assert (by["A"].games, by["A"].seats) == (5, 6) and \
        (by["A"].wins, by["A"].draws, by["A"].losses) == (4, 1, 1)
    assert (by["D"].games, by["D"].seats) == (5, 6) and \
        (by["D"].wins, by["D"].draws, by["D"].losses) == (3, 1, 2)
    assert (by["B"].games, by["B"].seats) == (4, 4) and \
        (by["B"].wins, by["B"].draws, by["B"].losses) == (2, 1, 1)
    assert by["D"].elo == by["D"].low == by["D"].high == 0.0
    # B: pairwise 2 wins (game 1: beats D; game 2: beats C), 7 draws, 3 losses
    assert by["B"].score == pytest.approx((2 + 0.5 * 7) / 12)
    # A: one win in each of the first four games, one loss (its durak copy against the
    # winning copy of D), 2 + 2 + 2 + 2 + 3 draws
    assert by["A"].score == pytest.approx((4 + 0.5 * 11) / 16)


def test_head_to_head_is_consistent_both_ways():
    outcomes = [game("AB", [1, -1]), game("AB", [1, -1]),
                game("BA", [0, 0]), game("BA", [1, -1])]
    h2h = head_to_head(outcomes, list("ABC"))
    assert h2h["A"]["B"] == PairRecord(wins=2, draws=1, losses=1, score=0.625)
    assert h2h["B"]["A"] == PairRecord(wins=1, draws=1, losses=2, score=0.375)
    assert h2h["A"]["C"].wins == 0 and math.isnan(h2h["A"]["C"].score)
    assert "A" not in h2h["A"]


# --- deal-clustered scores --------------------------------------------------------

def test_clustered_score_takes_the_cluster_as_the_unit():
    # four deals of two games: a win and a draw, a win and a loss, two losses, two wins
    result = clustered_score([[1.0, 0.5], [1.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    means = [0.75, 0.5, 0.0, 1.0]
    mean = sum(means) / 4
    half = 1.96 * math.sqrt(sum((m - mean) ** 2 for m in means) / 3 / 4)
    assert 0 < mean - half and mean + half < 1
    assert result == ScoreInterval(pytest.approx(mean), pytest.approx(mean - half),
                                   pytest.approx(mean + half), 4)
    # an uneven cluster counts as one unit, not by its games: mean of means, not of games
    uneven = clustered_score([[1.0], [0.0, 0.0, 0.0]])
    assert uneven.score == 0.5 and uneven.clusters == 2


def test_correlated_games_widen_the_interval_against_independent_ones():
    # the same 8 scores, once as 4 deals of identical games, once as 8 single games
    clustered = clustered_score([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    single = clustered_score([[s] for s in (1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0)])
    assert clustered.score == single.score == 0.5
    assert clustered.high - clustered.low > single.high - single.low


def test_clustered_score_edges():
    # two deals won outright: no spread to measure, so not 100-100% but the Wilson
    # interval of 2 wins in 2 (34-100%)
    alike = clustered_score([[1.0, 1.0], [1.0, 1.0]])
    assert (alike.score, alike.high, alike.clusters) == (1.0, 1.0, 2)
    assert alike.low == pytest.approx(2 / (2 + 1.96 ** 2))
    even = clustered_score([[0.5, 0.5]] * 8)
    assert even.score == 0.5 and (even.low, even.high) == pytest.approx((0.2152, 0.7848),
                                                                       abs=1e-4)
    assert clustered_score([[0.5, 1.0]]) == ScoreInterval(0.75, 0.0, 1.0, 1)   # one deal
    empty = clustered_score([[], []])
    assert empty.clusters == 0 and math.isnan(empty.score) and math.isnan(empty.low)
    wide = clustered_score([[1.0], [0.0]])
    assert (wide.low, wide.high) == (0.0, 1.0)                               # cut to [0, 1]
