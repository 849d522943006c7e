"""`koloda serve --http`: the protocol over HTTP, one JSON request per POST to `/`.

Starlette on uvicorn (the `koloda[serve]` extra).  Any web page the user visits can reach
the server, so only the user's own pages and apps get in (`Access`): a Host of this
server, no Origin but its own or an allowed one, JSON bodies only, and the token when
there is one.  Requests are handled in a pool of threads, one at a time per session, so
a slow request holds up only its own session and the event loop keeps answering; agents'
moves run in a pool of worker processes (`--workers`), so several sessions think at once.
The server listens at once and prepares its agents in the background (`hello` says when
they are ready; a move asked before waits).  The limits (`Limits`) bound what a client can ask
for; idle sessions expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hmac
import ipaddress
import json
import multiprocessing
import signal
import socket
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from urllib.parse import quote, urlsplit

from koloda.games.errors import KolodaError
from koloda.games.kit.params import cut, shown
from koloda.protocol.errors import ProtocolError, http_status
from koloda.protocol.handler import Limits, PendingMove, Protocol, encode
from koloda.protocol.readiness import Readiness
from koloda.protocol.thinking import think, warm_up

#: moves that may wait for a worker, per worker; beyond that a move is refused (`limit`)
WAITING_PER_WORKER = 8
#: threads that handle requests, and requests that may wait for one (or for their
#: session) beyond those; more are refused (`limit`)
REQUEST_THREADS = 8
WAITING_REQUESTS = 64
#: bodies this short are read for their session on the event loop (in microseconds),
#: longer ones in a thread
PARSED_ON_THE_LOOP = 4096
#: `GET /` as a request (when the client does not prefer the page)
HELLO = b'{"type": "hello"}'
#: what the preflight of an allowed cross-origin request is told
PREFLIGHT = {"Access-Control-Allow-Methods": "POST, GET",
             "Access-Control-Allow-Headers": "Content-Type, Authorization",
             "Access-Control-Max-Age": "600"}

#: the page that plays in the browser (`GET /` from a browser) and its files (`/static/...`)
WEB = Path(__file__).resolve().parent / "web"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


class ServeError(KolodaError):
    """The HTTP server cannot start (the extra is missing, the address is taken)."""


@dataclasses.dataclass(frozen=True)
class Access:
    """Who may speak to the server.  A page on another site can send requests to it (the
    browser does not ask first for a POST of a form or of text/plain), and a DNS name it
    rebinds to 127.0.0.1 makes them same-origin: so a request must name this server in
    its Host (a loopback name, the address listened on, or one of `hosts`), carry no
    Origin but the server's own or one of `origins` (`*`: any), and, with a `token`,
    carry it as `Authorization: Bearer`."""
    hosts: frozenset = frozenset()
    origins: frozenset = frozenset()
    token: str | None = None

    def listening_on(self, *names: str) -> Access:
        """The same, with the names of the address listened on accepted as Hosts."""
        return dataclasses.replace(self, hosts=self.hosts | {n.lower() for n in names})

    def refusal(self, headers) -> ProtocolError | None:
        """Why a request's Host or Origin is refused, or None."""
        hosts = headers.getlist("host")
        if len(hosts) != 1:
            return ProtocolError("forbidden", "a request needs one Host header (this server "
                                 "does not answer HTTP/1.0 without one)")
        name = host_name(hosts[0])
        if name is None or not (is_loopback(name) or name in self.hosts):
            given = name or hosts[0]
            return ProtocolError("forbidden", f"Host {shown(given, 100)} is not a name of this "
                                 f"server; start it with --allow-host {cut(given, 100)} "
                                 f"to accept it")
        origins = headers.getlist("origin")
        if len(origins) > 1 or (origins and not self.origin_allowed(origins[0], hosts[0])):
            origin = ", ".join(origins)
            return ProtocolError("forbidden", f"pages of origin {shown(origin, 100)} may not "
                                 f"call this server; start it with --allow-origin "
                                 f"{cut(origin, 100)} to let them")
        return None

    def origin_allowed(self, origin: str, host: str) -> bool:
        return "*" in self.origins or origin in self.origins or same_origin(origin, host)

    def token_refusal(self, headers) -> ProtocolError | None:
        """Why a request lacks the token, or None; the message never shows what was sent."""
        if self.token is None:
            return None
        scheme, _, sent = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not sent.strip():
            return ProtocolError("unauthorized", "this server takes requests with its token "
                                 "only: send `Authorization: Bearer TOKEN` (the page: open "
                                 "it at /#token=TOKEN)")
        if not hmac.compare_digest(sent.strip().encode("latin-1"), self.token.encode()):
            return ProtocolError("unauthorized", "the token sent is not this server's")
        return None


def host_name(host: str) -> str | None:
    """The name of a Host header (`localhost:8765` -> `localhost`, `[::1]:80` -> `::1`),
    lowercase, or None when it is not one."""
    if not host or any(c in host for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + host)
        parts.port                        # noqa: B018 (raises on a bad port)
    except ValueError:
        return None
    return parts.hostname or None


def same_origin(origin: str, host: str) -> bool:
    """Whether `origin` is this server as the request reached it: http, and the host and
    port of its Host header."""
    try:
        seen, served = urlsplit(origin), urlsplit("//" + host)
        return (seen.scheme == "http" and seen.path == "" and seen.hostname is not None
                and (seen.hostname, seen.port or 80) == (served.hostname, served.port or 80))
    except ValueError:
        return False


def is_loopback(name: str) -> bool:
    """Whether a (lowercase) host name is this machine's own: localhost, 127.x, ::1."""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def json_response(reply: dict, headers: dict | None = None):
    """A reply as strict JSON, with the status its error code calls for."""
    from starlette.responses import Response
    status = 200 if reply.get("ok") else http_status(reply["error"]["code"])
    return Response(encode(reply), status_code=status, headers=headers,
                    media_type="application/json")


def error_response(error: ProtocolError, headers: dict | None = None):
    return json_response({"type": None, "ok": False, "error": error.as_dict()}, headers)


class AccessGuard:
    """ASGI middleware: refuses a request whose Host or Origin `Access` refuses; answers
    the preflight of an allowed cross-origin request and adds the CORS headers to its
    reply (a refused one gets none)."""

    def __init__(self, app, access: Access):
        self.app = app
        self.access = access

    async def __call__(self, scope, receive, send):
        from starlette.datastructures import Headers
        from starlette.responses import Response
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        refused = self.access.refusal(headers)
        if refused is not None:
            return await error_response(refused)(scope, receive, send)
        origin = headers.get("origin")
        if origin is None:
            return await self.app(scope, receive, send)
        cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
        if scope["method"] == "OPTIONS" and scope["path"] == "/":
            return await Response(status_code=204, headers={**cors, **PREFLIGHT})(
                scope, receive, send)
        await self.app(scope, receive, _adding_cors(send, origin))


def _adding_cors(send, origin: str):
    from starlette.datastructures import MutableHeaders

    async def send_with_cors(message):
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            headers["Access-Control-Allow-Origin"] = origin
            headers.add_vary_header("Origin")
        await send(message)
    return send_with_cors


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


def _deaf_to_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
        return no_file(name)
    return Response(path.read_bytes(), media_type=kind, headers={"Cache-Control": "no-cache"})


def no_file(name: str):
    from starlette.responses import Response
    return Response(f"no file {name!r} here\n", status_code=404, media_type="text/plain")


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
