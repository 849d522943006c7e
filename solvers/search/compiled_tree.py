"""The search tree of tree.py, compiled: whole ISMCTS and PIMC simulations inside numba.

The same algorithm as `Tree.simulate` (read that first): nodes keyed by what the
searching player observes, UCB1 with availability counts, an untried action chosen at
random and valued by one uniformly random playout.  Here the tree is arrays (a node's
first child, next sibling, key, visits and availability in one int64 table, the values
beside it), the worlds come from the game's compiled determinizer, and the game is its
kernel functions (games/kit/compiled.py), passed in so that one tree serves every game.
The random numbers are the kernels' xorshift stream, so a search is reproducible from its
seed but plays other games than the Python tree; tests compare the two by distribution
and strength.  Where the game offers them as kernel functions (kernel_leaves.py), a
leaf is valued by the game's learned model instead of a random playout, and the
heuristic's move is a prior, as in the Python tree.

Each game gets its own compiled copy of the simulation loops (`loops_for`): the plain
functions below, with the game's kernel functions as their globals, compiled and cached
under a name that carries a digest of every source they compile from; a search with the
learned leaf or the prior gets a copy of its own, those choices compiled in as
constants.  (numba can take the kernel functions as arguments instead, but its disk cache
then keys entries by objects that do not outlive the process that wrote them, and a
second process can neither add to nor trust that cache; and numba does not see a change
in a callee's source, which the digest does.)

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

import numpy as np
from numba import njit

from koloda.games.kit import cardlog_kernel, compiled
from koloda.games.kit import kernel as kit_kernel
from koloda.games.kit.cardlog import ResamplingError
from koloda.games.kit.compiled import FUNCTIONS, CompiledGame, CompiledWorlds
from koloda.games.kit.engine import CHANCE, TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import below

HIDDEN = -1                        # key of a chance outcome the searcher does not see

# Columns of the node table, and the counters in `meta`.
CHILD, SIBLING, KEY, VISITS, AVAIL = range(5)
COUNT, SIMULATIONS, DRAWN = range(3)

MAX_PATH = 4096                    # decisions of one simulation inside the tree
MARGIN = 8192                      # free nodes kept before a simulation starts
OK, FULL, NO_WORLD = range(3)

# The game's kernel functions and determinizer: the simulation loops call them by these
# names, which `loops_for` binds in each game's copy of the loops' globals.
current_player = legal_actions = sample_chance = chance_seen_by = apply = None
playout = returns = determinize = None
# The leaf and the prior: LEARNED and HINTED are constants of each copy, `leaf` and
# `hint` the game's kernel_leaves functions (or the stand-ins below where it has none).
LEARNED = HINTED = False
leaf = hint = None


@njit(cache=True)
def _no_leaf(st, r, x, player, turns, weights, legal, out):
    return x, False


@njit(cache=True)
def _no_hint(st, r, legal):
    return -1


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


def _value_leaf(world, r, x, player, turns, weights, legal, rets):
    """(x, valued): the learned value of the leaf `world` to `rets` where the copy has it
    and the game did not end first, else a random playout to the end (not valued)."""
    if LEARNED:
        x, valued = leaf(world, r, x, player, turns, weights, legal, rets)
        return x, valued
    return playout(world, r, x), False


def _simulate(tree, value, meta, root, world, r, player, sees_all, uct_c, x, legal, lookup,
              path, rets, prior, turns, weights):
    """One simulation in `world` (modified in place) from `root`; the new random state.
    (A loop of `loops_for`: the game's functions are its globals.)"""
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
                    x, valued = _value_leaf(world, r, x, player, turns, weights, legal, rets)
                    break
            node = child
            continue
        n = legal_actions(world, r, legal)
        hinted = -1
        if HINTED and n > 1:
            hinted = hint(world, r, legal)     # writes the same legal actions again
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
            if HINTED and hinted >= 0 and lookup[hinted] < 0:
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
            x, valued = _value_leaf(world, r, x, player, turns, weights, legal, rets)
            break
        best, best_score = -1, -math.inf
        for j in range(n):
            child = lookup[legal[j]]
            visits = tree[child, VISITS]
            score = value[child] / visits + uct_c * math.sqrt(
                math.log(tree[child, AVAIL]) / visits)
            if HINTED and legal[j] == hinted:
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


def _ismcts(tree, value, meta, template, r, prob, extra, world, player, uct_c, xs, count,
            legal, lookup, path, rets, prior, turns, weights):
    """`count` simulations from root 0, each in a freshly drawn world; (done, status)."""
    x = xs[0]
    for i in range(count):
        if meta[COUNT] > tree.shape[0] - MARGIN:
            xs[0] = x
            return i, FULL
        x, ok = determinize(template, r, prob, extra, world, x)
        if not ok:
            xs[0] = x
            return i, NO_WORLD
        x = _simulate(tree, value, meta, 0, world, r, player, False, uct_c, x, legal, lookup,
                      path, rets, prior, turns, weights)
    xs[0] = x
    return count, OK


def _pimc(tree, value, meta, template, r, prob, extra, worlds, world, player, uct_c, xs,
          first, count, legal, lookup, path, rets, prior, turns, weights):
    """Simulations `first` .. `first + count - 1`, round-robin over the worlds (world k's
    tree has root k, all chance seen); a world is drawn when its first simulation comes,
    so a time limit bounds the drawing too.  (done, status)."""
    x = xs[0]
    k_worlds = worlds.shape[0]
    for i in range(count):
        if meta[COUNT] > tree.shape[0] - MARGIN:
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
        x = _simulate(tree, value, meta, k, world, r, player, True, uct_c, x, legal, lookup,
                      path, rets, prior, turns, weights)
    xs[0] = x
    return count, OK


@dataclass(frozen=True)
class Loops:
    """One game's compiled simulation loops."""

    ismcts: object
    pimc: object


_LOOPS: dict[tuple, Loops] = {}


def loops_for(game: CompiledGame, leaves=None, learned: bool = False,
              hinted: bool = False) -> Loops:
    """The simulation loops of `game`'s kernel and determinizer, compiled once per process
    and cached on disk under a name with the digest of their sources; with `leaves` (the
    game's KernelLeaves), `learned` values leaves by its model and `hinted` adds its
    heuristic's prior."""
    learned, hinted = bool(leaves and learned), bool(leaves and hinted)
    key = (game.kernel.__name__, game.determinize.__module__, game.determinize.__name__,
           learned, hinted)
    loops = _LOOPS.get(key)
    if loops is None:
        scope = dict(globals())
        scope.update({name: getattr(game.kernel, name) for name in FUNCTIONS})
        scope["determinize"] = game.determinize
        scope.update(LEARNED=learned, HINTED=hinted,
                     leaf=leaves.leaf if learned else _no_leaf,
                     hint=leaves.hint if hinted else _no_hint)
        extra = leaves.modules if learned or hinted else ()
        variant = ("_learned" if learned else "") + ("_hinted" if hinted else "")
        tag = f"{game.kernel.__name__.split('.')[-2]}{variant}_{_digest(game, extra)}"
        scope["_value_leaf"] = _compiled(_value_leaf, scope, tag)
        scope["_simulate"] = _compiled(_simulate, scope, tag)
        loops = _LOOPS[key] = Loops(_compiled(_ismcts, scope, tag),
                                    _compiled(_pimc, scope, tag))
    return loops


def _compiled(function, scope: dict, tag: str):
    """`function` with `scope` as its globals, jitted and cached as `<name>_<tag>`."""
    copy = types.FunctionType(function.__code__, scope, function.__name__)
    copy.__qualname__ = f"{function.__name__}_{tag}"
    copy.__doc__ = function.__doc__
    return njit(cache=True)(copy)


def _digest(game: CompiledGame, extra: tuple = ()) -> str:
    """A digest of the sources a game's loops compile from: this module, the kit's
    kernels, the game's kernel and determinizer modules, and any `extra` modules (the
    leaf and the prior's)."""
    modules = (sys.modules[__name__], kit_kernel, cardlog_kernel, compiled, game.kernel,
               sys.modules[game.determinize.__module__]) + tuple(extra)
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:12]


class CompiledSearch:
    """One search for `player` from `worlds` (an engine's `compiled_worlds`): `roots`
    trees (one for ISMCTS, one per world for PIMC) in one node table."""

    def __init__(self, worlds: CompiledWorlds, player: int, uct_c: float, seed: int,
                 roots: int = 1, capacity: int = 1 << 16, leaves=None, learned: bool = False,
                 prior: float = 0.0, turns: int = 1):
        """`leaves`: the game's KernelLeaves, for leaves valued by its learned model
        (`learned`, at the searcher's `turns`-th turn) and its heuristic as a prior of
        weight `prior` (0: none)."""
        game = worlds.game
        self.worlds, self.game, self.player, self.uct_c = worlds, game, player, uct_c
        self.loops = loops_for(game, leaves, learned, prior > 0)
        self.prior, self.turns = float(prior), int(turns)
        self.weights = (leaves.weights() if leaves is not None and learned
                        else np.zeros(1, np.float64))
        self.roots = roots
        capacity = max(capacity, roots + 2 * MARGIN)
        self.tree = np.full((capacity, 5), -1, np.int64)
        self.tree[:roots, VISITS:] = 0
        self.value = np.zeros(capacity, np.float64)
        self.meta = np.zeros(4, np.int64)
        self.meta[COUNT] = roots
        self.xs = np.array([seed & ((1 << 64) - 1) or 1], np.uint64)
        self.world = np.empty_like(worlds.template)
        self.pimc_worlds = np.empty((roots, worlds.template.shape[0]), np.int64)
        self.legal = np.empty(game.max_legal, np.int64)
        self.lookup = np.full(game.num_actions, -1, np.int64)
        self.path = np.empty((MAX_PATH + 1, 2), np.int64)
        self.rets = np.zeros(game.num_players, np.float64)

    @property
    def simulations(self) -> int:
        return int(self.meta[SIMULATIONS])

    @property
    def nodes(self) -> int:
        return int(self.meta[COUNT])

    def ismcts(self, count: int) -> None:
        """`count` more simulations, each in a new world, from root 0."""
        w, g = self.worlds, self.game
        while count > 0:
            done, status = self.loops.ismcts(
                self.tree, self.value, self.meta, w.template, g.r, w.prob, w.extra,
                self.world, self.player, self.uct_c, self.xs, count, self.legal,
                self.lookup, self.path, self.rets, self.prior, self.turns, self.weights)
            count -= done
            self._check(status)

    def pimc(self, count: int) -> None:
        """`count` more simulations, round-robin over the worlds, one tree each."""
        w, g = self.worlds, self.game
        while count > 0:
            done, status = self.loops.pimc(
                self.tree, self.value, self.meta, w.template, g.r, w.prob, w.extra,
                self.pimc_worlds, self.world, self.player, self.uct_c, self.xs,
                self.simulations, count, self.legal, self.lookup, self.path, self.rets,
                self.prior, self.turns, self.weights)
            count -= done
            self._check(status)

    def _check(self, status) -> None:
        if status == NO_WORLD:
            raise ResamplingError("no consistent deal found for the hidden cards")
        if status == FULL:
            self._grow()

    def _grow(self) -> None:
        """Twice the node table (a tree outgrew it between two simulations)."""
        size = self.tree.shape[0]
        tree = np.full((2 * size, 5), -1, np.int64)
        tree[:size] = self.tree
        value = np.zeros(2 * size, np.float64)
        value[:size] = self.value
        self.tree, self.value = tree, value

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
        return int(self.meta[DRAWN])
