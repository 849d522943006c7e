"""The HTTP server's replies: a protocol reply as strict JSON, with the status its error
code calls for (docs/protocol.md)."""

from __future__ import annotations

from koloda.protocol.errors import ProtocolError, http_status
from koloda.protocol.handler import encode


def json_response(reply: dict, headers: dict | None = None):
    """A reply as strict JSON, with the status its error code calls for."""
    from starlette.responses import Response
    status = 200 if reply.get("ok") else http_status(reply["error"]["code"])
    return Response(encode(reply), status_code=status, headers=headers,
                    media_type="application/json")


def error_response(error: ProtocolError, headers: dict | None = None):
    return json_response({"type": None, "ok": False, "error": error.as_dict()}, headers)
