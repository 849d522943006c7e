"""Search budgets: a number of simulations (deterministic), optionally a time per move.

With `ms` set, the clock starts when the agent is asked for a move (`Agent.step`), so the
time spent preparing the search (resampling the view, setting up worlds) counts too, and
it is read after every simulation: a move takes `ms` plus at most one simulation.
Budgets beyond the limits below are refused rather than left to run for hours.
"""

from __future__ import annotations

import time

from koloda.games.kit.params import Param

MAX_SIMS = 1_000_000     # about 3 minutes a move for Durak's search at 5,000 simulations/s
MAX_MS = 3_600_000       # an hour a move

PARAMS = (
    Param("sims", int, 1000, "simulations per move; 0 = no limit (then ms must be set)",
          low=0, high=MAX_SIMS),
    Param("ms", int, 0, "milliseconds per move; 0 = no time limit (deterministic)",
          low=0, high=MAX_MS),
)


class Budget:
    """`for i in budget.run(started)`: yields 0, 1, ... until either limit is reached."""

    def __init__(self, sims: int, ms: int):
        if not (0 <= sims <= MAX_SIMS and 0 <= ms <= MAX_MS):
            raise ValueError(f"sims must be 0..{MAX_SIMS} and ms 0..{MAX_MS}")
        if sims == 0 and ms == 0:
            raise ValueError("set sims or ms (both are 0: the search would never stop)")
        self.sims = sims
        self.seconds = ms / 1000.0

    def run(self, started: float | None = None):
        """Simulation indices; with a time limit, until `started` (a `perf_counter` time,
        now by default) plus `ms`, and always at least one, so there is a move to make."""
        if not self.seconds:
            yield from range(self.sims)
            return
        deadline = (time.perf_counter() if started is None else started) + self.seconds
        limit = self.sims or MAX_SIMS
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            yield done
            done += 1

    def chunks(self, started: float | None = None, size: int = 64):
        """What `run` yields, as counts of simulations to run in one go (compiled search:
        one call per chunk).  With a time limit the chunks grow from one simulation to
        `size` and the clock is read between them, so a move takes `ms` plus at most one
        chunk, and a move whose time is already spent makes one simulation."""
        if not self.seconds:
            if self.sims:
                yield self.sims
            return
        deadline = (time.perf_counter() if started is None else started) + self.seconds
        limit = self.sims or MAX_SIMS
        done = 0
        chunk = 1
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            count = min(chunk, limit - done)
            yield count
            done += count
            chunk = min(2 * chunk, size)
