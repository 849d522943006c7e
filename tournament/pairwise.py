"""A finished game's pairwise results by placement: what the Elo fit (tournament.ratings)
and the profile likelihood (tournament.likelihood) both count, read from returns in one
place so the two cannot disagree about which results a game holds."""

from __future__ import annotations

import numpy as np

from koloda.games.kit.outcomes import placements


def add_game(wins, draws, seats: list[int], returns, weigh: bool = False) -> None:
    """Add one game's pairwise results to the (wins, draws) matrices, agents by index.

    For each pair of seats held by different agents the better placement beats the
    worse (wins[better, worse]), and equal placements draw (both ways in draws).  Pairs
    held by copies of one agent say nothing about who is stronger and are skipped.  Each
    result counts 1, or with `weigh` 1 / (seats of one agent x seats of the other) in
    this game: the likelihood's one result's worth of evidence per pair and game.
    """
    place = placements(returns)
    copies = np.bincount(seats, minlength=len(wins)) if weigh else None
    for s, a in enumerate(seats):
        for t in range(s + 1, len(seats)):
            b = seats[t]
            if a == b:
                continue
            weight = 1.0 / (copies[a] * copies[b]) if copies is not None else 1
            if place[s] < place[t]:
                wins[a, b] += weight
            elif place[s] > place[t]:
                wins[b, a] += weight
            else:
                draws[a, b] += weight
                draws[b, a] += weight
