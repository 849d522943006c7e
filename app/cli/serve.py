"""`koloda serve`: its options, and the choice of transport (stdio, or HTTP with --http)."""

from __future__ import annotations

import ipaddress
import os
import re
from pathlib import Path

from koloda import games
from koloda.games.errors import KolodaError
from koloda.protocol.handler import Limits

DEFAULTS = Limits()
#: option, Limits field, the range an option may set, what it bounds
LIMIT_OPTIONS = (
    ("--max-sessions", "max_sessions", 1, 100_000, "open sessions at most"),
    ("--max-ms", "max_ms", 1, 3_600_000, "thinking time per move at most, ms"),
    ("--max-sims", "max_sims", 1, 1_000_000, "simulations per move at most"),
    ("--max-worlds", "max_worlds", 1, 10_000,
     "worlds per move at most (pimc's worlds, ismcts's infer)"),
    ("--max-depth", "max_depth", 1, 100, "depth of a learned rollout at most (ismcts)"),
    ("--max-nodes", "max_nodes", 1, 10**10, "nodes of a Parket solve at most (solver)"),
    ("--max-reach", "max_reach", 0, 35, "empty cells at most for a Parket solve (solver)"),
    ("--max-relocations", "max_relocations", 1, 100,
     "Parket's max_relocations at most in a session"),
    ("--max-request-bytes", "max_request_bytes", 256, 64 * 1024 * 1024,
     "longest request, in bytes"),
    ("--max-analysis-ms", "max_analysis_ms", 1, 600_000,
     "time per position of a Parket game's analysis at most, ms"),
    ("--max-analysis-total-ms", "max_analysis_total_ms", 1, 3_600_000,
     "time of one Parket game's analysis at most, ms"),
)
#: a token: printable ASCII without spaces, long enough not to be guessed, short enough
#: for a header
TOKEN = re.compile(r"[!-~]{16,256}")
#: an origin as a browser sends it in its Origin header
ORIGIN = re.compile(r"https?://[^/\s]+|null|\*")


class ServeOptionError(KolodaError):
    """An option of `koloda serve` is out of range."""


def add_arguments(parser) -> None:
    parser.add_argument("--http", action="store_true",
                        help="serve over HTTP instead of stdin/stdout (needs koloda[serve])")
    parser.add_argument("--host", default="127.0.0.1",
                        help="with --http: address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765,
                        help="with --http: port (default 8765; 0 picks a free one)")
    parser.add_argument("--workers", type=int, default=2, metavar="W",
                        help="with --http: processes that run agents' moves (default 2)")
    parser.add_argument("--token", metavar="TOKEN",
                        help="with --http: protocol requests must carry `Authorization: "
                        "Bearer TOKEN`; the page takes it as /#token=TOKEN (default: "
                        "$KOLODA_TOKEN; required to listen beyond loopback)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="with --http: accept this Host name too, besides loopback names "
                        "and the address listened on (repeatable)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="with --http: let pages of this origin (http://localhost:3000; "
                        "* for any) call the server (repeatable)")
    parser.add_argument("--prepare", action="append", metavar="GAME",
                        help="prepare only this game's agents ahead, in the background from "
                        "the start (repeatable; default: every game); `hello` says when "
                        "they are ready")
    parser.add_argument("--policies", metavar="DIR",
                        help="offer the policy files in DIR to clients, by name: "
                        "cfr(policy=NAME) (a client never names a path)")
    for option, field, _, _, words in LIMIT_OPTIONS:
        default = getattr(DEFAULTS, field)
        parser.add_argument(option, type=int, default=default, metavar="N",
                            help=f"{words} (default {default})")
    parser.add_argument("--idle-seconds", type=float, default=DEFAULTS.idle_seconds,
                        metavar="S", help=f"close sessions idle this long "
                        f"(default {DEFAULTS.idle_seconds:g})")


def run(args) -> None:
    limits = _limits(args)
    policies = _policies(args.policies)
    prepared = _prepared(args.prepare)
    if not args.http:
        from koloda.serve.stdio import serve_stdio
        serve_stdio(limits, policies=policies, prepared=prepared)
        return
    if not 1 <= args.workers <= 64:
        raise ServeOptionError(f"--workers must be from 1 to 64, not {args.workers}")
    if not 0 <= args.port <= 65535:
        raise ServeOptionError(f"--port must be from 0 to 65535, not {args.port}")
    from koloda.serve.access import Access, is_loopback
    from koloda.serve.http import serve_http
    token = _token(args)
    if token is None and not is_loopback(args.host.lower()):
        raise ServeOptionError(f"--host {args.host} listens beyond this machine: set --token "
                               f"TOKEN or KOLODA_TOKEN, so only clients holding it get in")
    access = Access(hosts=frozenset(_allowed_host(name) for name in args.allow_host),
                    origins=frozenset(_allowed_origin(origin) for origin in args.allow_origin),
                    token=token)
    serve_http(args.host, args.port, args.workers, limits, access=access, policies=policies,
               prepared=prepared)


def _limits(args) -> Limits:
    values = {}
    for option, field, low, high, _ in LIMIT_OPTIONS:
        value = getattr(args, field)
        if not low <= value <= high:
            raise ServeOptionError(f"{option} must be from {low} to {high}, not {value}")
        values[field] = value
    if not 0 < args.idle_seconds <= 30 * 24 * 3600:
        raise ServeOptionError(f"--idle-seconds must be positive (at most 30 days), "
                               f"not {args.idle_seconds}")
    return Limits(idle_seconds=args.idle_seconds, **values)


def _prepared(names: list[str] | None) -> list[str] | None:
    """The games --prepare names (None: all), each checked to be one of koloda's."""
    if not names:
        return None
    known = [spec.name for spec in games.catalog()]
    for name in names:
        if name not in known:
            raise ServeOptionError(f"--prepare {name!r}: no such game; the games are "
                                   f"{', '.join(known)}")
    return list(dict.fromkeys(names))


def _policies(folder: str | None) -> Path | None:
    if folder is None:
        return None
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ServeOptionError(f"--policies must name a folder, not {folder!r}")
    return path.resolve()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _token(args) -> str | None:
    """--token, else $KOLODA_TOKEN, else None; a value out of bounds stops the server, and
    its error never shows the value."""
    name, token = "--token", args.token
    if token is None:
        name, token = "KOLODA_TOKEN", os.environ.get("KOLODA_TOKEN")
    if token is not None and not TOKEN.fullmatch(token):
        raise ServeOptionError(f"{name} must be 16 to 256 printable ASCII characters without "
                               f"spaces; the value given ({len(token)} characters) is not")
    return token


def _allowed_host(name: str) -> str:
    bare = name.strip().lower().removeprefix("[").removesuffix("]")
    if not bare or any(c in bare for c in "/?#@ \t") or (":" in bare and not _is_ip(bare)):
        raise ServeOptionError(f"--allow-host takes a host name or address without a port "
                               f"or path, not {name!r}")
    return bare


def _allowed_origin(origin: str) -> str:
    if not ORIGIN.fullmatch(origin):
        raise ServeOptionError(f"--allow-origin takes an origin as a browser sends it "
                               f"(scheme://host[:port], no path: http://localhost:3000), "
                               f"null or *, not {origin!r}")
    return origin
