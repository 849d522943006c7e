"""A game as one seat was told it, kept as a full state that agrees with everything the
seat saw: `koloda agent` hands it to koloda's own agents, which look at it only through
`resample_from_infostate` (solvers/agent.py), so any state the seat cannot tell from the
true one gives the same view, hence the same move, as the true state would.

The events a `go` brings are applied as they come, an outcome the seat did not see
guessed, and a guess a later event contradicts repaired from a recent decision point
(koloda.games.kit.belief's `RepairBelief`, which says how).  Its search stops after a
bounded number of tries and seconds: a TrackError, and the bot then cannot know where it
stands.
"""

from __future__ import annotations

import random

from koloda.games.kit.belief import BeliefError, RepairBelief


class TrackError(Exception):
    """No state agreeing with what the seat was told was found."""


class Tracker:
    """One seat's game: `tell(events)` as they come, `position(legal)` at its turn."""

    def __init__(self, game, seat: int, rng: random.Random):
        self.belief = RepairBelief(game, seat, rng)

    def tell(self, events: list[dict]) -> None:
        """Apply the events in order (TrackError when no world agrees with them)."""
        try:
            self.belief.tell(events)
        except BeliefError as err:
            raise TrackError(str(err)) from None

    def position(self, legal: list[str]):
        """The state at the seat's turn, its legal actions those sent (`legal`)."""
        try:
            return self.belief.position(legal)
        except BeliefError as err:
            raise TrackError(str(err)) from None
