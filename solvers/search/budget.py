"""Search budgets: a number of simulations (deterministic), optionally a time per move."""

from __future__ import annotations

import time

from koloda.games.kit.params import Param

PARAMS = (
    Param("sims", int, 1000, "simulations per move; 0 = no limit (then ms must be set)", low=0),
    Param("ms", int, 0, "milliseconds per move; 0 = no time limit (deterministic)", low=0),
)


class Budget:
    """`for _ in Budget(sims, ms)`: yields until either limit is reached."""

    CHECK_EVERY = 8

    def __init__(self, sims: int, ms: int):
        if sims < 0 or ms < 0:
            raise ValueError("sims and ms must not be negative")
        if sims == 0 and ms == 0:
            raise ValueError("set sims or ms (both are 0: the search would never stop)")
        self.sims = sims
        self.seconds = ms / 1000.0

    def __iter__(self):
        limit = self.sims or float("inf")
        if not self.seconds:
            yield from range(self.sims)
            return
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < limit:
            yield done
            done += 1
            if done % self.CHECK_EVERY == 0 and time.perf_counter() >= deadline:
                return
