"""The protocol's error codes: each becomes a JSON error object, and an HTTP status.

A code names the kind of problem, so an app can act on it without reading the message;
the message names the problem itself (the field, the action, the session).
"""

from __future__ import annotations

from koloda.games.errors import KolodaError

#: code -> (HTTP status, what it means); docs/protocol.md lists the same table
CODES = {
    "bad_json": (400, "the request is not one JSON object"),
    "bad_request": (400, "a field is missing, unknown or of the wrong type"),
    "too_large": (413, "the request is longer than the server accepts"),
    "unknown_request": (400, "the request type is not one of the protocol's"),
    "unknown_session": (404, "no such session (never opened, closed, or expired)"),
    "bad_game": (400, "the game string names no game, or a bad parameter"),
    "bad_agent": (400, "the agent spec names no agent, or a bad parameter"),
    "malformed_action": (422, "an action string that cannot be read"),
    "illegal_action": (422, "an action the rules do not allow here"),
    "out_of_turn": (409, "an action or request for a seat (or chance) that is not to move"),
    "hidden_information": (409, "koloda cannot play a seat whose cards it only guessed"),
    "limit": (429, "beyond a server limit: budget per move, sessions, moves waiting"),
    "unsupported": (400, "a request this transport does not offer"),
    "forbidden": (403, "over HTTP: a Host or Origin this server does not accept"),
    "unauthorized": (401, "over HTTP: the server's token is missing or wrong"),
    "bad_content_type": (415, "over HTTP: a POST whose Content-Type is not application/json"),
    "internal": (500, "a fault in koloda itself; the server carries on"),
}


class ProtocolError(KolodaError):
    """An error answered to the client as `{"code", "message"}`; `index` points at the
    action of an `observe` list that failed."""

    def __init__(self, code: str, message: str, index: int | None = None):
        if code not in CODES:
            raise ValueError(f"unknown protocol error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.index = index

    def as_dict(self) -> dict:
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.index is not None:
            error["index"] = self.index
        return error


def http_status(code: str) -> int:
    return CODES[code][0]
