"""Solver speed: the compiled Parket solver against the plain minimax (small endgames)
and against the pure-Python reference solver (bigger ones), on the same positions in one
run.  Nodes are each solver's own count; the speed-up is the ratio of total times.
The minimax grows with the relocations allowed in a row far faster than with the empty
cells (one 4-cell endgame takes it minutes at the default cap of 4), so its comparison
runs at `minimax_relocations` (3 unless asked); the reference comparison at the game's
default of 4.  Both compare solves with lengths (the minimax finds them on its way).  The
compiled solver's rows also give its transposition table's hit rate (hits per probe);
then solve's default, values alone, on one core and on two, on positions of
`values_empty` cells (14), where the second core has work to share.  The last rows
measure the store of solved positions (solvers/parket/store.py), on two cores: the same
positions solved into a new store, then again from it (a second analysis), and the
positions after each one's first move (the same opening), without the store and with it.

    python -m koloda.bench.solver
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tabulate import tabulate

from koloda.solvers.parket import random_position, solve, warm_up


@dataclass
class SolverFigures:
    method: str
    empty: int
    max_relocations: int
    positions: int
    nodes: int
    seconds: float            # wall time, summed over the positions
    cpu_seconds: float        # this process's CPU time (other work may share the cores)
    baseline: str = ""        # the method the speed-up is measured against
    speed_up: float = 0.0
    lengths: bool = True
    table_probes: int = 0     # the compiled solver's transposition table (0: not counted)
    table_hits: int = 0
    store_hits: int = -1      # entries read from the store (-1: no store)

    @property
    def hit_rate(self) -> float:
        return self.table_hits / self.table_probes if self.table_probes else 0.0

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


TWO_CORES = "fast, 2 cores"


def _run(method: str, positions: list[str], empty: int, max_relocations: int,
         lengths: bool = True, store=None):
    nodes, wall, cpu, probes, hits, store_hits = 0, 0.0, 0.0, 0, 0, 0
    for position in positions:
        started, cpu_started = time.perf_counter(), time.process_time()
        if method in ("fast", TWO_CORES) or store is not None:   # counted
            result = _solve_counted(position, max_relocations, started, lengths,
                                    1 if method == "fast" else 2, store)
            probes += result.stats["table_probes"]
            hits += result.stats["table_hits"]
            store_hits += result.stats["store_hits"]
        else:
            result = solve(position, max_relocations=max_relocations, method=method,
                           lengths=lengths)
        nodes += result.nodes
        wall += time.perf_counter() - started
        cpu += time.process_time() - cpu_started
    return SolverFigures(method, empty, max_relocations, len(positions), nodes, wall, cpu,
                         table_probes=probes, table_hits=hits, lengths=lengths,
                         store_hits=store_hits if store is not None else -1)


def _solve_counted(position: str, max_relocations: int, started: float, lengths: bool,
                   workers: int, store=None):
    """solve's result for the compiled solver on `workers` cores (its `stats` hold the
    searches' counters); with a store, read from it and written to it as solve does."""
    from koloda.solvers.parket.codes import search_args
    from koloda.solvers.parket.driver import solve_with
    from koloda.solvers.parket.fast import FastSearch, Tables
    from koloda.solvers.parket.problem import read_problem
    problem = read_problem(position, "path", max_relocations)
    tables = Tables.for_empty(problem.core.board.count(-1), store)
    search = FastSearch(*search_args(problem.core), tables=tables)
    result = solve_with(search, problem, started, workers=workers, lengths=lengths)
    tables.save_to_store()
    return result


def _next_positions(positions: list[str], max_relocations: int) -> list[str]:
    """The position after each position's first legal move, where the game goes on."""
    from koloda.solvers.parket.problem import read_problem
    after = []
    for position in positions:
        core = read_problem(position, "path", max_relocations).core.copy()
        core.apply(core.legal_actions()[0])
        if not core.is_terminal():
            after.append(core.position())
    return after


def _store_rows(chosen: list[str], empty: int, max_relocations: int) -> list[SolverFigures]:
    """A new store filled by the positions, read by the same again and by the positions a
    move later (against the same without a store)."""
    import tempfile
    from pathlib import Path

    from koloda.solvers.parket.store import Store
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.kps")
        first = _run("store, first solve", chosen, empty, max_relocations, False, store)
        again = _run("store, same positions", chosen, empty, max_relocations, False, store)
        again.baseline, again.speed_up = "first solve", first.seconds / again.seconds
        after = _next_positions(chosen, max_relocations)
        plain = _run(TWO_CORES, after, empty - 1, max_relocations, lengths=False)
        plain.method = "fast, 2 cores, a move later"
        read = _run("store, a move later", after, empty - 1, max_relocations, False, store)
        read.baseline, read.speed_up = "no store", plain.seconds / read.seconds
    return [first, again, plain, read]


def run_solver_bench(minimax_empty: int = 4, reference_empty: int = 8, positions: int = 10,
                     seed: int = 0, minimax_relocations: int = 3,
                     max_relocations: int = 4, values_empty: int = 14) -> list[SolverFigures]:
    """(minimax, fast) on `positions` random positions with `minimax_empty` empty cells,
    then (reference, fast) on as many with `reference_empty`, both with lengths; then
    values alone on one core and on two, on as many with `values_empty`."""
    warm_up()
    figures = []
    for baseline, empty, cap in (("minimax", minimax_empty, minimax_relocations),
                                 ("reference", reference_empty, max_relocations)):
        chosen = [random_position(empty, seed + i) for i in range(positions)]
        slow = _run(baseline, chosen, empty, cap)
        fast = _run("fast", chosen, empty, cap)
        fast.baseline, fast.speed_up = baseline, slow.seconds / fast.seconds
        figures += [slow, fast]
    chosen = [random_position(values_empty, seed + i) for i in range(positions)]
    one = _run("fast", chosen, values_empty, max_relocations, lengths=False)
    both = _run(TWO_CORES, chosen, values_empty, max_relocations, lengths=False)
    both.baseline, both.speed_up = "fast", one.seconds / both.seconds
    return figures + [one, both] + _store_rows(chosen, values_empty, max_relocations)


def format_solver_bench(figures: list[SolverFigures]) -> str:
    rows = [[f.method, "yes" if f.lengths else "no", f.empty, f.max_relocations,
             f.positions, f"{f.nodes:,}",
             f"{f.nodes_per_s:,.0f}", f"{f.seconds:.2f}", f"{f.cpu_seconds:.2f}",
             f"{100 * f.hit_rate:.1f}%" if f.table_probes else "",
             f"{f.store_hits:,}" if f.store_hits >= 0 else "",
             f"{f.speed_up:.1f}x vs {f.baseline}" if f.baseline else ""] for f in figures]
    return tabulate(rows, headers=["method", "lengths", "empty cells", "cap", "positions",
                                   "nodes", "nodes/s",
                                   "total s", "cpu s", "table hits", "store hits",
                                   "speed-up"],
                    tablefmt="simple", disable_numparse=True)


def main(argv=None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minimax-empty", type=int, default=4)
    parser.add_argument("--reference-empty", type=int, default=8)
    parser.add_argument("--minimax-relocations", type=int, default=3)
    parser.add_argument("--values-empty", type=int, default=14)
    args = parser.parse_args(argv)
    print(format_solver_bench(run_solver_bench(
        args.minimax_empty, args.reference_empty, args.positions, args.seed,
        args.minimax_relocations, values_empty=args.values_empty)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
