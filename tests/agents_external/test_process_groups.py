"""An external bot fails only itself: it runs in a process group of its own, ended with
it (a bot that forks leaves nothing behind, and its crash is a crash, not a timeout while
its child holds the output); an answer nobody asked for is `bad_message`; a flood of
stderr is read in chunks; and a tournament killed outright takes its workers along."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from koloda.solvers.external import process as process_module
from koloda.tournament.runner import run_tournament

from .conftest import TINY, alive, bot, marker, needs_proc, processes_with, tiny_config
from .test_processes import _children, _gone, _left_after, _tournament_under_way


def _errors(run, name):
    """The failures of agent `name`."""
    return [r.error for r in run.results.values()
            if r.error and r.seats[r.error.seat] == name]


@needs_proc
def test_a_forking_bots_crash_is_a_crash_and_nothing_is_left(tmp_path):
    tag = marker()
    config = tiny_config(tmp_path, {
        "random": "random", "forks": {"command": bot("python", "fork", tag)},
        "crashes": {"command": bot("python", "forkcrash", tag)}}, games_per_pairing=2)
    run = run_tournament(config, progress=False)
    assert len(run.results) == 6
    assert _errors(run, "forks") == []
    crashes = _errors(run, "crashes")
    assert crashes and all(e.reason == "crashed" and "exited with status" in e.message
                           for e in crashes), crashes
    assert _gone(tag) == []            # the bots, and the children they forked


@needs_proc
def test_an_answer_nobody_asked_for_is_a_bad_message(tmp_path):
    config = tiny_config(tmp_path, {"random": "random",
                                    "stale": {"command": bot("python", "stale")}})
    run = run_tournament(config, progress=False)
    errors = _errors(run, "stale")
    assert len(errors) == 2 and {e.reason for e in errors} == {"bad_message"}
    assert all("wrote a line when no go was pending" in e.message for e in errors)


def _read_calls() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("syscr:"):
            return int(line.split()[1])
    raise AssertionError("no syscr in /proc/self/io")


@needs_proc
def test_a_flood_of_stderr_is_read_in_chunks(tmp_path):
    """3 MB of stderr: one `read` a byte would be 3 million calls; in chunks, a few
    hundred (the rest of the tournament reads little)."""
    config = tiny_config(tmp_path, {"random": "random",
                                    "floods": {"command": bot("python", "flood", "3")}},
                         games_per_pairing=1)
    before = _read_calls()
    run = run_tournament(config, progress=False)
    calls = _read_calls() - before
    assert _errors(run, "floods") == []
    log = config.log_path("floods").read_bytes()
    assert log.count(b"x" * 99 + b"\n") == 30_000              # every line, whole
    assert calls < 50_000, calls


@needs_proc
def test_sigkill_of_a_tournament_ends_its_workers_and_bots(tmp_path):
    tag = marker()
    with _tournament_under_way(tmp_path, tag) as process:
        workers = _children(process.pid)
        assert workers
        os.kill(process.pid, signal.SIGKILL)          # no handler, no finalizer runs
        process.wait(timeout=30)
        left = _left_after(lambda: [pid for pid in workers if alive(pid)], seconds=15)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert left == []
    assert _gone(tag, seconds=15) == []


@needs_proc
def test_a_stopped_worker_does_not_restart_the_bots_killed_before_it(tmp_path):
    """loky stops a worker by killing its children first, the worker a moment later: the
    worker must not take its bot's SIGKILL for a crash and start a fresh bot meanwhile."""
    tag = marker()
    config = tmp_path / "t.toml"
    command = bot("python", "linger", tag)
    config.write_text(
        f'name = "t"\ngames = ["{TINY}"]\ngames_per_pairing = 2000\nseed = 1\njobs = 1\n'
        f'output = "{tmp_path}"\nbootstrap = 20\n[agents]\nrandom = "random"\n'
        f'[agents.linger]\ncommand = {command!r}\n'.replace("'", '"'))
    process = subprocess.Popen([sys.executable, "-m", "koloda", "tournament", str(config)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        results = tmp_path / "t.jsonl"
        deadline = time.monotonic() + 180
        while not (results.exists() and results.read_text()):
            assert time.monotonic() < deadline, "no game finished before the deadline"
            time.sleep(0.1)
        for pid in processes_with(tag):           # as loky does: the children first
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.3)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    log = (tmp_path / "t.logs" / "linger.log").read_text()
    assert "crashed" not in log and log.count("] started: ") == 1, log[-2000:]
    assert _gone(tag, seconds=15) == []


def _an_idle_program_killed_by_another(pool, monkeypatch):
    """A program idle in `pool` between games, then SIGKILLed from outside (as loky
    stops a worker); the waits for a stopping worker it caused are counted."""
    waits = []
    monkeypatch.setattr(process_module, "_grace", lambda: waits.append(1))
    key = (marker(),)
    program = pool.start(key, [sys.executable, "-c", "import time; time.sleep(60)"], None,
                         {}, pool.log(None))
    pool.checkin(program)
    os.kill(program.pid, signal.SIGKILL)
    program.proc.wait(10)
    return key, program, waits


def test_a_program_killed_by_another_between_games_waits_for_a_stopping_worker(monkeypatch):
    """Killed while idle, it is found dead at the next game's checkout: the worker waits
    the grace before it ends it and starts a fresh one, as it does within a game."""
    pool = process_module.pool()
    key, program, waits = _an_idle_program_killed_by_another(pool, monkeypatch)
    assert pool.checkout(key) is None
    assert waits == [1] and program not in pool.live


def test_a_program_killed_by_another_at_the_end_of_a_game_waits_too(monkeypatch):
    pool = process_module.pool()
    key, program, waits = _an_idle_program_killed_by_another(pool, monkeypatch)
    pool.idle[key].remove(program)                  # as if its game had just ended
    pool.checkin(program)
    assert waits == [1] and program not in pool.live and not pool.idle[key]


def test_a_program_that_exits_by_itself_costs_no_wait(monkeypatch):
    waits = []
    monkeypatch.setattr(process_module, "_grace", lambda: waits.append(1))
    pool = process_module.pool()
    program = pool.start((marker(),), [sys.executable, "-c", "pass"], None, {},
                         pool.log(None))
    program.proc.wait(10)
    pool.checkin(program)
    assert waits == [] and program not in pool.live
