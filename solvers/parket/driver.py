"""From a search to a SolveResult: the root's moves come from the engine (so each legal
action is listed under its own id and the game's name for it), each is valued through the
search (codes.py translates), and the principal variation follows moves that keep the
value (and, with lengths, the length).

A search is any object with `apply(code)`, `undo()`, `moves()`, `at_most(bound)`,
`exact()`, `scores(score)`, `draw_distance()`, `draws_within(plies)` and `nodes`
(reference.ReferenceSearch, fast.FastSearch).

- Values.  Each move's value is found by null-window tests of its child (move_value), not
  by a solve, and the position's value is the best of them: a first search of the root's
  value would prove again what the moves' tests prove (that no move wins, in a drawn
  position), as one search two cores cannot share.
- Lengths (plies to the end) come only when asked (`lengths`), each move's after its
  value, and they are most of the work: a draw's length is the shortest line of drawing
  moves to the cap, which only a deepening search finds.
- Two cores.  With `workers` above 1 and a search that has `twin()` (a search of the same
  position sharing its tables, fast.FastSearch), that many searches run on as many threads
  (the compiled searches release the GIL), each taking the next move not yet taken.  For
  values, a search left without a move helps one still at work on its move, by another
  path through the shared table, and the first to finish calls the other off.  The value
  line's moves are then tested by all of them, one move at a time (_first_keeping).  The
  nodes reported are their sum and vary a little from run to run (which search reaches a
  position first); the values, lengths and line do not.
- Limits.  A search stopped by a limit still tells every value and length it found
  (limits.SolveAborted).
"""

from __future__ import annotations

import threading
import time

from koloda.games.parket.actions import decision_to_string
from koloda.solvers.parket.codes import action_of, move_code, terminal_outcome
from koloda.solvers.parket.limits import SolveAborted, partial_moves
from koloda.solvers.parket.problem import Problem
from koloda.solvers.parket.reference import CalledOff, SearchAborted
from koloda.solvers.parket.result import OPPONENTS, MoveResult, SolveResult, order_key
from koloda.solvers.parket.scores import (
    distance_of,
    score_of,
    to_child,
    to_parent,
    value_of,
)


def solve_with(search, problem: Problem, started: float, node_limit: int = 0,
               time_limit: float = 0.0, workers: int = 1,
               lengths: bool = False) -> SolveResult:
    """The solution, or SolveAborted (with the limits named) when the search stops.
    Without `lengths` the position's and the moves' `moves_to_end` are None and the
    principal variation is a line that keeps the value (not the fastest win: that needs
    lengths)."""
    core = problem.core
    outcome = terminal_outcome(core)
    if outcome is not None:
        return SolveResult(problem.position, outcome, 0, [], [], 1,
                           time.perf_counter() - started, lengths)
    actions = core.legal_actions()
    codes = {action: move_code(core, action) for action in actions}
    names = {action: decision_to_string(core.rules, action) for action in actions}
    generated = search.moves()
    if sorted(set(codes.values())) != sorted(generated):
        raise AssertionError(f"the search's moves differ from the engine's at "
                             f"{problem.position}")
    outcomes = {code: (None, None) for code in generated}
    helpers = []
    try:
        if workers > 1 and hasattr(search, "twin") and (len(generated) > 1 or not lengths):
            share = workers if not lengths else min(workers, len(generated))
            helpers = [search.twin() for _ in range(share - 1)]
        score_move = _move_outcome if lengths else _move_values
        _all_outcomes([search] + helpers, generated, outcomes, score_move,
                      help_out=not lengths)
        moves = [MoveResult(names[action], *outcomes[codes[action]], action)
                 for action in actions]
        moves.sort(key=lambda m: (order_key(m.value, m.moves_to_end), m.move))
        best = moves[0]
        first = next(c for c in generated if outcomes[c] == (best.value, best.moves_to_end))
        pv = (_principal_variation(search, core.copy(), best.value, best.moves_to_end, first)
              if lengths else _value_line([search] + helpers, core.copy(), best.value, first))
    except SearchAborted:
        known = [(names[action], *outcomes[codes[action]], action) for action in actions]
        nodes = search.nodes + sum(h.nodes for h in helpers)
        raise SolveAborted(problem.position, partial_moves(known), None, nodes,
                           time.perf_counter() - started, node_limit, time_limit) from None
    return SolveResult(problem.position, best.value, best.moves_to_end, moves, pv,
                       search.nodes + sum(h.nodes for h in helpers),
                       time.perf_counter() - started, lengths,
                       summed_stats([search] + helpers))


def summed_stats(searches: list) -> dict:
    """The searches' counters, summed key by key."""
    total: dict = {}
    for search in searches:
        for key, count in search.stats.items():
            total[key] = total.get(key, 0) + count
    return total


def _all_outcomes(searches: list, codes: list, outcomes: dict, score_move,
                  help_out: bool = False, wanted=None, help_first: bool = False) -> None:
    """Every move's outcome (score_move): each search takes the next move not yet taken.
    With `help_out`, a search left without a move helps one still being scored: both
    score it, the helper by another path (FastSearch.helping) through the shared table,
    and the first to finish calls the other off; with `help_first` too, a search helps
    before it takes a new move.  With `wanted` (code -> whether its outcome still
    matters, asked as outcomes come in), a move that no longer matters is not taken,
    and the searches scoring it are called off.  The first stop (SearchAborted) calls
    every search off and is raised once all have stopped."""
    wanted = wanted or (lambda code: True)
    if len(searches) == 1:
        for code in codes:
            if wanted(code):
                score_move(searches[0], code, outcomes)
        return
    waiting = list(reversed(codes))
    working = {}                         # code -> the searches scoring it
    lock = threading.Lock()
    stops = []

    def take(search):
        while waiting and not wanted(waiting[-1]):
            waiting.pop()
        helped = [c for c in working if wanted(c)] if help_out else []
        if waiting and not (help_first and helped):
            code = waiting.pop()
        elif helped:
            code = min(helped, key=lambda c: len(working[c]))
        else:
            return None
        working.setdefault(code, []).append(search)
        search.helping(len(working[code]) > 1)
        return code

    def work(search):
        while True:
            with lock:
                code = None if stops else take(search)
            if code is None:
                return
            found = {}
            try:
                score_move(search, code, found)
            except CalledOff:
                found = None
            except SearchAborted as stop:
                with lock:
                    outcomes.update(found)            # a value found before the stop
                    stops.append(stop)
                    for other in searches:
                        if other is not search:
                            other.call_off()
                return
            with lock:
                others = [s for s in working.pop(code, []) if s is not search]
                if found:
                    outcomes.update(found)
                    for other in others:
                        other.call_off()
                    for late in [c for c in working if not wanted(c)]:
                        for other in working[late]:
                            other.call_off()
                elif others:                       # called off by one still working
                    working[code] = others
                search.resume()
                search.helping(False)

    threads = [threading.Thread(target=work, args=(s,), daemon=True) for s in searches[1:]]
    for thread in threads:
        thread.start()
    work(searches[0])
    for thread in threads:
        thread.join()
    if stops:
        raise stops[0]


def _move_values(search, code: int, outcomes: dict) -> None:
    """Enters the value of playing `code` (move_value) in `outcomes`, length None."""
    outcomes[code] = (move_value(search, code), None)


def move_value(search, code: int, value: str | None = None) -> str:
    """The value for the mover of playing `code`, by null-window tests of its child:
    a win when the child is lost, else a draw when the child cannot win, else a loss.
    In a position whose `value` is known, no move does better: a drawn one needs the
    second test only, a lost one none."""
    if value == "loss":
        return "loss"
    search.apply(code)
    try:
        if value != "draw" and search.at_most(-1):
            return "win"
        return "draw" if search.at_most(0) else "loss"
    finally:
        search.undo()         # a stopped search has unwound to the child


def _move_outcome(search, code: int, outcomes: dict) -> None:
    """Enters (value for the mover, plies to the end) of playing `code` now in
    `outcomes`, the value as soon as it is known.  After a stop the search is left as
    it was, since it is not used again."""
    outcomes[code] = (move_value(search, code), None)
    search.apply(code)
    score = to_parent(search.exact())
    length = search.draw_distance() + 1 if score == 0 else distance_of(score)
    search.undo()
    outcomes[code] = (value_of(score), length)


def _principal_variation(search, core, value: str, length: int, first: int) -> list[str]:
    """A line of best play: at each step a move that keeps the value and length the
    position has, until the end, from `first` (the root's moves are valued already).  A
    move is tested, not solved: its child must score exactly what is needed (a window
    around that one score), and for a draw also end in a draw within the plies left."""
    def keeps(search, code, value, length):
        needed = to_child(score_of(value, length))
        search.apply(code)
        kept = search.scores(needed) and (needed != 0 or search.draws_within(length - 1))
        search.undo()
        return kept
    return _follow([search], core, value, length, keeps, first)


def _value_line(searches: list, core, value: str, first: int) -> list[str]:
    """A line that keeps the value to the end, from `first`.  It ends: a placement uses
    a card and the relocations in a row are capped.  With more than one search (sharing
    their tables), all of them test each step's moves (_first_keeping)."""
    return _follow(searches, core, value, None,
                   lambda search, code, value, _: move_value(search, code, value) == value,
                   first)


def _first_keeping(searches: list, codes: list, keeps) -> int | None:
    """The first of `codes` for which `keeps(search, code)` holds, or None.  With more
    than one search, they test one move at a time together (_all_outcomes, helping), as
    the first move tested keeps the value most often; a move after one found to keep is
    dropped, so the answer is the one a single search gives."""
    kept = {}

    def test(search, code, found):
        found[code] = keeps(search, code)

    def wanted(code):
        return not any(kept.get(c) for c in codes[:codes.index(code)])

    _all_outcomes(searches, codes, kept, test, help_out=True, wanted=wanted,
                  help_first=True)
    return next((c for c in codes if kept.get(c)), None)


def _follow(searches: list, core, value: str, length: int | None, keeps,
            first: int) -> list[str]:
    """The moves from `core` to the end: `first`, the first of the root's moves (the
    search's order) to keep the position's value (and length), then each the first that
    `keeps(search, code, value, length)` says keeps the value (and length: one ply less
    at each step); the searches are left where they began."""
    search = searches[0]
    line = []
    depth = 0
    while terminal_outcome(core) is None:
        if length is not None and length <= 0:
            raise AssertionError("the principal variation stops before the end")
        code = first if depth == 0 else _first_keeping(
            searches, search.moves(), lambda s, c, v=value, n=length: keeps(s, c, v, n))
        if code is None:
            raise AssertionError("no move keeps the solved value")
        action = action_of(core, code)
        line.append(decision_to_string(core.rules, action))
        core.apply(action)
        for each in searches:
            each.apply(code)
        depth += 1
        value = OPPONENTS[value]
        length = None if length is None else length - 1
    for each in searches:
        for _ in range(depth):
            each.undo()
    if length:
        raise AssertionError("the game ends before the principal variation's length")
    return line
