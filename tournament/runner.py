"""Running a tournament: the schedule, in parallel, streamed to the results file.

`run_tournament(config)` plays every scheduled game not yet in the results file (so a
rerun resumes an interrupted tournament and a finished one only recomputes the tables),
through joblib: loky processes on this machine by default, or a Dask cluster.  It is the
one runner of every schedule kind (round-robin and gauntlet).
"""

from __future__ import annotations

import contextlib
import functools
import time
from dataclasses import dataclass

from joblib import Parallel, delayed, parallel_config

from koloda import games
from koloda.tournament import results
from koloda.tournament.config import ConfigError, TournamentConfig
from koloda.tournament.match import play_game, seat_agents
from koloda.tournament.progress import Progress
from koloda.tournament.results import GameResult, Timing
from koloda.tournament.schedule import Task, build_schedule


@dataclass
class Run:
    """What a run leaves for the summaries: the schedule and every finished game."""
    tasks: list[Task]                  # the whole schedule, in order
    results: dict[str, GameResult]     # by task id; all of them once the run is complete
    timing: dict[str, Timing]          # by task id
    played: int                        # games played by this run (not read back)
    wall_seconds: float                # of this run

    def finished(self, tasks=None) -> list[tuple[Task, GameResult]]:
        """(task, result) of every finished game among `tasks` (default all), in order."""
        return [(t, self.results[t.id]) for t in (self.tasks if tasks is None else tasks)
                if t.id in self.results]


@functools.lru_cache(maxsize=16)
def _game(game_string: str):
    return games.load_game(game_string)


def play_task(task: Task, specs: tuple[str, ...]) -> tuple[GameResult, Timing]:
    """One scheduled game, in a worker: its result and its timing."""
    game = _game(task.game)
    agents = seat_agents(game, specs, task.seed, names=task.seats if task.seed_names else None)
    record = play_game(game, agents, task.seed, specs=list(task.seats))
    return results.game_result(task, record), results.timing(task, record)


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
                   stop_after: int | None = None) -> Run:
    """Play what is missing, then return the `Run`.

    `stop_after` plays at most that many games and returns (for tests of resuming).
    """
    jobs = jobs or config.jobs
    tasks = build_schedule(config)
    scheduled = {task.id for task in tasks}
    found = results.read_results(config.results_path)
    timing = results.read_timing(config.timing_path)
    stray = set(found) - scheduled
    if stray:
        raise ConfigError(
            f"{config.results_path} holds {len(stray)} games this config does not schedule "
            f"(was the config changed?); move the file away or give the config another name")
    todo = [task for task in tasks if task.id not in found]
    if stop_after is not None:
        todo = todo[:stop_after]
    bar = Progress(len(tasks), already=len(found)) if progress and todo else None
    start = time.perf_counter()
    if todo:
        game_out = results.Appender(config.results_path)
        timing_out = results.Appender(config.timing_path)
        try:
            with _executor(config, jobs) as parallel:
                calls = (delayed(play_task)(task, tuple(config.agents[n] for n in task.seats))
                         for task in todo)
                for task, (result, times) in zip(todo, parallel(calls)):
                    game_out.write(result.line())
                    timing_out.write(times.line())
                    found[task.id] = result
                    timing[task.id] = times
                    if bar:
                        bar.update(len(found))
        finally:
            game_out.close()
            timing_out.close()
    if len(found) == len(tasks):
        results.rewrite_in_order(config.results_path, [found[t.id].line() for t in tasks])
        results.rewrite_in_order(config.timing_path,
                                 [timing[t.id].line() for t in tasks if t.id in timing])
    return Run(tasks=tasks, results=found, timing=timing, played=len(todo),
               wall_seconds=time.perf_counter() - start)
