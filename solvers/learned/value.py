"""A learned value model as search's leaf, one leaf for every game with value features.

A leaf of search is a sampled world, every hand in it, so the model reads the whole
position, once from each seat (a game's features: learned/durak.py,
learned/platinum_fish.py, learned/snitch.py, learned/parket.py).  A game may first walk
the world on to where its model reads positions (`walk`: Snitch's plays every seat by
its rules of thumb to the searcher's next turn); the others read the leaf where it is.
The seats' values are taken less their mean, zero-sum as the returns are.  Where `mix`
is below 1 they are mixed with one random playout's returns from the same world, AlphaGo's leaf
`mix * value + (1 - mix) * return`: the model's bias and the playout's noise each shrink
the other's.

`value_leaf` is the kernel form: a plain function that calls the game's kernel functions
(`current_player`, `playout`, `returns`) and its features (`value_features`,
`value_feature_count`, `value_walk`) by name, which the compiled tree binds to each game's
(games/kit/compiled.py `CompiledGame.bind`).  `ValueFeatures.values` is the numpy
reference it is tested against, and the Python tree's form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

import numpy as np
from numba import njit

from koloda.games.kit.engine import TERMINAL
from koloda.games.kit.kernel import seed_state
from koloda.solvers.learned.mlp import forward, forward_reference

# Bound per game where the kernel form is compiled (see the docstring).
current_player = playout = returns = value_features = value_feature_count = None
value_walk = None


@njit(cache=True)
def stay(st, r, x, player, turns, legal):
    """The walk of a game whose model reads a leaf where it is: none."""
    return x


def value_leaf(st, r, x, player, turns, weights, legal, out):
    """Every seat's value of the world `st` to `out`, by the packed model weights[1:],
    once the game's walk has taken it to where its model reads (for `player`, `turns`
    turns on), mixed with one random playout's returns where weights[0] (`mix`) is below
    1; the returns themselves at the end of the game.  (x, True)."""
    n = out.shape[0]
    x = np.uint64(value_walk(st, r, x, player, turns, legal))  # noqa: F821 (bound)
    if current_player(st) == TERMINAL:                       # noqa: F821
        returns(st, r, out)                                  # noqa: F821
        return x, True
    f = np.empty(value_feature_count(r))                     # noqa: F821
    one = np.empty(1)
    model = weights[1:]
    mean = 0.0
    for seat in range(n):
        value_features(st, r, seat, f)                       # noqa: F821
        forward(model, f, one)
        out[seat] = one[0]
        mean += one[0]
    mean /= n
    for seat in range(n):
        out[seat] -= mean
    mix = weights[0]
    if mix < 1.0:
        x = playout(st, r, x)                                # noqa: F821
        ends = np.empty(n)
        returns(st, r, ends)                                 # noqa: F821
        for seat in range(n):
            out[seat] = mix * out[seat] + (1.0 - mix) * ends[seat]
    return x, True


@dataclass(frozen=True)
class ValueFeatures:
    """What one game's value models read: `kernel(st, r, seat, f)` writes the features of
    the kernel state `st` from `seat` to `f` (`count(r)` long), compiled; `name` is the
    feature set a model records (a change to the features or the walk is a new name),
    and `variant_keys` the game parameters that change their size or meaning (a model
    fits one variant)."""

    kernel: Callable
    count: Callable
    name: str
    variant_keys: tuple[str, ...]
    module: ModuleType
    #: `walk(st, r, x, player, turns, legal) -> x`: plays a world on in place to where
    #: the model reads it, compiled (`stay`: nowhere)
    walk: Callable = stay

    def of(self, core, seat: int) -> np.ndarray:
        """The features of the engine `core` from `seat`."""
        f = np.empty(self.count(core.r))
        self.kernel(core.st, core.r, seat, f)
        return f

    def values(self, core, model: np.ndarray) -> np.ndarray:
        """Every seat's value of the engine `core` by the packed `model`, less their
        mean; the returns at the end (numpy: the kernel form's reference)."""
        if core.is_terminal():
            return np.array(core.returns(), np.float64)
        raw = forward_reference(model, np.array([self.of(core, seat) for seat in
                                                 range(core.rules.num_players)]))[:, 0]
        return raw - raw.mean()

    def walked(self, world, random, player: int, turns: int = 1) -> None:
        """The engine `world` walked on in place to where the model reads it, for
        `player` (`random()` seeds the walk's chance)."""
        if self.walk is not stay:
            x = np.uint64(seed_state(int(random() * (1 << 53))))
            legal = np.empty(type(world).kernel.MAX_LEGAL, np.int64)
            self.walk(world.st, world.r, x, player, turns, legal)

    def reads(self, core) -> bool:
        """Whether the models read the engine `core` where it is, for its mover (the
        positions a fit learns from): the walk moves nothing."""
        if self.walk is stay:
            return True
        st = core.st.copy()
        legal = np.empty(type(core).kernel.MAX_LEGAL, np.int64)
        self.walk(st, core.r, np.uint64(1), core.current_player(), 1, legal)
        return bool(np.array_equal(st, core.st))

    def mixed_values(self, world, model: np.ndarray, mix: float, random, player: int = 0,
                     turns: int = 1) -> np.ndarray:
        """`values` of the engine `world` walked for `player` (in place), mixed with one
        random playout's returns from there (played out in place, `random()` for the
        walk and the playout) where `mix` is below 1."""
        self.walked(world, random, player, turns)
        valued = self.values(world, model)
        if mix >= 1.0:
            return valued
        world.random_playout(random)
        return mix * valued + (1.0 - mix) * np.array(world.returns(), np.float64)

    def names(self) -> MappingProxyType:
        """The names `value_leaf` calls beyond the kernel's, bound to this game's."""
        return MappingProxyType({"value_features": self.kernel,
                                 "value_feature_count": self.count,
                                 "value_walk": self.walk})

