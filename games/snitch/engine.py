"""Snitch's engine: the game's state machine for the pyspiel wrapper and for search, over
the compiled rules of kernel.py.

A game is the whole match: deals until a total reaches `target_score`.  The position is
the kernel's state array `st` (hands and the reserve as counts per card kind, the discard
pile, each player's sets and points this deal, the running totals, whose turn); every rule
is the kernel's, so the engine, the compiled search and the kernel's own playouts play one
game.  The engine adds what the kernel leaves out: the event log and the fields as plain
Python values for the observer, the rules of thumb and the learned value (views are sent
as JSON).  Every chance event and decision is appended to `events` as
(kind, seat, card, other): `other` is the second card of a set, or -1; a deal's end adds
its score and, unless the match is over, the next dealer.
"""

from __future__ import annotations

import numpy as np

from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.games.kit.kernel_engine import KernelCalls, KernelEngine
from koloda.games.snitch import kernel, resample
from koloda.games.snitch.kernel import (
    DEAL,
    DEALER,
    DEALS,
    DRAW,
    ENDS_WITH_DEAL,
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_EXTEND,
    EV_NEW_DEAL,
    EV_PASS,
    EV_PICK,
    EV_SCORE,
    EV_SET,
    EV_STOP,
    HANDS,
    HELD,
    LAID,
    LAID_N,
    MAX_KINDS,
    OVER,
    PHASE,
    PLAYER,
    POSITION_END,
    RESERVE,
    RESERVE_SIZE,
    SETS,
    TURN,
)

__all__ = ["DEAL", "DRAW", "EV_DEAL", "EV_DISCARD", "EV_DRAW", "EV_EXTEND", "EV_NEW_DEAL",
           "EV_PASS", "EV_PICK", "EV_SCORE", "EV_SET", "EV_STOP", "OVER", "PHASE_NAMES",
           "SETS", "TURN", "SnitchCore"]

PHASE_NAMES = ("deal", "play", "lay sets or stop", "draw", "over")


# kernel.laid_code's inverse: (seat, (rank, other card)) of every code.
_LAID_SETS = tuple((seat, (rank, other)) for seat in range(kernel.MAX_SEATS)
                   for rank in range(MAX_KINDS) for other in range(MAX_KINDS))


class SnitchCore(KernelEngine):
    """One Snitch position (within a match of deals, a kernel state) plus its event log."""

    __slots__ = ()
    kernel = kernel
    calls = KernelCalls(kernel)

    # ----- the position, as plain Python values (the rest: kernel.STATE) ---------

    def deals_finished(self) -> int:
        return self.st.item(DEALS)

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's hand as a count per card kind."""
        rules = self.rules
        n = rules.num_players
        return (self.st[HANDS:HANDS + n * MAX_KINDS].reshape(n, MAX_KINDS)
                [:, :rules.num_kinds].tolist())

    def hand(self, seat: int) -> list[int]:
        """One seat's hand as a count per card kind (cheaper than `hands[seat]`)."""
        at = HANDS + seat * MAX_KINDS
        return self.st[at:at + self.rules.num_kinds].tolist()

    @property
    def laid(self) -> tuple:
        """Per seat, the (rank, other card) of each set it laid this deal, in order."""
        sets = [[] for _ in range(self.rules.num_players)]
        for code in self.st[LAID:LAID + self.st.item(LAID_N)].tolist():
            seat, pair = _LAID_SETS[code]
            sets[seat].append(pair)
        return tuple(map(tuple, sets))

    # ----- writing hidden cards (the determinizer's worlds, test positions) -------------

    def set_hand(self, seat: int, counts) -> None:
        """Replace `seat`'s hand by `counts` (a count per card kind); the cards held follow."""
        at = HANDS + seat * MAX_KINDS
        self.st[at:at + self.rules.num_kinds] = counts
        self.st[HELD + seat] = sum(counts)
        self._legal = None

    def set_reserve(self, counts) -> None:
        """Replace the reserve by `counts` (a count per card kind); its size follows."""
        self.st[RESERVE:RESERVE + self.rules.num_kinds] = counts
        self.st[RESERVE_SIZE] = sum(counts)
        self._legal = None

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        phase = self.st.item(PHASE)
        if phase == TURN or phase == SETS:
            return self.st.item(PLAYER)
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance(self) -> bool:
        phase = self.st.item(PHASE)
        return phase == DEAL or phase == DRAW

    def is_legal(self, action: int) -> bool:
        st = self.st
        phase = st.item(PHASE)
        if phase == DEAL or phase == DRAW:
            return 0 <= action < self.rules.num_kinds and st.item(RESERVE + action) > 0
        return phase != OVER and self.is_legal_decision(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each kind the reserve holds with its share of the reserve (count_outcomes,
        written out: this runs at every other step of a game)."""
        st = self.st
        phase = st.item(PHASE)
        if phase != DEAL and phase != DRAW:
            return []
        total = st.item(RESERVE_SIZE)
        return [(kind, n / total) for kind, n in
                enumerate(st[RESERVE:RESERVE + self.rules.num_kinds].tolist()) if n]

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """A dealt or drawn card is seen by its receiver only."""
        return kernel.chance_seen_by(self.st, self.r, player, outcome)

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        kind, seat, card, other, scored = self.calls.play_checked(self.st, self.r, action)
        if scored < 0:
            raise ValueError("the game is over")
        self.events.append((kind, seat, card, other))
        if scored:
            self._log_deal_end()
        self._legal = None

    def _log(self, played) -> None:
        """Log a move's event (kernel.play's (kind, seat, card, other, scored)) and, when
        it ended the deal, the score and who deals next (unless the match is over)."""
        self.events.append(played[:4])
        if played[4]:
            self._log_deal_end()

    def _log_deal_end(self) -> None:
        st = self.st
        self.events.append((EV_SCORE, -1, st.item(DEALS), -1))
        if st.item(PHASE) != OVER:
            self.events.append((EV_NEW_DEAL, st.item(DEALER), -1, -1))

    # ----- search fast path ------------------------------------------------------------

    def end_at_deal(self) -> None:
        """End with the deal in progress (for search); see `returns` for its value."""
        self.st[ENDS_WITH_DEAL] = 1

    def random_playout(self, random) -> None:
        """Uniformly random decisions and chance by its probabilities, to the end: the same
        game as choosing from `legal_actions()` and drawing from `chance_outcomes()` with
        the same random numbers, one kernel call a move."""
        st, r, log = self.st, self.r, self._log
        play_random = kernel.play_random
        while st.item(PHASE) != OVER:
            log(play_random(st, r, random()))
        self._legal = None

    def random_step(self, u: float) -> None:
        """One move of `random_playout` for the random number `u` in [0, 1) (a chance draw
        by its probabilities, or a uniform decision)."""
        if self.st.item(PHASE) == OVER:
            raise ValueError("the game is over")
        self._log(kernel.play_random(self.st, self.r, u))
        self._legal = None

    # ----- results ---------------------------------------------------------------------

    def returns(self) -> list[float]:
        """The match's returns at its end.  Where `end_at_deal` stopped the game short of
        it, the score difference of that deal instead: each player's points in it less
        the mean of the others', in units of a fair share (1/n) of the deck's points."""
        out = np.empty(self.rules.num_players, np.float64)
        kernel.returns(self.st, self.r, out)
        return out.tolist()

    def winners(self) -> frozenset:
        """The seats with the highest total; empty before the end and when all tie."""
        mask = kernel.winners_mask(self.st, self.r)
        return frozenset(s for s in range(self.rules.num_players) if mask >> s & 1)

    def key(self) -> bytes:
        """Everything that decides how the game goes on: the position part of the state,
        without the `end_at_deal` flag and the order the sets were laid in."""
        return self.st[:POSITION_END].tobytes()

    # ----- hidden cards (games/snitch/resample.py) -------------------------------------

    def resample_history(self, player: int, rng) -> list[int]:
        return resample.resample_history(self, player, rng)

    def determinizer(self, player: int):
        return resample.Determinizer(self, player)

