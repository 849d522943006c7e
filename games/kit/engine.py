"""The engine protocol: what a game's plain state machine offers to the pyspiel wrapper
(games/kit/state.py) and to search (solvers/search/).

An engine knows nothing of OpenSpiel.  It is small (ints, bitmasks, short lists), its
`copy()` is a handful of attribute copies, and it logs every chance event and decision in
`events`, which is all the information-state strings and the resampler need.  Search runs
on engines directly, many thousands of times a second.

A game's engine subclasses `Engine` and implements the methods marked *required*; the
others have correct defaults that a game overrides where speed matters:

* `random_playout(random)`: the default plays uniformly from `legal_actions()` and draws
  chance by its probabilities; a fast path gives the same distribution without lists.
* `determinizer(player)`: the default redraws a whole history with `resample_history`
  and replays it; a fast path redraws the hidden cards of the current position only.
* `end_at_deal()`: for games of several deals, makes a copy end with the deal in progress,
  valued by the scores (search looks no further than that); a game of one deal ends there
  anyway, so the default does nothing.

An engine holds the rules only: how to play well (rollout policies, learned values, rules
of thumb) is the agents' side, looked up by game in solvers/search/evaluators.py.
"""

from __future__ import annotations

import random as _random
from bisect import bisect_left
from collections.abc import Hashable
from typing import Any

from koloda.games.kit.chance import sample_outcome
from koloda.games.kit.outcomes import returns_for_winners

CHANCE = -1      # pyspiel.PlayerId.CHANCE
TERMINAL = -4    # pyspiel.PlayerId.TERMINAL


class Engine:
    """Base class and protocol of a game's engine (see the module docstring)."""

    __slots__ = ()

    #: True for games where nothing is hidden (resampling is a copy).
    perfect_information = False
    #: False for games without chance nodes (`is_chance()` always False).
    has_chance = True

    rules: Any          # the game's rules object (games/<g>/rules.py)
    events: list
    _legal: list[int] | None    # a slot of every engine: the legal-actions cache

    # --- required ------------------------------------------------------------------

    def copy(self) -> Engine:
        """An independent copy (events included)."""
        raise NotImplementedError

    def current_player(self) -> int:
        """The seat to move, CHANCE, or TERMINAL."""
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        """The legal decisions at a player node, ascending; cached until the next action
        (do not mutate).  An engine computes them in `_compute_legal`, keeps them in its
        `_legal` slot and clears it in `apply`."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()  # type: ignore[misc]  # a subclass slot
        return legal

    def _compute_legal(self) -> list[int]:
        raise NotImplementedError

    def is_legal_decision(self, action: int) -> bool:
        """Whether `action` is one of the legal decisions (found by bisection: they are
        ascending, and a Parket move list runs to hundreds)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()  # type: ignore[misc]  # a subclass slot
        at = bisect_left(legal, action)
        return at < len(legal) and legal[at] == action

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(outcome, probability), ...] at a chance node, [] elsewhere."""
        raise NotImplementedError

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """Whether `player` sees which outcome the pending chance node gives."""
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Apply a decision or a chance outcome in place (the caller checked legality)."""
        raise NotImplementedError

    def winners(self) -> frozenset:
        """The seats that won a finished game; empty for a draw or an unfinished game."""
        raise NotImplementedError

    def key(self) -> Hashable:
        """The position, hashable, for transposition tables: two engines with equal keys
        play on identically (the event log is not part of it)."""
        raise NotImplementedError

    def deals_finished(self) -> int:
        """Deals finished so far (0 in a game of one deal): the cards of a finished deal
        say nothing of the hidden cards of the deal in progress."""
        return 0

    def resample_history(self, player: int, rng: _random.Random) -> list[int]:
        """Action ids of a random history that `player` cannot tell from this one."""
        if self.perfect_information:
            raise NotImplementedError("a perfect-information state resamples as a copy")
        raise NotImplementedError

    # --- derived; override for speed ---------------------------------------------------

    def is_legal(self, action: int) -> bool:
        """Whether `action` may be applied now (a legal decision, or a possible outcome)."""
        if self.is_chance():
            return any(outcome == action for outcome, _ in self.chance_outcomes())
        return not self.is_terminal() and self.is_legal_decision(action)

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        """The returns formula of rules/README.md from `winners()`; zeros before the end."""
        n = self.rules.num_players
        if not self.is_terminal():
            return [0.0] * n
        return returns_for_winners(n, self.winners())

    def sample_chance(self, rng: _random.Random) -> int:
        """A chance outcome drawn by its probabilities (search's one draw at a chance
        node)."""
        return sample_outcome(self.chance_outcomes(), rng)

    def random_playout(self, random) -> None:
        """Play uniformly random decisions and chance by its probabilities to the end, in
        place; `random()` returns floats in [0, 1) (such as `Random.random`)."""
        while not self.is_terminal():
            if self.is_chance():
                outcomes = self.chance_outcomes()
                pick, total = random(), 0.0
                action = outcomes[-1][0]
                for outcome, p in outcomes:
                    total += p
                    if pick < total:
                        action = outcome
                        break
            else:
                legal = self.legal_actions()
                action = legal[int(random() * len(legal))]
            self.apply(action)

    def end_at_deal(self) -> None:
        """From now on this engine ends when the deal in progress ends, and `returns()`
        there values the scores (each game says how).  For search in games of several
        deals, whose playouts to the match's end cost more than they tell."""

    def determinizer(self, player: int) -> Determinizer:
        """Worlds `player` cannot tell from this position, for search."""
        if self.perfect_information:
            return FixedWorld(self)
        return ReplayDeterminizer(self, player)

    def compiled_worlds(self, player: int):
        """This position in the game's compiled kernel and the draw of its worlds for
        `player` (a `CompiledWorlds`, games/kit/compiled.py), for search inside the
        kernel; None where the game has none here (search then runs on engines)."""
        return None

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):
        """Pickled as its slots (the cached legal actions are recomputed)."""
        return {name: getattr(self, name) for name in type(self).__slots__ if name != "_legal"}

    def __setstate__(self, state):
        for name, value in state.items():
            setattr(self, name, value)
        self._legal = None


class Determinizer:
    """`sample(rng)` gives an engine at the current position with the hidden information
    redrawn consistently with what the player saw; the caller owns the result."""

    def sample(self, rng: _random.Random) -> Engine:
        raise NotImplementedError


class FixedWorld(Determinizer):
    """Nothing is hidden: every world is a copy of the position."""

    def __init__(self, engine: Engine):
        self._engine = engine.copy()

    def sample(self, rng) -> Engine:
        return self._engine.copy()


class ReplayDeterminizer(Determinizer):
    """The slow, always-correct path: resample a whole history and replay it."""

    def __init__(self, engine: Engine, player: int):
        self._engine, self._player = engine, player

    def sample(self, rng) -> Engine:
        world = type(self._engine)(self._engine.rules)  # type: ignore[call-arg]  # a subclass's
        for action in self._engine.resample_history(self._player, rng):
            world.apply(action)
        return world

