"""Agent processes: kept for the agent's next game and restarted only after a failure, one
per seat, and none left behind by a tournament, finished or stopped with Ctrl-C."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from koloda import games
from koloda.solvers.external import external_spec, load_external
from koloda.solvers.external.process import pool
from koloda.tournament.match import play_game
from koloda.tournament.runner import run_tournament

from .conftest import TINY, alive, bot, marker, needs_proc, processes_with, tiny_config


def _starts(log) -> int:
    return log.read_text().count("] started: ")


def test_a_process_plays_game_after_game_and_is_restarted_after_a_failure(tmp_path):
    config = tiny_config(tmp_path, {
        "random": "random", "legal": {"command": bot("python", "legal")},
        "hang": {"command": bot("python", "hang"), "move_ms": 100}}, games_per_pairing=6)
    run = run_tournament(config, progress=False)
    hung = [r for r in run.results.values() if "hang" in r.seats]
    assert len(run.results) == 18 and all(r.error.reason == "timeout" for r in hung)
    assert _starts(config.log_path("legal")) == 1             # one process, 12 games
    assert _starts(config.log_path("hang")) == len(hung)      # a fresh one after each timeout
    assert "killed after timeout" in config.log_path("hang").read_text()


def test_two_seats_of_one_command_are_two_processes():
    game = games.load_game(TINY)
    spec = external_spec(bot("python", "legal"))
    agents = [load_external(game, spec, seed=1), load_external(game, spec, seed=2)]
    assert agents[0].key == agents[1].key
    seen = set()

    def watch(agent):
        def step(state):
            seen.add(agent.process.pid)
            return type(agent).step(agent, state)
        return step
    for agent in agents:
        agent.step = watch(agent)
    record = play_game(game, agents, seed=3)
    assert record.error is None and len(seen) == 2
    assert len(pool().idle[agents[0].key]) == 2          # both kept for the next game


def _catches_sigint(pid: int) -> bool:
    """Ctrl-C would reach the process's Python handler now."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGINT - 1)))


def _tournament_process(tmp_path, tag: str, games_per_pairing: int):
    """`koloda tournament` in a session of its own, on two loky workers, with a bot that
    ignores the end of its input (so only koloda's own stopping ends it)."""
    config = tmp_path / "t.toml"
    command = bot("python", "linger", tag)
    slow = bot("python", "slow", "20", tag)
    config.write_text(
        f'name = "t"\ngames = ["{TINY}"]\ngames_per_pairing = {games_per_pairing}\n'
        f'seed = 1\njobs = 2\noutput = "{tmp_path}"\nbootstrap = 20\n'
        f'[agents]\nrandom = "random"\n'
        f'[agents.linger]\ncommand = {command!r}\n[agents.slow]\ncommand = {slow!r}\n'
        .replace("'", '"'))
    return subprocess.Popen([sys.executable, "-m", "koloda", "tournament", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def _left_after(find, seconds: float) -> list[int]:
    """What `find()` (live pids) still returns after waiting up to `seconds` for it to be
    empty: a stopped process of a busy machine dies a moment later, one left running does
    not."""
    end = time.monotonic() + seconds
    while find() and time.monotonic() < end:
        time.sleep(0.05)
    return find()


def _gone(tag: str, seconds: float = 3.0) -> list[int]:
    """The processes with `tag` still alive after waiting up to `seconds`."""
    left = _left_after(lambda: processes_with(tag), seconds)
    for pid in left:                 # the test's own, found by its tag: not left running
        os.kill(pid, signal.SIGKILL)
    return left


@needs_proc
def test_a_finished_tournament_leaves_no_process(tmp_path):
    tag = marker()
    process = _tournament_process(tmp_path, tag, games_per_pairing=4)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode()[-2000:]
    assert _gone(tag) == []
    assert (tmp_path / "t.logs" / "linger.log").is_file()


def _children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (the tournament's loky workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields and fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


@contextlib.contextmanager
def _tournament_under_way(tmp_path, tag: str):
    """A long `koloda tournament` (as `_tournament_process`) once it has finished a game,
    with agent processes running and its Ctrl-C handler in place; killed, if still
    running, when the block ends."""
    process = _tournament_process(tmp_path, tag, games_per_pairing=2000)
    results = tmp_path / "t.jsonl"

    def finished_a_game() -> bool:
        return results.exists() and bool(results.read_text())
    try:
        deadline = time.monotonic() + 180           # a loaded machine starts slowly
        while time.monotonic() < deadline and not finished_a_game():
            time.sleep(0.1)
        assert finished_a_game(), "no game finished before the deadline"
        assert processes_with(tag), "no agent process was running"
        deadline = time.monotonic() + 30            # its own wait, however long the game took
        while not _catches_sigint(process.pid):
            assert time.monotonic() < deadline, "the tournament never took Ctrl-C's handler"
            time.sleep(0.01)                       # past the moment workers start
        yield process
    finally:                                       # a failed test leaves no run behind
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


@needs_proc
def test_ctrl_c_stops_the_tournament_and_every_agent_process(tmp_path):
    tag = marker()
    with _tournament_under_way(tmp_path, tag) as process:
        os.killpg(process.pid, signal.SIGINT)      # what a terminal's Ctrl-C does
        out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err.decode()[-2000:]
    assert "interrupted" in err.decode()
    assert _gone(tag, seconds=15) == []


@needs_proc
def test_sigterm_stops_the_tournament_its_workers_and_every_agent_process(tmp_path):
    """`kill PID`, `timeout`, a job scheduler: SIGTERM to the tournament alone ends its
    workers too, instead of leaving them playing, orphaned, games whose results are lost."""
    tag = marker()
    with _tournament_under_way(tmp_path, tag) as process:
        workers = _children(process.pid)
        assert workers
        process.terminate()
        out, err = process.communicate(timeout=120)
    assert process.returncode == 143, err.decode()[-2000:]
    assert "koloda: terminated; the games finished so far are kept in" in err.decode()
    assert _gone(tag, seconds=15) == []
    assert _left_after(lambda: [pid for pid in workers if alive(pid)], seconds=5) == []
