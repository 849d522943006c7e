"""A game's kernel state and the kernels' random stream as a world of tree.py.

The search of tree.py is one algorithm with two backends: in Python over a world
(an engine, or this), and compiled inside numba over the kernel's state (compiled_tree.py).
On these worlds the Python tree calls the very kernel functions the compiled tree calls,
in the same order, drawing from the same xorshift stream, so from the same seed it grows
the same tree visit for visit: the reference the compiled tree is tested against
(`reference_search`).  It is as slow as it is plain, and only for that.
"""

from __future__ import annotations

import numpy as np

from koloda.games.kit.cardlog import ResamplingError
from koloda.games.kit.compiled import CompiledWorlds
from koloda.games.kit.kernel import below
from koloda.solvers.search.evaluators import RANDOM, Hint, Leaf
from koloda.solvers.search.tree import TreeSearch


class KernelStream:
    """The kernels' xorshift64* stream (games/kit/kernel.py) as the tree's `rng`."""

    __slots__ = ("x",)

    def __init__(self, seed: int):
        self.x = np.uint64(seed)

    def randrange(self, count: int) -> int:
        x, pick = below(self.x, count)
        self.x = np.uint64(x)
        return int(pick)


class KernelWorld:
    """One kernel state `st` of `game` (a CompiledGame), stepped by its kernel functions."""

    __slots__ = ("game", "st", "legal")

    def __init__(self, game, st: np.ndarray):
        self.game, self.st = game, st
        self.legal = np.empty(game.max_legal, np.int64)

    def copy(self) -> KernelWorld:
        return KernelWorld(self.game, self.st.copy())

    def current_player(self) -> int:
        return int(self.game.kernel.current_player(self.st))

    def legal_actions(self) -> list[int]:
        n = self.game.kernel.legal_actions(self.st, self.game.r, self.legal)
        return self.legal[:n].tolist()

    def sample_chance(self, stream: KernelStream) -> int:
        x, outcome = self.game.kernel.sample_chance(self.st, self.game.r, stream.x)
        stream.x = np.uint64(x)
        return int(outcome)

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        return bool(self.game.kernel.chance_seen_by(self.st, self.game.r, player, outcome))

    def apply(self, action: int) -> None:
        self.game.kernel.apply(self.st, self.game.r, action)

    def end_at_deal(self) -> None:
        if self.game.end_at_deal is not None:
            self.game.end_at_deal(self.st)

    def returns(self) -> list[float]:
        out = np.zeros(self.game.num_players)
        self.game.kernel.returns(self.st, self.game.r, out)
        return out.tolist()


class KernelWorlds:
    """The worlds of a `CompiledWorlds`, each drawn by its determinizer from the stream."""

    def __init__(self, worlds: CompiledWorlds):
        self.worlds = worlds

    def sample(self, stream: KernelStream) -> KernelWorld:
        w = self.worlds
        st = np.empty_like(w.template)
        x, ok = w.game.determinize(w.template, w.game.r, w.prob, w.extra, st, stream.x)
        stream.x = np.uint64(x)
        if not ok:
            raise ResamplingError()
        return KernelWorld(w.game, st)


def kernel_rollout(leaf: Leaf, game, player: int, turns: int = 1):
    """`leaf`'s kernel form as the tree's `rollout(world, stream)` on kernel worlds."""
    value = game.bind(leaf.kernel, leaf.names)
    weights = leaf.weights()

    def rollout(world: KernelWorld, stream: KernelStream):
        out = np.zeros(game.num_players)
        x, valued = value(world.st, game.r, stream.x, player, turns, weights, world.legal,
                          out)
        stream.x = np.uint64(x)
        return out.tolist() if valued else None
    return rollout


def kernel_hint(hint: Hint, game):
    """`hint`'s kernel form as the tree's `hint(world)` on kernel worlds."""
    move = game.bind(hint.kernel)

    def hinted(world: KernelWorld) -> int:
        return int(move(world.st, game.r, world.legal))
    return hinted


def reference_search(worlds: CompiledWorlds, player: int, uct_c: float, seed: int,
                     roots: int = 1, leaf: Leaf = RANDOM, hint: Hint | None = None,
                     prior: float = 0.0, turns: int = 1, root_hint: int = -1) -> TreeSearch:
    """tree.py's search on kernel worlds, with the arguments of the compiled search
    (`CompiledSearch`) and its random stream: its `ismcts` and `pimc` grow the trees the
    compiled search grows from the same seed."""
    game = worlds.game
    hinted = kernel_hint(hint, game) if hint is not None and prior > 0 else None
    return TreeSearch(KernelWorlds(worlds), player, uct_c, KernelStream(seed), roots=roots,
                      rollout=kernel_rollout(leaf, game, player, turns), hint=hinted,
                      prior=prior, root_hint=root_hint)
