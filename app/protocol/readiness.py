"""A server's preparation: every game and its documented agents made ready in the
background from the server's start (solvers/prepare.py), so that it answers `hello` at
once and no move's time budget pays for compiling.

`hello` says whether it is done (`ready`); a `move`, `hint` or `analyse` asked before
then waits for it, and its budget starts after.  A move whose agent is not among those
prepared ahead is prepared before its own budget starts (protocol/thinking.py).
"""

from __future__ import annotations

import sys
import threading
import time


class Readiness:
    """Work run once in a thread of its own (`start`); `ready` once it is done, however
    it ended (a fault in it is logged: the moves then prepare their own agents)."""

    def __init__(self, *steps):
        self.steps = steps
        self.seconds: float | None = None
        self._done = threading.Event()
        if not steps:
            self._done.set()

    def start(self) -> Readiness:
        if not self._done.is_set():
            threading.Thread(target=self._run, name="koloda-prepare", daemon=True).start()
        return self

    def _run(self) -> None:
        started = time.perf_counter()
        try:
            for step in self.steps:
                step()
        except Exception as err:    # logged; a move prepares its own agent regardless
            print(f"koloda serve: preparing the agents failed ({type(err).__name__}: "
                  f"{err}); moves prepare their agents as they come", file=sys.stderr,
                  flush=True)
        finally:
            self.seconds = time.perf_counter() - started
            self._done.set()

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def wait(self) -> None:
        self._done.wait()


#: nothing prepared in the background: a protocol embedded in another program, whose
#: moves prepare their own agents
READY = Readiness()
