"""What a solve returns: the value for the side to move, the plies to the end under best
play, every legal move with its own value and length, and a principal variation."""

from __future__ import annotations

from dataclasses import dataclass, field

VALUES = ("win", "draw", "loss")


@dataclass(frozen=True)
class MoveResult:
    """One legal move: the value it keeps for the mover and the plies to the end after it
    (this move included).  `action` is its action id in the solved position, for a caller
    holding the state (an agent); the JSON form names moves only, by their strings."""

    move: str
    value: str
    moves_to_end: int
    action: int | None = None

    def to_json(self) -> dict:
        return {"move": self.move, "value": self.value, "moves_to_end": self.moves_to_end}


@dataclass(frozen=True)
class SolveResult:
    """The exact solution of `position` for the side to move.

    `moves_to_end` counts plies by either side: the fastest win, the slowest loss, and for
    a draw the shortest line of drawing moves to the drawn end.  `moves` lists every legal
    move, best first; `pv` is one line of best play, as action strings.
    """

    position: str
    value: str
    moves_to_end: int
    moves: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"position": self.position, "value": self.value,
                "moves_to_end": self.moves_to_end,
                "moves": [m.to_json() for m in self.moves], "pv": list(self.pv),
                "nodes": self.nodes, "seconds": self.seconds}


def order_key(value: str, moves_to_end: int) -> tuple:
    """Sorts moves best first: wins (fastest first), draws (shortest first), losses
    (slowest first)."""
    if value == "win":
        return (0, moves_to_end)
    if value == "draw":
        return (1, moves_to_end)
    return (2, -moves_to_end)
