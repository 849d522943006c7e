"""A progress line with the time left, for long runs (to stderr, never to the report)."""

from __future__ import annotations

import sys
import time


class Progress:
    """`update(done)` redraws at most twice a second on a terminal, every 10% elsewhere."""

    def __init__(self, total: int, label: str = "games", stream=None, already: int = 0):
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.already = already          # done before this run (a resumed tournament)
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.last_tenth = -1
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, done: int) -> None:
        now = time.perf_counter()
        finished = done >= self.total
        if self.tty:
            if not finished and now - self.last_draw < 0.5:
                return
            self.last_draw = now
            self.stream.write("\r" + self.line(done, now) + ("\n" if finished else ""))
        else:
            tenth = 10 * done // max(1, self.total)
            if tenth == self.last_tenth:
                return
            self.last_tenth = tenth
            self.stream.write(self.line(done, now) + "\n")
        self.stream.flush()

    def line(self, done: int, now: float) -> str:
        width = 24
        filled = width * done // max(1, self.total)
        bar = "#" * filled + "." * (width - filled)
        played = done - self.already
        elapsed = now - self.start
        rate = played / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else float("nan")
        eta = _clock(left) if left == left else "?"
        return (f"[{bar}] {done}/{self.total} {self.label}, {rate:.2f}/s, "
                f"elapsed {_clock(elapsed)}, left {eta}")


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
