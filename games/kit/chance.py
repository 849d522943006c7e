"""Drawing a chance outcome from a list of (outcome, probability) pairs, as OpenSpiel's
`chance_outcomes()` returns it; shared by playouts, search and tournaments."""

from __future__ import annotations


def sample_outcome(outcomes, rng) -> int:
    """An outcome drawn with its probability, using `rng` (a `random.Random`).

    Equal probabilities (every deal and draw of a card) take one `randrange`.
    """
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[rng.randrange(len(outcomes))][0]
    r, total = rng.random(), 0.0
    for outcome, p in outcomes:
        total += p
        if r < total:
            return outcome
    return outcomes[-1][0]  # the probabilities summed to a hair under 1
