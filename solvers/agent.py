"""The agent interface: an OpenSpiel `Bot` that only ever looks at a resampled state.

`Agent.step(state)` is what callers use.  It resamples the state from the information
state of the player to move (`state.resample_from_infostate`) and hands only that *view*
to `choose`, which subclasses implement.  An agent therefore cannot read hidden cards,
even by mistake: the view's hidden cards are a fresh random guess, consistent with what
the player has seen.  Forced moves (one legal action) are answered without a view.

A game's caller (tournament.match.play_game) tells each agent its seat when the game
starts (`start_game`) and the result when it ends (`game_over`, also when it ends by a
failure), and before each move may give it a time budget (`time_budget`, the dict of
solvers/clock.py); a search agent then stops within it.  A failure an agent can name
raises `AgentFailure` with its `reason` (REASONS).  Before an agent's first move of a
process, its caller prepares it (solvers/prepare.py), so no clock pays for compiling.
"""

from __future__ import annotations

import math
import numbers
import random
import time

import pyspiel

from koloda.games import game_string_of
from koloda.games.kit.params import cut
from koloda.solvers.clock import aim_ms
from koloda.solvers.errors import AgentError

#: why an agent lost a game by failing: its program did not start or say hello, it
#: stopped or raised, it answered late, it answered what is not a message, or a move
#: that is not legal
REASONS = ("no_start", "crashed", "timeout", "bad_message", "illegal_action")


class AgentFailure(AgentError):
    """An agent failed in a way it can name: `reason` is one of REASONS."""

    def __init__(self, reason: str, message: str):
        if reason not in REASONS:
            raise ValueError(f"reason must be one of {', '.join(REASONS)}, not {reason!r}")
        super().__init__(message)
        self.reason = reason


class Agent(pyspiel.Bot):
    """Base class of koloda agents; subclasses implement `choose(view, player)`."""

    #: registry name and the canonical spec the agent was built from (set by the registry)
    name = "agent"
    spec = "agent"
    #: when the current `step` began (`time.perf_counter()`); time budgets count from it
    move_started: float | None = None
    #: search agents: the visits of each root action in the last move they searched (None
    #: after a forced move and for agents that do not search); a policy for callers to show
    last_visits: dict | None = None
    #: a game object other than `self.game` already found to be the same game
    _same_game = None
    #: the time the caller gives the next move: {"ms": ...} or {"remaining_ms": ...,
    #: "increment_ms": ...} (solvers/clock.py); None: no limit.  A search agent's own
    #: budget (`self.budget`, solvers/budget.py) is held within it.
    time_budget: dict | None = None

    def __init__(self, game, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        info = game.get_type().information
        self._hidden_info = info != pyspiel.GameType.Information.PERFECT_INFORMATION

    # --- OpenSpiel Bot API ------------------------------------------------------------

    def step(self, state) -> int:
        """The action this agent plays for the player to move in `state`."""
        self.move_started = time.perf_counter()
        self.last_visits = None
        self._check_game(state.get_game())
        player = state.current_player()
        if player < 0:
            raise AgentError(f"{self.spec}: asked to move at a non-decision state")
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        search = getattr(self, "budget", None)
        if self.time_budget is None or not hasattr(search, "seconds"):
            action = self.choose(self.view(state, player), player)
        else:
            own = search.seconds
            search.seconds = min(own or math.inf, aim_ms(self.time_budget) / 1000.0)
            try:
                action = self.choose(self.view(state, player), player)
            finally:
                search.seconds = own
        return legal_action(action, legal, self.spec)

    def _check_game(self, game) -> None:
        """AgentError for a state of another game: its action ids name other moves, so an
        answer would be wrong there (or the agent fail inside).  A game that differs only in
        where play starts (a Parket position) is the same game to an agent.  Identity
        first: the state's game is nearly always the agent's own object."""
        if game is self.game or game is self._same_game:
            return
        if _rules_of(game) != _rules_of(self.game):
            raise AgentError(f"{self.spec} was built for {game_string_of(self.game)} and cannot "
                             f"move in a state of {game_string_of(game)}")
        self._same_game = game

    def restart(self) -> None:
        """Forget the current game (called before a new one)."""

    def restart_at(self, state) -> None:
        self.restart()

    def start_game(self, seat: int) -> None:
        """A game begins in which this agent plays `seat` (by default: `restart`)."""
        self.restart()

    def game_over(self, state, returns: list[float] | None) -> None:
        """The game ended at `state` with `returns` (the recorded ones: where a failure
        ended it, the failing seat lost); `returns` is None when the game was abandoned
        (an interruption).  Agents that keep something across games override it."""

    def inform_action(self, state, player_id, action) -> None:
        """OpenSpiel's hook for every action, with the true state: koloda never calls it
        (an agent learns of the game through `step`'s resampled view), so nothing an agent
        does here can read a hidden card."""

    def prepare_kernels(self) -> None:
        """Run, once, what this agent's moves may run that a short rehearsal of the game
        does not (solvers/rehearsal.py): the Parket solver solves a small endgame.  Called
        on a copy of the agent, before any clock starts (solvers/prepare.py)."""

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False

    # --- for subclasses -------------------------------------------------------------

    def view(self, state, player: int):
        """What `player` may look at: a state resampled from their information state."""
        if not self._hidden_info:
            return state.clone()
        return state.resample_from_infostate(player, self.rng.random)

    def choose(self, view, player: int) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def legal_action(answer, legal: list[int], spec: str) -> int:
    """`answer`, an agent's move, as the action id it names, or AgentFailure
    (`illegal_action`): an integer of any type (numpy's, as `np.argmax` returns it, among
    them) that is one of `legal`.  A bool, a float or anything else names no action, even
    where it equals one, so a results file only ever holds plain ints."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
        raise AgentFailure("illegal_action", f"{spec} answered {cut(repr(answer), 40)}, a "
                           f"{type(answer).__name__}, not an action id (an integer)")
    action = int(answer)
    if action not in legal:
        raise AgentFailure("illegal_action", f"{spec} chose illegal action {action}; "
                           f"legal: {legal}")
    return action


def _rules_of(game):
    """What an agent's moves mean in: a koloda game's name and every parameter value but
    those that only say where play starts; any other game's `str`."""
    rules = getattr(game, "rules", None)
    if rules is None:
        return str(game)
    start = game.start_parameters
    return (game.get_type().short_name,
            sorted((k, v) for k, v in rules.params.items() if k not in start))
