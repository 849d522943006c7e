"""Durak's engine: the game's state machine for the pyspiel wrapper and for search, over
the compiled rules of kernel.py.

`DurakCore` is the game's engine (games/kit/engine.py): it knows nothing of OpenSpiel, the
pyspiel state wraps one, and search runs on cores directly.  The position is the kernel's
state array `st` (the phase, the stock, the hands, the table, the cards everybody knows in
each hand...); every rule is the kernel's, so the engine, the compiled search and the
kernel's own playouts play one game, and `copy()` is an array copy.  The engine adds what
the kernel leaves out: the event log `events` (every chance event and every decision as
(kind, seat, card), all the information-state strings and the resampler need), the errors
an illegal card raises, and the fields as plain Python values for the views, the
heuristic and the resampler (views are sent as JSON).
"""

from __future__ import annotations

from koloda.games.durak import kernel, resample
from koloda.games.durak.kernel import (
    ATTACK,
    ATTACKER,
    DEAL,
    DEFEND,
    DEFENDER,
    DRAW,
    EV_ATTACK,
    EV_BEAT,
    EV_DEAL,
    EV_DRAW,
    EV_PASS,
    EV_TAKE,
    EV_THROW,
    EV_TRUMP,
    EV_TRUMP_SHOWN,
    FOOL,
    HANDS,
    KNOWN,
    OVER,
    PHASE,
    REFUSED,
    STOCK,
    THROW,
    THROW_INDEX,
    THROW_ORDER,
    TRUMP,
    TRUMP_CARD,
)
from koloda.games.kit.chance import mask_outcomes
from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.games.kit.kernel_engine import KernelCalls, KernelEngine
from koloda.games.kit.outcomes import returns_for_winners

__all__ = [
    "ATTACK", "DEAL", "DEFEND", "DRAW", "OVER", "THROW", "TRUMP", "PHASE_NAMES",
    "EV_ATTACK", "EV_BEAT", "EV_DEAL", "EV_DRAW", "EV_PASS", "EV_TAKE", "EV_THROW",
    "EV_TRUMP", "EV_TRUMP_SHOWN", "DurakCore",
]

PHASE_NAMES = ("deal", "trump", "draw", "attack", "defend", "throw in", "over")


class DurakCore(KernelEngine):
    """One Durak position (a kernel state) plus its event log."""

    __slots__ = ()
    kernel = kernel
    calls = KernelCalls(kernel)

    # ----- placing hidden cards (the determinizer's worlds) ----------------------------

    def set_hand(self, seat: int, cards: int) -> None:
        """Give `seat` the hand `cards` (a bitmask), for a world of redrawn hidden cards."""
        self.st[HANDS + seat] = cards
        self._legal = None

    def set_stock(self, cards: int) -> None:
        """Make `cards` (a bitmask) the stock, for a world of redrawn hidden cards."""
        self.st[STOCK] = cards
        self._legal = None

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        """kernel.current_player, read in Python: search asks it at every step, and a
        compiled call costs several times the reads."""
        st = self.st
        phase = st.item(PHASE)
        if phase == DEFEND:
            return st.item(DEFENDER)
        if phase == THROW:
            return st.item(THROW_ORDER + st.item(THROW_INDEX))
        if phase == ATTACK:
            return st.item(ATTACKER)
        return TERMINAL if phase == OVER else CHANCE

    def is_chance(self) -> bool:
        return self.st.item(PHASE) <= DRAW

    def is_legal(self, action: int) -> bool:
        phase = self.st.item(PHASE)
        if phase <= DRAW:
            return (0 <= action < self.rules.num_cards
                    and bool(self.calls.drawable(self.st) >> action & 1))
        if phase == OVER:
            return False
        return self.is_legal_decision(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.st.item(PHASE) > DRAW:
            return []
        return mask_outcomes(self.calls.drawable(self.st))

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """Whether `player` sees which card the pending chance node gives."""
        return kernel.chance_seen_by(self.st, self.r, player, outcome)

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply `action` and log its event; a card its seat does not hold raises
        ValueError and changes nothing, as does any action once the game is over."""
        self._legal = None
        event = self.calls.apply_checked(self.st, self.r, action)
        if event[0] == REFUSED:
            raise ValueError(self._refusal(event))
        self._log(event)

    def _log(self, event) -> None:
        """Log an applied action's event; the deal's last card shows the trump when it set
        one (no stock was left to turn it from)."""
        self.events.append(event)
        if event[0] == EV_DEAL and self.st.item(TRUMP_CARD) >= 0:
            self.events.append((EV_TRUMP_SHOWN, event[1], event[2]))

    def _refusal(self, event) -> str:
        if self.st.item(PHASE) == OVER:
            return "the game is over"
        _, seat, card = event
        deck = self.rules.deck
        name = deck.name(card) if 0 <= card < deck.size else f"card {card}"
        return f"seat {seat} does not hold {name}"

    def random_playout(self, random) -> None:
        """Play uniformly random legal moves and chance outcomes to the end: each the option
        at `int(random() * count)` of the ascending list, the game Engine.random_playout's
        default loop plays from the same random numbers, in the kernel, one call a step.
        `random` is a function returning floats in [0, 1), such as `Random.random`."""
        st, r = self.st, self.r
        play_random, log = kernel.play_random, self._log
        while st.item(PHASE) != OVER:
            log(play_random(st, r, random()))
        self._legal = None

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        """Seats that won; empty for a draw (nobody the durak, or the move cap)."""
        fool = self.st.item(FOOL)
        if self.st.item(PHASE) != OVER or fool < 0:
            return frozenset()
        return frozenset(s for s in range(self.rules.num_players) if s != fool)

    def returns(self) -> list[float]:
        if self.st.item(PHASE) != OVER:
            return [0.0] * self.rules.num_players
        return returns_for_winners(self.rules.num_players, self.winners())

    def key(self) -> bytes:
        """Everything that decides how the game goes on: the state array up to KNOWN (what
        is public knowledge and the event log are left out)."""
        return self.st[:KNOWN].tobytes()

    # ----- hidden cards (games/durak/resample.py) --------------------------------------

    def resample_history(self, player: int, rng) -> list[int]:
        return resample.resample_history(self, player, rng)

    def determinizer(self, player: int):
        return resample.Determinizer(self, player)


