"""The protocol over stdio (`koloda serve`) and HTTP (`koloda serve --http`), through the
Python client."""

import concurrent.futures
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

from koloda.protocol.client import Client, ErrorReply
from koloda.serve.soak import run_soak


def test_stdio_answers_line_by_line_and_carries_on_after_errors():
    command = [sys.executable, "-m", "koloda", "serve", "--max-request-bytes", "2000"]
    with Client.subprocess(command) as koloda:
        assert koloda.hello()["protocol"] == 2
        assert koloda.send_text("{oops")["error"]["code"] == "bad_json"
        big = koloda.send_text('{"type": "hello", "id": "' + "x" * 5000 + '"}')
        assert big["error"]["code"] == "too_large"
        table = koloda.new("durak", seats=[0], seed=4)
        view = table["view"]
        kind = koloda.hint if view["to_move"] == 0 else koloda.move
        reply = kind(table["session"], "ismcts", sims=50, apply=True)
        assert reply["events"][0]["action"] == reply["action"]
        try:
            koloda.state("nope")
        except ErrorReply as err:
            assert err.code == "unknown_session"
        assert koloda.quit()["ok"]
        assert koloda.transport.process.wait(timeout=10) == 0


def test_stdio_bad_options_are_one_line_errors():
    done = subprocess.run([sys.executable, "-m", "koloda", "serve", "--max-ms", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "koloda: error: --max-ms must be from 1 to 3600000, not 0"


def test_http_status_codes_follow_the_error_codes(http_url):
    koloda = Client.http(http_url)
    assert koloda.hello()["protocol"] == 2 and koloda.transport.last_status == 200
    assert koloda.send_text("nope")["error"]["code"] == "bad_json"
    assert koloda.transport.last_status == 400
    assert koloda.send({"type": "state", "session": "x"})["error"]["code"] == "unknown_session"
    assert koloda.transport.last_status == 404
    session = koloda.new("durak", seats=[0, 1], seed=1)["session"]
    assert koloda.send({"type": "observe", "session": session,
                        "actions": ["attack Zz"]})["error"]["code"] == "malformed_action"
    assert koloda.transport.last_status == 422
    assert koloda.send({"type": "quit"})["error"]["code"] == "unsupported"
    koloda.close()
    with urllib.request.urlopen(http_url) as response:          # GET / is hello
        assert json.load(response)["protocol"] == 2
    request = urllib.request.Request(http_url, data=b"x" * 30000)
    try:
        urllib.request.urlopen(request)
        raise AssertionError("a request over the limit was read")
    except urllib.error.HTTPError as err:
        assert err.code == 413 and json.load(err)["error"]["code"] == "too_large"


def test_http_budget_over_the_server_limit_is_refused(http_url):
    koloda = Client.http(http_url)
    session = koloda.new("durak", seats=[0], seed=2)
    kind = "hint" if session["view"]["to_move"] == 0 else "move"
    reply = koloda.send({"type": kind, "session": session["session"], "agent": "ismcts",
                         "ms": 2001})
    assert reply["error"]["code"] == "limit" and koloda.transport.last_status == 429


def _think(url, seed, ms):
    koloda = Client.http(url)
    session = koloda.new("durak", seats=[0, 1], seed=seed)
    started = time.perf_counter()
    reply = koloda.request("hint", session=session["session"], agent="ismcts", ms=ms)
    return time.perf_counter() - started, reply


def test_http_sessions_think_at_once_while_the_server_answers(http_url):
    ms = 600
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        started = time.perf_counter()
        moves = [pool.submit(_think, http_url, seed, ms) for seed in (1, 2)]
        time.sleep(0.15)
        koloda = Client.http(http_url)
        asked = time.perf_counter()
        koloda.hello()
        answered = time.perf_counter() - asked
        results = [m.result() for m in moves]
        both = time.perf_counter() - started
    assert answered < ms / 1000 / 2              # not queued behind the thinking
    assert all(reply["thinking_ms"] >= ms * 0.9 for _, reply in results)
    assert both < 1.6 * ms / 1000                # two moves of `ms` side by side


def test_a_small_soak_over_http_answers_everything_right(http_url):
    figures = run_soak(http_url, requests=600, clients=4)
    assert figures.requests == 600
    assert figures.failures == [] and figures.server_errors == 0


def test_the_new_limit_and_policy_options_are_one_line_errors(tmp_path):
    for options, message in (
            (["--max-nodes", "0"], "--max-nodes must be from 1 to 10000000000, not 0"),
            (["--max-reach", "36"], "--max-reach must be from 0 to 35, not 36"),
            (["--max-relocations", "101"], "--max-relocations must be from 1 to 100, not 101"),
            (["--policies", str(tmp_path / "none")],
             f"--policies must name a folder, not {str(tmp_path / 'none')!r}")):
        done = subprocess.run([sys.executable, "-m", "koloda", "serve", *options],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, options
        assert done.stderr.strip() == f"koloda: error: {message}"


def test_the_in_process_client_says_hello_with_limits_json_can_carry():
    with Client.in_process() as koloda:
        hello = koloda.hello()
        assert hello["limits"]["idle_seconds"] is None           # sessions never expire
        assert hello["limits"]["max_sessions"] == 4
        table = koloda.new("durak", seats=[0], seed=7)
        assert koloda.state(table["session"])["view"]["status"] == "play"
