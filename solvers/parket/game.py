"""A whole game analysed: the value before and after every move from the first position
within reach, the moves that threw away a win or a draw (and the moves that kept it), and
the length of the forced line where one side forces the end.

The positions are solved from the last back to the first, all in one table (fast.Tables):
each earlier position's tree holds the later ones, so what was learnt there is read again
and the analysis costs little more than its first position.  The walk back ends at the
first position not solved within `seconds` (that one and all before it are out of reach)
or when `budget` seconds in all are spent.  Values are for the side to move: a move that
keeps the value for its mover is sound, one whose value is lower threw the difference away.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from koloda.games.errors import GameParameterError
from koloda.games.kit.params import shown
from koloda.games.parket.actions import decision_to_string
from koloda.games.parket.board import EMPTY
from koloda.solvers.parket.codes import search_args
from koloda.solvers.parket.driver import solve_with
from koloda.solvers.parket.limits import MAX_TIME_LIMIT, SolveAborted
from koloda.solvers.parket.problem import state_problem
from koloda.solvers.parket.reference import SearchAborted
from koloda.solvers.parket.scores import distance_of
from koloda.solvers.parket.store import open_store

RANK = {"win": 2, "draw": 1, "loss": 0}


@dataclass(frozen=True)
class MoveVerdict:
    """One move of the game.  `number` counts the game's moves from 1; `before` is the
    position's value for the mover and `after` the value the played move keeps (None
    where the position was beyond reach); `kept_by` names the moves that would have kept
    `before` when the move played did not; `moves_to_end` is the length of the forced
    line from before the move (plies by either side) where the position is won or lost."""

    number: int
    player: int
    move: str
    before: str | None = None
    after: str | None = None
    kept_by: tuple = ()
    moves_to_end: int | None = None

    @property
    def threw_away(self) -> str | None:
        """The value this move gave up ("win" or "draw"), None for a sound move."""
        if self.before is None or RANK[self.after] >= RANK[self.before]:
            return None
        return self.before

    def to_json(self) -> dict:
        return {"number": self.number, "player": self.player, "move": self.move,
                "before": self.before, "after": self.after, "kept_by": list(self.kept_by),
                "moves_to_end": self.moves_to_end, "threw_away": self.threw_away}


@dataclass(frozen=True)
class GameAnalysis:
    """Every move's verdict, in the order played; `first_solved` is the number of the
    first move whose position was solved (None: none was), `nodes` and `seconds` what
    the analysis cost, `seconds_per_position` and `budget` its limits."""

    verdicts: list = field(default_factory=list)
    first_solved: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    seconds_per_position: float = 0.0
    budget: float = 0.0

    @property
    def mistakes(self) -> list:
        return [v for v in self.verdicts if v.threw_away]

    def to_json(self) -> dict:
        return {"first_solved": self.first_solved,
                "moves": [v.to_json() for v in self.verdicts], "nodes": self.nodes,
                "seconds": self.seconds, "seconds_per_position": self.seconds_per_position,
                "budget": self.budget}


def analyse_line(start, actions: list[int], seconds: float = 2.0, budget: float = 60.0,
                 workers: int = 2, store=None) -> GameAnalysis:
    """The analysis of the moves `actions` (action ids) played from `start`, a state of
    parket or its ParketCore (not changed), each position solved within `seconds` and
    all within `budget` seconds.  GameParameterError for a bad limit or a relocation cap
    beyond the solver's, ActionError for an action that is not legal where it is played.
    `store` (a path or a Store) is a store of solved positions that the analysis reads
    and extends (store.py): a second analysis of a game reads the first's proofs."""
    for name, limit in (("seconds", seconds), ("budget", budget)):
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) \
                or not 0 < limit <= MAX_TIME_LIMIT:
            raise GameParameterError(f"{name} is a positive number of seconds, not "
                                     f"{shown(limit, 40)}")
    started = time.perf_counter()
    cores, verdicts = _positions(start, actions)
    from koloda.solvers.parket.fast import Tables
    store = open_store(store)
    tables = Tables.for_empty(max((c.board.count(EMPTY) for c in cores), default=0), store)
    try:
        return _analyse(cores, verdicts, actions, tables, seconds, budget, workers, started)
    finally:
        tables.save_to_store()


def _analyse(cores, verdicts, actions, tables, seconds, budget, workers,
             started) -> GameAnalysis:
    """Solves the positions from the last back (analyse_line)."""
    from koloda.solvers.parket.fast import FastSearch
    nodes, first = 0, None
    for index in range(len(cores) - 1, -1, -1):
        left = budget - (time.perf_counter() - started)
        if left <= 0:
            break
        problem = state_problem(cores[index])
        limit = min(seconds, left)
        search = FastSearch(*search_args(problem.core),
                            deadline=time.perf_counter() + limit, tables=tables)
        try:
            result = solve_with(search, problem, time.perf_counter(), 0, limit, workers)
        except SolveAborted as stop:
            nodes += stop.nodes
            break
        solved_at = search.nodes
        length = _forced_length(search, result.value)
        nodes += result.nodes + search.nodes - solved_at
        verdicts[index] = _verdict(verdicts[index], result, actions[index], length)
        first = verdicts[index].number
    return GameAnalysis(verdicts, first, nodes, time.perf_counter() - started, seconds,
                        budget)


def _positions(start, actions: list[int]):
    """The engine position before each action, and a blank verdict per action."""
    from koloda.games.errors import ActionError
    core = getattr(start, "core", start).copy()
    cores, verdicts = [], []
    for number, action in enumerate(actions, start=1):
        if not core.is_legal(action):
            raise ActionError(f"move {number}: action {shown(action, 20)} is not legal in "
                              f"{core.position()}")
        cores.append(core.copy())
        verdicts.append(MoveVerdict(number, core.player,
                                    decision_to_string(core.rules, action)))
        core.apply(action)
    return cores, verdicts


def _verdict(blank: MoveVerdict, result, action: int, length: int | None) -> MoveVerdict:
    played = next(m for m in result.moves if m.action == action)
    kept_by = ()
    if RANK[played.value] < RANK[result.value]:
        kept_by = tuple(m.move for m in result.moves if m.value == result.value)
    return MoveVerdict(blank.number, blank.player, blank.move, result.value, played.value,
                       kept_by, length)


def _forced_length(search, value: str) -> int | None:
    """The plies of the forced line from a won or lost position (the fastest win, the
    slowest loss), None for a draw or when the time is up first."""
    if value == "draw":
        return None
    try:
        return distance_of(search.exact())
    except SearchAborted:
        return None
