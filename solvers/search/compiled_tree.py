"""The search tree of tree.py, compiled: whole ISMCTS and PIMC simulations inside numba.

The same algorithm as `Tree.simulate` (read that first), transcribed line for line: nodes
keyed by what the searching player observes, UCB1 with availability counts, the hint
tried first and an untried action chosen at random otherwise, a new leaf valued by the
search's leaf.  Here the tree is arrays (a node's first child, next sibling, key, visits
and availability in one int64 table, the values beside it), the worlds come from the
game's compiled determinizer, the game is its kernel functions (games/kit/compiled.py),
and the leaf and the hint are the kernel forms of the game's evaluator (evaluators.py).
The random numbers are the kernels' xorshift stream.  On worlds of the same kernel and
the same stream (kernel_world.py) tree.py grows the same tree visit for visit, and the
tests hold the two to that.

Each game gets its own compiled copy of the simulation loops (`loops_for`) per leaf and
hint: the plain functions below, with the game's kernel functions, its determinizer, the
leaf and the hint as their globals, compiled and cached under a name that carries a
digest of every source they compile from.  (numba can take the kernel functions as
arguments instead, but its disk cache then keys entries by objects that do not outlive
the process that wrote them, and a second process can neither add to nor trust that
cache; and numba does not see a change in a callee's source, which the digest does.)
The loops take their arrays and settings as typed records (`Nodes`, `Draw`, `Settings`,
`Scratch`).

`CompiledSearch` holds one search's arrays and runs simulations in chunks, so a time
limit is read between chunks and a tree that fills its arrays grows between them.
"""

from __future__ import annotations

import hashlib
import math
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from koloda.games.kit import cardlog_kernel, compiled
from koloda.games.kit import kernel as kit_kernel
from koloda.games.kit.cardlog import ResamplingError
from koloda.games.kit.compiled import FUNCTIONS, CompiledGame, CompiledWorlds
from koloda.games.kit.engine import CHANCE, TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import below
from koloda.solvers.search import evaluators
from koloda.solvers.search.evaluators import RANDOM, Hint, Leaf, no_hint
from koloda.solvers.search.tree import HIDDEN

# Columns of the node table, and the counters in `meta`.
CHILD, SIBLING, KEY, VISITS, AVAIL = range(5)
COUNT, SIMULATIONS, DRAWN = range(3)

MAX_PATH = 4096                    # decisions of one simulation inside the tree
MARGIN = 8192                      # free nodes kept before a simulation starts
OK, FULL, NO_WORLD = range(3)


class Nodes(NamedTuple):
    """The tree: a node's first child, next sibling, key, visits and availability in one
    row of `table`; the sum of its mover's returns in `value`; counters in `meta`."""

    table: np.ndarray      # int64 (capacity, 5)
    value: np.ndarray      # float64 (capacity,)
    meta: np.ndarray       # int64: COUNT, SIMULATIONS, DRAWN


class Draw(NamedTuple):
    """Where worlds come from: the game's determinizer's arguments and its rules array."""

    template: np.ndarray
    r: np.ndarray
    prob: np.ndarray
    extra: np.ndarray


class Settings(NamedTuple):
    """What a search is asked: whose it is, UCB1's constant, the hint's weight, the move
    hinted at the root (-1: the hint's own there too), and the learned leaf's turns and
    model weights."""

    player: int
    uct_c: float
    prior: float
    root_hint: int
    turns: int
    weights: np.ndarray


class Scratch(NamedTuple):
    """Buffers a simulation writes: the legal actions, the children by action, the path
    (node, mover) and the returns."""

    legal: np.ndarray
    lookup: np.ndarray
    path: np.ndarray
    rets: np.ndarray


# The game's kernel functions and determinizer, and the search's leaf and hint kernel
# forms (evaluators.py): the simulation loops call them by these names, which `loops_for`
# binds in each copy of the loops' globals.
current_player = legal_actions = sample_chance = chance_seen_by = apply = None
playout = returns = determinize = leaf = hint = None


@njit(cache=True)
def _add_child(tree, value, meta, node, key):
    """A new child of `node` under `key`; -1 when the table is full."""
    i = meta[COUNT]
    if i >= tree.shape[0]:
        return -1
    meta[COUNT] = i + 1
    tree[i, CHILD] = -1
    tree[i, SIBLING] = tree[node, CHILD]
    tree[i, KEY] = key
    tree[i, VISITS] = 0
    tree[i, AVAIL] = 0
    value[i] = 0.0
    tree[node, CHILD] = i
    return i


@njit(cache=True)
def _find_child(tree, node, key):
    c = tree[node, CHILD]
    while c >= 0:
        if tree[c, KEY] == key:
            return c
        c = tree[c, SIBLING]
    return -1


@njit(cache=True)
def _mark_children(tree, node, lookup, mark):
    """lookup[action] = the child under that action (or -1 again, when clearing)."""
    c = tree[node, CHILD]
    n = lookup.shape[0]
    while c >= 0:
        key = tree[c, KEY]
        if 0 <= key < n:
            lookup[key] = c if mark else -1
        c = tree[c, SIBLING]


def _simulate(nodes, root, world, r, x, sees_all, settings, scratch):
    """One simulation in `world` (modified in place) from `root`; the new random state.
    (A loop of `loops_for`: the game's functions are its globals.)"""
    tree, value, meta = nodes
    player, uct_c, prior, root_hint, turns, weights = settings
    legal, lookup, path, rets = scratch
    node = root
    depth = 0
    valued = False
    while True:
        mover = current_player(world)
        if mover == TERMINAL:
            break
        if mover == CHANCE:
            x, outcome = sample_chance(world, r, x)
            key = HIDDEN
            if sees_all or chance_seen_by(world, r, player, outcome):
                key = outcome
            apply(world, r, outcome)
            child = _find_child(tree, node, key)
            if child < 0:
                child = _add_child(tree, value, meta, node, key)
                if child < 0:                  # no room: value the position from here
                    x, valued = leaf(world, r, x, player, turns, weights, legal, rets)
                    break
            node = child
            continue
        n = legal_actions(world, r, legal)
        hinted = -1
        if prior > 0 and n > 1:
            if depth == 0 and root_hint >= 0:  # the searcher's own decision at the root
                hinted = root_hint
            else:
                hinted = hint(world, r, legal)  # writes the same legal actions again
        _mark_children(tree, node, lookup, True)
        untried = 0
        for j in range(n):
            child = lookup[legal[j]]
            if child < 0:
                untried += 1
            else:
                tree[child, AVAIL] += 1
        if untried or depth == MAX_PATH:
            action = -1
            if hinted >= 0 and lookup[hinted] < 0:
                action = hinted                # the heuristic's move is tried first
            elif untried:
                x, pick = below(x, untried)
                for j in range(n):
                    if lookup[legal[j]] < 0:
                        if pick == 0:
                            action = legal[j]
                            break
                        pick -= 1
            _mark_children(tree, node, lookup, False)
            child = -1 if action < 0 else _add_child(tree, value, meta, node, action)
            if child >= 0:
                tree[child, AVAIL] = 1
                apply(world, r, action)
                path[depth, 0] = child
                path[depth, 1] = mover
                depth += 1
            x, valued = leaf(world, r, x, player, turns, weights, legal, rets)
            break
        best, best_score = -1, -math.inf
        for j in range(n):
            child = lookup[legal[j]]
            visits = tree[child, VISITS]
            score = value[child] / visits + uct_c * math.sqrt(
                math.log(tree[child, AVAIL]) / visits)
            if legal[j] == hinted:
                score += prior / (1 + visits)
            if score > best_score:
                best, best_score = j, score
        child = lookup[legal[best]]
        _mark_children(tree, node, lookup, False)
        apply(world, r, legal[best])
        node = child
        path[depth, 0] = child
        path[depth, 1] = mover
        depth += 1
    if not valued:
        returns(world, r, rets)
    for i in range(depth):
        child = path[i, 0]
        tree[child, VISITS] += 1
        value[child] += rets[path[i, 1]]
    meta[SIMULATIONS] += 1
    return x


def _ismcts(nodes, draw, world, xs, count, settings, scratch):
    """`count` simulations from root 0, each in a freshly drawn world; (done, status)."""
    meta = nodes.meta
    capacity = nodes.table.shape[0]
    template, r, prob, extra = draw
    x = xs[0]
    for i in range(count):
        if meta[COUNT] > capacity - MARGIN:
            xs[0] = x
            return i, FULL
        x, ok = determinize(template, r, prob, extra, world, x)
        if not ok:
            xs[0] = x
            return i, NO_WORLD
        x = _simulate(nodes, 0, world, r, x, False, settings, scratch)
    xs[0] = x
    return count, OK


def _pimc(nodes, draw, worlds, world, xs, first, count, settings, scratch):
    """Simulations `first` .. `first + count - 1`, round-robin over the worlds (world k's
    tree has root k, all chance seen); a world is drawn when its first simulation comes,
    so a time limit bounds the drawing too.  (done, status)."""
    meta = nodes.meta
    capacity = nodes.table.shape[0]
    template, r, prob, extra = draw
    x = xs[0]
    k_worlds = worlds.shape[0]
    for i in range(count):
        if meta[COUNT] > capacity - MARGIN:
            xs[0] = x
            return i, FULL
        k = (first + i) % k_worlds
        if k == meta[DRAWN]:
            x, ok = determinize(template, r, prob, extra, worlds[k], x)
            if not ok:
                xs[0] = x
                return i, NO_WORLD
            meta[DRAWN] += 1
        world[:] = worlds[k]
        x = _simulate(nodes, k, world, r, x, True, settings, scratch)
    xs[0] = x
    return count, OK


@dataclass(frozen=True)
class Loops:
    """One game's compiled simulation loops."""

    ismcts: object
    pimc: object


_LOOPS: dict[tuple, Loops] = {}


def loops_for(game: CompiledGame, leaf: Leaf = RANDOM, hint: Hint | None = None) -> Loops:
    """The simulation loops of `game`'s kernel and determinizer, valuing leaves by `leaf`'s
    kernel form and hinting by `hint`'s (none when None), compiled once per process and
    cached on disk under a name with the digest of their sources."""
    hint_kernel = no_hint if hint is None else hint.kernel
    key = (game.kernel.__name__, game.determinize.__module__, game.determinize.__name__,
           leaf.kernel, tuple(leaf.names.values()), hint_kernel)
    loops = _LOOPS.get(key)
    if loops is None:
        modules = leaf.modules + (() if hint is None else hint.modules)
        variant = leaf.name + ("" if hint is None else "_hinted")
        tag = f"{game.kernel.__name__.split('.')[-2]}_{variant}_{_digest(game, modules)}"
        scope = dict(globals())
        scope.update(zip(FUNCTIONS, game.functions))
        scope.update(determinize=game.determinize, hint=hint_kernel,
                     leaf=_jitted(game.bind(leaf.kernel, leaf.names), tag))
        scope["_simulate"] = _compiled(_simulate, scope, tag)
        loops = _LOOPS[key] = Loops(_compiled(_ismcts, scope, tag),
                                    _compiled(_pimc, scope, tag))
    return loops


def _compiled(function, scope: dict, tag: str):
    """`function` with `scope` as its globals, jitted and cached as `<name>_<tag>`."""
    copy = types.FunctionType(function.__code__, scope, function.__name__)
    copy.__doc__ = function.__doc__
    return _jitted(copy, tag)


def _jitted(function, tag: str):
    """`function` jitted and cached as `<name>_<tag>` (one compiled already as it is)."""
    if isinstance(function, CPUDispatcher):
        return function
    function.__qualname__ = f"{function.__name__}_{tag}"
    return njit(cache=True)(function)


def _digest(game: CompiledGame, extra: tuple = ()) -> str:
    """A digest of the sources a game's loops compile from: this module, the kit's
    kernels, the game's kernel and determinizer modules, and any `extra` modules (the
    leaf's and the hint's)."""
    modules = (sys.modules[__name__], kit_kernel, cardlog_kernel, compiled, evaluators,
               game.kernel, sys.modules[game.determinize.__module__]) + tuple(extra)
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:12]


class CompiledSearch:
    """One search for `player` from `worlds` (an engine's `compiled_worlds`): `roots`
    trees (one for ISMCTS, one per world for PIMC) in one node table.  The compiled
    backend of the search tree.py's `TreeSearch` runs in Python, with its interface."""

    chunk = 64           # simulations per call at most, under a time limit (Budget.chunks)

    def __init__(self, worlds: CompiledWorlds, player: int, uct_c: float, seed: int,
                 roots: int = 1, capacity: int = 1 << 16, leaf: Leaf = RANDOM,
                 hint: Hint | None = None, prior: float = 0.0, turns: int = 1,
                 root_hint: int = -1):
        """Leaves valued by `leaf` (at the searcher's `turns`-th turn, where it plays
        on to one) and `hint`'s move a prior of weight `prior` (none at 0); both by their
        kernel forms.  `root_hint`: the move the prior favours at the root instead
        (-1: the hint's)."""
        game = worlds.game
        self.worlds, self.game, self.player = worlds, game, player
        hint = hint if prior > 0 else None
        self.loops = loops_for(game, leaf, hint)
        self.settings = Settings(int(player), float(uct_c), float(prior), int(root_hint),
                                 int(turns), np.ascontiguousarray(leaf.weights(), np.float64))
        self.draw = Draw(worlds.template, game.r, worlds.prob, worlds.extra)
        self.roots = roots
        capacity = max(capacity, roots + 2 * MARGIN)
        table = np.full((capacity, 5), -1, np.int64)
        table[:roots, VISITS:] = 0
        meta = np.zeros(4, np.int64)
        meta[COUNT] = roots
        self.arrays = Nodes(table, np.zeros(capacity, np.float64), meta)
        self.xs = np.array([seed & ((1 << 64) - 1) or 1], np.uint64)
        self.world = np.empty_like(worlds.template)
        self.pimc_worlds = np.empty((roots, worlds.template.shape[0]), np.int64)
        self.scratch = Scratch(np.empty(game.max_legal, np.int64),
                               np.full(game.num_actions, -1, np.int64),
                               np.empty((MAX_PATH + 1, 2), np.int64),
                               np.zeros(game.num_players, np.float64))

    @property
    def tree(self) -> np.ndarray:
        """The node table (CHILD, SIBLING, KEY, VISITS, AVAIL per row)."""
        return self.arrays.table

    @property
    def simulations(self) -> int:
        return int(self.arrays.meta[SIMULATIONS])

    @property
    def nodes(self) -> int:
        return int(self.arrays.meta[COUNT])

    def ismcts(self, count: int) -> None:
        """`count` more simulations, each in a new world, from root 0."""
        while count > 0:
            done, status = self.loops.ismcts(self.arrays, self.draw, self.world, self.xs,
                                             count, self.settings, self.scratch)
            count -= done
            self._check(status)

    def pimc(self, count: int) -> None:
        """`count` more simulations, round-robin over the worlds, one tree each."""
        while count > 0:
            done, status = self.loops.pimc(self.arrays, self.draw, self.pimc_worlds,
                                           self.world, self.xs, self.simulations, count,
                                           self.settings, self.scratch)
            count -= done
            self._check(status)

    def _check(self, status) -> None:
        if status == NO_WORLD:
            raise ResamplingError()
        if status == FULL:
            self._grow()

    def _grow(self) -> None:
        """Twice the node table (a tree outgrew it between two simulations)."""
        table, value, meta = self.arrays
        size = table.shape[0]
        grown = np.full((2 * size, 5), -1, np.int64)
        grown[:size] = table
        more = np.zeros(2 * size, np.float64)
        more[:size] = value
        self.arrays = Nodes(grown, more, meta)

    def root_visits(self) -> dict:
        """Visits of each root action tried, summed over the roots (PIMC's vote)."""
        visits: dict[int, int] = {}
        tree = self.tree
        for root in range(self.roots):
            child = tree[root, CHILD]
            while child >= 0:
                if tree[child, VISITS]:
                    action = int(tree[child, KEY])
                    visits[action] = visits.get(action, 0) + int(tree[child, VISITS])
                child = tree[child, SIBLING]
        return visits

    @property
    def worlds_drawn(self) -> int:
        return int(self.arrays.meta[DRAWN])
