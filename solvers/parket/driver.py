"""From a search to a SolveResult: the root's moves come from the engine (so each legal
action is listed under its own id and the game's name for it), each is scored exactly
through the search (codes.py translates), and the principal variation follows moves that
keep the score.

A search is any object with `apply(code)`, `undo()`, `moves()`, `outcome()`, `exact()`,
`scores(score)`, `draw_distance()`, `draws_within(plies)` and `nodes`
(reference.ReferenceSearch, fast.FastSearch).  The position's value comes first (one null
window at the root, usually a small part of the solve), then each move's value before its
length, so a search stopped by a limit still tells every value and length it found
(limits.SolveAborted).  With `workers` above 1 and a search that has `twin()` (a fresh
search of the same position, fast.FastSearch), the root's moves are shared out among
that many searches on as many threads, each a fixed share; the compiled searches release
the GIL, so they run on separate cores.  Each keeps its own table; the nodes reported
are their sum.
"""

from __future__ import annotations

import threading
import time

from koloda.games.parket.actions import decision_to_string
from koloda.solvers.parket.codes import action_of, move_code, terminal_outcome
from koloda.solvers.parket.limits import SolveAborted, partial_moves
from koloda.solvers.parket.problem import Problem
from koloda.solvers.parket.reference import SearchAborted
from koloda.solvers.parket.result import MoveResult, SolveResult, order_key
from koloda.solvers.parket.scores import (
    distance_of, score_of, to_child, to_parent, value_of,
)


def solve_with(search, problem: Problem, started: float, node_limit: int = 0,
               time_limit: float = 0.0, workers: int = 1) -> SolveResult:
    """The solution, or SolveAborted (with the limits named) when the search stops."""
    core = problem.core
    outcome = terminal_outcome(core)
    if outcome is not None:
        return SolveResult(problem.position, outcome, 0, [], [], 1,
                           time.perf_counter() - started)
    actions = core.legal_actions()
    codes = {action: move_code(core, action) for action in actions}
    names = {action: decision_to_string(core.rules, action) for action in actions}
    generated = search.moves()
    if sorted(set(codes.values())) != sorted(generated):
        raise AssertionError(f"the search's moves differ from the engine's at "
                             f"{problem.position}")
    outcomes = {code: (None, None) for code in generated}
    value = None
    helpers = []
    try:
        value = value_of(search.outcome())
        if workers > 1 and len(generated) > 1 and hasattr(search, "twin"):
            helpers = [search.twin() for _ in range(min(workers, len(generated)) - 1)]
        _all_outcomes([search] + helpers, generated, outcomes)
        moves = [MoveResult(names[action], *outcomes[codes[action]], action)
                 for action in actions]
        moves.sort(key=lambda m: (order_key(m.value, m.moves_to_end), m.move))
        best = moves[0]
        pv = _principal_variation(search, core.copy(), best.value, best.moves_to_end)
    except SearchAborted:
        known = [(names[action], *outcomes[codes[action]], action) for action in actions]
        nodes = search.nodes + sum(h.nodes for h in helpers)
        raise SolveAborted(problem.position, partial_moves(known), value, nodes,
                           time.perf_counter() - started, node_limit, time_limit) from None
    return SolveResult(problem.position, best.value, best.moves_to_end, moves, pv,
                       search.nodes + sum(h.nodes for h in helpers),
                       time.perf_counter() - started)


def _all_outcomes(searches: list, codes: list, outcomes: dict) -> None:
    """Every move's outcome (_move_outcome): search i of k takes the moves i, i + k, ...
    (a fixed share, so the nodes counted are the same on every run); the first stop
    (SearchAborted) is raised once all have stopped."""
    if len(searches) == 1:
        for code in codes:
            _move_outcome(searches[0], code, outcomes)
        return
    stops = []

    def work(search, share):
        try:
            for code in share:
                if stops:
                    return
                _move_outcome(search, code, outcomes)
        except SearchAborted as stop:
            stops.append(stop)

    k = len(searches)
    threads = [threading.Thread(target=work, args=(s, codes[i::k]), daemon=True)
               for i, s in enumerate(searches) if i]
    for thread in threads:
        thread.start()
    work(searches[0], codes[0::k])
    for thread in threads:
        thread.join()
    if stops:
        raise stops[0]


def _move_outcome(search, code: int, outcomes: dict) -> None:
    """Enters (value for the mover, plies to the end) of playing `code` now in
    `outcomes`, the value as soon as it is known.  After a stop the search is left as
    it was, since it is not used again."""
    search.apply(code)
    value = value_of(-search.outcome())
    outcomes[code] = (value, None)
    score = to_parent(search.exact())
    length = search.draw_distance() + 1 if score == 0 else distance_of(score)
    search.undo()
    outcomes[code] = (value_of(score), length)


def _principal_variation(search, core, value: str, length: int) -> list[str]:
    """A line of best play: at each step a move that keeps the value and length the
    position has, until the end.  A move is tested, not solved: its child must score
    exactly what is needed (a window around that one score), and for a draw also end
    in a draw within the plies left."""
    line = []
    depth = 0
    while length > 0:
        needed = to_child(score_of(value, length))
        for code in search.moves():
            search.apply(code)
            keeps = search.scores(needed) and (
                needed != 0 or search.draws_within(length - 1))
            search.undo()
            if keeps:
                break
        else:
            raise AssertionError("no move keeps the solved value")
        action = action_of(core, code)
        line.append(decision_to_string(core.rules, action))
        core.apply(action)
        search.apply(code)
        depth += 1
        value = {"win": "loss", "loss": "win", "draw": "draw"}[value]
        length -= 1
    for _ in range(depth):
        search.undo()
    if terminal_outcome(core) is None:
        raise AssertionError("the principal variation stops before the end")
    return line
