"""Honest intervals: 95% intervals hold the true rating about 95% of the time, and never
claim more certainty than the games support.

Players of known Bradley-Terry strength (true Elo 0, 50, 150, 300) play a simulated
tournament; the intervals reports show (`rating_intervals`), anchored at player 0, should
contain the true rating of each other player in about 95% of tournaments.  We count over
trials x the three non-anchor players and demand at least 90% (a percentile bootstrap with
300 resamples covers about 93-95% here: 0.939, 0.950 and 0.932 over 600 trials of the
three cases below), and at most 99%, so that the intervals are not uselessly wide either.
The seeds are fixed, so the test is deterministic; 200 trials keep the estimate within
about 2 points.

Tables whose games all end alike make every bootstrap resample the same table; there the
intervals must keep the width of the evidence of that many games.
"""

import math

import numpy as np
import pytest

from koloda.tournament.ratings import bootstrap_intervals, rating_intervals

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
        _, low, high = rating_intervals(outcomes, names, anchor=names[0],
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


@pytest.mark.slow
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


def _four_seats_random_the_durak_every_time(games: int):
    """Durak for four with random, heuristic and ismcts, random in two seats, the seats
    rotated: one copy of random is the durak in every game (as in a real 8-game table)."""
    from koloda.games.kit.outcomes import returns_for_winners
    from koloda.tournament.ratings import GameOutcome

    table = ["random", "heuristic", "ismcts", "random"]
    outcomes = []
    for g in range(games):
        seats = [table[(s - g) % 4] for s in range(4)]
        durak = seats.index("random")
        outcomes.append(GameOutcome(seats, returns_for_winners(4, set(range(4)) - {durak})))
    return ["random", "heuristic", "ismcts"], outcomes


def test_games_that_all_end_alike_keep_an_honest_interval():
    agents, outcomes = _four_seats_random_the_durak_every_time(8)
    elo, low, high = bootstrap_intervals(outcomes, agents, anchor="random", samples=200)
    assert (high - low)[1:].max() == 0.0           # the bootstrap alone: 191 +0/-0
    elo, low, high = rating_intervals(outcomes, agents, anchor="random", samples=200)
    for k in (1, 2):
        assert elo[k] == pytest.approx(400 * math.log10(3), abs=1)
        # 8 games, each one result's worth against random at 75%: about +244/-210
        assert 150 < elo[k] - low[k] < 300 and 150 < high[k] - elo[k] < 350
    # more games of the same kind narrow it, as evidence should
    agents, outcomes = _four_seats_random_the_durak_every_time(32)
    _, low_32, high_32 = rating_intervals(outcomes, agents, anchor="random", samples=200)
    assert (high_32 - low_32)[1] < 0.6 * (high - low)[1]


def test_nothing_but_draws_keeps_an_honest_interval():
    from koloda.tournament.ratings import GameOutcome

    outcomes = [GameOutcome(["A", "B"][::1 - 2 * (g % 2)], [0.0, 0.0]) for g in range(10)]
    _, boot_low, boot_high = bootstrap_intervals(outcomes, ["A", "B"], anchor="B", samples=200)
    assert boot_low[0] == boot_high[0] == 0.0
    elo, low, high = rating_intervals(outcomes, ["A", "B"], anchor="B", samples=200)
    assert elo[0] == pytest.approx(0.0, abs=1e-6)
    # ten coin tosses' worth of evidence: about +-220 Elo (the binomial +-1.96 / sqrt(10 / 4)
    # in natural units)
    assert low[0] == pytest.approx(-high[0], rel=1e-3) and 180 < high[0] < 260


def test_the_binomial_width_holds_for_the_reported_intervals_too():
    from koloda.tournament.ratings import GameOutcome

    outcomes = [GameOutcome(["A", "B"], [1.0, -1.0])] * 300 + \
               [GameOutcome(["A", "B"], [-1.0, 1.0])] * 100
    elo, low, high = rating_intervals(outcomes, ["A", "B"], anchor="B", samples=2000)
    se = 400 / math.log(10) / math.sqrt(400 * 0.75 * 0.25)
    assert (high[0] - low[0]) / 2 == pytest.approx(1.96 * se, rel=0.10)
