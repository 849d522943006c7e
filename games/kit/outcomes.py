"""Returns and results, shared by all four games and everything that reads a finished game.

The returns formula is the one of rules/README.md ("Returns").  Who won and who placed
where are read back from returns by `winners` and `placements`, the one place that does
so: engines, the tournament, reports and the command line all call these.
"""

from __future__ import annotations


def returns_for_winners(num_players: int, winners) -> list[float]:
    """Zero-sum returns when `winners` (a set of seats) win and everyone else loses.

    Each of the k winners gets (n - k) / (k * (n - 1)) and each other player -1 / (n - 1);
    no winners or all winners is a draw, 0 for everyone.
    """
    n = num_players
    k = len(winners)
    if k == 0 or k == n:
        return [0.0] * n
    win = (n - k) / (k * (n - 1))
    lose = -1.0 / (n - 1)
    return [win if p in winners else lose for p in range(n)]


def winners(returns) -> list[int]:
    """The seats with the best return (or score, or match count), lowest first; none when
    every one is equal (a draw)."""
    best = max(returns)
    if min(returns) == best:
        return []
    return [seat for seat, value in enumerate(returns) if value == best]


def is_draw(returns) -> bool:
    return min(returns) == max(returns)


def placements(returns) -> list[int]:
    """Each seat's place, 1 the best; equal returns share a place (competition ranking:
    returns 1, 1, -2 place 1, 1, 3)."""
    return [1 + sum(other > value for other in returns) for value in returns]


def expected_score(returns) -> float:
    """The score (win 1, draw 1/2, loss 0) an average seat of this game gets: k/n with k
    winners of n, 1/2 for a draw.  Its mean over games is what an agent exactly as strong
    as its opponents scores, so it is the yardstick of a head-to-head score."""
    if is_draw(returns):
        return 0.5
    return len(winners(returns)) / len(returns)


def score(returns, seat: int) -> float:
    """A seat's score in one game: 1 among the winners, 1/2 in a draw, 0 otherwise."""
    if is_draw(returns):
        return 0.5
    return 1.0 if returns[seat] == max(returns) else 0.0
