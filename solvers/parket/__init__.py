"""Exact solving of Parket positions: the value for the side to move, every legal move's
value and a principal variation, and on request (`lengths`) the plies to the end under
best play of the position and of every move.

    from koloda.solvers.parket import solve, solve_state, random_position
    result = solve(random_position(empty=10, seed=1))
    result.value, result.moves[0].value, result.pv       # values: win, draw or loss
    solve(position, lengths=True).moves_to_end           # and plies to the end
    solve_state(state).moves[0].action       # a state of parket, under its own rules

`solve_state` takes an engine position (a state of `parket` or its ParketCore) and is what
every solve runs; `solve` reads a position text with the game's reader and hands the
engine it gives to the same path.  `method` picks the solver: "fast" (compiled),
"reference" (pure Python, same algorithm) or "minimax" (plain minimax on the game engine,
the test oracle).  `node_limit` stops an unfinished solve with SolveAborted, and so does
`time_limit`, so an agent can bound its thinking; SolveAborted names the limit and keeps
the moves solved by then.  A median position of REACH (16) empty cells is solved in
under a second; `max_relocations` goes up to MAX_RELOCATIONS (19), the largest cap a
one-empty-cell position is solved at within a second (limits.py).
"""

from __future__ import annotations

import os
import time

from koloda.games.errors import GameParameterError
from koloda.games.kit.params import shown
from koloda.games.parket.board import EMPTY
from koloda.solvers.parket.codes import search_args
from koloda.solvers.parket.limits import (
    MAX_RELOCATIONS,
    REACH,
    SolveAborted,
    check_limits,
)
from koloda.solvers.parket.minimax import solve_minimax
from koloda.solvers.parket.positions import random_position
from koloda.solvers.parket.problem import Problem, check_method, read_problem, state_problem
from koloda.solvers.parket.reference import ReferenceSearch
from koloda.solvers.parket.result import MoveResult, SolveResult, without_lengths
from koloda.solvers.parket.store import Store, StoreError, open_store

WORKERS = 2                  # searches of one solve at most, one per core (see _workers)
PARALLEL_FROM = 10           # empty cells from which a solve uses them


def solve(position: str, corner_order: str = "path", max_relocations: int = 4,
          method: str = "fast", node_limit: int = 0, time_limit: float = 0.0,
          lengths: bool = False, store=None) -> SolveResult:
    """The exact solution of `position` (the notation of docs/rules/parket.md), read by
    the game into an engine position and solved as solve_state solves one.
    PositionError (a GameParameterError) for a position that cannot be read or occur,
    GameParameterError for a bad parameter or limit.  With `node_limit` or `time_limit`
    (seconds) set, SolveAborted when the search has not finished within them (minimax
    takes neither).  With `lengths`, also the plies to the end of the position and of
    every move (SolveResult says what they count); they cost several times the values
    (reports/parket-endgames.md).  `store`, a file's path or a Store (store.py), is a
    store of solved positions that the solve reads and then extends with what it proved
    (also when it stops at a limit); StoreError when the file is not a store."""
    started = time.perf_counter()
    check_limits(node_limit, time_limit)
    check_method(method)
    return _solve(read_problem(position, corner_order, max_relocations), method,
                  node_limit, time_limit, started, lengths, store)


def solve_state(state, method: str = "fast", node_limit: int = 0,
                time_limit: float = 0.0, lengths: bool = False, store=None) -> SolveResult:
    """The exact solution of `state`, a state of parket or its ParketCore, under its own
    rules (corner order, relocation cap); the state is not changed.  The result is
    solve's for the same position, named by `state.position()`; each move's `action` is
    its action id in `state`.  ArgumentError for anything but a parket state, otherwise
    the errors of solve."""
    started = time.perf_counter()
    check_limits(node_limit, time_limit)
    check_method(method)
    return _solve(state_problem(state), method, node_limit, time_limit, started, lengths,
                  store)


def _solve(problem: Problem, method: str, node_limit: int, time_limit: float,
           started: float, lengths: bool, store=None) -> SolveResult:
    if not isinstance(lengths, bool):
        raise GameParameterError(f"lengths is True or False, not {shown(lengths, 40)}")
    store = open_store(store)
    if store is not None and method != "fast":
        raise GameParameterError(f"a store of solved positions is read by the fast "
                                 f"method, not {method}")
    if method == "minimax":
        return solve_minimax(problem) if lengths else without_lengths(solve_minimax(problem))
    from koloda.solvers.parket.driver import solve_with
    deadline = started + time_limit if time_limit > 0 else 0.0
    search = _search(problem.core, method, node_limit, deadline, store)
    try:
        return solve_with(search, problem, started, node_limit, time_limit,
                          _workers(problem, method, node_limit), lengths)
    finally:
        if store is not None:
            search.tables.save_to_store()


def warm_up() -> None:
    """Compiles (or loads from numba's cache) every kernel of the fast solver, so that
    no timed solve counts it: seconds on an empty cache.  A drawn 3-cell position (seed
    0) solved with lengths runs the searches, MTD(f) and a draw's length."""
    solve(random_position(3, 0), lengths=True)


def _workers(problem: Problem, method: str, node_limit: int) -> int:
    """Searches for one solve: two cores when there are (the compiled solver only, and
    without a node limit, which counts one search's nodes), for positions of
    PARALLEL_FROM empty cells or more; smaller ones take milliseconds on one core, and
    their node counts are then the same on every run."""
    if method != "fast" or node_limit or \
            problem.core.board.count(EMPTY) < PARALLEL_FROM:
        return 1
    return min(WORKERS, os.cpu_count() or 1)


def _search(core, method: str, node_limit: int = 0, deadline: float = 0.0, store=None):
    if method == "reference":
        return ReferenceSearch(*search_args(core), node_limit=node_limit, deadline=deadline)
    from koloda.solvers.parket.fast import FastSearch, Tables
    tables = Tables.for_empty(core.board.count(EMPTY), store)
    return FastSearch(*search_args(core), node_limit=node_limit, deadline=deadline,
                      tables=tables)


__all__ = ["MAX_RELOCATIONS", "REACH", "MoveResult", "SolveAborted", "SolveResult", "Store",
           "StoreError", "random_position", "solve", "solve_state", "warm_up"]
