"""The plain minimax on the game's own engine: every line to the end, no pruning, no
table.  Slow by design; it is the oracle the other solvers are tested against.

A node's value and length: a finished game is a loss in 0 for the side to move (or a draw
in 0 at the relocation cap); otherwise the best child value for the mover, and among the
moves of that value the fastest win, the slowest loss, or the shortest draw, plus one.
"""

from __future__ import annotations

import time

from koloda.games.parket.actions import decision_to_string
from koloda.solvers.parket.codes import terminal_outcome
from koloda.solvers.parket.problem import Problem
from koloda.solvers.parket.result import OPPONENTS, MoveResult, SolveResult, order_key


class _Counter:
    nodes = 0


def evaluate(core, counter: _Counter | None = None) -> tuple[str, int]:
    """(value for the side to move, plies to the end) of the engine position `core`."""
    if counter is not None:
        counter.nodes += 1
    outcome = terminal_outcome(core)
    if outcome is not None:
        return outcome, 0
    best = None
    for action in core.legal_actions():
        child = core.copy()
        child.apply(action)
        value, length = evaluate(child, counter)
        key = order_key(OPPONENTS[value], length + 1)
        if best is None or key < best[0]:
            best = (key, OPPONENTS[value], length + 1)
    return best[1], best[2]


def solve_minimax(problem: Problem) -> SolveResult:
    started = time.perf_counter()
    counter = _Counter()
    core = problem.core
    counter.nodes += 1
    outcome = terminal_outcome(core)
    if outcome is not None:
        return SolveResult(problem.position, outcome, 0, [], [], counter.nodes,
                           time.perf_counter() - started)
    moves, children = [], {}
    for action in core.legal_actions():
        child = core.copy()
        child.apply(action)
        value, length = evaluate(child, counter)
        moves.append(MoveResult(decision_to_string(core.rules, action), OPPONENTS[value],
                                length + 1, action))
        children[moves[-1].move] = child
    moves.sort(key=lambda m: (order_key(m.value, m.moves_to_end), m.move))
    best = moves[0]
    pv = [best.move] + _principal_variation(children[best.move])
    return SolveResult(problem.position, best.value, best.moves_to_end, moves, pv,
                       counter.nodes, time.perf_counter() - started)


def _principal_variation(core) -> list[str]:
    """Best moves from `core` to the end (first in action-name order among equals)."""
    line = []
    while terminal_outcome(core) is None:
        options = []
        for action in core.legal_actions():
            child = core.copy()
            child.apply(action)
            value, length = evaluate(child)
            options.append((order_key(OPPONENTS[value], length + 1),
                            decision_to_string(core.rules, action), child))
        options.sort(key=lambda o: (o[0], o[1]))
        line.append(options[0][1])
        core = options[0][2]
    return line
