"""The Python client of the koloda protocol (docs/protocol.md), over a `koloda serve`
subprocess, an HTTP server or a protocol in this process:

    from koloda.protocol import Client
    # or Client.http("http://127.0.0.1:8765"), Client.in_process()
    with Client.subprocess() as koloda:
        table = koloda.new("durak", seats=[0], seed=7)
        reply = koloda.move(table["session"], "ismcts", ms=200, apply=True)

A server started with a token (`--token`, `KOLODA_TOKEN`) needs it on every request:
`Client.http(url, token=TOKEN)`, else the `#token=` of the URL the server printed, else
$KOLODA_TOKEN.

Each request method returns the reply as a dict and raises `ErrorReply` (with the
reply's `code`) when the reply is an error; `send` returns any reply as it is.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlsplit

from koloda.games.errors import KolodaError
from koloda.protocol.handler import Limits, PendingMove, Protocol, encode


class ErrorReply(KolodaError):
    """The server answered a request with an error object (its `code`, the `reply`)."""

    def __init__(self, reply: dict):
        error = reply.get("error") or {}
        self.code = error.get("code")
        self.reply = reply
        super().__init__(f"{self.code}: {error.get('message')}")


class StdioTransport:
    """A `koloda serve` child process, one JSON line each way."""

    def __init__(self, command=None):
        command = command or [sys.executable, "-m", "koloda", "serve"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, bufsize=0)

    def exchange(self, text: str) -> dict:
        self.process.stdin.write(text.encode() + b"\n")
        line = self.process.stdout.readline()
        if not line:
            raise ConnectionError(f"koloda serve ended (exit status {self.process.poll()})")
        return json.loads(line)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


class HttpTransport:
    """A `koloda serve --http` server: one POST per request on a kept-alive connection."""

    def __init__(self, url: str, timeout: float = 60.0, token: str | None = None):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = parts.path or "/"
        self.timeout = timeout
        self.headers = {"Content-Type": "application/json"}
        token = token or _fragment_token(parts.fragment) or os.environ.get("KOLODA_TOKEN")
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.connection: http.client.HTTPConnection | None = None
        self.last_status: int | None = None

    def exchange(self, text: str) -> dict:
        body = text.encode()
        for attempt in (1, 2):            # a kept-alive connection the server dropped
            connection = self.connection
            if connection is None:
                connection = self.connection = http.client.HTTPConnection(
                    self.host or "", self.port, timeout=self.timeout)
                connection.connect()
                # http.client writes the headers and the body apart: without NODELAY each
                # request waits for the server's delayed ACK (40 ms on Linux)
                connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                connection.request("POST", self.path, body, self.headers)
                response = connection.getresponse()
                data = response.read()
                self.last_status = response.status
                return json.loads(data)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        raise AssertionError("not reached: the second attempt returns or raises")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class InProcessTransport:
    """A protocol in this process: each request handled at once, a move thought inline
    (as `koloda serve` does on stdio); replies pass through JSON, as a wire would carry
    them."""

    def __init__(self, limits: Limits | None = None):
        self.protocol = Protocol(limits or Limits.own_process(), transport="stdio")

    def exchange(self, text: str) -> dict:
        reply = self.protocol.handle_text(text)
        if isinstance(reply, PendingMove):
            reply = reply.answer_here()
        return json.loads(encode(reply))

    def close(self) -> None:
        pass


def _fragment_token(fragment: str) -> str | None:
    """The token of a page URL's fragment (`#token=...`), as `koloda serve` prints it."""
    return parse_qs(fragment.replace("+", "%2B")).get("token", [None])[0]


class Client:
    """The protocol's requests as methods; see docs/protocol.md for every field."""

    def __init__(self, transport):
        self.transport = transport
        self._next_id = 0

    @classmethod
    def subprocess(cls, command=None) -> Client:
        """Start `koloda serve` (or `command`) and speak to it over its stdin/stdout."""
        return cls(StdioTransport(command))

    @classmethod
    def http(cls, url: str, timeout: float = 60.0, token: str | None = None) -> Client:
        """Speak to `koloda serve --http` at `url`; `token` when it has one (by default the
        URL's `#token=`, else $KOLODA_TOKEN)."""
        return cls(HttpTransport(url, timeout, token))

    @classmethod
    def in_process(cls, limits: Limits | None = None) -> Client:
        """A protocol in this process, with `limits` (default: those of a process that
        serves only itself); `transport.protocol` holds its sessions."""
        return cls(InProcessTransport(limits))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        self.transport.close()

    # --- raw exchange ------------------------------------------------------------------

    def send_text(self, text: str) -> dict:
        """Send `text` as it is (even if it is not JSON) and return the reply."""
        return self.transport.exchange(text)

    def send(self, message: dict) -> dict:
        """Send one request (an `id` is added) and return the reply, error or not."""
        self._next_id += 1
        message = {"id": self._next_id, **message}
        reply = self.send_text(json.dumps(message))
        if "id" in reply and reply["id"] != message["id"]:
            raise ConnectionError(f"reply to request {reply.get('id')} while waiting "
                                  f"for {message['id']}")
        return reply

    def request(self, kind: str, **fields) -> dict:
        """A request whose fields are given (None values left out); raises ErrorReply on
        an error reply."""
        message = {"type": kind, **{k: v for k, v in fields.items() if v is not None}}
        reply = self.send(message)
        if not reply.get("ok"):
            raise ErrorReply(reply)
        return reply

    # --- the requests ------------------------------------------------------------------

    def hello(self) -> dict:
        return self.request("hello")

    def wait_until_ready(self, seconds: float = 600.0, every: float = 0.2) -> dict:
        """`hello` again until it says `ready` (the server has prepared its agents: no
        move waits for it); its reply.  TimeoutError after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            reply = self.hello()
            if reply.get("ready", True):
                return reply
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server was not ready within {seconds:g} s")
            time.sleep(every)

    def new(self, game: str, seats=(0,), seed: int | None = None,
            dealer: str | None = None) -> dict:
        return self.request("new", game=game, seats=list(seats), seed=seed, dealer=dealer)

    def observe(self, session: str, actions) -> dict:
        return self.request("observe", session=session, actions=list(actions))

    def move(self, session: str, agent: str, sims: int | None = None, ms: int | None = None,
             apply: bool | None = None) -> dict:
        return self.request("move", session=session, agent=agent, sims=sims, ms=ms,
                            apply=apply)

    def hint(self, session: str, agent: str, sims: int | None = None, ms: int | None = None,
             apply: bool | None = None) -> dict:
        return self.request("hint", session=session, agent=agent, sims=sims, ms=ms,
                            apply=apply)

    def state(self, session: str, since: int | None = None) -> dict:
        return self.request("state", session=session, since=since)

    def analyse(self, session: str, ms: int | None = None) -> dict:
        return self.request("analyse", session=session, ms=ms)

    def close_session(self, session: str) -> dict:
        return self.request("close", session=session)

    def quit(self) -> dict:
        return self.request("quit")
