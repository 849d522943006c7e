"""Winners, placements and scores are read from returns in one place."""

from koloda.games.kit.outcomes import (
    expected_score,
    placements,
    returns_for_winners,
    score,
    winners,
)


def test_winners_and_placements_of_the_returns_formula():
    for n in range(2, 7):
        for k in range(1, n):
            returns = returns_for_winners(n, set(range(k)))
            assert abs(sum(returns)) < 1e-12
            assert winners(returns) == list(range(k))
            assert placements(returns) == [1] * k + [k + 1] * (n - k)
            assert expected_score(returns) == k / n
            assert [score(returns, s) for s in range(n)] == [1.0] * k + [0.0] * (n - k)


def test_a_draw_has_no_winners_and_scores_half():
    returns = returns_for_winners(4, set())
    assert returns == [0.0] * 4 and returns_for_winners(4, {0, 1, 2, 3}) == returns
    assert winners(returns) == [] and placements(returns) == [1, 1, 1, 1]
    assert expected_score(returns) == 0.5 and score(returns, 2) == 0.5


def test_placements_share_places_like_a_competition_ranking():
    assert placements([3, 1, 3, -7]) == [1, 3, 1, 4]
