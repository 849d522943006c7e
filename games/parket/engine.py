"""Parket's engine: the game's state machine for the pyspiel wrapper and for search, over
the compiled rules of kernel.py.

The position is the kernel's state array `st` (the board, each seat's hand as a card
bitmask, the seat to move, the phase, the relocations in a row and the result); every
rule is the kernel's, so the engine, the compiled search and the kernel's own playouts
play one game.  The engine adds what the kernel leaves out: the event log (nothing is
hidden and nothing is left to chance, so `events` is just the action ids played, and a
resample is a copy), the position notation, and the fields as plain Python values for
the views, the heuristic and the exact solver (views are sent as JSON).
"""

from __future__ import annotations

import numpy as np

from koloda.games.kit.engine import TERMINAL
from koloda.games.kit.kernel_engine import KernelCalls, KernelEngine
from koloda.games.parket import kernel
from koloda.games.parket.board import NUM_CELLS
from koloda.games.parket.kernel import (
    DRAW,
    ONGOING,
    PLAYER,
    RESULT,
    ROOM,
)
from koloda.games.parket.position import write_position
from koloda.games.parket.rules import PLACE_ACTIONS

__all__ = ["DRAW", "ONGOING", "ParketCore"]


class ParketCore(KernelEngine):
    """One Parket position (a kernel state) plus the actions that led to it."""

    __slots__ = ()
    kernel = kernel
    calls = KernelCalls(kernel)
    perfect_information = True
    has_chance = False

    # ----- the position, as plain Python values (the rest: kernel.STATE) ---------

    @property
    def room(self) -> tuple[list[int], list[int]]:
        """By colour (black, red): the ranks each empty cell's corners let in (a filled
        cell's value is stale)."""
        st = self.st
        return (st[ROOM:ROOM + NUM_CELLS].tolist(),
                st[ROOM + NUM_CELLS:ROOM + 2 * NUM_CELLS].tolist())

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        st = self.st
        return st.item(PLAYER) if st.item(RESULT) == ONGOING else TERMINAL

    def is_chance(self) -> bool:
        return False

    def is_legal(self, action: int) -> bool:
        return self.st.item(RESULT) == ONGOING and self.is_legal_decision(action)

    def _compute_legal(self) -> list[int]:
        if self.st.item(RESULT) != ONGOING:
            return []
        return super()._compute_legal()

    def legal_actions_of(self, seat: int) -> list[int]:
        """The legal actions `seat` would have if it were to move now, the position going
        on (how much room each side has, for the heuristic)."""
        out = np.empty(kernel.MAX_LEGAL, np.int64)
        return out[:kernel.legal_actions_of(self.st, self.r, seat, out)].tolist()

    def must_relocate(self) -> bool:
        """Whether the mover, in the main phase, has no card to place and so must relocate
        one (the position going on)."""
        return self.main and self.legal_actions()[0] >= PLACE_ACTIONS

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        return True

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        self.calls.apply(self.st, self.r, action)
        self.events.append(action)
        self._legal = None

    def random_playout(self, random) -> None:
        """Uniformly random moves to the end, each the legal action at
        `int(random() * count)`: the game Engine.random_playout's default loop plays from
        the same random numbers, in the kernel."""
        st, r, events = self.st, self.r, self.events
        play_random = kernel.play_random
        while st.item(RESULT) == ONGOING:
            events.append(int(play_random(st, r, random())))
        self._legal = None

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        result = self.st.item(RESULT)
        return frozenset((result,)) if result == 0 or result == 1 else frozenset()

    def key(self) -> bytes:
        """The position part of the state (the board, the seat to move, the phase, the
        relocations in a row, and what follows from them), without `room`, whose stale
        values on filled cells depend on the history."""
        return self.st[:ROOM].tobytes()

    def position(self) -> str:
        """This position in the notation of docs/rules/parket.md."""
        return write_position(self.board, self.rules.seat_colour[self.player], self.main,
                              self.relocations)

    def resample_history(self, player: int, rng) -> list[int]:
        """Nothing is hidden: the one history is the one played."""
        return list(self.events)

