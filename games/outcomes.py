"""The returns formula shared by all four games (rules/README.md, "Returns")."""


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
