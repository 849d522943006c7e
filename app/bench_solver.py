"""Solver speed: the compiled Parket solver against the plain minimax (small endgames)
and against the pure-Python reference solver (bigger ones), on the same positions in one
run.  Nodes are each solver's own count; the speed-up is the ratio of total times.

    python -m koloda.bench_solver
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tabulate import tabulate

from koloda.solvers.parket import random_position, solve


@dataclass
class SolverFigures:
    method: str
    empty: int
    positions: int
    nodes: int
    seconds: float            # wall time, summed over the positions
    cpu_seconds: float        # this process's CPU time (other work may share the cores)
    baseline: str = ""        # the method the speed-up is measured against
    speed_up: float = 0.0

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


def _run(method: str, positions: list[str], empty: int, max_relocations: int):
    nodes, wall, cpu = 0, 0.0, 0.0
    for position in positions:
        started, cpu_started = time.perf_counter(), time.process_time()
        nodes += solve(position, max_relocations=max_relocations, method=method).nodes
        wall += time.perf_counter() - started
        cpu += time.process_time() - cpu_started
    return SolverFigures(method, empty, len(positions), nodes, wall, cpu)


def run_solver_bench(minimax_empty: int = 4, reference_empty: int = 8, positions: int = 10,
                     seed: int = 0, max_relocations: int = 4) -> list[SolverFigures]:
    """(minimax, fast) on `positions` random positions with `minimax_empty` empty cells,
    then (reference, fast) on as many with `reference_empty`."""
    solve(random_position(3, seed))               # compile (or load) the kernel first
    figures = []
    for baseline, empty in (("minimax", minimax_empty), ("reference", reference_empty)):
        chosen = [random_position(empty, seed + i) for i in range(positions)]
        slow = _run(baseline, chosen, empty, max_relocations)
        fast = _run("fast", chosen, empty, max_relocations)
        fast.baseline, fast.speed_up = baseline, slow.seconds / fast.seconds
        figures += [slow, fast]
    return figures


def format_solver_bench(figures: list[SolverFigures]) -> str:
    rows = [[f.method, f.empty, f.positions, f"{f.nodes:,}", f"{f.nodes_per_s:,.0f}",
             f"{f.seconds:.2f}", f"{f.cpu_seconds:.2f}",
             f"{f.speed_up:.1f}x vs {f.baseline}" if f.baseline else ""] for f in figures]
    return tabulate(rows, headers=["method", "empty cells", "positions", "nodes", "nodes/s",
                                   "total s", "cpu s", "speed-up"],
                    tablefmt="simple", disable_numparse=True)


def main() -> int:
    print(format_solver_bench(run_solver_bench()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
