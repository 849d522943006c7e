"""`koloda serve --http`: the protocol over HTTP, one JSON request per POST to `/`.

Starlette on uvicorn (the `koloda[serve]` extra).  Any web page the user visits can reach
the server, so only the user's own pages and apps get in (`Access`): a Host of this
server, no Origin but its own or an allowed one, JSON bodies only, and the token when
there is one.  Requests are handled in a pool of threads, one at a time per session, so
a slow request holds up only its own session and the event loop keeps answering; agents'
moves run in a pool of worker processes (`--workers`), so several sessions think at once.
The server listens at once and prepares its agents in the background (`hello` says when
they are ready; a move asked before waits).  The limits (`Limits`) bound what a client can
ask for; idle sessions expire.

This module is the app and its routes; each job is a module of its own: who may speak to
the server (access.py), the requests' threads and sessions' order (gate.py), the moves'
worker processes (moves.py), the page's files (pages.py), JSON replies (replies.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import sys
from urllib.parse import quote

from koloda.games.errors import KolodaError
from koloda.games.kit.params import shown
from koloda.protocol.errors import ProtocolError
from koloda.protocol.handler import Limits, Protocol
from koloda.protocol.readiness import Readiness
from koloda.protocol.thinking import warm_up
from koloda.serve.access import Access, AccessGuard
from koloda.serve.gate import RequestGate
from koloda.serve.moves import MovePool
from koloda.serve.pages import no_file, prefers_html, web_file
from koloda.serve.replies import error_response, json_response

#: `GET /` as a request (when the client does not prefer the page)
HELLO = b'{"type": "hello"}'


class ServeError(KolodaError):
    """The HTTP server cannot start (the extra is missing, the address is taken)."""
















def build_app(protocol: Protocol, pool: MovePool, access: Access = Access()):
    """The Starlette app: POST / takes a request; GET / answers `hello`, or the page that
    plays in the browser to a client that prefers HTML; GET /static/NAME its files; every
    route behind `AccessGuard`, the protocol's requests behind the token too."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect
    from starlette.responses import Response
    from starlette.routing import Route

    limit = protocol.limits.max_request_bytes
    gate = RequestGate(protocol, pool)

    respond = json_response

    def refuse(error: ProtocolError) -> Response:
        headers = {"WWW-Authenticate": "Bearer"} if error.code == "unauthorized" else None
        return error_response(error, headers)

    def too_large() -> Response:
        return respond(protocol.error_reply({}, ProtocolError(
            "too_large", f"the request is longer than the {limit} bytes this server reads")))

    async def post(request):
        if _declared_length(request.headers) > limit:
            return too_large()
        refused = _content_type_refusal(request.headers) or access.token_refusal(
            request.headers)
        if refused is not None:
            return refuse(refused)
        try:
            body = await _read_body(request, limit)
        except ClientDisconnect:
            print("koloda serve: a client disconnected before its request was read",
                  file=sys.stderr)
            return Response(status_code=400)          # never sent: the client is gone
        return too_large() if body is None else respond(await gate.answer(body))

    async def get(request):
        if prefers_html(request.headers.get("accept", "")):
            return web_file("index.html")
        refused = access.token_refusal(request.headers)
        response = refuse(refused) if refused else respond(await gate.answer(HELLO))
        response.headers["Vary"] = "Accept"
        return response

    async def static(request):
        name = request.path_params["name"]
        return no_file(name) if name == "index.html" else web_file(name)   # the page: at /

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
            gate.close()
            pool.close()

    routes = [Route("/", post, methods=["POST"]), Route("/", get, methods=["GET"]),
              Route("/static/{name:path}", static, methods=["GET"])]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(AccessGuard, access=access)],
                     exception_handlers={HTTPException: not_found})


def _content_type_refusal(headers) -> ProtocolError | None:
    """A POST must say it is JSON: a page on another site can POST a form or text/plain
    without the browser asking the server first, but not application/json."""
    kind = headers.get("content-type", "")
    if kind.split(";")[0].strip().lower() != "application/json":
        return ProtocolError("bad_content_type", f"POST / takes Content-Type: "
                             f"application/json, not {shown(kind, 100) if kind else 'none'}")
    return None






def _declared_length(headers) -> int:
    declared = headers.get("content-length", "")
    return int(declared) if declared.isdigit() else 0


async def _read_body(request, limit: int) -> bytes | None:
    """The body, or None when it is longer than `limit`."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


async def _expire_idle(protocol: Protocol) -> None:
    """Close idle sessions now and then, in a thread: the event loop never waits for the
    protocol's lock, which request threads hold."""
    period = min(30.0, max(0.5, protocol.limits.idle_seconds / 4))
    while True:
        await asyncio.sleep(period)
        await asyncio.get_running_loop().run_in_executor(None, protocol.expire_idle)


def serve_http(host: str, port: int, workers: int, limits: Limits = Limits(),
               announce=print, access: Access = Access(), policies=None,
               prepared=None) -> None:
    """Listen on host:port until interrupted; `announce` gets the URL once listening
    (with a token, the page's URL with the token in its fragment, which the browser keeps
    to itself).  `prepared`: the games prepared ahead (default all)."""
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
    # In the background: this process first (the sessions' own engine calls), which fills
    # numba's cache, then the workers, which load from it.
    readiness = Readiness(functools.partial(warm_up, prepared),
                          functools.partial(pool.warm, prepared)).start()
    protocol = Protocol(limits, transport="http", policies=policies, readiness=readiness)
    bound = listener.getsockname()
    access = access.listening_on(host.strip("[]"), bound[0])
    config = uvicorn.Config(build_app(protocol, pool, access), log_level="warning",
                            access_log=False, timeout_keep_alive=30)
    server = uvicorn.Server(config)
    address = f"[{bound[0]}]" if family == socket.AF_INET6 else bound[0]
    url = f"http://{address}:{bound[1]}"
    page = f"; open the page at {url}/#token={quote(access.token, safe='')}" if access.token else ""
    announce(f"koloda serve: listening on {url}{page}")
    sys.stdout.flush()
    try:
        asyncio.run(server.serve(sockets=[listener]))
    finally:
        pool.close()
