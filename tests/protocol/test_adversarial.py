"""A hostile or broken client: every request gets a bounded amount of work and one clear,
documented error, over the protocol in process and over stdio; the server goes on."""

import json
import os
import subprocess
import sys

import pytest

from koloda import solvers
from koloda.protocol.handler import GAME_WORK_LIMITS, Limits, Protocol, encode
from koloda.protocol.readiness import READY
from koloda.protocol.thinking import (
    FILE_PARAMS,
    LOCAL_PARAMS,
    MODEL_PARAMS,
    NO_WORK,
    WORK_LIMITS,
)
from koloda.serve.stdio import serve_stdio

from .helpers import Server

POLICY = os.path.join(os.path.dirname(__file__), "..", "..", "reports", "cfr",
                      "durak-open-cfr.json.gz")
DURAK_OPEN = "durak(hand_size=2,ranks=5,suits=1)"


def strict_json(text: str) -> dict:
    """A reply as a strict parser reads it: no NaN or Infinity, valid UTF-8 text."""
    text.encode("utf-8")
    return json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in {text}"))


def stdio(lines: list[bytes], limits: Limits = Limits(), policies=None) -> list[dict]:
    """The replies `koloda serve` writes for these input lines, in this process."""
    import io
    out = io.StringIO()
    serve_stdio(limits, io.BytesIO(b"".join(lines)), out, policies=policies,
                readiness=READY)        # no preparation left running in this process
    return [strict_json(line) for line in out.getvalue().splitlines()]


def mover_session(server, seed=2):
    """A Durak session of seat 0 and the request that asks for the player to move."""
    opened = server.ok(type="new", game="durak", seats=[0], seed=seed)
    return opened["session"], "hint" if opened["view"]["to_move"] == 0 else "move"


# --- 2. a client cannot name a server file or device -----------------------------------

@pytest.mark.parametrize("path", ["/dev/stdin", "/etc/passwd", "../../etc/passwd",
                                  POLICY, "reports/cfr/durak-open-cfr.json.gz"])
def test_a_policy_path_from_a_client_is_refused_without_opening_it(path):
    server = Server()
    session = server.ok(type="new", game=DURAK_OPEN, seats=[0, 1], seed=1)["session"]
    reply = server.send(type="hint", session=session, agent=f'cfr(policy="{path}")')
    assert reply["error"]["code"] == "bad_agent"
    message = reply["error"]["message"]
    assert "no policies" in message and "--policies" in message
    assert "root:" not in message


def test_over_stdio_dev_stdin_as_a_policy_does_not_swallow_the_next_request():
    new = {"type": "new", "id": 1, "game": DURAK_OPEN, "seats": [0, 1], "seed": 1}
    process = subprocess.Popen([sys.executable, "-m", "koloda", "serve"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process.stdin.write((json.dumps(new) + "\n").encode())
    process.stdin.flush()
    session = json.loads(process.stdout.readline())["session"]
    hint = {"type": "hint", "id": 2, "session": session, "agent": "cfr(policy=/dev/stdin)"}
    out, _ = process.communicate((json.dumps(hint) + "\n" + '{"type": "hello", "id": 3}\n'
                                  ).encode(), timeout=120)
    replies = [strict_json(line) for line in out.decode().splitlines()]
    assert [r["id"] for r in replies] == [2, 3]
    assert replies[0]["error"]["code"] == "bad_agent" and replies[1]["ok"]


@pytest.fixture
def policy_folder(tmp_path):
    folder = tmp_path / "policies"
    folder.mkdir()
    (folder / "open.json.gz").write_bytes(open(POLICY, "rb").read())
    (folder / "broken.json.gz").write_bytes(b"root:x:0:0:root:/root:/bin/bash\n")
    (folder / "passwd.json.gz").symlink_to("/etc/passwd")
    (tmp_path / "outside.json.gz").write_bytes(open(POLICY, "rb").read())
    return folder


def test_policies_are_named_from_the_servers_folder(policy_folder):
    server = Server()
    server.protocol = Protocol(policies=policy_folder)
    assert server.ok(type="hello")["policies"] == ["broken.json.gz", "open.json.gz"]
    session = server.ok(type="new", game=DURAK_OPEN, seats=[0, 1], seed=1)["session"]
    hint = server.ok(type="hint", session=session, agent="cfr(policy=open.json.gz)")
    assert hint["agent"] == "cfr(policy=open.json.gz)"
    assert str(policy_folder) not in json.dumps(hint)
    for name in ("broken.json.gz", "passwd.json.gz", "../outside.json.gz", "nope.json.gz",
                 str(policy_folder / "open.json.gz")):
        reply = server.send(type="hint", session=session, agent=f'cfr(policy="{name}")')
        assert reply["error"]["code"] == "bad_agent", name
        message = reply["error"]["message"]
        assert "root:x" not in message and "/bin/bash" not in message, message
        assert str(policy_folder) not in message.replace(name, ""), message
    wrong_game = server.ok(type="new", game="durak", seats=[0, 1], seed=1)["session"]
    reply = server.send(type="hint", session=wrong_game, agent="cfr(policy=open.json.gz)")
    assert reply["error"]["code"] == "bad_agent" and "open.json.gz" in reply["error"]["message"]


def test_every_parameter_that_names_a_file_is_a_policy_name_over_the_protocol():
    for kind in solvers.agent_kinds():
        for param in kind.params:
            if param.type is str and param.choices is None:
                assert param.name in FILE_PARAMS | MODEL_PARAMS | LOCAL_PARAMS, \
                    (kind.name, param.name)


def test_a_model_is_named_never_reached_by_a_path():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=1)["session"]
    for name in ("../../../etc/passwd", "/etc/passwd", "durak-v999", "x" * 300):
        reply = server.send(type="hint", session=session, agent=f'ismcts(value="{name}")')
        assert reply["error"]["code"] == "bad_agent", name
        assert "root:x" not in reply["error"]["message"]
        assert "site-packages" not in reply["error"]["message"]


def test_a_client_cannot_make_the_server_write_a_store(tmp_path):
    server = Server()
    session = server.ok(type="new", game="parket", seats=[0, 1], seed=1)["session"]
    for path in (tmp_path / "new.kps", "/etc/passwd"):
        reply = server.send(type="hint", session=session, agent=f'solver(store="{path}")')
        assert reply["error"]["code"] == "bad_agent", path
        assert "protocol client cannot set it" in reply["error"]["message"]
        assert "root:x" not in reply["error"]["message"]
    assert list(tmp_path.iterdir()) == []


# --- 3. every request is bounded -------------------------------------------------------

def test_every_agent_parameter_that_sets_work_has_a_server_limit():
    fields = set(vars(Limits()))
    for kind in solvers.agent_kinds():
        for param in kind.params:
            if param.type in (int, float):
                assert param.name in WORK_LIMITS or param.name in NO_WORK, (kind.name, param)
    assert set(WORK_LIMITS.values()) | set(GAME_WORK_LIMITS.values()) <= fields
    hello = Server().ok(type="hello")
    assert set(WORK_LIMITS.values()) <= set(hello["limits"])


@pytest.mark.parametrize("game, agent, fields, words", [
    ("parket", "solver(reach=35,nodes=10000000000)", {}, "nodes=10000000000"),
    ("parket", "solver(reach=35)", {}, "reach=35"),
    ("durak", "pimc(worlds=5000)", {}, "worlds=5000"),
    ("durak", "ismcts(infer=2000)", {}, "infer=2000"),
    ("snitch", "ismcts(rollout=learned,depth=50)", {}, "depth=50"),
    ("durak", "ismcts", {"ms": 5_000_000}, "ms=5000000"),
    ("durak", "ismcts(ms=3600001)", {}, "ms=3600001"),
    ("durak", "ismcts", {"sims": 2_000_000}, "sims=2000000"),
    ("durak", "ismcts_openspiel(sims=99999999)", {}, "sims=99999999"),
])
def test_work_beyond_the_servers_limits_is_refused_before_any_is_done(game, agent, fields,
                                                                       words):
    server = Server()
    seats = [0, 1, 2] if game == "snitch" else [0, 1]
    session = server.ok(type="new", game=game, seats=seats, seed=3)["session"]
    reply = server.send(type="hint", session=session, agent=agent, **fields)
    assert reply["error"]["code"] == "limit", reply
    assert words in reply["error"]["message"] and "limit" in reply["error"]["message"]


def test_a_game_parameter_that_multiplies_the_work_has_a_server_limit():
    server = Server()
    assert server.code(type="new", game="parket(max_relocations=100)") == "limit"
    assert server.ok(type="new", game="parket(max_relocations=8)")["ok"]


# --- 5. ordinary bad input never answers `internal` -------------------------------------

@pytest.mark.parametrize("game", [
    "parket(position=x)", "durak(hand_size=99,players=6,ranks=13)", "durak(previous_fool=5)",
    "durak(max_moves=99999999999)", "durak(max_moves=" + "9" * 4400 + ")",
    'parket(position="\ud800")', "snitch(target_score=" + "1" * 30 + ")",
])
def test_game_strings_that_cannot_be_built_are_bad_game(game):
    reply = Server().send(type="new", game=game)
    assert reply["error"]["code"] == "bad_game", reply
    assert len(reply["error"]["message"]) < 400
    strict_json(encode(reply))


@pytest.mark.parametrize("agent", ["ismcts(sims=" + "9" * 4400 + ")", "ismcts(seed=1e400)",
                                   "ismcts(uct_c=1e400)", 'cfr(policy="\ud800")'])
def test_agent_specs_that_cannot_be_built_are_bad_agent(agent):
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=3)["session"]
    reply = server.send(type="hint", session=session, agent=agent)
    assert reply["error"]["code"] in ("bad_agent", "limit"), reply
    assert reply["error"]["code"] == "bad_agent" or "sims" in reply["error"]["message"]
    assert len(reply["error"]["message"]) < 400
    strict_json(encode(reply))


@pytest.mark.parametrize("actions, code", [
    ([{"action": 5}], "bad_request"), ([5], "bad_request"), ([{"action": "take", "x": 1}],
                                                             "bad_request"),
    (["p¹ attack Ks"], "malformed_action"), (["p1 \ud800"], "malformed_action"),
    (["attack " + "K" * 5000], "malformed_action"),
])
def test_observe_items_that_are_not_actions_get_their_code(actions, code):
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=3)["session"]
    reply = server.send(type="observe", session=session, actions=actions)
    assert reply["error"]["code"] == code, reply
    assert len(reply["error"]["message"]) < 400
    strict_json(encode(reply))


@pytest.mark.parametrize("line, code", [
    (b'{"type": "hello", "id": 1e400}', "bad_json"),
    (b'{"type": "hello", "id": -1e400}', "bad_json"),
    (b'{"type": "hello", "id": "\\ud800"}', "bad_request"),
    (b'{"type": "hello", "id": {"a": ["\\udfff"]}}', "bad_request"),
    (b'{"type": "new", "game": "durak", "seed": 1e400}', "bad_json"),
])
def test_replies_are_always_strict_json_even_for_an_id_that_is_not(line, code):
    hostile, after = stdio([line + b"\n", b'{"type": "hello", "id": 2}\n'])
    assert hostile["error"]["code"] == code and "id" not in hostile
    assert after["ok"] and after["id"] == 2


def test_a_stdio_request_of_exactly_the_limit_is_read_and_one_byte_more_is_not():
    most = 300

    def request(size):
        head = b'{"type": "hello", "id": 1'
        return head + b" " * (size - len(head) - 1) + b'}'

    assert len(request(most)) == most
    exact, crlf, over, after = stdio([request(most) + b"\n", request(most) + b"\r\n",
                                      request(most + 1) + b"\n", b'{"type": "hello"}\n'],
                                     Limits(max_request_bytes=most))
    assert exact["ok"] and crlf["ok"]
    assert over["error"]["code"] == "too_large" and after["ok"]


def test_a_fault_in_koloda_answers_internal_without_the_exceptions_text(monkeypatch):
    from koloda.solvers.random_agent import RandomAgent

    def broken(self, view, player):
        raise RuntimeError(f"hand of p{player}: {view.observation_string(player)}")

    monkeypatch.setattr(RandomAgent, "choose", broken)
    server = Server()
    session, kind = mover_session(server)
    reply = server.send(type=kind, session=session, agent="random")
    assert reply["error"]["code"] == "internal"
    assert "hand" not in reply["error"]["message"]
    assert "RuntimeError" in reply["error"]["message"]


def test_a_hint_out_of_turn_is_refused_without_redrawing_when_the_turn_is_public(monkeypatch):
    from koloda.protocol.session import Track
    from koloda.serve.hostile import ATTACKED_DEAL
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], dealer="app", seed=1)["session"]
    server.ok(type="observe", session=session, actions=ATTACKED_DEAL)
    redraws = []
    monkeypatch.setattr(Track, "_redraw", lambda self, *args: redraws.append(args))
    reply = server.send(type="hint", session=session, agent="random")
    assert reply["error"]["code"] == "out_of_turn" and "p1 to defend" in reply["error"]["message"]
    assert redraws == []              # p0 attacked, so p1 defends in every world


# --- the same hostile requests over both transports ------------------------------------

#: (request as text, with {session} for a Durak session's id, the code it must get)
OVER_THE_WIRE = [
    ('{"type": "hello", "id": 1e400}', "bad_json"),
    ('{"type": "hello", "id": "\\ud800"}', "bad_request"),
    ('{"type": "new", "game": "durak(previous_fool=5)"}', "bad_game"),
    ('{"type": "new", "game": "parket(position=\\"\\ud800\\")"}', "bad_game"),
    ('{"type": "new", "game": "durak(max_moves=99999999999)"}', "bad_game"),
    ('{"type": "observe", "session": "{session}", "actions": [{"action": 5}]}', "bad_request"),
    ('{"type": "observe", "session": "{session}", "actions": ["p\u00b9 attack Ks"]}',
     "malformed_action"),
    ('{"type": "hint", "session": "{session}", "agent": "cfr(policy=/etc/passwd)"}',
     "bad_agent"),
    ('{"type": "hint", "session": "{session}", "agent": "ismcts", "ms": 5000000}', "limit"),
    ('{"type": "hint", "session": "{session}", "agent": "pimc(worlds=5000)"}', "limit"),
]


def _wire_replies(send_text) -> list[dict]:
    session = json.loads(send_text('{"type": "new", "game": "durak", "seats": [0, 1]}'))
    return [json.loads(send_text(text.replace("{session}", session["session"])))
            for text, _ in OVER_THE_WIRE] + [json.loads(send_text('{"type": "hello"}'))]


def test_hostile_requests_over_stdio_get_their_codes_and_the_server_goes_on():
    process = subprocess.Popen([sys.executable, "-m", "koloda", "serve"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def exchange(text: str) -> str:
        process.stdin.write(text.encode("utf-8") + b"\n")
        process.stdin.flush()
        line = process.stdout.readline().decode("utf-8")
        strict_json(line)
        return line

    replies = _wire_replies(exchange)
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert [r["error"]["code"] for r in replies[:-1]] == [c for _, c in OVER_THE_WIRE]
    assert replies[-1]["ok"]


def test_hostile_requests_over_http_get_their_codes_and_statuses(http_url):
    import http.client
    from urllib.parse import urlsplit

    from koloda.protocol.errors import http_status
    parts = urlsplit(http_url)
    statuses = []

    def exchange(text: str) -> str:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        connection.request("POST", "/", text.encode("utf-8"),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        statuses.append(response.status)
        connection.close()
        strict_json(body)
        return body

    replies = _wire_replies(exchange)
    codes = [r["error"]["code"] for r in replies[:-1]]
    assert codes == [c for _, c in OVER_THE_WIRE]
    assert statuses[1:-1] == [http_status(code) for code in codes]
    assert replies[-1]["ok"] and statuses[-1] == 200
