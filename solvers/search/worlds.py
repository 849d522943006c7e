"""Worlds for search: engine positions consistent with what the searching player knows.

A koloda state (`KitState`) gives its engine's determinizer: every `sample(rng)` is an
engine (games/kit/engine.py) with the hidden cards redrawn.  Any other OpenSpiel game works
through `PyStateWorld`, which wraps a pyspiel state, resampled with
`resample_from_infostate`, in the engine protocol (slower).
"""

from __future__ import annotations

from koloda.games.kit.engine import Determinizer, Engine
from koloda.games.kit.outcomes import winners
from koloda.games.kit.state import KitState


def compiled_worlds_for(view, player: int):
    """The worlds of `view` for `player` in the game's compiled kernel, or None (a game
    without one, or a pyspiel state of another game)."""
    if isinstance(view, KitState):
        return view.compiled_worlds(player)
    return None


def determinizer_for(view, player: int) -> Determinizer:
    if isinstance(view, KitState):
        return view.determinizer(player)
    return _ResamplingDeterminizer(view, player)


class _ResamplingDeterminizer(Determinizer):
    def __init__(self, view, player: int):
        self.view, self.player = view, player

    def sample(self, rng):
        return PyStateWorld(self.view.resample_from_infostate(self.player, rng.random))


class PyStateWorld(Engine):
    """A pyspiel state in the engine protocol the search code uses."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def copy(self):
        return PyStateWorld(self.state.clone())

    def apply(self, action):
        self.state.apply_action(action)

    def legal_actions(self):
        return self.state.legal_actions()

    def chance_outcomes(self):
        return self.state.chance_outcomes()

    def current_player(self):
        return self.state.current_player()

    def is_chance(self):
        return self.state.is_chance_node()

    def is_terminal(self):
        return self.state.is_terminal()

    def returns(self):
        return self.state.returns()

    def chance_seen_by(self, player, outcome):
        return True  # without game knowledge, treat every chance outcome as observed

    def winners(self):
        return frozenset(winners(self.state.returns()))

    def key(self):
        return self.state.history_str()  # the history: correct, though it never transposes
