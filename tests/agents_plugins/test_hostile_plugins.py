"""A plugin fails only itself: an agent that raises in its constructor for some seeds,
exits, raises KeyboardInterrupt, or answers a float loses its own games and the tournament
goes on; a numpy int that names a legal action is that action; a plugin that prints as
it imports cannot corrupt the protocols on stdout, and one whose import raises a
BaseException is skipped with one warning; the server refuses a plugin parameter it
cannot bound."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from .test_plugins import HERE, TINY, build_wheel, warnings_of
from .test_plugins import run as run_with


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> list:
    root = tmp_path_factory.mktemp("hostile")
    folders = []
    for name in ("hostile_pkg", "skipping_pkg"):
        wheel = build_wheel(HERE / name, root)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--isolated", "--no-deps", "--no-index",
             "--quiet", "--disable-pip-version-check", "--target", str(root / name),
             str(wheel)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        folders.append(root / name)
    return folders


def tournament(folders, tmp_path, agents: dict, jobs: int, games: int = 4):
    (tmp_path / "t.toml").write_text(textwrap.dedent(f"""\
        name = "t"
        games = ["{TINY}"]
        seed = 5
        games_per_pairing = {games}
        jobs = {jobs}
        output = "out"
        anchor = "random"
        bootstrap = 20

        [agents]
        """) + "".join(f'{name} = "{spec}"\n' for name, spec in agents.items()))
    done = run_with(folders, "tournament", "t.toml", cwd=tmp_path)
    lines = [json.loads(line) for line in (tmp_path / "out" / "t.jsonl").read_text()
             .splitlines()] if (tmp_path / "out" / "t.jsonl").exists() else []
    return done, lines


def test_a_constructor_that_raises_for_some_seeds_loses_those_games(hostile, tmp_path):
    done, lines = tournament(hostile, tmp_path, {"random": "random", "flaky": "flaky"},
                             jobs=2, games=8)
    assert done.returncode == 0, done.stderr
    assert len(lines) == 8
    failed = [line for line in lines if "error" in line]
    assert failed and len(failed) < 8          # some seeds build, some do not
    for line in failed:
        seat = line["error"]["seat"]
        assert line["seats"][seat] == "flaky" and line["error"]["reason"] == "crashed"
        assert "could not be built: RuntimeError: no agent for seed" in \
            line["error"]["message"]
        assert line["returns"][seat] < 0      # it lost where it was first to move
    again = run_with(hostile, "tournament", "t.toml", cwd=tmp_path)      # a rerun resumes
    assert again.returncode == 0, again.stderr
    assert "the 8 games already there are not played again" in again.stderr


def test_exits_interrupts_floats_lose_and_numpy_ints_play(hostile, tmp_path):
    """jobs = 1: the games run in this process, where a KeyboardInterrupt could also be a
    person's Ctrl-C (it is not: none arrived)."""
    agents = {"random": "random", "argmax": "argmax", "floaty": "floaty", "quits": "quits",
              "interrupts": "interrupts"}
    done, lines = tournament(hostile, tmp_path, agents, jobs=1, games=2)
    assert done.returncode == 0, done.stderr
    assert len(lines) == 10 * 2
    reasons = {}
    for line in lines:
        assert all(type(action) is int for action in line["actions"])
        error = line.get("error")
        if error is not None:
            reasons.setdefault(line["seats"][error["seat"]], set()).add(
                (error["reason"], error["message"].split(":")[0]))
    assert {reason for reason, _ in reasons["floaty"]} == {"illegal_action"}
    assert all(" a float, not an action id" in message for _, message in reasons["floaty"])
    assert reasons["quits"] == {("crashed", "SystemExit")}
    assert reasons["interrupts"] == {("crashed", "KeyboardInterrupt")}
    assert "argmax" not in reasons and "random" not in reasons
    again = run_with(hostile, "tournament", "t.toml", cwd=tmp_path)      # the file reads back
    assert again.returncode == 0, again.stderr


def koloda_lines(folders, tmp_path, argv, requests: list[dict]) -> tuple[list[dict], str]:
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [sys.executable, "-m", "koloda", *argv], input=text, cwd=tmp_path, text=True,
        capture_output=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(str(f) for f in folders)))
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def test_the_server_answers_beside_hostile_plugins(hostile, tmp_path):
    replies, stderr = koloda_lines(hostile, tmp_path, ["serve", "--prepare", "durak"], [
        {"type": "hello", "id": 1},
        {"type": "new", "id": 2, "game": TINY, "seats": [0, 1], "seed": 4},
    ])
    hello, new = replies               # the plugin's prints went to stderr, not before hello
    assert hello["id"] == 1 and hello["ok"], hello
    assert new["id"] == 2 and new["ok"], new
    assert "the hostile plugin says hello on stdout" in stderr
    assert "and writes to descriptor 1 as well" in stderr
    interrupting, skipped = warnings_of(stderr)
    assert "'skipping' of koloda-skipping-plugin" in skipped and "Skipped" in skipped
    assert "'interrupting' of koloda-skipping-plugin" in interrupting
    assert "KeyboardInterrupt" in interrupting
    assert "argmax" in {agent["name"] for agent in hello["agents"]}


def test_the_server_refuses_what_it_cannot_bound_and_outlives_an_exit(hostile, tmp_path):
    script = textwrap.dedent(f"""
        import json, sys
        from koloda.protocol import Client
        with Client.subprocess([sys.executable, "-m", "koloda", "serve", "--prepare", "durak",
                                "--max-ms", "100"]) as server:
            session = server.new({TINY!r}, seats=[0, 1], seed=4)["session"]
            out = {{}}
            for agent in ("unbounded(pause=4000)", "stubborn(n=1500)", "stubborn(mode=slow)",
                          "stubborn(seed=3)", "quits", "interrupts", "argmax"):
                reply = server.send({{"type": "hint", "session": session, "agent": agent}})
                out[agent] = reply.get("error", {{}}).get("code") or reply["action"]
            out["hello"] = server.hello()["ok"]
        print(json.dumps(out))
        """)
    done = run_with(hostile, code=script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["unbounded(pause=4000)"] == "limit"
    assert out["stubborn(n=1500)"] == out["stubborn(mode=slow)"] == "limit"   # koloda's `n`
    assert out["stubborn(seed=3)"] not in ("limit", "internal", "bad_agent")  # sets no work
    assert out["quits"] == out["interrupts"] == "internal"     # that move failed, no more
    assert out["argmax"] not in ("limit", "internal", "bad_agent")
    assert out["hello"] is True


def test_koloda_agent_says_hello_first_beside_a_printing_plugin(hostile, tmp_path):
    replies, stderr = koloda_lines(hostile, tmp_path, ["agent", "random", "--game", TINY],
                                   [{"type": "hello", "protocol": 1}, {"type": "quit"}])
    assert replies[0]["type"] == "hello", replies
    assert "the hostile plugin says hello on stdout" in stderr


FIRST_GO = {"type": "go", "events": [
    {"player": None, "action": "deal ?", "seen_by": [0]},
    {"player": None, "action": "deal Jd", "seen_by": [1]},
    {"player": None, "action": "deal ?", "seen_by": [0]},
    {"player": None, "action": "deal Ac", "seen_by": [1]},
    {"player": None, "action": "deal ?", "seen_by": [0]},
    {"player": None, "action": "deal Kd", "seen_by": [1]},
    {"player": None, "action": "trump Qc", "seen_by": [0, 1]},
    {"player": 0, "action": "attack Qd"}],
    "legal": ["beat Kd", "beat Ac", "take"], "budget": {"ms": 200}}    # docs/agents.md's


@pytest.mark.parametrize("agent", ["quits", "interrupts"])
def test_koloda_agent_names_a_plugins_exit_in_its_move_as_its_failure(hostile, tmp_path,
                                                                       agent):
    """Not `interrupted` (a person's Ctrl-C, status 130), nor the plugin's own words: one
    line saying the agent failed in its move, and the runner records that game's loss."""
    game = "durak(hand_size=3,ranks=4,suits=2)"
    text = "".join(json.dumps(m) + "\n" for m in [
        {"type": "hello", "protocol": 1},
        {"type": "new_game", "game": game, "seat": 1, "players": 2, "seed": 123}, FIRST_GO])
    done = subprocess.run(
        [sys.executable, "-m", "koloda", "agent", agent, "--game", game], input=text,
        cwd=tmp_path, text=True, capture_output=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(str(f) for f in hostile)))
    assert [json.loads(line)["type"] for line in done.stdout.splitlines()] == ["hello"]
    assert done.returncode == 2, done.stderr
    kind = {"quits": "SystemExit", "interrupts": "KeyboardInterrupt"}[agent]
    assert done.stderr.splitlines()[-1] == \
        f"koloda: error: {agent}: the agent raised {kind} in its move"


def test_a_plugin_that_raises_keyboardinterrupt_as_it_imports_is_skipped(hostile, tmp_path):
    """Its own KeyboardInterrupt, not a person's Ctrl-C: `koloda agents` lists the rest."""
    done = run_with(hostile, "agents", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert "argmax" in {agent["name"] for agent in listing["agents"]}
    skipped = {kind["name"]: kind["reason"] for kind in listing["skipped"]}
    assert skipped["interrupting"].endswith("failed to load: KeyboardInterrupt")
    assert len(warnings_of(done.stderr)) == 2
