"""Running a tournament: the schedule, in parallel, streamed to the results file.

`run_tournament(config)` plays every scheduled game not yet in the results file (so a
rerun resumes an interrupted tournament and a finished one only recomputes the tables),
through joblib: loky processes on this machine by default, or a Dask cluster.
"""

from __future__ import annotations

import contextlib
import functools
import time

from joblib import Parallel, delayed, parallel_config

from koloda import games
from koloda.tournament import results
from koloda.tournament.config import ConfigError, TournamentConfig
from koloda.tournament.match import play_game, seat_agents
from koloda.tournament.progress import Progress
from koloda.tournament.schedule import Task, build_schedule


@functools.lru_cache(maxsize=16)
def _game(game_string: str):
    return games.load_game(game_string)


def play_task(task: Task, specs: tuple[str, ...]):
    """One scheduled game, in a worker: (result line, timing line)."""
    game = _game(task.game)
    agents = seat_agents(game, specs, task.seed, names=task.seats)
    record = play_game(game, agents, task.seed, specs=list(task.seats))
    return results.game_line(task, record), results.timing_line(task, record)


@contextlib.contextmanager
def _executor(config: TournamentConfig, jobs: int):
    """A joblib Parallel for the configured backend (Dask: a client for the run's length)."""
    if config.backend != "dask":
        yield Parallel(n_jobs=jobs, return_as="generator")
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("backend 'dask' needs dask.distributed: "
                          "pip install 'koloda[dask]'") from None
    with contextlib.ExitStack() as stack:
        if config.scheduler == "local":
            cluster = stack.enter_context(LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True,
                dashboard_address=None))
            stack.enter_context(Client(cluster))
        else:
            stack.enter_context(Client(config.scheduler))
        stack.enter_context(parallel_config(backend="dask", wait_for_workers_timeout=60))
        yield Parallel(n_jobs=-1, return_as="generator")


def run_tournament(config: TournamentConfig, jobs: int | None = None, progress: bool = True,
                   stop_after: int | None = None) -> dict:
    """Play what is missing, then return {"tasks", "lines", "timing", "played",
    "wall_seconds"}.

    `stop_after` plays at most that many games and returns (for tests of resuming).
    """
    jobs = jobs or config.jobs
    tasks = build_schedule(config)
    scheduled = {task.id for task in tasks}
    lines = results.read_lines(config.results_path)
    timing = results.read_lines(config.timing_path)
    stray = set(lines) - scheduled
    if stray:
        raise ConfigError(
            f"{config.results_path} holds {len(stray)} games this config does not schedule "
            f"(was the config changed?); move the file away or give the config another name")
    todo = [task for task in tasks if task.id not in lines]
    if stop_after is not None:
        todo = todo[:stop_after]
    bar = Progress(len(tasks), already=len(lines)) if progress and todo else None
    start = time.perf_counter()
    if todo:
        game_out = results.Appender(config.results_path)
        timing_out = results.Appender(config.timing_path)
        try:
            with _executor(config, jobs) as parallel:
                calls = (delayed(play_task)(task, tuple(config.agents[n] for n in task.seats))
                         for task in todo)
                for task, (line, times) in zip(todo, parallel(calls)):
                    game_out.write(line)
                    timing_out.write(times)
                    lines[task.id] = line
                    timing[task.id] = times
                    if bar:
                        bar.update(len(lines))
        finally:
            game_out.close()
            timing_out.close()
    if len(lines) == len(tasks):
        results.rewrite_in_order(config.results_path, [lines[t.id] for t in tasks])
        results.rewrite_in_order(config.timing_path,
                                 [timing[t.id] for t in tasks if t.id in timing])
    return {"tasks": tasks, "lines": lines, "timing": timing, "played": len(todo),
            "wall_seconds": time.perf_counter() - start}
