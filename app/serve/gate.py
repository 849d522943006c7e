"""The HTTP server's requests in a pool of threads, one at a time per session, so a slow
request holds up only its own session; a bounded number wait."""

from __future__ import annotations

import asyncio
import contextlib
import json
from concurrent.futures import ThreadPoolExecutor

from koloda.protocol.errors import ProtocolError
from koloda.protocol.handler import PendingMove, Protocol
from koloda.serve.moves import MovePool

#: threads that handle requests, and requests that may wait for one (or for their
#: session) beyond those; more are refused (`limit`)
REQUEST_THREADS = 8
WAITING_REQUESTS = 64
#: bodies this short are read for their session on the event loop (in microseconds),
#: longer ones in a thread
PARSED_ON_THE_LOOP = 4096


class RequestGate:
    """Handles requests in a pool of threads, one request per session at a time (an
    asyncio lock per session id, kept while any request of it runs or waits), so a slow
    request (an `observe` or `hint` redrawing guesses for seconds) holds up only its own
    session and the event loop keeps answering the others.  A move is asked under its
    session's lock, thinks in the `MovePool` with the lock released, and is applied
    under the lock again."""

    def __init__(self, protocol: Protocol, moves: MovePool, threads: int = REQUEST_THREADS,
                 waiting: int = WAITING_REQUESTS):
        self.protocol = protocol
        self.moves = moves
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="koloda-request")
        self.max_admitted = threads + waiting
        self.admitted = 0
        self.locks: dict[str, list] = {}      # session id -> [lock, requests using it]

    async def answer(self, text: bytes) -> dict:
        """The reply to one request as JSON text."""
        if self.admitted >= self.max_admitted:
            return self.protocol.error_reply({}, ProtocolError(
                "limit", f"{self.admitted} requests are waiting on this server; ask again "
                f"shortly"))
        self.admitted += 1
        try:
            session_id = (_session_named(text) if len(text) <= PARSED_ON_THE_LOOP
                          else await self._in_thread(_session_named, text))
            async with self._session_lock(session_id):
                reply = await self._in_thread(self.protocol.handle_text, text)
        finally:
            self.admitted -= 1
        if isinstance(reply, PendingMove):
            reply = await self.moves.answer(reply, lambda result: self._finish(
                session_id, reply, result))
        return reply

    async def _finish(self, session_id: str | None, pending: PendingMove, result) -> dict:
        async with self._session_lock(session_id):
            return await self._in_thread(_finished, pending, result)

    async def _in_thread(self, function, *args):
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    @contextlib.asynccontextmanager
    async def _session_lock(self, session_id: str | None):
        if session_id is None:             # no session: nothing to keep in order
            yield
            return
        entry = self.locks.setdefault(session_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self.locks[session_id]

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _session_named(text: bytes) -> str | None:
    """The session a request names, if it is a JSON object with a string `session`."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    session = message.get("session") if isinstance(message, dict) else None
    return session if isinstance(session, str) else None


def _finished(pending: PendingMove, result) -> dict:
    """The move's reply; a fault in applying it is answered as an error reply."""
    try:
        return pending.finish(result)
    except Exception as err:
        return pending.fail(err)
