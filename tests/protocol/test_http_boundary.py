"""Who gets into `koloda serve --http`, and that it keeps answering: only requests naming
this server in their Host and coming from its own pages (or allowed origins) get in, a
POST must be JSON, a server with a token takes only requests carrying it, a client that
goes away mid-body costs one line of log, and a slow request holds up only its session.

Every request here is raw `http.client`, so each header is the test's own."""

import asyncio
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from koloda.protocol.client import Client
from koloda.protocol.errors import CODES, ProtocolError
from koloda.protocol.handler import Protocol
from koloda.serve.access import Access, host_name
from koloda.serve.gate import RequestGate

ALLOWED_HOST = "koloda.test"
ALLOWED_ORIGIN = "http://localhost:3000"
TOKEN = "s3cret+token/with%and#-0123456789"
OTHER_TOKEN = "the-environment-token-0123456789"
NODE = shutil.which("node")
NODE_CLIENT = Path(__file__).parent / "node" / "koloda_client.js"


class Running:
    """A `koloda serve --http` child process, its URL and its stderr file."""

    def __init__(self, options=(), env=None, stderr_path=None):
        command = [sys.executable, "-m", "koloda", "serve", "--http", "--port", "0",
                   "--workers", "1", *options]
        self.stderr_path = stderr_path
        stderr = open(stderr_path, "w") if stderr_path else None
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr,
                                        text=True, env=env)
        if stderr:
            stderr.close()
        self.line = self.process.stdout.readline()
        if "http://" not in self.line:
            self.stop()
            raise RuntimeError(f"koloda serve did not start: {self.line!r}")
        self.url = self.line.split()[-1]
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port

    def stderr_lines(self) -> list[str]:
        return Path(self.stderr_path).read_text().splitlines()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Running(("--allow-host", ALLOWED_HOST, "--allow-origin", ALLOWED_ORIGIN),
                      stderr_path=tmp_path_factory.mktemp("serve") / "stderr.txt")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def token_server():
    running = Running(("--token", TOKEN), env={**os.environ, "KOLODA_TOKEN": OTHER_TOKEN})
    yield running
    running.stop()


def _exchange(server: Running, method: str = "POST", path: str = "/", body=None,
              headers=None):
    """One request on a fresh connection: (status, headers as a dict, body)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=60)
    connection.request(method, path, body, headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def _post(server: Running, message: dict, **headers):
    headers = {"Content-Type": "application/json", **headers}
    status, got, data = _exchange(server, body=json.dumps(message).encode(), headers=headers)
    return status, got, json.loads(data)


def _error(reply: dict) -> str:
    assert reply["type"] is None and reply["ok"] is False, reply
    return reply["error"]["code"]


HELLO = {"type": "hello"}
ROUTES = [("POST", "/", json.dumps(HELLO).encode(), {"Content-Type": "application/json"}),
          ("GET", "/", None, {"Accept": "application/json"}),
          ("GET", "/", None, {"Accept": "text/html"}),
          ("GET", "/static/app.js", None, {})]


def test_the_new_error_codes_have_their_statuses():
    assert {code: CODES[code][0] for code in ("forbidden", "unauthorized", "bad_content_type")
            } == {"forbidden": 403, "unauthorized": 401, "bad_content_type": 415}


# --- Host ------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, body, headers", ROUTES,
                         ids=["post", "get-hello", "get-page", "static"])
def test_a_host_not_of_this_server_is_refused_on_every_route(server, method, path, body,
                                                             headers):
    status, got, data = _exchange(server, method, path, body,
                                  {**headers, "Host": f"evil.example:{server.port}"})
    reply = json.loads(data)
    assert status == 403 and _error(reply) == "forbidden"
    assert "evil.example" in reply["error"]["message"]
    assert "--allow-host evil.example" in reply["error"]["message"]
    assert "access-control-allow-origin" not in got


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:{port}", "127.0.0.1:{port}",
                                  "127.3.2.1:{port}", "[::1]:{port}", "[::1]",
                                  ALLOWED_HOST + ":{port}", ALLOWED_HOST])
def test_loopback_names_the_bound_address_and_allowed_hosts_get_in(server, host):
    status, _, reply = _post(server, HELLO, Host=host.format(port=server.port))
    assert status == 200 and reply["ok"], reply


@pytest.mark.parametrize("host", ["127.0.0.1.evil.example", "localhost.evil.example",
                                  "evil.example@127.0.0.1", "127.0.0.1:nope", "[::2]:80"])
def test_names_that_only_look_local_are_refused(server, host):
    status, _, reply = _post(server, HELLO, Host=host)
    assert status == 403 and _error(reply) == "forbidden"


def test_a_request_without_a_host_is_refused(server):
    with socket.create_connection((server.host, server.port), timeout=30) as raw:
        raw.sendall(b"GET / HTTP/1.0\r\nAccept: application/json\r\n\r\n")
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 403")
    assert _error(json.loads(body)) == "forbidden"


def test_host_names_are_read_like_a_browser_sends_them():
    assert host_name("LocalHost:8765") == "localhost"
    assert host_name("[::1]:8765") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("a/b") is None and host_name("x:99999") is None and host_name("") is None


# --- Origin and CORS -------------------------------------------------------------------

def test_a_page_of_another_site_posting_text_is_refused(server):
    status, got, data = _exchange(server, body=json.dumps(HELLO).encode(), headers={
        "Origin": "http://evil.example", "Content-Type": "text/plain"})
    reply = json.loads(data)
    assert status == 403 and _error(reply) == "forbidden"
    assert "http://evil.example" in reply["error"]["message"]
    assert "--allow-origin" in reply["error"]["message"]
    assert not any(name.startswith("access-control-") for name in got)


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:1", "http://localhost:3001"])
def test_origins_but_its_own_and_the_allowed_are_refused(server, origin):
    status, got, reply = _post(server, HELLO, Origin=origin.format(port=server.port))
    assert status == 403 and _error(reply) == "forbidden"
    assert not any(name.startswith("access-control-") for name in got)


def test_its_own_pages_get_in(server):
    own = f"http://127.0.0.1:{server.port}"
    status, _, reply = _post(server, HELLO, Origin=own)
    assert status == 200 and reply["ok"]
    status, _, reply = _post(server, HELLO, Origin=f"http://localhost:{server.port}",
                             Host=f"localhost:{server.port}")
    assert status == 200 and reply["ok"]


def test_an_allowed_origin_gets_cors_headers_and_its_preflight_answered(server):
    status, got, _ = _exchange(server, "OPTIONS", "/", headers={
        "Origin": ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization"})
    assert status == 204
    assert got["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "POST" in got["access-control-allow-methods"]
    allowed = {h.strip().lower() for h in got["access-control-allow-headers"].split(",")}
    assert {"content-type", "authorization"} <= allowed
    status, got, reply = _post(server, HELLO, Origin=ALLOWED_ORIGIN)
    assert status == 200 and reply["ok"]
    assert got["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "Origin" in got["vary"]
    status, got, _ = _exchange(server, "GET", "/", headers={"Origin": ALLOWED_ORIGIN})
    assert status == 200 and {"Accept", "Origin"} <= {v.strip() for v in got["vary"].split(",")}


def test_the_preflight_of_a_refused_origin_gets_no_cors_headers(server):
    status, got, data = _exchange(server, "OPTIONS", "/", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert status == 403 and _error(json.loads(data)) == "forbidden"
    assert not any(name.startswith("access-control-") for name in got)


def test_any_origin_is_allowed_with_a_star():
    anyone = Access(origins=frozenset({"*"}))
    assert anyone.origin_allowed("http://evil.example", "127.0.0.1:8765")
    assert not Access().origin_allowed("http://evil.example", "127.0.0.1:8765")
    assert Access().origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert Access().origin_allowed("http://localhost", "localhost:80")


# --- Content-Type ----------------------------------------------------------------------

@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", "application/jsonx"])
def test_a_post_that_is_not_json_is_refused(server, kind):
    headers = {"Content-Type": kind} if kind else {}
    status, _, data = _exchange(server, body=json.dumps(HELLO).encode(), headers=headers)
    assert status == 415 and _error(json.loads(data)) == "bad_content_type"


@pytest.mark.parametrize("kind", ["application/json; charset=utf-8", "Application/JSON"])
def test_json_with_parameters_or_in_capitals_is_json(server, kind):
    status, _, reply = _post(server, HELLO, **{"Content-Type": kind})
    assert status == 200 and reply["ok"]


# --- the token -------------------------------------------------------------------------

def test_the_startup_line_gives_the_page_with_the_token_in_its_fragment(token_server):
    assert token_server.url.endswith(f"/#token={quote(TOKEN, safe='')}")


def test_without_the_token_protocol_requests_are_unauthorized(token_server):
    for headers in ({}, {"Authorization": f"Bearer {OTHER_TOKEN}"},
                    {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer"}):
        status, got, reply = _post(token_server, HELLO, **headers)
        assert status == 401 and _error(reply) == "unauthorized", headers
        assert got["www-authenticate"].startswith("Bearer")
        assert OTHER_TOKEN not in reply["error"]["message"]
        assert TOKEN not in reply["error"]["message"]
    status, got, data = _exchange(token_server, "GET", "/", headers={"Accept": "*/*"})
    assert status == 401 and _error(json.loads(data)) == "unauthorized"


def test_with_the_token_requests_get_in(token_server):
    status, _, reply = _post(token_server, HELLO, Authorization=f"Bearer {TOKEN}")
    assert status == 200 and reply["ok"]
    status, _, data = _exchange(token_server, "GET", "/",
                                headers={"Authorization": f"bearer {TOKEN}"})
    assert status == 200 and json.loads(data)["ok"]


def test_the_page_and_its_files_stay_public(token_server):
    status, got, page = _exchange(token_server, "GET", "/", headers={"Accept": "text/html"})
    assert status == 200 and got["content-type"].startswith("text/html") and b"<title>" in page
    for name in ("app.js", "style.css"):
        assert _exchange(token_server, "GET", f"/static/{name}")[0] == 200


def test_the_python_client_sends_the_token(token_server, monkeypatch):
    monkeypatch.delenv("KOLODA_TOKEN", raising=False)
    bare = f"http://{token_server.host}:{token_server.port}"
    assert Client.http(token_server.url).hello()["ok"]          # from the fragment
    assert Client.http(bare, token=TOKEN).hello()["ok"]
    assert Client.http(bare).send(HELLO)["error"]["code"] == "unauthorized"
    monkeypatch.setenv("KOLODA_TOKEN", TOKEN)
    assert Client.http(bare).hello()["ok"]


@pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs it)")
def test_the_node_client_sends_the_token(token_server):
    bare = f"http://{token_server.host}:{token_server.port}/"
    script = (f"const {{ Client }} = require({json.dumps(str(NODE_CLIENT))});"
              "(async () => {"
              "  const [url, bare, token] = process.argv.slice(1);"
              "  const codes = [];"
              "  for (const client of [Client.http(url), Client.http(bare, { token }),"
              "                        Client.http(bare)]) {"
              "    const reply = await client.sendText(JSON.stringify({ type: 'hello' }));"
              "    codes.push(reply.ok ? 'ok' : reply.error.code);"
              "  }"
              "  console.log(JSON.stringify(codes));"
              "})();")
    env = {k: v for k, v in os.environ.items() if k != "KOLODA_TOKEN"}
    done = subprocess.run([NODE, "-e", script, token_server.url, bare, TOKEN],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["ok", "ok", "unauthorized"]


def test_the_token_option_wins_over_the_environment(token_server):
    status, _, reply = _post(token_server, HELLO, Authorization=f"Bearer {OTHER_TOKEN}")
    assert status == 401


def test_the_environment_gives_the_token_when_no_option_does():
    running = Running(env={**os.environ, "KOLODA_TOKEN": OTHER_TOKEN})
    try:
        assert running.url.endswith(f"#token={OTHER_TOKEN}")
        assert _post(running, HELLO)[0] == 401
        assert _post(running, HELLO, Authorization=f"Bearer {OTHER_TOKEN}")[0] == 200
    finally:
        running.stop()


def _refused_start(*options, env_token=None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "KOLODA_TOKEN"}
    if env_token is not None:
        env["KOLODA_TOKEN"] = env_token
    done = subprocess.run([sys.executable, "-m", "koloda", "serve", "--http", "--port", "0",
                           *options], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2 and done.stdout == "", (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("koloda: error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "::", "example.test"])
def test_listening_beyond_loopback_without_a_token_is_refused(host):
    line = _refused_start("--host", host)
    assert "--token" in line and "KOLODA_TOKEN" in line and host in line


@pytest.mark.parametrize("token", ["short-token", "x" * 257, "with a space in it 0123",
                                   "non-ascii-tokén-0123456789", "tab\tin-the-token-0123"])
def test_a_token_out_of_bounds_is_refused_without_showing_it(token):
    line = _refused_start("--token", token)
    assert "--token" in line and token not in line
    line = _refused_start(env_token=token)
    assert "KOLODA_TOKEN" in line and token not in line


@pytest.mark.parametrize("option, value", [("--allow-origin", "http://localhost:3000/"),
                                           ("--allow-origin", "localhost:3000"),
                                           ("--allow-host", "localhost:3000"),
                                           ("--allow-host", "a/b")])
def test_allowed_names_out_of_shape_are_refused(option, value):
    assert option in _refused_start(option, value)


# --- a client that goes away -----------------------------------------------------------

def _lines_settle(server: Running, at_least: int) -> list[str]:
    """The server's stderr once it holds `at_least` lines, or after a while."""
    for _ in range(100):
        lines = server.stderr_lines()
        if len(lines) >= at_least:
            return lines
        time.sleep(0.1)
    return server.stderr_lines()


def test_a_client_gone_mid_body_costs_one_line_of_log(server):
    before = len(server.stderr_lines())
    head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: "
            f"application/json\r\nContent-Length: 1000\r\n\r\n").encode()
    for _ in range(50):
        with socket.create_connection((server.host, server.port), timeout=30) as raw:
            raw.sendall(head + b'{"type": "')
    assert _post(server, HELLO)[2]["ok"]                   # the server still answers
    new = _lines_settle(server, before + 50)[before:]
    assert 0 < len(new) <= 50, new[:20]
    assert all(len(line) < 120 and "Traceback" not in line for line in new), new[:20]


# --- the page's files ------------------------------------------------------------------

def test_the_page_is_served_at_the_root_only(server):
    status, got, page = _exchange(server, "GET", "/", headers={"Accept": "text/html"})
    assert status == 200 and b'src="static/app.js"' in page
    status, got, _ = _exchange(server, "GET", "/static/index.html")
    assert status == 404 and got["content-type"].startswith("text/plain")
    for name in ("app.js", "style.css"):
        assert _exchange(server, "GET", f"/static/{name}")[0] == 200


# --- a slow request holds up only its own session --------------------------------------

class _SlowFor(Protocol):
    """A real protocol, but a request naming the session `slow` computes for `seconds` in
    Python first (holding the interpreter, as a long redraw of guessed cards does), or
    sleeps for them with `cpu=False`."""

    def __init__(self, seconds: float, cpu: bool = True):
        super().__init__(transport="http")
        self.seconds, self.cpu = seconds, cpu

    def handle_text(self, text):
        if json.loads(text).get("session") == "slow":
            deadline = time.perf_counter() + self.seconds
            while time.perf_counter() < deadline:
                if not self.cpu:
                    time.sleep(0.01)
            return self.error_reply({"type": "hint"}, ProtocolError("out_of_turn", "slow"))
        return super().handle_text(text)


def test_other_sessions_are_answered_while_a_slow_request_runs(record_property):
    protocol = _SlowFor(2.0)
    other = protocol.handle({"type": "new", "game": "durak", "seats": [0], "seed": 3})

    async def run():
        gate = RequestGate(protocol, moves=None)
        slow = asyncio.ensure_future(gate.answer(b'{"type": "hint", "session": "slow"}'))
        await asyncio.sleep(0.1)                            # the slow request is running
        state = json.dumps({"type": "state", "session": other["session"]}).encode()
        before, latencies = 0, []
        while not slow.done() and len(latencies) < 5000:
            started = time.perf_counter()
            reply = await gate.answer(state)
            latencies.append((time.perf_counter() - started) * 1000)
            before += not slow.done()
            assert reply["ok"] and reply["view"]["event_count"] == len(other["events"])
        answer = await slow
        gate.close()
        return before, latencies, answer
    before, latencies, answer = asyncio.run(run())
    assert answer["error"]["code"] == "out_of_turn"
    figures = {"state_requests": len(latencies),
               "state_ms_median": round(statistics.median(latencies), 1),
               "state_ms_max": round(max(latencies), 1)}
    print(f"\nstate while a slow request ran: {figures}")
    for name, value in figures.items():
        record_property(name, value)
    assert before >= 5, figures


class _Overlaps(Protocol):
    """A protocol whose requests take a while, counting how many run at once."""

    def __init__(self):
        super().__init__(transport="http")
        self.running, self.most = {}, {}
        self.count = threading.Lock()

    def handle_text(self, text):
        session = json.loads(text)["session"]
        with self.count:
            self.running[session] = self.running.get(session, 0) + 1
            self.most[session] = max(self.most.get(session, 0), self.running[session])
            self.most["all"] = max(self.most.get("all", 0), sum(self.running.values()))
        time.sleep(0.05)
        with self.count:
            self.running[session] -= 1
        return {"type": "state", "ok": True}


def test_requests_of_one_session_run_one_at_a_time_and_others_alongside():
    protocol = _Overlaps()

    async def run():
        gate = RequestGate(protocol, moves=None, threads=4)
        requests = [json.dumps({"type": "state", "session": s}).encode() for s in "abab" * 3]
        await asyncio.gather(*(gate.answer(text) for text in requests))
        gate.close()
    asyncio.run(run())
    assert protocol.most["a"] == 1 and protocol.most["b"] == 1
    assert protocol.most["all"] == 2


def test_requests_waiting_beyond_the_bound_are_refused_with_limit():
    protocol = _SlowFor(0.5, cpu=False)

    async def run():
        gate = RequestGate(protocol, moves=None, threads=2, waiting=6)
        slow = b'{"type": "state", "session": "slow"}'
        replies = await asyncio.gather(*(gate.answer(slow) for _ in range(12)))
        after = await gate.answer(b'{"type": "hello"}')
        gate.close()
        return replies, after
    replies, after = asyncio.run(run())
    codes = [reply["error"]["code"] for reply in replies]
    assert codes.count("limit") == 12 - 8 and codes.count("out_of_turn") == 8
    assert after["ok"]


def test_a_sessions_lock_goes_once_its_requests_are_answered():
    protocol = Protocol(transport="http")

    async def run():
        gate = RequestGate(protocol, moves=None, threads=2)
        table = await gate.answer(b'{"type": "new", "game": "durak", "seed": 1}')
        for kind in ("state", "close", "state"):
            await gate.answer(json.dumps({"type": kind, "session": table["session"]}).encode())
        gate.close()
        return gate.locks
    assert asyncio.run(run()) == {}
