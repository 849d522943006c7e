"""The HTTP server's pool of worker processes for agents' moves, so several sessions think
at once and the event loop keeps answering; a move waits while the agents are prepared,
and a bounded number wait for a worker."""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from koloda.protocol.errors import ProtocolError
from koloda.protocol.handler import PendingMove
from koloda.protocol.thinking import think, warm_up

#: moves that may wait for a worker, per worker; beyond that a move is refused (`limit`)
WAITING_PER_WORKER = 8


class MovePool:
    """Worker processes that run agents' moves off the event loop."""

    def __init__(self, workers: int):
        self.workers = workers
        self.max_waiting = WAITING_PER_WORKER * workers
        self.waiting = 0
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server has threads (uvicorn, asyncio) by the time it forks.
        # The workers ignore Ctrl-C: the server ends them as it stops, and a KeyboardInterrupt
        # in one is then an agent's own, the failure of its move (solvers/interrupts.py).
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_deaf_to_ctrl_c)

    def warm(self, names=None) -> None:
        """Start every worker and prepare the games `names` (default all) in it, so no
        move pays for the imports or for numba."""
        for future in [self.executor.submit(warm_up, names) for _ in range(self.workers)]:
            future.result()

    async def answer(self, pending: PendingMove, finish) -> dict:
        """Think in a worker; `await finish(result)` is the reply."""
        if self.waiting >= self.max_waiting:
            return pending.fail(ProtocolError(
                "limit", f"{self.waiting} moves are waiting for this server's "
                f"{self.workers} workers; ask again shortly"))
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            readiness = pending.protocol.readiness
            if not readiness.ready:          # its budget starts once everything is ready
                await loop.run_in_executor(None, readiness.wait)
            result = await loop.run_in_executor(self.executor, think, pending.job)
        except BrokenProcessPool:
            self.executor = self._start()
            return pending.fail(ProtocolError("internal", "a worker process died during the "
                                              "move; it was restarted, ask again"))
        except asyncio.CancelledError:
            raise
        except BaseException as err:      # answered as `internal`; the server carries on
            return pending.fail(err)      # (a worker's SystemExit too: an agent's, not ours)
        finally:
            self.waiting -= 1
        return await finish(result)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def _deaf_to_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
