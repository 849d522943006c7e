"""Games between simulated players of known Bradley-Terry strength (Elo scale)."""

import numpy as np

from koloda.tournament.ratings import GameOutcome

LN10_400 = np.log(10.0) / 400.0


def expected_score(elo_a: float, elo_b: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((elo_b - elo_a) / 400.0))


def two_player_games(rng, elos, games_per_pair: int, draw_share: float = 0.0):
    """Every pairing plays `games_per_pair` games, seats alternating.

    The expected score of a against b is exactly the Bradley-Terry (Elo) one, p; a draw
    happens with probability draw_share * 4p(1-p) (draw_share at equal strength) and takes
    half a point from each side's win probability, so the expected score stays p: that is
    the model the half-a-win fit estimates.
    """
    names = [f"p{i}" for i in range(len(elos))]
    outcomes = []
    for a in range(len(elos)):
        for b in range(a + 1, len(elos)):
            p = expected_score(elos[a], elos[b])
            draw = draw_share * 4.0 * p * (1.0 - p)
            u = rng.random(games_per_pair)
            result = np.where(u < p - draw / 2, 1.0, np.where(u < p + draw / 2, 0.0, -1.0))
            for g, r in enumerate(result):
                seats, returns = [names[a], names[b]], [r, -r]
                if g % 2:
                    seats, returns = seats[::-1], returns[::-1]
                outcomes.append(GameOutcome(seats, returns))
    return names, outcomes


def placement_games(rng, elos, seats: int, games_per_table: int):
    """Multiplayer games of every `seats`-subset of the players, placements Plackett-Luce.

    The placement is the order of log-strength plus Gumbel noise, so any two players at a
    table finish in a given order with exactly their Bradley-Terry probability, whoever
    else sits there.  Returns are zero-sum by place (e.g. 1, 0, -1), seats shuffled.
    """
    from itertools import combinations

    names = [f"p{i}" for i in range(len(elos))]
    place_returns = np.linspace(1.0, -1.0, seats)
    outcomes = []
    for table in combinations(range(len(elos)), seats):
        strength = np.asarray([elos[i] for i in table]) * LN10_400
        for _ in range(games_per_table):
            order = rng.permutation(seats)                       # seat -> table member
            keys = strength[order] + rng.gumbel(size=seats)
            place = np.argsort(np.argsort(-keys))                # 0 = best
            outcomes.append(GameOutcome([names[table[i]] for i in order],
                                        [float(place_returns[k]) for k in place]))
    return names, outcomes
