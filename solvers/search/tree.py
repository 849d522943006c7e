"""Monte Carlo tree search over worlds, shared by `ismcts`, `pimc` and `mcts`: the
reference the compiled tree (compiled_tree.py) is a transcription of.

One `Tree` is grown by `simulate(world)` calls; each call walks one world (a position the
caller owns) down the tree and back.  Nodes are keyed by what the searching player
observes: decisions are public in the games here, so a decision node's children are keyed
by action; a chance node's children by the outcome when the searcher sees it and by a
single shared key when not.  That makes the tree a single-observer information-set tree
(SO-ISMCTS, Cowling, Powley and Whitehouse 2012) when the worlds differ per simulation,
and a plain UCT tree when they are one fixed world.

Selection is UCB1 over the actions legal in the current world, using each child's
availability count in place of the parent's visits, as ISMCTS requires when the legal
actions vary between worlds; with a `hint` (the game's evaluator, evaluators.py) the
hinted move is tried first and scores `prior / (1 + visits)` more; a `root_hint` is the
move so favoured at the root, the searcher's own decision (a learned policy's, read once
from the searcher's observation).  A new leaf is valued
by the tree's `rollout(world, rng)`: it plays the world on to the end, or stops short
and returns every player's value, which stands for the returns.

A world is anything with the methods the search calls: `current_player()` (a seat,
CHANCE or TERMINAL), `legal_actions()`, `sample_chance(rng)`, `chance_seen_by(player,
outcome)`, `apply(action)` and `returns()`.  Two adapters give them: an engine
(games/kit/engine.py) with Python's `random.Random` as `rng`, which the agents search on
with `tree=python`; and a kernel state with the kernels' random stream
(kernel_world.py), on which this tree grows, from the same seed, the very tree the
compiled search grows.  `rng` needs `randrange(n)`; the world and the rollout draw the
rest of their randomness from it.
"""

from __future__ import annotations

import math

from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.solvers.search.evaluators import RANDOM

HIDDEN = -1  # key of a chance outcome the searcher does not see


class Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.value = 0.0   # sum of the returns of the player who chose this node's action
        self.avail = 0     # times this node's action was legal when its parent was visited


class Tree:
    def __init__(self, player: int, uct_c: float, rng, sees_all_chance: bool = False,
                 rollout=None, hint=None, prior: float = 0.0, root_hint: int = -1):
        """`rollout`: the leaf valuation (uniformly random playouts on engines unless
        given); `hint(world)`: the move tried first, with bonus `prior` (none at 0);
        `root_hint`: that move at the root instead (-1: the hint's there too)."""
        self.player = player
        self.hint = hint if prior > 0 else None
        self.root_hint = root_hint if prior > 0 else -1
        self.prior = prior
        self.rollout = rollout or RANDOM.on_engines(player)
        self.sees_all_chance = sees_all_chance
        self.uct_c = uct_c
        self.rng = rng
        self.root = Node()
        self.simulations = 0

    def simulate(self, world) -> None:
        """One simulation in `world` (modified in place)."""
        rng = self.rng
        player = self.player
        uct_c = self.uct_c
        node = self.root
        path = []
        values = None
        while True:
            mover = world.current_player()
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                outcome = world.sample_chance(rng)
                if self.sees_all_chance or world.chance_seen_by(player, outcome):
                    key = outcome
                else:
                    key = HIDDEN
                world.apply(outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                node = child
                continue
            legal = world.legal_actions()
            children = node.children
            hinted = -1
            if len(legal) > 1:
                if not path and self.root_hint >= 0:
                    hinted = self.root_hint
                elif self.hint is not None:
                    hinted = self.hint(world)
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
            if untried:
                action = hinted if hinted in untried else untried[rng.randrange(len(untried))]
                child = children[action] = Node()
                child.avail = 1
                world.apply(action)
                path.append((child, mover))
                values = self.rollout(world, rng)
                break
            best_action, best_score = -1, -math.inf
            for action in legal:
                child = children[action]
                score = child.value / child.visits + uct_c * math.sqrt(
                    math.log(child.avail) / child.visits)
                if action == hinted:
                    score += self.prior / (1 + child.visits)
                if score > best_score:
                    best_action, best_score = action, score
            world.apply(best_action)
            node = children[best_action]
            path.append((node, mover))
        returns = world.returns() if values is None else values
        for node, mover in path:
            node.visits += 1
            node.value += returns[mover]
        self.simulations += 1

    def root_visits(self) -> dict:
        """Visits of each root action tried so far."""
        return {a: c.visits for a, c in self.root.children.items() if c.visits}


class TreeSearch:
    """One search for `player` on this tree, with the interface of the compiled backend
    (compiled_tree.py `CompiledSearch`): `ismcts(count)` grows one tree over a new world
    per simulation; `pimc(count)` grows one tree per world, round-robin over `roots`
    worlds, each drawn when its first simulation comes (so a time limit bounds the
    drawing too), with every chance outcome seen.  `worlds.sample(rng)` draws a world;
    with `end_at_deal`, each ends with the deal in progress."""

    chunk = 1            # simulations per call at most, under a time limit (Budget.chunks)

    def __init__(self, worlds, player: int, uct_c: float, rng, roots: int = 1,
                 rollout=None, hint=None, prior: float = 0.0, end_at_deal: bool = False,
                 root_hint: int = -1):
        self.worlds, self.player, self.uct_c, self.rng = worlds, player, uct_c, rng
        self.roots, self.rollout, self.hint, self.prior = roots, rollout, hint, prior
        self.root_hint = root_hint
        self.end_at_deal = end_at_deal
        self.trees: list[Tree] = []
        self.drawn: list = []
        self.simulations = 0

    def _tree(self, sees_all_chance: bool) -> Tree:
        return Tree(self.player, self.uct_c, self.rng, sees_all_chance, self.rollout,
                    self.hint, self.prior, self.root_hint)

    def _world(self):
        world = self.worlds.sample(self.rng)
        if self.end_at_deal:
            world.end_at_deal()
        return world

    def ismcts(self, count: int) -> None:
        if not self.trees:
            self.trees.append(self._tree(False))
        tree = self.trees[0]
        for _ in range(count):
            tree.simulate(self._world())
        self.simulations += count

    def pimc(self, count: int) -> None:
        for _ in range(count):
            k = self.simulations % self.roots
            if k == len(self.drawn):
                self.drawn.append(self._world())
                self.trees.append(self._tree(True))
            self.trees[k].simulate(self.drawn[k].copy())
            self.simulations += 1

    @property
    def worlds_drawn(self) -> int:
        return len(self.drawn)

    def root_visits(self) -> dict:
        """Visits of each root action tried, summed over the trees (PIMC's vote)."""
        visits: dict[int, int] = {}
        for tree in self.trees:
            for action, count in tree.root_visits().items():
                visits[action] = visits.get(action, 0) + count
        return visits
