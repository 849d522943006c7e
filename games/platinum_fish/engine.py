"""Platinum Fish's engine: the game's state machine for the pyspiel wrapper and for search,
over the compiled rules of kernel.py.

The position is the kernel's state array `st` (each hand as a bitmask of ranks: a hand
never holds a pair, it is laid as a match at once; the stock as a count per rank; the
discard pile, top last; the matches laid per seat; the ranks everybody knows to be in each
hand); every rule is the kernel's, so the engine, the compiled search and the kernel's own
playouts play one game.  The engine adds the event log: every chance event and decision,
as (kind, seat, value), which the kernel gives for each step it applies and which the
observer, the resampler and the narration read; and it gives the fields as plain Python
values for the views, the heuristic and the resampler (views are sent as JSON).  Hidden
cards are written only through `set_hand` and `set_stock` (the determinizer's worlds), and
playouts, random or a rollout policy's, run in the kernel many moves a call (`play_moves`).
"""

from __future__ import annotations

import numpy as np

from koloda.games.kit.chance import count_outcomes
from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.games.kit.kernel_engine import KernelCalls, KernelEngine
from koloda.games.kit.outcomes import winners as top_scores
from koloda.games.platinum_fish import kernel, resample
from koloda.games.platinum_fish.kernel import (
    ASK,
    CHOOSE,
    DEAL,
    DEAL_SEAT,
    DICE_ROLL,
    DRAW,
    EV_ASK,
    EV_AVAILABLE,
    EV_CHOOSE,
    EV_DEAL,
    EV_DICE,
    EV_DRAW,
    EV_GIVE,
    EV_HAND,
    EV_LAY,
    EV_MATCH,
    EV_NOBODY,
    EV_NONE_AVAILABLE,
    EV_NOTHING,
    EV_ROLL,
    EV_STOCK,
    EV_TAKE,
    EV_TO_DISCARD,
    EV_TO_HAND,
    EV_TURN,
    HAND,
    HANDS,
    KEY_SIZE,
    LAID,
    LAID_N,
    OVER,
    PAIRS,
    PAIRS_N,
    PHASE,
    PLAY,
    PLAYER,
    STOCK,
    STOCK_SIZE,
    TURN,
)
from koloda.games.platinum_fish.rules import DICE_PROBABILITIES

PHASE_NAMES = ("roll a hand size", "deal", "turn the first discard", "play", "draw",
               "throw the dice", "choose", "ask", "over")
_CHANCE_PHASES = frozenset((HAND, DEAL, TURN, DRAW, DICE_ROLL))
_DECISION_PHASES = frozenset((PLAY, CHOOSE, ASK))
_DICE_OUTCOMES = list(enumerate(DICE_PROBABILITIES))

# The phases and event kinds are the kernel's; readers import them from here.
__all__ = [
    "ASK", "CHOOSE", "DEAL", "DICE_ROLL", "DRAW", "HAND", "OVER", "PLAY", "TURN",
    "EV_ASK", "EV_AVAILABLE", "EV_CHOOSE", "EV_DEAL", "EV_DICE", "EV_DRAW", "EV_GIVE",
    "EV_HAND", "EV_LAY", "EV_MATCH", "EV_NOBODY", "EV_NONE_AVAILABLE", "EV_NOTHING",
    "EV_ROLL", "EV_STOCK", "EV_TAKE", "EV_TO_DISCARD", "EV_TO_HAND", "EV_TURN",
    "PHASE_NAMES", "PlatinumFishCore",
]


MOVES_PER_CALL = 64     # random numbers drawn for each compiled call of a playout
_LOG_SIZE = 1 + 3 * kernel.MAX_STEP_EVENTS * MOVES_PER_CALL   # the count, then the events
def _keep(events: list, log: np.ndarray, count: int) -> None:
    """Append the `count` (kind, seat, value) events of a kernel call's log to `events`."""
    if count == 1:      # most calls: three reads are cheaper than a slice
        events.append((log.item(1), log.item(2), log.item(3)))
    else:
        it = iter(log[1:1 + 3 * count].tolist())
        events.extend(zip(it, it, it))


class PlatinumFishCore(KernelEngine):
    """One Platinum Fish position (a kernel state) plus its event log."""

    __slots__ = ()
    kernel = kernel
    calls = KernelCalls(kernel)

    # ----- the position, as plain Python values (the rest: kernel.STATE) ---------

    @property
    def laid(self) -> tuple[tuple[int, ...], ...]:
        """The ranks of each seat's matches, in the order laid."""
        st = self.st
        flat = st[LAID:LAID + 2 * st.item(LAID_N)].tolist()
        laid = [[] for _ in range(self.rules.num_players)]
        for seat, rank in _pairs(flat):
            laid[seat].append(rank)
        return tuple(map(tuple, laid))

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(seat, rank) pairs dealt, in dealt order: laid once the deal is done."""
        st = self.st
        return tuple(_pairs(st[PAIRS:PAIRS + 2 * st.item(PAIRS_N)].tolist()))

    def stock_ranks(self) -> int:
        """The ranks the stock still holds, as a mask."""
        return kernel.stock_ranks(self.st, self.r)

    # ----- writing hidden cards (resample.py's determinizer, tests) -----------------

    def set_hand(self, seat: int, hand: int) -> None:
        """Give `seat` the hand `hand` (a rank bitmask)."""
        self.st[HANDS + seat] = hand
        self._legal = None

    def set_stock(self, stock) -> None:
        """Set the stock's count of each rank (as many cards as it held)."""
        self.st[STOCK:STOCK + len(stock)] = stock
        self._legal = None

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        st = self.st
        phase = st.item(PHASE)
        if phase in _DECISION_PHASES:
            return st.item(PLAYER)
        return TERMINAL if phase == OVER else CHANCE

    def is_chance(self) -> bool:
        return self.st.item(PHASE) in _CHANCE_PHASES

    def is_legal(self, action: int) -> bool:
        """A legal decision, or a chance outcome of positive probability (read off the
        state, without building the outcomes)."""
        st = self.st
        phase = st.item(PHASE)
        if phase in _DECISION_PHASES:
            return self.is_legal_decision(action)
        if phase == HAND:
            return action in self.rules.hand_sizes
        if phase == DICE_ROLL:
            return 0 <= action < len(_DICE_OUTCOMES)
        if phase == OVER:
            return False
        return 0 <= action < self.rules.num_ranks and st.item(STOCK + action) > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        st = self.st
        phase = st.item(PHASE)
        if phase == DEAL or phase == TURN or phase == DRAW:      # most chance nodes
            return count_outcomes(st[STOCK:STOCK + self.rules.num_ranks].tolist(),
                                  st.item(STOCK_SIZE))
        if phase == HAND:
            sizes = self.rules.hand_sizes
            return [(size, 1.0 / len(sizes)) for size in sizes]
        if phase == DICE_ROLL:
            return list(_DICE_OUTCOMES)
        return []

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """Dealt cards are seen by their receiver only; everything else is public."""
        st = self.st
        return st.item(PHASE) != DEAL or st.item(DEAL_SEAT) == player

    # ----- applying actions ----------------------------------------------------------

    def _fresh_log(self) -> np.ndarray:
        """This thread's log for the events of kernel calls, emptied."""
        log = self.scratch("log", _LOG_SIZE)
        log[0] = 0
        return log

    def apply(self, action: int) -> None:
        try:
            log = self._buffers.log
        except AttributeError:
            log = self._fresh_log()
        count, kind, seat, value, kind2, seat2, value2 = self.calls.apply_event(
            self.st, self.r, action, log)
        if count == 2:
            self.events += ((kind, seat, value), (kind2, seat2, value2))
        elif count == 1:
            self.events.append((kind, seat, value))
        elif count > 2:
            _keep(self.events, log, count)
        elif count < 0:
            raise ValueError("the game is over")
        self._legal = None

    def random_playout(self, random) -> None:
        """Uniformly random decisions and chance by its probabilities, to the end, in the
        kernel: the game (and the events) the engine protocol's default loop plays from the
        same random numbers (a few more are drawn than it uses)."""
        self.play_moves(kernel.play_random_moves, random)

    def random_chance(self, random) -> None:
        """Apply the pending chance outcome, drawn by its probabilities with `random()` in
        [0, 1) as `random_playout` draws it (for playouts that choose decisions their own
        way)."""
        log = self._fresh_log()
        _keep(self.events, log, kernel.play_random(self.st, self.r, random(), log))
        self._legal = None

    def play_moves(self, moves, random) -> None:
        """Play to the end by a compiled `moves(st, r, draws, log)`, which plays a legal move
        for each number of `draws` (from `random()`, in [0, 1)) until the game ends or they
        run out, appending their events to `log` by `kernel.apply_logged`: a playout
        (random, or a rollout policy's) in a few calls a game, its events logged."""
        st, r, events = self.st, self.r, self.events
        while st.item(PHASE) != OVER:
            draws = np.array([random() for _ in range(MOVES_PER_CALL)])
            log = self._fresh_log()
            moves(st, r, draws, log)
            _keep(events, log, log.item(0))
        self._legal = None

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        """The seats with the most matches; empty before the end and when all tie."""
        return frozenset(top_scores(self.matches)) if self.is_terminal() else frozenset()

    def key(self) -> bytes:
        """Everything that decides how the game goes on (not `known`, not `laid`, not the
        log): the kernel state's position part."""
        return self.st[:KEY_SIZE].tobytes()

    # ----- hidden cards (games/platinum_fish/resample.py) -------------------------------

    def resample_history(self, player: int, rng) -> list[int]:
        return resample.resample_history(self, player, rng)

    def determinizer(self, player: int):
        return resample.Determinizer(self, player)



def _pairs(flat: list[int]):
    """(seat, rank) pairs of a flat list."""
    it = iter(flat)
    return zip(it, it)
