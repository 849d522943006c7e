"""Worlds for search: positions consistent with what the searching player knows.

A game may offer a fast path: `view.determinizer(player)` returning an object whose
`sample(rng)` gives an engine state ("core") with `copy`, `apply`, `legal_actions`,
`chance_outcomes`, `current_player`, `is_chance`, `is_terminal`, `returns` and
`chance_seen_by`.  Any other OpenSpiel game works through `PyStateWorld`, which wraps a
pyspiel state resampled with `resample_from_infostate` in the same interface (slower).
"""

from __future__ import annotations


def determinizer_for(view, player: int):
    fast = getattr(view, "determinizer", None)
    if fast is not None:
        return fast(player)
    return _ResamplingDeterminizer(view, player)


def root_world(view):
    """The view itself as a world (for perfect-information games)."""
    core = getattr(view, "core", None)
    return core.copy() if core is not None else PyStateWorld(view.clone())


class _ResamplingDeterminizer:
    def __init__(self, view, player: int):
        self.view, self.player = view, player

    def sample(self, rng):
        return PyStateWorld(self.view.resample_from_infostate(self.player, rng.random))


class PyStateWorld:
    """A pyspiel state in the engine-state interface the search code uses."""

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
