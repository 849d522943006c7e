"""`koloda parket solve` and `koloda parket endgames`: the exact solver from the command line.

`solve` prints a position's board, its value for the side to move, every move's value, and
a line that keeps the value (or all of it as one JSON object); with `--lengths` also the
plies to the end of the position and of every move, and the line is the fastest win (the
slowest loss, the shortest draw).  Values alone cost a fraction of lengths, draws' lengths
above all (reports/parket-endgames.md).  A solve stops at
`--seconds` with what it has proved by then, and one beyond the solver's reach says so on
stderr before it starts, so a long solve is not mistaken for a hung one.  `endgames` draws
positions from random games at a number of empty cells, solves them in parallel and
summarises what the side to move can force: the tables of reports/parket-endgames.md.
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from joblib import delayed
from tabulate import tabulate

from koloda.games.parket.board import COLUMN_CHARS, COLUMNS, EMPTY
from koloda.games.parket.observer import position_view
from koloda.tournament.executor import parallel_for, workers_deaf_to_ctrl_c
from koloda.tournament.progress import Progress


def board_lines(position: str) -> list[str]:
    """The board of a position string as a labelled grid, row 1 at the top."""
    view = position_view(position)
    lines = ["    " + "  ".join(f"{c:>2}" for c in COLUMN_CHARS[:COLUMNS])]
    for number, row in enumerate(view["board"], start=1):
        lines.append(f"{number:>2}  " + "  ".join(" ." if c is None else c for c in row))
    lines.append(f"{view['side']} to move, "
                 f"{'main phase' if view['phase'] == 'main' else 'cross'}, "
                 f"{view['relocations']} relocation(s) in a row")
    return lines


def run_solve(position: str, corner_order: str, max_relocations: int, seconds: float,
              as_json: bool, progress=None, lengths: bool = False,
              store: str | None = None) -> str:
    """What `koloda parket solve` prints: the solution, or what the solve had proved
    when `seconds` ran out.  A position is read before anything is said about it; the
    kernels are compiled (or loaded) before the solve, so `seconds` count the search
    alone, also on an empty numba cache."""
    from koloda.solvers.parket import REACH, SolveAborted, solve, warm_up
    from koloda.solvers.parket.problem import read_problem
    empty = read_problem(position, corner_order, max_relocations).core.board.count(EMPTY)
    if empty > REACH:
        print(f"solving: {empty} empty cells, beyond the {REACH} this solves in seconds; "
              f"stops at --seconds {seconds:g}", file=progress or sys.stderr, flush=True)
    warm_up()
    try:
        result = solve(position, corner_order=corner_order,
                       max_relocations=max_relocations, time_limit=seconds, lengths=lengths,
                       store=store)
    except SolveAborted as stop:
        return json.dumps(stop.to_json()) if as_json else format_stopped(stop, seconds)
    return solution_json(result) if as_json else format_solution(result)


def run_spread(position: str, corner_order: str, max_relocations: int, seconds: float,
               as_json: bool, scheduler: str, split: int, jobs: int) -> str:
    """What `koloda parket solve --scheduler` prints: values from a solve spread over a
    Dask cluster (solvers/parket/spread.py), each unit within `seconds`."""
    from koloda.solvers.parket.problem import read_problem
    from koloda.solvers.parket.spread import solve_spread
    problem = read_problem(position, corner_order, max_relocations)
    with parallel_for("dask", scheduler, jobs) as parallel:
        result = solve_spread(problem.core, parallel, split, seconds)
    if as_json:
        return json.dumps({**result.to_json(), "finished": result.value is not None,
                           "spread": split})
    out = board_lines(result.position)
    out.append("")
    out.append(f"value: {_known(result.value)} for the side to move")
    out.append("")
    out.append(_move_table(result.moves, lengths=False))
    out.append("")
    out.append(f"spread over units {split} plies down, each within --seconds {seconds:g}; "
               f"{result.nodes:,} nodes in {result.seconds:.2f} s")
    return "\n".join(out)


def format_solution(result) -> str:
    """The text `koloda parket solve` prints."""
    out = board_lines(result.position)
    out.append("")
    if result.lengths:
        out.append(f"value: {result.value} in {result.moves_to_end} move(s) for the side "
                   f"to move")
    else:
        out.append(f"value: {result.value} for the side to move")
    out.append("")
    out.append(_move_table(result.moves, result.lengths))
    out.append("")
    line = "principal variation" if result.lengths else "a line that keeps the value"
    out.append(f"{line}: " + (", ".join(result.pv) or "(none: the game is over)"))
    out.append(f"{result.nodes:,} nodes in {result.seconds:.2f} s")
    return "\n".join(out)


def format_stopped(stop, seconds: float) -> str:
    """The text of a solve stopped at `--seconds`: what is proved, `?` for the rest."""
    out = board_lines(stop.position)
    out.append("")
    out.append(f"stopped at --seconds {seconds:g} after {stop.nodes:,} nodes in "
               f"{stop.seconds:.2f} s: {len(stop.solved)} of {len(stop.moves)} moves have "
               f"a known value")
    out.append("value: " + stopped_value(stop))
    out.append("")
    out.append(_move_table(stop.moves, any(m.moves_to_end is not None for m in stop.moves)))
    out.append("")
    out.append("principal variation: (not found before the stop)")
    return "\n".join(out)


def stopped_value(stop) -> str:
    """The position's value as far as the search proved it, and no further: a known
    move of that value bounds its length (the fastest win and the shortest draw are no
    longer, the slowest loss no shorter)."""
    mover = "for the side to move"
    if stop.moves_to_end is not None:
        return f"{stop.value} in {stop.moves_to_end} move(s) {mover}"
    if stop.value is None:
        return (f"at least a draw {mover}; whether it wins is not yet known"
                if stop.at_least == "draw" else "not yet known")
    lengths = [m.moves_to_end for m in stop.moves
               if m.value == stop.value and m.moves_to_end is not None]
    if not lengths:
        return f"{stop.value} {mover}, in a number of moves not yet known"
    if stop.value == "loss":
        return f"loss {mover}, in {max(lengths)} move(s) or more"
    return f"{stop.value} {mover}, in {min(lengths)} move(s) or fewer"


def _move_table(moves, lengths: bool = True) -> str:
    if not lengths:
        return tabulate([[m.move, _known(m.value)] for m in moves],
                        headers=["move", "value (mover)"], tablefmt="simple")
    rows = [[m.move, _known(m.value), _known(m.moves_to_end)] for m in moves]
    return tabulate(rows, headers=["move", "value (mover)", "moves to end"],
                    tablefmt="simple")


def _known(field):
    return "?" if field is None else field


def solution_json(result) -> str:
    return json.dumps({**result.to_json(), "finished": True})


# --- endgames -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Endgame:
    """One position solved, or stopped at the time limit (`value` None).  `moves_to_end`
    and `relocations_in_pv` (relocations in the fastest line) are None unless solved with
    lengths.  `seconds` is wall time, `cpu_seconds` the processor time of both cores."""

    position: str
    value: str | None
    moves_to_end: int | None
    relocations_in_pv: int | None
    nodes: int
    seconds: float
    cpu_seconds: float = 0.0
    table_probes: int = 0
    table_hits: int = 0


def _solve_one(position: str, corner_order: str, max_relocations: int, lengths: bool,
               seconds: float, store: str | None = None) -> Endgame:
    import time

    from koloda.solvers.parket import SolveAborted, solve, warm_up
    warm_up()                    # a position's seconds never count compiling the kernels
    cpu = time.process_time()
    try:
        result = solve(position, corner_order=corner_order, max_relocations=max_relocations,
                       lengths=lengths, time_limit=seconds, store=store)
    except SolveAborted as stop:
        return Endgame(position, None, None, None, stop.nodes, stop.seconds,
                       time.process_time() - cpu)
    relocations = sum(move.startswith("move ") for move in result.pv) if lengths else None
    return Endgame(position, result.value, result.moves_to_end, relocations, result.nodes,
                   result.seconds, time.process_time() - cpu,
                   result.stats.get("table_probes", 0), result.stats.get("table_hits", 0))


def solve_endgames(empty: int, count: int, seed: int, jobs: int = 1,
                   corner_order: str = "path", max_relocations: int = 4,
                   progress: bool = True, lengths: bool = False,
                   seconds: float = 0.0, scheduler: str | None = None,
                   store: str | None = None) -> list[Endgame]:
    """`count` positions from random games with `empty` empty cells, solved, each
    stopped after `seconds` (0: never), in the order drawn.  Each solve uses both cores
    of its machine, so `jobs` above 1 only pays for many small positions; a Dask
    `scheduler` ("local", or "tcp://host:port") spreads the positions over its workers,
    as tournaments do (tournament/executor.py), with the same results.  `store` names a
    store of solved positions (solvers/parket/store.py) that every solve reads and
    extends; it is checked here, before the first solve."""
    from koloda.solvers.parket import random_position
    positions = [random_position(empty, seed + i, corner_order=corner_order)
                 for i in range(count)]
    bar = Progress(count, label="positions") if progress else None
    solved = []
    if store is not None:
        from koloda.solvers.parket.store import Store
        Store(store)                              # StoreError before any work
    tasks = (delayed(_solve_one)(p, corner_order, max_relocations, lengths, seconds, store)
             for p in positions)
    with parallel_for("dask" if scheduler else "loky", scheduler, jobs) as parallel:
        with workers_deaf_to_ctrl_c():
            stream = parallel(tasks)
        for endgame in stream:
            solved.append(endgame)
            if bar:
                bar.update(len(solved))
    return solved


def _median(values):
    """The median, None when the stopped positions (None) reach it: it is then only
    known to be above the limit."""
    ordered = sorted(values, key=lambda v: (v is None, v or 0))
    middle = ordered[(len(ordered) - 1) // 2], ordered[len(ordered) // 2]
    return None if None in middle else (middle[0] + middle[1]) / 2


def endgame_summary(empty: int, solved: list[Endgame], seconds: float = 0.0) -> dict:
    """Shares of each value, the medians and the most of the work, over the positions
    solved; the medians of time count a stopped position as above `seconds`."""
    n = len(solved)
    done = [e for e in solved if e.value is not None]
    lengths = bool(done) and done[0].moves_to_end is not None
    decided_by_relocation = (sum(e.value != "draw" and e.relocations_in_pv > 0 for e in done)
                             if lengths else None)
    return {
        "empty": empty, "positions": n, "stopped": n - len(done), "limit_seconds": seconds,
        "lengths": lengths,
        "win": sum(e.value == "win" for e in solved) / n,
        "draw": sum(e.value == "draw" for e in solved) / n,
        "loss": sum(e.value == "loss" for e in solved) / n,
        "relocation_in_pv": None if decided_by_relocation is None
        else decided_by_relocation / max(1, len(done)),
        "moves_to_end_median": statistics.median(e.moves_to_end for e in done)
        if lengths else None,
        "nodes_median": _median([e.nodes if e.value else None for e in solved]),
        "seconds_median": _median([e.seconds if e.value else None for e in solved]),
        "cpu_seconds_median": _median([e.cpu_seconds if e.value else None for e in solved]),
        "seconds_max": max(e.seconds for e in solved),
        # per core: the solved positions' nodes over their processor time
        "nodes_per_cpu_second": sum(e.nodes for e in done) / max(
            1e-9, sum(e.cpu_seconds for e in done)) if done else None,
        "table_hit_rate": sum(e.table_hits for e in done) / max(
            1, sum(e.table_probes for e in done)) if done else None,
    }


def format_endgames(summary: dict) -> str:
    s = summary
    above = f"> {s['limit_seconds']:g}"

    def share(key):
        return "" if s[key] is None else f"{100 * s[key]:.0f}%"

    def timed(key):
        return above if s[key] is None else f"{s[key]:.2f}"

    rows = [[s["empty"], s["positions"], s["stopped"], share("win"), share("draw"),
             share("loss"), share("relocation_in_pv"),
             "" if s["moves_to_end_median"] is None else s["moves_to_end_median"],
             "" if s["nodes_median"] is None else f"{s['nodes_median']:,.0f}",
             timed("cpu_seconds_median"), timed("seconds_median"),
             f"{s['seconds_max']:.2f}",
             "" if s["nodes_per_cpu_second"] is None else f"{s['nodes_per_cpu_second']:,.0f}",
             "" if s["table_hit_rate"] is None else f"{100 * s['table_hit_rate']:.1f}%"]]
    return tabulate(rows, headers=["empty", "positions", "stopped", "win", "draw", "loss",
                                   "won/lost via a relocation", "moves to end (median)",
                                   "nodes (median)", "cpu s (median)", "s (median)",
                                   "s (max)", "nodes/s a core", "table hits"],
                    tablefmt="pipe", disable_numparse=True)


def write_endgames(summary: dict, solved: list[Endgame], output: Path) -> list[Path]:
    """The summary (markdown) and every position's solution (CSV) under `output`, named
    `parket-endgames-empty-N`, or `parket-endgames-lengths-empty-N` with lengths."""
    output.mkdir(parents=True, exist_ok=True)
    kind = "-lengths" if summary["lengths"] else ""
    stem = output / f"parket-endgames{kind}-empty-{summary['empty']}"
    table = stem.with_suffix(".md")
    table.write_text(f"# Parket endgames, {summary['empty']} empty cells\n\n"
                     f"Value for the side to move under best play; seconds are wall "
                     f"time and cpu seconds the processor time of both cores.\n\n"
                     f"{format_endgames(summary)}\n")
    rows = stem.with_suffix(".csv")
    with rows.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["position", "value", "moves_to_end", "relocations_in_pv", "nodes",
                         "seconds", "cpu_seconds", "table_probes", "table_hits"])
        for e in solved:
            writer.writerow([e.position, e.value or "stopped", _blank(e.moves_to_end),
                             _blank(e.relocations_in_pv), e.nodes, f"{e.seconds:.4f}",
                             f"{e.cpu_seconds:.4f}", e.table_probes, e.table_hits])
    return [table, rows]


def _blank(field):
    return "" if field is None else field
