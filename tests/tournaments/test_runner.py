"""Tournament runs are reproducible, resumable, survive agent crashes, and run on Dask."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from koloda.cli.main import main
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register
from koloda.tournament.config import ConfigError, config_from_dict, load_config
from koloda.tournament.runner import run_tournament
from koloda.tournament.schedule import build_schedule


def _config(tmp_path, name="t", **changes):
    data = {"name": name, "games": ["durak(ranks=6,hand_size=4)"], "games_per_pairing": 4,
            "seed": 7, "jobs": 1, "output": str(tmp_path), "anchor": "random", "bootstrap": 50,
            "agents": {"random": "random", "heuristic": "heuristic",
                       "ismcts": "ismcts(sims=20)"}}
    data.update(changes)
    return config_from_dict(data)


def _lines(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def test_same_config_and_seed_give_identical_result_files(tmp_path):
    first = _config(tmp_path / "a")
    second = _config(tmp_path / "b", jobs=2)
    run_tournament(first, progress=False)
    run_tournament(second, progress=False)
    assert first.results_path.read_bytes() == second.results_path.read_bytes()
    lines = _lines(first.results_path)
    assert [line["id"] for line in lines] == [t.id for t in build_schedule(first)]
    timing = _lines(first.timing_path)
    assert [t["id"] for t in timing] == [line["id"] for line in lines]


def test_an_interrupted_run_resumes_without_replaying_or_losing_games(tmp_path):
    whole = _config(tmp_path / "whole")
    run_tournament(whole, progress=False)
    parts = _config(tmp_path / "parts")
    total = len(build_schedule(parts))
    run_tournament(parts, progress=False, stop_after=5)
    assert len(_lines(parts.results_path)) == 5
    # A kill in the middle of writing leaves half a line: it is dropped and replayed.
    with parts.results_path.open("a") as handle:
        handle.write('{"id": "0/random-heuristic/9')
    run = run_tournament(parts, progress=False)
    ids = [line["id"] for line in _lines(parts.results_path)]
    assert len(ids) == len(set(ids)) == total
    assert parts.results_path.read_bytes() == whole.results_path.read_bytes()
    assert len(run.results) == total and len(run.played) == total - 5


def test_a_finished_run_plays_nothing_and_recomputes_the_tables(tmp_path):
    config = _config(tmp_path)
    run_tournament(config, progress=False)
    before = config.results_path.read_bytes()
    again = run_tournament(config, progress=False)
    assert config.results_path.read_bytes() == before
    assert len(again.results) == len(build_schedule(config)) and len(again.played) == 0


def test_results_of_another_config_are_not_mixed_in(tmp_path):
    run_tournament(_config(tmp_path), progress=False)
    with pytest.raises(ConfigError, match="does not schedule"):
        run_tournament(_config(tmp_path, seed=8, agents={"random": "random",
                                                          "other": "heuristic"}),
                       progress=False)


@register("crashes_sometimes", "test agent: raises on its third decision")
class _Crashy(Agent):
    def __init__(self, game, seed=0):
        super().__init__(game, seed)
        self.calls = 0

    def restart(self):
        self.calls = 0

    def choose(self, view, player):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("boom")
        return view.legal_actions(player)[0]


def test_a_crashing_agent_loses_its_games_and_the_tournament_goes_on(tmp_path, capsys):
    config = _config(tmp_path, agents={"random": "random", "crashy": "crashes_sometimes"})
    run = run_tournament(config, progress=False)
    finished = list(run.results.values())
    errors = [result for result in finished if result.error]
    assert len(finished) == len(build_schedule(config)) and errors
    for result in errors:
        seat = result.error.seat
        assert result.seats[seat] == "crashy" and "boom" in result.error.message
        assert result.returns[seat] == -1.0
    lines = _lines(config.results_path)
    assert sum("error" in line for line in lines) == len(errors)


def test_tournament_command_writes_every_report(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text(f'''
name = "cli"
games = ["durak(ranks=6,hand_size=4)", "durak(players=3,ranks=6,hand_size=4)"]
games_per_pairing = 3
output = "{tmp_path}"
bootstrap = 50
[agents]
random = "random"
heuristic = "heuristic"
''')
    assert main(["tournament", str(path)]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "Elo" in out
    for stem in ("cli--durak-ranks-6-hand-size-4", "cli--durak-players-3-ranks-6-hand-size-4"):
        for ext in ("md", "csv", "json", "png"):
            assert (tmp_path / f"{stem}.{ext}").exists()


def test_bad_config_stops_before_any_game(tmp_path, capfd):
    path = tmp_path / "c.toml"
    path.write_text(f'games = ["durak"]\ngames_per_pairing = 2\noutput = "{tmp_path}"\n'
                    '[agents]\nrandom = "random"\nbest = "ismcts(simz=3)"\n')
    assert main(["tournament", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and "agents.best" in err and "simz" in err
    assert not list(tmp_path.glob("*.jsonl"))


def test_a_killed_process_resumes_with_no_game_lost_or_played_twice(tmp_path):
    """SIGKILL a real run midway, run again: every scheduled game once."""
    config_path = tmp_path / "k.toml"
    config_path.write_text(f'''
name = "killed"
games = ["durak(hand_size=3,ranks=4,suits=2)"]
games_per_pairing = 300
seed = 3
jobs = 2
output = "{tmp_path}"
bootstrap = 50
[agents]
random = "random"
heuristic = "heuristic"
ismcts = "ismcts(sims=20)"
''')
    command = [sys.executable, "-m", "koloda", "tournament", str(config_path)]
    process = subprocess.Popen(command, cwd=tmp_path, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = tmp_path / "killed.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if results.exists() and len(results.read_text().splitlines()) >= 4:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    played_before = len(results.read_text().splitlines())
    total = len(build_schedule(load_config(str(config_path))))
    assert 4 <= played_before < total, "the kill should land midway"
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True)
    ids = [line["id"] for line in _lines(results)]
    assert len(ids) == len(set(ids)) == total


def test_dask_local_cluster_gives_the_same_results(tmp_path):
    pytest.importorskip("distributed")
    loky = _config(tmp_path / "loky")
    dask = _config(tmp_path / "dask", backend="dask", scheduler="local", jobs=2)
    run_tournament(loky, progress=False)
    run_tournament(dask, progress=False)
    assert dask.results_path.read_bytes() == loky.results_path.read_bytes()


def test_parallel_bench_runs_the_same_tournament_each_way(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text('games = ["durak(ranks=6,hand_size=4)"]\ngames_per_pairing = 2\n'
                    'bootstrap = 50\n[agents]\nrandom = "random"\nheuristic = "heuristic"\n')
    assert main(["bench-tournament", str(path), "--no-dask"]) == 0
    out = capsys.readouterr().out
    assert "jobs=1 (in process)" in out and "jobs=2 (loky)" in out and "dask" not in out


def test_any_single_game_replays_alone_from_its_line(tmp_path):
    from koloda.tournament.runner import play_task
    from koloda.tournament.schedule import Task

    config = _config(tmp_path)
    run_tournament(config, progress=False)
    for line in _lines(config.results_path)[::5]:
        task = Task(line["id"], line["game"], tuple(line["seats"]), line["deal"], line["seed"])
        again, _ = play_task(task, tuple(config.agents[name] for name in task.seats))
        assert again.line() == line


def test_any_gauntlet_game_replays_alone_from_its_line_and_config(tmp_path):
    from koloda.tournament.runner import play_task

    config = config_from_dict({
        "name": "g", "schedule": "gauntlet", "games": ["durak(players=3,ranks=6,hand_size=4)"],
        "seed": 7, "output": str(tmp_path), "bootstrap": 50,
        "agents": {"random": "random", "heuristic": "heuristic", "ismcts": "ismcts(sims=20)"},
        "match": [{"agent": "ismcts", "opponent": "heuristic", "games": 6},
                  {"agent": "heuristic", "opponent": "random", "games": 6}]})
    run_tournament(config, progress=False)
    tasks = {task.id: task for task in build_schedule(config)}
    for line in _lines(config.results_path)[::3]:
        task = tasks[line["id"]]
        assert (list(task.seats), task.seed) == (line["seats"], line["seed"])
        again, _ = play_task(task, tuple(config.agents[name] for name in task.seats))
        assert again.line() == line
