"""Chance outcomes from a seed, shared by games that replay "the same deal".

A game seeded with `s` resolves its chance nodes from a fixed permutation of all outcome
ids: at each chance node it takes the first outcome of the permutation that is legal
there.  For draws without replacement with equal probabilities (every deal and draw of a
card game) this is exactly a shuffled deck, and it does not depend on the players: two
games with the same seed and the seats swapped see the same deck, even when the players
draw in a different order.  Chance nodes whose outcomes are not equally likely are
sampled from a seeded generator instead.
"""

from __future__ import annotations

import random

from koloda.games.kit.chance import sample_outcome


class DeckOrder:
    """Resolves chance nodes of one game from `seed`."""

    def __init__(self, game, seed: int):
        self.rng = random.Random(seed)
        order = list(range(game.max_chance_outcomes()))
        self.rng.shuffle(order)
        self.rank = {outcome: i for i, outcome in enumerate(order)}

    def __call__(self, state) -> int:
        outcomes = state.chance_outcomes()
        first_p = outcomes[0][1]
        if all(abs(p - first_p) < 1e-12 for _, p in outcomes):
            return min(outcomes, key=lambda op: self.rank[op[0]])[0]
        return sample_outcome(outcomes, self.rng)
