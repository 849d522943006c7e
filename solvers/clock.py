"""Time controls and move budgets: how long a move may take, and how long an agent aims at.

A time control is either a time per move (`move_ms = 200`) or a game clock (`clock =
"60+0.5"`: 60 seconds for the game, half a second added after each move, as Fischer
clocks do).  Before each move the player gets a *budget*, the same dict koloda's agent
protocol sends (docs/agents.md):

    {"ms": 200}                                        a time per move
    {"remaining_ms": 41250, "increment_ms": 500}       a game clock

A move may take its *allowance* (`ms`, or what is left on the clock) plus a margin of
50 ms or a tenth of the allowance, whichever is more; a move that takes longer is a
timeout.  Agents aim lower (`aim_ms`): a time per move in full, from a clock a twentieth
of what is left plus the increment, never more than half of what is left.

Nothing here reads a clock: `Clock` is told how long each move took.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: a move may overrun its allowance by this much, or by MARGIN_SHARE of it if more
MARGIN_MS = 50.0
MARGIN_SHARE = 0.1
#: the longest time per move and the longest game clock (and increment) a config may set
MAX_MOVE_MS = 3_600_000
MAX_CLOCK_SECONDS = 86_400.0
#: from a clock, an agent aims at this share of what is left, plus the increment ...
CLOCK_SHARE = 1 / 20
#: ... and never at more than this share of what is left
CLOCK_CAP = 1 / 2

_CLOCK = re.compile(r"([0-9]+(?:\.[0-9]+)?)(?:\+([0-9]+(?:\.[0-9]+)?))?\Z", re.ASCII)


class TimeControlError(ValueError):
    """A time control or budget that cannot be used (the message says what is wrong)."""


@dataclass(frozen=True)
class TimeControl:
    """A time per move (`move_ms`) or a game clock (`clock_ms` plus `increment_ms` a move)."""
    move_ms: int | None = None
    clock_ms: float | None = None
    increment_ms: float = 0.0

    @classmethod
    def per_move(cls, ms) -> TimeControl:
        if type(ms) is not int or not 1 <= ms <= MAX_MOVE_MS:
            raise TimeControlError(f"move_ms must be a whole number of milliseconds from 1 "
                                   f"to {MAX_MOVE_MS:,}, not {_shown(ms)}")
        return cls(move_ms=ms)

    @classmethod
    def parse_clock(cls, text) -> TimeControl:
        """`"60+0.5"` (seconds for the game + seconds added a move), or `"60"` (no
        increment)."""
        found = _CLOCK.match(text) if isinstance(text, str) else None
        if found is None:
            raise TimeControlError(f"clock must read SECONDS+INCREMENT, like \"60+0.5\" "
                                   f"(or \"60\" for no increment), not {_shown(text)}")
        base, increment = float(found.group(1)), float(found.group(2) or 0)
        if not 0 < base <= MAX_CLOCK_SECONDS or increment > MAX_CLOCK_SECONDS:
            raise TimeControlError(f"clock {text!r}: the game's time must be more than 0 "
                                   f"and both parts at most {MAX_CLOCK_SECONDS:g} seconds")
        return cls(clock_ms=base * 1000.0, increment_ms=increment * 1000.0)

    def text(self) -> str:
        """As a config and a seat's spec write it: `move_ms=200` or `clock=60+0.5`."""
        if self.move_ms is not None:
            return f"move_ms={self.move_ms}"
        return f"clock={_seconds(self.clock_ms)}+{_seconds(self.increment_ms)}"

    def start(self) -> Clock:
        return Clock(self)


class Clock:
    """One seat's time in one game: the budget of its next move, charged after each."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.remaining_ms = control.clock_ms

    def budget(self) -> dict:
        if self.control.move_ms is not None:
            return {"ms": self.control.move_ms}
        return {"remaining_ms": max(0, math.floor(self.remaining_ms)),
                "increment_ms": round(self.control.increment_ms)}

    def charge(self, elapsed_ms: float) -> str | None:
        """Count a move that took `elapsed_ms`; None when it was in time, else what it
        overran, in words (the move is then a timeout)."""
        budget = self.budget()
        allowed = allowance_ms(budget)
        if self.control.move_ms is None:
            self.remaining_ms -= elapsed_ms
        if elapsed_ms > deadline_ms(budget):
            kind = "a move" if "ms" in budget else "the clock"
            return (f"took {elapsed_ms:.0f} ms with {allowed:.0f} ms left on {kind} (and a "
                    f"margin of {margin_ms(allowed):.0f} ms)")
        if self.control.move_ms is None:
            self.remaining_ms += self.control.increment_ms
        return None


def check_budget(budget) -> dict:
    """`budget` if it is one of the two forms, else TimeControlError."""
    if isinstance(budget, dict) and set(budget) == {"ms"} and _count(budget["ms"]):
        return budget
    if isinstance(budget, dict) and set(budget) == {"remaining_ms", "increment_ms"} \
            and _count(budget["remaining_ms"]) and _count(budget["increment_ms"]):
        return budget
    raise TimeControlError(f"a budget is {{\"ms\": N}} or {{\"remaining_ms\": N, "
                           f"\"increment_ms\": N}}, not {_shown(budget)}")


def allowance_ms(budget: dict) -> float:
    """How long the move may take before the margin: `ms`, or what is left on the clock."""
    return float(budget["ms"] if "ms" in budget else budget["remaining_ms"])


def margin_ms(allowance: float) -> float:
    return max(MARGIN_MS, MARGIN_SHARE * allowance)


def deadline_ms(budget: dict) -> float:
    """How long the move may take at most: its allowance and the margin."""
    allowed = allowance_ms(budget)
    return allowed + margin_ms(allowed)


def aim_ms(budget: dict) -> float:
    """How long an agent should think: a time per move in full; from a clock a twentieth
    of what is left plus the increment, at most half of what is left; at least 1 ms."""
    if "ms" in budget:
        return max(1.0, float(budget["ms"]))
    left, increment = float(budget["remaining_ms"]), float(budget["increment_ms"])
    return max(1.0, min(left * CLOCK_CAP, left * CLOCK_SHARE + increment))


def _count(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and value >= 0


def _seconds(ms: float) -> str:
    """Milliseconds as the seconds a clock string writes: 60000 -> `60`, 500 -> `0.5`."""
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."
