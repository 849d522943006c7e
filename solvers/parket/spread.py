"""One solve spread over many workers (a Dask cluster, as tournaments and endgames use):
the position's moves (`depth` 1), or its moves and their replies (`depth` 2), are the work
units, each a sub-position valued alone by two null-window tests of its own
(position_value) on whichever worker takes it; every root move's value is then put
together from theirs by minimax, and the position's value is the best of them.

The units share no table and prune nothing among themselves, so a spread solve does more
work in all than one on a machine: it pays where the workers are many (depth 2 makes some
hundreds of units).  The values are solve's, whatever the workers (tests check it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from joblib import delayed

from koloda.games.parket.actions import decision_to_string
from koloda.games.parket.rules import CORNER_ORDERS
from koloda.solvers.parket.codes import search_args, terminal_outcome
from koloda.solvers.parket.limits import check_limits
from koloda.solvers.parket.problem import read_problem, state_problem
from koloda.solvers.parket.reference import SearchAborted
from koloda.solvers.parket.result import OPPONENTS, MoveResult, SolveResult, order_key


@dataclass(frozen=True)
class Unit:
    """A sub-position as text and rules, so that any worker can read it: the root's
    actions that lead to it (`path`)."""

    path: tuple
    position: str
    corner_order: str
    max_relocations: int


def position_value(unit: Unit, time_limit: float = 0.0) -> tuple:
    """(the unit's value for its side to move, or None when `time_limit` ran out first;
    nodes): a win when its score is not at most 0, else a loss when it is at most -1."""
    from koloda.solvers.parket.fast import FastSearch
    core = read_problem(unit.position, unit.corner_order, unit.max_relocations).core
    outcome = terminal_outcome(core)
    if outcome is not None:
        return outcome, 1
    deadline = time.perf_counter() + time_limit if time_limit > 0 else 0.0
    search = FastSearch(*search_args(core), deadline=deadline)
    try:
        if not search.at_most(0):
            value = "win"
        else:
            value = "loss" if search.at_most(-1) else "draw"
    except SearchAborted:
        value = None
    return value, search.nodes


def units_of(core, depth: int) -> list[Unit]:
    """The sub-positions `depth` plies below `core` (a finished one stops early)."""
    rules = core.rules
    order, cap = CORNER_ORDERS[rules.corner_order], rules.max_relocations
    units = []

    def walk(node, path):
        if len(path) == depth or terminal_outcome(node) is not None:
            units.append(Unit(path, node.position(), order, cap))
            return
        for action in node.legal_actions():
            child = node.copy()
            child.apply(action)
            walk(child, path + (action,))
    walk(core, ())
    return [u for u in units if u.path]


def solve_spread(state, parallel, depth: int = 2, time_limit: float = 0.0) -> SolveResult:
    """The position's value and every move's (lengths None, no line) with the units run
    by `parallel` (a joblib Parallel, tournament/executor.py); a move whose units did not
    all finish within `time_limit` seconds each is None, unless a reply known to win for
    the opponent already decides it."""
    if depth not in (1, 2):
        raise ValueError(f"depth is 1 or 2, not {depth!r}")
    check_limits(0, time_limit)
    started = time.perf_counter()
    problem = state_problem(state)
    core = problem.core
    outcome = terminal_outcome(core)
    if outcome is not None:
        return SolveResult(problem.position, outcome, 0, [], [], 1, 0.0, lengths=False)
    units = units_of(core, depth)
    found = dict(zip((u.path for u in units),
                     parallel(delayed(position_value)(u, time_limit) for u in units)))
    nodes = sum(n for _, n in found.values())
    moves = []
    for action in core.legal_actions():
        child_value = _value_below(found, (action,))
        moves.append(MoveResult(decision_to_string(core.rules, action), OPPONENTS[child_value],
                                None, action))
    known = [m for m in moves if m.value is not None]
    moves.sort(key=lambda m: (m.value is None, order_key(m.value or "loss", None), m.move))
    value = moves[0].value if len(known) == len(moves) or moves[0].value == "win" else None
    return SolveResult(problem.position, value, None, moves, [], nodes,
                       time.perf_counter() - started, lengths=False)


def _value_below(found: dict, path: tuple) -> str | None:
    """The value for the side to move at the node `path` leads to: a unit's own, or the
    best over its replies' units (None while one of them is unknown and none wins)."""
    if path in found:
        return found[path][0]
    replies = [OPPONENTS[value] for reply, (value, _) in found.items()
               if reply[:len(path)] == path and len(reply) == len(path) + 1]
    if "win" in replies:
        return "win"
    if None in replies:
        return None
    return "draw" if "draw" in replies else "loss"
