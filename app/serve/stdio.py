"""`koloda serve`: the protocol over stdin/stdout, one JSON message a line each way.

Requests are answered in order, moves inline; a line longer than the request limit is
answered `too_large` and skipped.  The server ends at `quit` or at the end of its input.
"""

from __future__ import annotations

import sys

from koloda.protocol.handler import Limits, PendingMove, Protocol, encode
from koloda.protocol.errors import ProtocolError


def serve_stdio(limits: Limits = Limits(), stdin=None, stdout=None,
                policies=None) -> None:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    protocol = Protocol(limits, transport="stdio", policies=policies)
    most = limits.max_request_bytes
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
