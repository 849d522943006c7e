"""How far the solver goes: the empty cells it solves within seconds, the largest
relocation cap it takes, the node and time limits of one solve, and what a solve stopped
by them has proved (SolveAborted).

Both figures are measured, so a caller can tell a long solve from a stuck one:
- REACH: a median position of 16 empty cells is valued (every move's value) in under a
  second on two cores (0.77 s), one of 18 in about 6 s (reports/parket-endgames.md,
  default rules); lengths cost several times more;
- MAX_RELOCATIONS: with a cap of 19 each of 100 random one-empty-cell positions is
  solved within 0.9 s; at 20 five of them take 1 to 2.5 s, and every cap beyond about
  doubles the time, so a cap of 100 never finishes even there.
"""

from __future__ import annotations

from numbers import Integral, Real

from koloda.games.errors import GameParameterError
from koloda.games.kit.params import shown
from koloda.solvers.parket.reference import SearchAborted
from koloda.solvers.parket.result import VALUES, MoveResult, order_key

REACH = 16
MAX_RELOCATIONS = 19
MAX_NODE_LIMIT = 10**18       # fits the compiled solver's 64-bit counters
MAX_TIME_LIMIT = 1e9          # seconds (31 years); a deadline in ms fits 64 bits


def check_limits(node_limit, time_limit) -> None:
    """GameParameterError for a limit that is no count of nodes or seconds: a negative,
    infinite or NaN limit would never stop a solve, or stop it at once."""
    if isinstance(node_limit, bool) or not isinstance(node_limit, Integral) \
            or not 0 <= node_limit <= MAX_NODE_LIMIT:
        raise GameParameterError(f"node_limit is a whole number of nodes from 0 (no limit) "
                                 f"to {MAX_NODE_LIMIT:.0e}, not {shown(node_limit, 40)}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, Real) \
            or not 0 <= time_limit <= MAX_TIME_LIMIT:
        raise GameParameterError(f"time_limit is a number of seconds from 0 (no limit) "
                                 f"to {MAX_TIME_LIMIT:.0e}, not {shown(time_limit, 40)}")


def check_max_relocations(max_relocations) -> None:
    """GameParameterError beyond the cap the solver finishes at; the game itself allows
    caps up to 100."""
    if isinstance(max_relocations, bool) or not isinstance(max_relocations, Integral) \
            or not 1 <= max_relocations <= MAX_RELOCATIONS:
        raise GameParameterError(
            f"max_relocations is from 1 to {MAX_RELOCATIONS} for the solver (each one more "
            f"about doubles its work), not {shown(max_relocations, 40)}")


class SolveAborted(SearchAborted):
    """A solve stopped by its `node_limit` or `time_limit` (`limit` names which), with
    what it had proved: `moves` lists every legal move, solved ones best first, with
    None for a value or length not yet known; `value` and `moves_to_end` are the
    position's own once found or proved by those moves, else None."""

    def __init__(self, position: str, moves: list, value: str | None, nodes: int,
                 seconds: float, node_limit: int, time_limit: float):
        self.position, self.moves, self.nodes, self.seconds = position, moves, nodes, seconds
        self.node_limit, self.time_limit = node_limit, time_limit
        self.searched_value = value
        self.limit = "node_limit" if node_limit and nodes > node_limit else "time_limit"
        super().__init__(self._message())

    @property
    def solved(self) -> list:
        """The moves whose value is known."""
        return [m for m in self.moves if m.value is not None]

    @property
    def value(self) -> str | None:
        """The position's value: searched first, else proved by the moves: a solved
        winning move proves a win, and with every move solved the best one is the value."""
        best = self.moves[0].value if self.moves else None
        if self.searched_value is not None:
            return self.searched_value
        if best == "win" or len(self.solved) == len(self.moves):
            return best
        return None

    @property
    def at_least(self) -> str | None:
        """The least the side to move is proved to get: the value, else the best value
        of a solved move (None: nothing is proved)."""
        return self.value or (self.moves[0].value if self.moves else None)

    @property
    def moves_to_end(self) -> int | None:
        """The position's length, known only once every move's length is."""
        if self.moves and all(m.moves_to_end is not None for m in self.moves):
            return self.moves[0].moves_to_end
        return None

    def _message(self) -> str:
        limit = (f"node_limit of {self.node_limit:,} nodes" if self.limit == "node_limit"
                 else f"time_limit of {self.time_limit:g} s")
        known = f"{len(self.solved)} of {len(self.moves)} moves have a known value"
        if self.value is not None:
            known += f", the position is a {self.value}"
        elif self.at_least == "draw":
            known += ", the position is at least a draw"
        return (f"the solve of {self.position!r} stopped at its {limit}, after "
                f"{self.nodes:,} nodes in {self.seconds:.2f} s: {known}")

    def to_json(self) -> dict:
        return {"position": self.position, "finished": False, "stopped_by": self.limit,
                "value": self.value, "at_least": self.at_least,
                "moves_to_end": self.moves_to_end, "moves": [m.to_json() for m in self.moves],
                "pv": [], "nodes": self.nodes, "seconds": self.seconds}


def partial_moves(names_and_outcomes) -> list:
    """MoveResults of (name, value or None, length or None, action id), best known value
    first and, within a value, the moves of known length first, in the order of a
    finished solve."""
    def key(move):
        if move.value is None:
            return (len(VALUES), True, (), move.move)
        known = move.moves_to_end is not None
        return (VALUES.index(move.value), not known,
                order_key(move.value, move.moves_to_end if known else 0), move.move)
    return sorted((MoveResult(*item) for item in names_and_outcomes), key=key)
