"""An engine over its game's compiled kernel: the kernel is the rules, the engine the rest.

Every game's engine (games/<game>/engine.py) subclasses `KernelEngine`: its position is the
kernel's int64 state array `st`, its rules the kernel's rules array `r` (built once per
rules object and shared by every engine of that game: rules never change), and it keeps
what the kernel leaves out: the event log the observer and the resampler read, the
position's fields as plain Python values for the views (sent as JSON), and the `Engine`
protocol.  A subclass names its kernel module and declares `__slots__ = ()`.
"""

from __future__ import annotations

import importlib
import weakref

import numpy as np

from koloda.games.kit.engine import Engine

_RULES_ARRAYS = weakref.WeakKeyDictionary()       # a game's rules -> its kernel rules array


class KernelEngine(Engine):
    __slots__ = ("rules", "st", "r", "events", "_legal")

    #: The game's kernel module (games/<game>/kernel.py).
    kernel = None

    def __init__(self, rules):
        self.rules = rules
        self.r = self.rules_array(rules)
        self.st = self.kernel.new_state(self.r)
        self.events = []
        self._legal = None

    @classmethod
    def rules_array(cls, rules) -> np.ndarray:
        """The kernel's rules array of `rules`, built once and shared."""
        r = _RULES_ARRAYS.get(rules)
        if r is None:
            r = _RULES_ARRAYS[rules] = cls.kernel.rules_arrays(rules)
        return r

    def copy(self):
        c = object.__new__(type(self))
        c.rules = self.rules
        c.r = self.r
        c.st = self.st.copy()
        c.events = self.events[:]
        c._legal = self._legal
        return c

    def compiled_worlds(self, player: int):
        """Worlds for `player` in the kernel: the position itself where nothing is hidden,
        else drawn by the game's kernel_worlds module (games/kit/compiled.py)."""
        from koloda.games.kit.compiled import CompiledGame, CompiledWorlds, drawn_worlds
        if self.perfect_information:
            return CompiledWorlds(CompiledGame.of(self.kernel, self.rules), self.st.copy())
        package = self.kernel.__name__.rpartition(".")[0]
        return drawn_worlds(self.kernel, importlib.import_module(f"{package}.kernel_worlds"),
                            self, player)

    def __getstate__(self):
        """The rules, the state array and the event log: the rules array is the game's,
        shared, and the legal actions are recomputed."""
        return {"rules": self.rules, "st": self.st, "events": self.events}

    def __setstate__(self, state):
        self.rules, self.st, self.events = state["rules"], state["st"], state["events"]
        self.r = self.rules_array(self.rules)
        self._legal = None
