"""`koloda serve --http`: the protocol over HTTP, one JSON request per POST to `/`.

Starlette on uvicorn (the `koloda[serve]` extra).  Requests are handled on the event loop,
which is quick for everything but agents' moves; those run in a pool of worker processes
(`--workers`), so several sessions think at once while the server keeps answering.  The
limits (`Limits`) bound what a client can ask for; idle sessions expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import socket
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from koloda.games.errors import KolodaError
from koloda.protocol import Limits, PendingMove, Protocol
from koloda.protocol_errors import ProtocolError, http_status
from koloda.thinking import think, warm_up

#: moves that may wait for a worker, per worker; beyond that a move is refused (`limit`)
WAITING_PER_WORKER = 8

#: the page that plays in the browser (`GET /` from a browser) and its files (`/static/...`)
WEB = Path(__file__).resolve().parent / "web"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


class ServeError(KolodaError):
    """The HTTP server cannot start (the extra is missing, the address is taken)."""


class MovePool:
    """Worker processes that run agents' moves off the event loop."""

    def __init__(self, workers: int):
        self.workers = workers
        self.max_waiting = WAITING_PER_WORKER * workers
        self.waiting = 0
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server has threads (uvicorn, asyncio) by the time it forks
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    def warm(self) -> None:
        """Start every worker and load a game in it, so no move pays for the imports."""
        for future in [self.executor.submit(warm_up) for _ in range(self.workers)]:
            future.result()

    async def answer(self, pending: PendingMove) -> dict:
        if self.waiting >= self.max_waiting:
            return pending.fail(ProtocolError(
                "limit", f"{self.waiting} moves are waiting for this server's "
                f"{self.workers} workers; ask again shortly"))
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self.executor, think, pending.job)
        except BrokenProcessPool:
            self.executor = self._start()
            return pending.fail(ProtocolError("internal", "a worker process died during the "
                                              "move; it was restarted, ask again"))
        except Exception as err:          # answered as `internal`; the server carries on
            return pending.fail(err)
        finally:
            self.waiting -= 1
        return pending.finish(result)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def build_app(protocol: Protocol, pool: MovePool):
    """The Starlette app: POST / takes a request; GET / answers `hello`, or the page that
    plays in the browser to a client that prefers HTML; GET /static/NAME its files."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    limit = protocol.limits.max_request_bytes

    def respond(reply: dict) -> JSONResponse:
        status = 200 if reply.get("ok") else http_status(reply["error"]["code"])
        return JSONResponse(reply, status_code=status)

    async def post(request):
        body = await _read_body(request, limit)
        if body is None:
            reply = protocol.error_reply({}, ProtocolError(
                "too_large", f"the request is longer than the {limit} bytes this server reads"))
        else:
            reply = protocol.handle_text(body)
        if isinstance(reply, PendingMove):
            reply = await pool.answer(reply)
        return respond(reply)

    async def get(request):
        if prefers_html(request.headers.get("accept", "")):
            return web_file("index.html")
        response = respond(protocol.handle({"type": "hello"}))
        response.headers["Vary"] = "Accept"
        return response

    async def static(request):
        return web_file(request.path_params["name"])

    async def not_found(request, exc):
        return respond(protocol.error_reply({}, ProtocolError(
            "unknown_request", f"{request.method} {request.url.path}: requests are POSTed "
            f"to / as JSON (GET / answers hello)")))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        sweeper = asyncio.create_task(_expire_idle(protocol))
        try:
            yield
        finally:
            sweeper.cancel()
            pool.close()

    routes = [Route("/", post, methods=["POST"]), Route("/", get, methods=["GET"]),
              Route("/static/{name:path}", static, methods=["GET"])]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={HTTPException: not_found})


def prefers_html(accept: str) -> bool:
    """Whether an Accept header ranks HTML above JSON, as a browser's does (`text/html,
    ...,*/*;q=0.8`); no header, `*/*`, `application/json`, or a tie keep the JSON `hello`.
    Each type takes the quality of its most specific range (`text/html`, then `text/*`,
    then `*/*`)."""
    ranges = {}
    for item in accept.split(","):
        kind, *params = [part.strip() for part in item.split(";")]
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges[kind.lower()] = quality

    def quality_of(kind: str) -> float:
        family = kind.split("/")[0] + "/*"
        for name in (kind, family, "*/*"):
            if name in ranges:
                return ranges[name]
        return 0.0

    html, json = quality_of("text/html"), quality_of("application/json")
    return html > 0 and html > json


def web_file(name: str):
    """One file of the page (`index.html`, `app.js`, `style.css`), or a plain 404: only
    the files in the folder itself, by their exact names, are served."""
    from starlette.responses import Response
    path = WEB / name
    kind = CONTENT_TYPES.get(path.suffix)
    hidden = "/" in name or "\\" in name or name.startswith(".")
    if kind is None or hidden or not path.is_file():
        return Response(f"no file {name!r} here\n", status_code=404, media_type="text/plain")
    return Response(path.read_bytes(), media_type=kind, headers={"Cache-Control": "no-cache"})


async def _read_body(request, limit: int) -> bytes | None:
    """The body, or None when it is (or says it is) longer than `limit`."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


async def _expire_idle(protocol: Protocol) -> None:
    period = min(30.0, max(0.5, protocol.limits.idle_seconds / 4))
    while True:
        await asyncio.sleep(period)
        protocol.expire_idle()


def serve_http(host: str, port: int, workers: int, limits: Limits = Limits(),
               announce=print) -> None:
    """Listen on host:port until interrupted; `announce` gets the URL once listening."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise ServeError("koloda serve --http needs Starlette and uvicorn: "
                         "pip install 'koloda[serve]'") from None
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named, so asyncio sets TCP_NODELAY on the accepted connections
        # (it checks the protocol): else a reply's body waits for the client's delayed ACK
        listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)     # connections wait in the backlog until uvicorn accepts
    except (OSError, OverflowError) as err:
        raise ServeError(f"cannot listen on {host}:{port}: {err}") from None
    pool = MovePool(workers)
    pool.warm()
    protocol = Protocol(limits, transport="http")
    config = uvicorn.Config(build_app(protocol, pool), log_level="warning",
                            access_log=False, timeout_keep_alive=30)
    server = uvicorn.Server(config)
    bound = listener.getsockname()
    shown = f"[{bound[0]}]" if family == socket.AF_INET6 else bound[0]
    announce(f"koloda serve: listening on http://{shown}:{bound[1]}")
    sys.stdout.flush()
    try:
        asyncio.run(server.serve(sockets=[listener]))
    finally:
        pool.close()
