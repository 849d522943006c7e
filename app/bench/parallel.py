"""Parallel speed of a tournament: the same config run with one job, with `jobs` loky
processes and on a local Dask cluster of `jobs` workers, each into a fresh folder."""

import dataclasses
import tempfile
import time

from tabulate import tabulate

from koloda.tournament.runner import run_tournament


def run_parallel_bench(config, jobs: int = 2, dask: bool = True) -> list[tuple[str, float]]:
    """[(setting, wall seconds)], the one-job run first."""
    settings = [("jobs=1 (in process)", dict(jobs=1)),
                (f"jobs={jobs} (loky)", dict(jobs=jobs))]
    if dask:
        settings.append((f"dask LocalCluster, {jobs} workers",
                         dict(jobs=jobs, backend="dask", scheduler="local")))
    timings = []
    for label, changes in settings:
        with tempfile.TemporaryDirectory() as folder:
            variant = dataclasses.replace(config, output=folder, **changes)
            start = time.perf_counter()
            run_tournament(variant, progress=False)
            timings.append((label, time.perf_counter() - start))
    return timings


def format_parallel_bench(timings) -> str:
    base = timings[0][1]
    rows = [[label, f"{seconds:.1f}", f"{seconds / base:.2f}"] for label, seconds in timings]
    return tabulate(rows, headers=["run", "wall s", "ratio to jobs=1"], tablefmt="simple")
