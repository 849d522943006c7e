"""The koloda protocol (docs/protocol.md) without a transport: requests and their replies
(`handler`), sessions that track what a seat has seen (`session`), the moves agents think
(`thinking`), records of games (`record`), its errors, and the Python `Client` that speaks
it over stdio, HTTP or in this process."""

from koloda.protocol.client import Client, ErrorReply
from koloda.protocol.errors import ProtocolError
from koloda.protocol.handler import VERSION, Limits, PendingMove, Protocol, encode

__all__ = ["Client", "ErrorReply", "Limits", "PendingMove", "Protocol", "ProtocolError",
           "VERSION", "encode"]
