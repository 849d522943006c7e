"""Chance in the koloda games: stocks to draw from, and drawing an outcome.

Every deal, draw and roll is an explicit chance node with exact probabilities.  A stock is
either a bitmask (one copy of each card: Durak, Parket) or a count per card kind (several
copies: Platinum Fish, Snitch); the functions here give a stock's chance outcomes as
OpenSpiel lists them and draw from a stock in a random playout without building the list.
"""

from __future__ import annotations

from koloda.games.kit.cards import cards_of, nth_card


def mask_outcomes(stock: int) -> list[tuple[int, float]]:
    """A uniform draw of one card from a bitmask stock: [(card, 1/n), ...]."""
    cards = cards_of(stock)
    p = 1.0 / len(cards) if cards else 0.0
    return [(card, p) for card in cards]


def count_outcomes(counts, total: int | None = None) -> list[tuple[int, float]]:
    """A draw from a multiset stock: each kind with the share of the copies it holds
    (`total` of them, when the caller knows it)."""
    if total is None:
        total = sum(counts)
    return [(kind, n / total) for kind, n in enumerate(counts) if n]


def draw_from_mask(stock: int, random) -> int:
    """A uniformly random card of a bitmask stock; `random()` returns floats in [0, 1)."""
    return nth_card(stock, int(random() * stock.bit_count()))


def draw_from_counts(counts, total: int, random) -> int:
    """A random kind of a multiset stock holding `total` cards, by its share of them."""
    pick = int(random() * total)
    for kind, n in enumerate(counts):
        if pick < n:
            return kind
        pick -= n
    raise ValueError("draw from an empty stock")


def sample_outcome(outcomes, rng) -> int:
    """An outcome of a `chance_outcomes()` list drawn with its probability, using `rng`
    (a `random.Random`).  Equal probabilities (every deal and draw of a card) take one
    `randrange`."""
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[rng.randrange(len(outcomes))][0]
    r, total = rng.random(), 0.0
    for outcome, p in outcomes:
        total += p
        if r < total:
            return outcome
    return outcomes[-1][0]  # the probabilities summed to a hair under 1
