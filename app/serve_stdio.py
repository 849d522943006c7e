"""`koloda serve`: the protocol over stdin/stdout, one JSON message a line each way.

Requests are answered in order, moves inline; a line longer than the request limit is
answered `too_large` and skipped.  The server ends at `quit` or at the end of its input.
"""

from __future__ import annotations

import json
import sys

from koloda.protocol import Limits, PendingMove, Protocol
from koloda.protocol_errors import ProtocolError


def serve_stdio(limits: Limits = Limits(), stdin=None, stdout=None) -> None:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    protocol = Protocol(limits, transport="stdio")
    while True:
        line = stdin.readline(limits.max_request_bytes + 1)
        if not line:
            return
        if len(line) > limits.max_request_bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):      # skip the rest of the line
                line = stdin.readline(limits.max_request_bytes + 1)
            reply = protocol.error_reply({}, ProtocolError(
                "too_large", f"the line is longer than the {limits.max_request_bytes} bytes "
                f"this server reads"))
        elif not line.strip():
            continue
        else:
            reply = protocol.handle_text(line)
        if isinstance(reply, PendingMove):
            reply = reply.answer_here()
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
        if reply.get("type") == "quit" and reply.get("ok"):
            return
