"""Who may speak to `koloda serve --http`: any web page the user visits can reach the
server, so only the user's own pages and apps get in.  `Access` says who (a Host of this
server, no Origin but its own or an allowed one, the token when there is one), and
`AccessGuard` holds every route to it and answers CORS for the origins it allows."""

from __future__ import annotations

import dataclasses
import hmac
import ipaddress
from urllib.parse import urlsplit

from koloda.games.kit.params import cut, shown
from koloda.protocol.errors import ProtocolError
from koloda.serve.replies import error_response

#: what the preflight of an allowed cross-origin request is told
PREFLIGHT = {"Access-Control-Allow-Methods": "POST, GET",
             "Access-Control-Allow-Headers": "Content-Type, Authorization",
             "Access-Control-Max-Age": "600"}


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
