"""`koloda serve`: its options, and the choice of transport (stdio, or HTTP with --http)."""

from __future__ import annotations

import ipaddress
import sys

from koloda.games.errors import KolodaError
from koloda.protocol import Limits

DEFAULTS = Limits()


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
    parser.add_argument("--max-sessions", type=int, default=DEFAULTS.max_sessions, metavar="N",
                        help=f"open sessions at most (default {DEFAULTS.max_sessions})")
    parser.add_argument("--max-ms", type=int, default=DEFAULTS.max_ms, metavar="MS",
                        help=f"thinking time per move at most (default {DEFAULTS.max_ms})")
    parser.add_argument("--max-sims", type=int, default=DEFAULTS.max_sims, metavar="N",
                        help=f"simulations per move at most (default {DEFAULTS.max_sims})")
    parser.add_argument("--max-request-bytes", type=int, default=DEFAULTS.max_request_bytes,
                        metavar="B", help=f"longest request (default {DEFAULTS.max_request_bytes})")
    parser.add_argument("--idle-seconds", type=float, default=DEFAULTS.idle_seconds,
                        metavar="S", help=f"close sessions idle this long "
                        f"(default {DEFAULTS.idle_seconds:g})")


def run(args) -> None:
    limits = _limits(args)
    if not args.http:
        from koloda.serve_stdio import serve_stdio
        serve_stdio(limits)
        return
    if not 1 <= args.workers <= 64:
        raise ServeOptionError(f"--workers must be from 1 to 64, not {args.workers}")
    if not 0 <= args.port <= 65535:
        raise ServeOptionError(f"--port must be from 0 to 65535, not {args.port}")
    if not _is_loopback(args.host):
        print(f"koloda serve: warning: listening on {args.host}, beyond this machine; the "
              f"server has no authentication", file=sys.stderr)
    from koloda.serve_http import serve_http
    serve_http(args.host, args.port, args.workers, limits)


def _limits(args) -> Limits:
    checks = (("--max-sessions", args.max_sessions, 1, 100_000),
              ("--max-ms", args.max_ms, 1, 3_600_000),
              ("--max-sims", args.max_sims, 1, 1_000_000),
              ("--max-request-bytes", args.max_request_bytes, 256, 64 * 1024 * 1024))
    for name, value, low, high in checks:
        if not low <= value <= high:
            raise ServeOptionError(f"{name} must be from {low} to {high}, not {value}")
    if not 0 < args.idle_seconds <= 30 * 24 * 3600:
        raise ServeOptionError(f"--idle-seconds must be positive (at most 30 days), "
                               f"not {args.idle_seconds}")
    return Limits(max_sessions=args.max_sessions, max_request_bytes=args.max_request_bytes,
                  max_ms=args.max_ms, max_sims=args.max_sims, idle_seconds=args.idle_seconds)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
