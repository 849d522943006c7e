"""An engine over its game's compiled kernel: the kernel is the rules, the engine the rest.

Every game's engine (games/<game>/engine.py) subclasses `KernelEngine`: its position is the
kernel's int64 state array `st`, its rules the kernel's rules array `r` (built once per
rules object and shared by every engine of that game: rules never change), and it keeps
what the kernel leaves out: the event log the observer and the resampler read, the
position's fields as plain Python values for the views (sent as JSON), and the `Engine`
protocol.  A subclass names its kernel module and declares `__slots__ = ()`; its
read-only fields are the kernel's state layout (`kernel.STATE`, games/kit/layout.py), each
a property over a part of `st`, made when the subclass is.
"""

from __future__ import annotations

import importlib
import threading
import weakref
from typing import Any

import numpy as np

from koloda.games.kit.engine import Engine

#: a game's rules -> its kernel rules array
_RULES_ARRAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class KernelCalls:
    """A kernel's functions as an engine calls them at every step: past numba's dispatcher.

    A dispatcher call looks up the compiled version by the types of its arguments, which
    costs more than the work of a step (400 ns of a legal-actions call, 130 ns of it the
    compiled code), and the pyspiel wrapper steps through games at OpenSpiel's Python
    speeds only without it.  `calls = KernelCalls(kernel)`; `calls.apply(st, r, action)`
    goes through the dispatcher the first time (which compiles the function, or loads
    it), then straight to the compiled code of that one signature.  Only for an engine's
    own calls, whose arguments always have the same types (the state and rules arrays,
    whole, and Python ints): the compiled code takes them as its signature says, unchecked.
    Where there is no single compiled version to call (NUMBA_DISABLE_JIT, or a function
    compiled for several signatures), the dispatcher is called, as it is everywhere else.
    """

    def __init__(self, kernel):
        self._kernel = kernel

    def __getattr__(self, name):            # a function's first use
        function = getattr(self._kernel, name)

        def first(*args):
            result = function(*args)
            setattr(self, name, _compiled(function))
            return result
        setattr(self, name, first)
        return first


def _compiled(function):
    """The entry point of `function`'s one compiled version, or `function` itself."""
    signatures = getattr(function, "signatures", ())
    if len(signatures) != 1:
        return function
    entry = getattr(function.overloads.get(signatures[0]), "entry_point", None)
    return entry if callable(entry) else function


class KernelEngine(Engine):
    __slots__ = ("rules", "st", "r", "events", "_legal")

    #: The game's kernel module (games/<game>/kernel.py), and its functions as the engine
    #: calls them at every step (KernelCalls; the subclass sets both).
    kernel: Any = None
    calls: Any = None
    _buffers: threading.local      # set for each subclass: its own scratch buffers

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._buffers = threading.local()    # each thread's outputs of this game's kernel
        if cls.kernel is not None and "kernel" in vars(cls):
            cls._install_fields(cls.kernel.STATE)

    @classmethod
    def _install_fields(cls, layout) -> None:
        """The kernel's state fields as the engine's read-only properties (layout.py)."""
        for name, field in layout.properties().items():
            if hasattr(cls, name):
                raise TypeError(f"{cls.__name__}: the state field {name.upper()} would hide "
                                f"the attribute {name}")
            setattr(cls, name, field)

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

    def is_terminal(self) -> bool:
        """The kernel's `is_terminal`, the one statement of when a game ends."""
        return bool(self.calls.is_terminal(self.st))

    def _compute_legal(self) -> list[int]:
        """The kernel's legal actions (`legal_actions(st, r, out)` into a buffer of
        `MAX_LEGAL`)."""
        try:
            out = self._buffers.legal
        except AttributeError:
            out = self.scratch("legal", self.kernel.MAX_LEGAL)
        return out[:self.calls.legal_actions(self.st, self.r, out)].tolist()

    def scratch(self, name: str, size: int) -> np.ndarray:
        """This thread's int64 buffer `name`, of `size` words, for this game's kernel calls
        to write into and the engine to read at once (engines step in several threads, the
        server's).  Hot paths read `self._buffers.<name>` first."""
        out = getattr(self._buffers, name, None)
        if out is None:
            out = np.zeros(size, np.int64)
            setattr(self._buffers, name, out)
        return out

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
