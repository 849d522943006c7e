"""`koloda serve`: the protocol over stdin/stdout, one JSON message a line each way.

Every game and its agents are prepared in the background from the start (`hello` says
when they are ready; a move asked before waits).  Requests are answered in order, moves
inline; a line longer than the request limit is
answered `too_large` and skipped.  The server ends at `quit` or at the end of its input.
"""

from __future__ import annotations

import functools
import sys

from koloda.protocol.errors import ProtocolError
from koloda.protocol.handler import Limits, PendingMove, Protocol, encode
from koloda.protocol.readiness import Readiness
from koloda.protocol.thinking import warm_up
from koloda.solvers.interrupts import signals_noted


def serve_stdio(limits: Limits = Limits(), stdin=None, stdout=None,
                policies=None, readiness: Readiness | None = None, prepared=None) -> None:
    """Serve until `quit` or the end of input; `readiness` (by default the games
    `prepared`, all by default, and their agents prepared in the background from now) is
    what `hello` reports and moves wait for."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    readiness = readiness or Readiness(functools.partial(warm_up, prepared)).start()
    protocol = Protocol(limits, transport="stdio", policies=policies, readiness=readiness)
    most = limits.max_request_bytes
    with signals_noted():          # an agent's own KeyboardInterrupt stops its move only
        _serve_lines(protocol, most, stdin, stdout)


def _serve_lines(protocol: Protocol, most: int, stdin, stdout) -> None:
    while True:
        line = stdin.readline(most + 2)          # a request of `most` bytes, and "\r\n"
        if not line:
            return
        request = line.rstrip(b"\r\n")
        if len(request) > most:
            while line and not line.endswith(b"\n"):      # skip the rest of the line
                line = stdin.readline(most + 2)
            reply = protocol.error_reply({}, ProtocolError(
                "too_large", f"the line is longer than the {most} bytes this server reads"))
        elif not request.strip():
            continue
        else:
            reply = protocol.handle_text(request)
        if isinstance(reply, PendingMove):
            reply = reply.answer_here()
        stdout.write(encode(reply) + "\n")
        stdout.flush()
        if reply.get("type") == "quit" and reply.get("ok"):
            return
