"""The protocol's messages: every answer checked field by field and bounded, errors that
never repeat what the program wrote; specs of external agents read and refused as the
config reads them."""

import json
import sys

import pytest

from koloda import games
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.external import external_spec, is_external, load_external, messages
from koloda.solvers.external.process import ProcessError, pool

LEGAL = ["attack 7s", "take"]


@pytest.mark.parametrize("line, problem", [
    (b"take", "not JSON"),
    (b'{"type": "move", "action": NaN}', "not JSON"),
    (b"[1, 2]", "a list, not a JSON object"),
    (b'{"type": "moves", "action": "take"}', "expected a 'move' message"),
    (b'{"type": "move"}', "needs action"),
    (b'{"type": "move", "action": "take", "why": "x"}', "1 other field"),
    (b'{"type": "move", "action": 3}', "must be a string"),
    (b'{"type": "move", "action": "\xff"}', "not UTF-8"),
    (b"[" * 50_000, "nested too deeply"),
    (b"x" * (messages.MAX_LINE_BYTES + 1), "longer than"),
])
def test_a_bad_move_answer_is_a_bad_message_that_does_not_repeat_it(line, problem):
    with pytest.raises(messages.BadMessage, match=problem) as caught:
        messages.read_move(line, LEGAL)
    assert "take" not in str(caught.value) or b"take" not in line[:20]
    assert len(str(caught.value)) < 200


def test_a_move_must_be_one_of_the_legal_actions_exactly():
    assert messages.read_move(b'{"type":"move","action":"take"}', LEGAL) == "take"
    for action in ("Take", "take ", "beat 9s"):
        with pytest.raises(messages.IllegalMove) as caught:
            messages.read_move(json.dumps({"type": "move", "action": action}).encode(), LEGAL)
        assert action.strip() not in str(caught.value).replace("legal actions", "")


def test_hello_answers_give_a_short_printable_name():
    assert messages.read_hello(b'{"type": "hello", "name": "mine"}') == "mine"
    for bad in ({"type": "hello"}, {"type": "hello", "name": ""},
                {"type": "hello", "name": "x" * 101}, {"type": "hello", "name": "a\nb"},
                {"type": "hello", "name": 7}, {"type": "move", "action": "take"}):
        with pytest.raises(messages.BadMessage):
            messages.read_hello(json.dumps(bad).encode())


def test_koloda_writes_strict_ascii_json_lines():
    line = messages.encode(messages.go([{"player": None, "action": "deal ?"}], LEGAL,
                                       {"ms": 200}))
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and line.isascii()
    assert json.loads(line) == {"type": "go", "events": [{"player": None, "action": "deal ?"}],
                                "legal": LEGAL, "budget": {"ms": 200}}
    with pytest.raises(ValueError):
        messages.encode({"x": float("nan")})


def test_an_excerpt_for_the_log_is_cut_and_on_one_line():
    shown = messages.excerpt(b"\x00\n" + b"y" * 10_000)
    assert "\n" not in shown and shown.endswith("...") and len(shown) < 300


def test_a_line_beyond_the_bound_is_a_bad_message_from_the_process(tmp_path):
    code = ("import sys; sys.stdin.readline(); sys.stdout.write('x' * 200000 + '\\n'); "
            "sys.stdout.flush(); sys.stdin.readline()")
    process = pool().start(("t",), [sys.executable, "-c", code], None, {},
                           pool().log(str(tmp_path / "long.log")))
    import time
    process.send(b"{}\n", time.monotonic() + 5)
    with pytest.raises(ProcessError) as caught:
        process.read_line(time.monotonic() + 5)
    assert caught.value.reason == "bad_message"
    process.kill()
    assert "started:" in (tmp_path / "long.log").read_text()


def test_specs_of_external_agents():
    durak = games.load_game("durak")
    spec = external_spec(["python3", "my bot.py", "--depth=3"], cwd="bots",
                         env={"MODE": "two words"}, start_ms=500)
    assert spec == ("external(command=\"python3 'my bot.py' --depth=3\",cwd=bots,"
                    "env=\"'MODE=two words'\",start_ms=500)")
    assert is_external(spec) and not is_external("heuristic") and not is_external("((")
    agent = load_external(durak, spec, seed=9)
    assert agent.argv == ["python3", "my bot.py", "--depth=3"] and agent.cwd == "bots"
    assert agent.env == {"MODE": "two words"} and agent.seed == 9 and agent.start_ms == 500
    assert load_external(durak, 'external(command="a b",seed=3)', seed=9).seed == 3
    for bad, why in [("external", "needs command"), ('external(command="a \'b")', "split"),
                     ('external(command=a,env="1X=2")', "NAME=value"),
                     ('external(command=a,start_ms=0)', "start_ms"),
                     ('external(command=a,sims=3)', "no parameter 'sims'")]:
        with pytest.raises(AgentSpecError, match=why):
            load_external(durak, bad)
    with pytest.raises(AgentSpecError, match="both kinds of quote"):
        external_spec(["python3", "-c", "print(\"it's\")"])


def test_the_protocol_server_cannot_build_an_external_agent():
    """The registry (what `koloda serve` builds its clients' agents from) has no external
    kind: a client must never make the server run a command."""
    from koloda import solvers
    assert "external" not in {kind.name for kind in solvers.agent_kinds()}
    with pytest.raises(AgentSpecError, match="unknown agent"):
        solvers.load_agent(games.load_game("durak"), 'external(command="touch /tmp/x")')
