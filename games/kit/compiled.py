"""A game's compiled kernel as search sees it: its functions, and worlds for one player.

Search (solvers/search/compiled_tree.py) runs whole simulations inside numba, so it takes
a game's kernel functions as arguments rather than calling an engine.  Every kernel
(games/<game>/kernel.py) offers the same functions under the same names:

* `current_player(st)`: the seat to move, CHANCE (-1) or TERMINAL (-4);
* `legal_actions(st, r, out) -> n`: the legal decisions, ascending;
* `sample_chance(st, r, x) -> (x, outcome)`: a chance outcome by its probabilities;
* `chance_seen_by(st, r, player, outcome)`: whether `player` sees it (asked before it is
  applied);
* `apply(st, r, action)`, `playout(st, r, x) -> x` (uniformly random to the end) and
  `returns(st, r, out)`.

An engine gives `CompiledWorlds` for a player (`Engine.compiled_worlds`): the kernel state
of its position as a template and the packed draw of the hidden cards, so that
`determinize(template, r, prob, extra, world, x)` writes a world the player cannot tell
from the position, as the engine's `Determinizer` would.  The template holds the true
hidden cards; `determinize` overwrites every one of them.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from koloda.games.kit.kernel import below

FUNCTIONS = ("current_player", "legal_actions", "sample_chance", "chance_seen_by", "apply",
             "playout", "returns")


@dataclass(frozen=True)
class CompiledGame:
    """One game's kernel under one set of rules."""

    kernel: object         # the kernel module
    functions: tuple       # its FUNCTIONS, in that order
    determinize: object    # (template, r, prob, extra, world, x) -> (x, ok)
    r: np.ndarray          # the rules array
    num_players: int
    num_actions: int       # decisions and chance outcomes are below this
    max_legal: int         # a decision has at most this many options
    end_at_deal: Callable | None = None   # (st) -> None, in games of several deals

    @classmethod
    def of(cls, kernel, rules, determinize=None) -> CompiledGame:
        """The game of kernel module `kernel` under `rules`; worlds copied as they are
        when no `determinize` is given (nothing hidden)."""
        return cls(kernel, tuple(getattr(kernel, name) for name in FUNCTIONS),
                   copy_world if determinize is None else determinize,
                   kernel.rules_arrays(rules), rules.num_players, rules.num_actions,
                   kernel.MAX_LEGAL, getattr(kernel, "end_at_deal", None))

    def bind(self, function: Callable, names: Mapping[str, Callable] | None = None) \
            -> Callable:
        """`function`, a plain function that calls kernel functions by their FUNCTIONS
        names (and the functions of `names` by theirs), as a function calling this game's
        (not compiled: a caller may compile it); a function compiled already reads its
        own game's kernel and is returned as it is."""
        if isinstance(function, CPUDispatcher):
            return function
        scope = dict(function.__globals__)
        scope.update(zip(FUNCTIONS, self.functions))
        scope.update(names or {})
        bound = types.FunctionType(function.__code__, scope, function.__name__)
        bound.__qualname__, bound.__doc__ = function.__qualname__, function.__doc__
        return bound


@dataclass(frozen=True)
class CompiledWorlds:
    """Worlds for one player at one position, drawn by `game.determinize`."""

    game: CompiledGame
    template: np.ndarray
    prob: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    extra: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))


    def end_at_deal(self) -> None:
        """Every world ends when the deal in progress ends (Engine.end_at_deal); a game of
        one deal ends there anyway."""
        if self.game.end_at_deal is not None:
            self.game.end_at_deal(self.template)


@njit(cache=True)
def copy_world(template, r, prob, extra, world, x):
    """Nothing hidden: every world is the position itself."""
    world[:] = template
    return x, True


@njit(cache=True)
def pool_world(template, r, prob, extra, world, x):
    """A world of a pool drawn beforehand (`pooled_worlds`): `extra` holds the pool's
    states one after another, each as long as `template`; one is picked uniformly."""
    n = template.size
    x, i = below(x, extra.size // n)
    world[:] = extra[i * n:(i + 1) * n]
    return x, True


@dataclass(frozen=True)
class PooledWorlds(CompiledWorlds):
    """Worlds picked uniformly from states drawn beforehand (by weight, in Python: the
    search's inference of the hidden cards, solvers/search/inference.py)."""

    def end_at_deal(self) -> None:
        if self.game.end_at_deal is not None:
            n = self.template.size
            for i in range(self.extra.size // n):
                self.game.end_at_deal(self.extra[i * n:(i + 1) * n])


def pooled_worlds(engine, states: np.ndarray) -> PooledWorlds:
    """Worlds of `engine`'s kernel picked uniformly among the rows of `states` (kernel
    states of positions of that game, at most 2048)."""
    game = CompiledGame.of(engine.kernel, engine.rules, pool_world)
    states = np.ascontiguousarray(states, dtype=np.int64)
    return PooledWorlds(game, states[0].copy(), extra=states.reshape(-1).copy())


def drawn_worlds(kernel, kernel_worlds, core, player: int):
    """`core`'s worlds for `player` by the game's kernel_worlds module (its `problem` and
    `determinize`); None where it offers none (the search then runs on engines)."""
    problem = kernel_worlds.problem(core, player)
    if problem is None:
        return None
    template, prob, extra = problem
    game = CompiledGame.of(kernel, core.rules, kernel_worlds.determinize)
    return CompiledWorlds(game, template, prob, extra)
