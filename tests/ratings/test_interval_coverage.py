"""Honest intervals: 95% bootstrap intervals hold the true rating about 95% of the time.

Players of known Bradley-Terry strength (true Elo 0, 50, 150, 300) play a simulated
tournament; the intervals, anchored at player 0, should contain the true rating of each
other player in about 95% of tournaments.  We count over trials x the three non-anchor
players and demand at least 90% (a percentile bootstrap with 300 resamples covers about
93-95% here: 0.939, 0.950 and 0.932 over 600 trials of the three cases below), and at most
99%, so that the intervals are not uselessly wide either.  The seeds are fixed, so the
test is deterministic; 200 trials keep the estimate within about 2 points.
"""

import math

import numpy as np
import pytest

from koloda.tournament.ratings import bootstrap_intervals

from .simulate import placement_games, two_player_games

TRUE_ELO = [0.0, 50.0, 150.0, 300.0]
TRIALS = 200
SAMPLES = 300


def coverage(make_tournament, seed: int):
    """Share of (trial, non-anchor player) whose 95% interval holds the true Elo."""
    hits = total = 0
    widths = []
    for trial in range(TRIALS):
        rng = np.random.default_rng([seed, trial])
        names, outcomes = make_tournament(rng)
        _, low, high = bootstrap_intervals(outcomes, names, anchor=names[0],
                                           samples=SAMPLES, seed=trial)
        for k in range(1, len(TRUE_ELO)):
            hits += low[k] <= TRUE_ELO[k] <= high[k]
            total += 1
            widths.append(high[k] - low[k])
    return hits / total, total, float(np.mean(widths))


CASES = {
    "two players, no draws": lambda rng: two_player_games(rng, TRUE_ELO, 150),
    "two players, 40% draws at equal strength":
        lambda rng: two_player_games(rng, TRUE_ELO, 150, draw_share=0.4),
    "three seats, placements by strength": lambda rng: placement_games(rng, TRUE_ELO, 3, 150),
}


@pytest.mark.parametrize("case", list(CASES))
def test_95_percent_intervals_cover_the_true_rating(case):
    share, total, width = coverage(CASES[case], seed=20240601)
    report = (f"{case}: true Elo inside the 95% interval in {share:.1%} of {total} "
              f"(trial, player) pairs; mean width {width:.0f} Elo")
    print(report)
    assert 0.90 <= share <= 0.99, report


def test_interval_width_matches_the_binomial_standard_error():
    """300 wins in 400 games: the Elo standard error is (400/ln 10) / sqrt(n p (1-p)).

    That is 20.1 Elo, so the 95% interval should be about +-39 Elo around 191; the
    bootstrap's width has its own sampling noise of a few percent, hence 10%.
    """
    from koloda.tournament.ratings import GameOutcome

    outcomes = [GameOutcome(["A", "B"], [1.0, -1.0])] * 300 + \
               [GameOutcome(["A", "B"], [-1.0, 1.0])] * 100
    elo, low, high = bootstrap_intervals(outcomes, ["A", "B"], anchor="B", samples=2000)
    se = 400 / math.log(10) / math.sqrt(400 * 0.75 * 0.25)
    assert elo[0] == pytest.approx(400 * math.log10(3), abs=0.1)
    assert (high[0] - low[0]) / 2 == pytest.approx(1.96 * se, rel=0.10)
    assert low[0] < elo[0] < high[0]
