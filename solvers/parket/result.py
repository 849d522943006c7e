"""What a solve returns: the value for the side to move, the plies to the end under best
play, every legal move with its own value and length, and a principal variation."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

VALUES = ("win", "draw", "loss")
#: a value for the side to move as its opponent sees it (None: not known)
OPPONENTS = {"win": "loss", "loss": "win", "draw": "draw", None: None}


@dataclass(frozen=True)
class MoveResult:
    """One legal move: the value it keeps for the mover and the plies to the end after it
    (this move included).  `action` is its action id in the solved position, for a caller
    holding the state (an agent); the JSON form names moves only, by their strings."""

    move: str
    value: str
    moves_to_end: int | None
    action: int | None = None

    def to_json(self) -> dict:
        return {"move": self.move, "value": self.value, "moves_to_end": self.moves_to_end}


@dataclass(frozen=True)
class SolveResult:
    """The exact solution of `position` for the side to move.

    `moves_to_end` counts plies by either side: the fastest win, the slowest loss, and for
    a draw the shortest line of drawing moves to the drawn end; it is None, here and in
    every move, unless the solve was asked for `lengths` (a finished game's is 0).  `moves` lists
    every legal move,
    best first; `pv` is one line of best play, as action strings: with lengths the
    fastest win (slowest loss, shortest draw), without them a line that keeps the value.
    `stats` sums the searches' counters (table probes, hits and cut-offs, store hits,
    nodes by kind; solvers.parket.fast), empty for the minimax; not part of the JSON.
    """

    position: str
    value: str
    moves_to_end: int | None
    moves: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    lengths: bool = True
    stats: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        return {"position": self.position, "value": self.value,
                "moves_to_end": self.moves_to_end,
                "moves": [m.to_json() for m in self.moves], "pv": list(self.pv),
                "nodes": self.nodes, "seconds": self.seconds, "lengths": self.lengths}


def order_key(value: str, moves_to_end: int | None) -> tuple:
    """Sorts moves best first: wins (fastest first), draws (shortest first), losses
    (slowest first); without lengths, by value alone."""
    if moves_to_end is None:
        return (VALUES.index(value), 0)
    if value == "win":
        return (0, moves_to_end)
    if value == "draw":
        return (1, moves_to_end)
    return (2, -moves_to_end)


def without_lengths(result: SolveResult) -> SolveResult:
    """The result as a solve without lengths gives it: values only (the minimax, which
    finds every length on its way, is compared with the other solvers so)."""
    moves = sorted((replace(m, moves_to_end=None) for m in result.moves),
                   key=lambda m: (order_key(m.value, None), m.move))
    return replace(result, moves_to_end=None, moves=moves, lengths=False)
