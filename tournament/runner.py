"""Running a tournament: the schedule, in parallel, streamed to the results file.

`run_tournament(config)` plays every scheduled game not yet in the results file (so a
rerun resumes an interrupted tournament and a finished one only recomputes the tables),
through joblib: loky processes on this machine by default, or a Dask cluster.  It is the
one runner of every schedule kind (round-robin and gauntlet).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import sys
import time
import warnings
from dataclasses import dataclass

from joblib import delayed

from koloda import games
from koloda.solvers.external.process import close_idle
from koloda.solvers.interrupts import signals_noted
from koloda.tournament import results
from koloda.tournament.config import TournamentConfig
from koloda.tournament.executor import exit_with, parallel_for, workers_deaf_to_ctrl_c
from koloda.tournament.lock import claim_output
from koloda.tournament.match import play_game, seat_agents
from koloda.tournament.progress import Progress
from koloda.tournament.results import GameResult, Timing
from koloda.tournament.resume import check_resumable
from koloda.tournament.schedule import Schedule, Task, build_schedule
from koloda.tournament.seating import prepare_seats

#: a preparation at least this long is said (it compiled; loading from the cache is quicker)
PREPARE_SHOWN_SECONDS = 1.0


@dataclass
class Run:
    """What a run leaves for the summaries: the schedule and every finished game."""
    tasks: Schedule                    # the whole schedule, in order (made as it is read)
    results: dict[str, GameResult]     # by task id; all of them once the run is complete
    timing: dict[str, Timing]          # by task id
    played: set[str]                   # ids of the games this run played (not read back)
    wall_seconds: float                # of this run

    def finished(self, tasks=None) -> list[tuple[Task, GameResult]]:
        """(task, result) of every finished game among `tasks` (default all), in order."""
        return [(t, self.results[t.id]) for t in (self.tasks if tasks is None else tasks)
                if t.id in self.results]


def play_task(task: Task, specs: tuple[str, ...] | None = None,
              owner: int | None = None) -> tuple[GameResult, Timing]:
    """One scheduled game, in a worker: its result and its timing.  `owner`: the process
    that started this worker on this machine, which the worker does not outlive."""
    if owner is not None:
        exit_with(owner)
    specs = specs or task.specs
    if not task.specs:
        task = dataclasses.replace(task, specs=tuple(specs))
    game = games.load_game(task.game)
    prepare_seats(game, specs)          # once per process, before any clock starts
    agents = seat_agents(game, specs, task.seed, names=task.seats if task.seed_names else None)
    record = play_game(game, agents, task.seed, specs=list(task.seats))
    return results.game_result(task, record), results.timing(task, record)


def _prepare(schedule: Schedule, progress: bool) -> None:
    """Make the schedule's games and agents ready here before the workers start, so that
    numba's cache holds what they load (each worker then prepares from it, before its
    first game's clocks: play_task); said once when it took a while (it compiled)."""
    started = time.perf_counter()
    with signals_noted():          # an agent's own KeyboardInterrupt is its fault only
        for game, specs in schedule.seat_specs().items():
            prepare_seats(games.load_game(game), specs)
    seconds = time.perf_counter() - started
    if progress and seconds >= PREPARE_SHOWN_SECONDS:
        print(f"preparing the kernels: {seconds:.0f} s, cached for later runs",
              file=sys.stderr)


@contextlib.contextmanager
def _executor(config: TournamentConfig, jobs: int):
    """A joblib Parallel for the configured backend (executor.py)."""
    with parallel_for(config.backend, config.scheduler, jobs) as parallel:
        yield parallel


def run_tournament(config: TournamentConfig, jobs: int | None = None, progress: bool = True,
                   stop_after: int | None = None) -> Run:
    """Play what is missing, then return the `Run`.

    The output is claimed first (tournament.lock) and held for the call; then
    `play_missing`.  `stop_after` plays at most that many games and returns (for tests of
    resuming).
    """
    with claim_output(config):
        return play_missing(config, jobs, progress, stop_after)


@contextlib.contextmanager
def _closed_quietly(stream):
    """Close joblib's result stream when the loop over it ends, however it ends: left open
    (a watch that has seen enough, Ctrl-C between two results) it would warn of "tasks
    executed but not used" when collected, after the run's last word."""
    try:
        yield stream
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            stream.close()


def _watched_enough(watch, schedule: Schedule, found: dict) -> bool:
    """Hand `watch` the games a rerun found, in schedule order up to the first missing
    one; whether it has seen enough."""
    for task in schedule:
        if task.id not in found:
            return False
        if watch.add(found[task.id]):
            return True
    return False


def play_missing(config: TournamentConfig, jobs: int | None = None, progress: bool = True,
                 stop_after: int | None = None, watch=None) -> Run:
    """`run_tournament` for a caller that holds the output already (tournament.main holds
    it to the last report): the games already in the results file are checked against the
    config (tournament.resume) before any game is played, then the missing ones played
    on `jobs` workers (the config's by default).

    `watch` (a tournament.sequential.SequentialMatch) is handed every finished game in
    schedule order, those of the file first; the run stops when it says so."""
    jobs = jobs or config.jobs
    schedule = build_schedule(config)
    found = results.read_results(config.results_path, {
        games.normalize_game_string(g): games.load_game(g)
        for g in config.games})
    check_resumable(config.results_path, found, schedule)
    timing = results.read_timing(config.timing_path,
                                 {key: len(result.seats) for key, result in found.items()})
    timing = {key: times for key, times in timing.items() if key in found}  # not stale ones
    if progress and found:
        print(f"resuming from {config.results_path}: the {len(found)} games already there "
              f"are not played again", file=sys.stderr)
    total = len(schedule)
    missing = total - len(found)
    if stop_after is not None:
        missing = min(missing, stop_after)
    if watch is not None and _watched_enough(watch, schedule, found):
        missing = 0
    todo = itertools.islice((task for task in schedule if task.id not in found), missing)
    if missing:
        _prepare(schedule, progress)
    bar = Progress(total, already=len(found)) if progress and missing else None
    start = time.perf_counter()
    played = set()
    if missing:
        game_out = results.Appender(config.results_path)
        timing_out = results.Appender(config.timing_path)
        try:
            with _executor(config, jobs) as parallel, signals_noted():
                with workers_deaf_to_ctrl_c():     # loky starts its workers here
                    owner = os.getpid() if config.backend != "dask" else None
                    stream = parallel(delayed(play_task)(task, owner=owner) for task in todo)
                with _closed_quietly(stream):
                    for result, times in stream:
                        game_out.write(result.line())
                        timing_out.write(times.line())
                        found[result.id] = result
                        timing[result.id] = times
                        played.add(result.id)
                        if bar:
                            bar.update(len(found))
                        if watch is not None and watch.add(result):
                            break       # the games not yet reported are dropped
        finally:
            game_out.close()
            timing_out.close()
            close_idle()        # external agents' programs this process kept (jobs = 1)
    if len(found) == total:
        results.rewrite_in_order(config.results_path, (found[t.id].line() for t in schedule))
        results.rewrite_in_order(config.timing_path,
                                 (timing[t.id].line() for t in schedule if t.id in timing))
    return Run(tasks=schedule, results=found, timing=timing, played=played,
               wall_seconds=time.perf_counter() - start)
