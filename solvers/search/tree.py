"""Monte Carlo tree search over engine states, shared by `ismcts` and `pimc`.

One `Tree` is grown by `simulate(world)` calls; each call walks one world (a copy of an
engine state that the caller owns) down the tree and back.  Nodes are keyed by what the
searching player observes: decisions are public in the games here, so a decision node's
children are keyed by action; a chance node's children by the outcome when the searcher
sees it and by a single shared key when not.  That makes the tree a single-observer
information-set tree (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) when the worlds
differ per simulation, and a plain UCT tree when they are one fixed world.

Selection is UCB1 over the actions legal in the current world, using each child's
availability count in place of the parent's visits, as ISMCTS requires when the legal
actions vary between worlds; with a `hint` (solvers/search/prior.py) the hinted move is
tried first and scores `prior / (1 + visits)` more.  Leaves are evaluated by one playout of the
tree's rollout
policy (solvers/search/rollout.py; uniformly random unless told otherwise); a policy that
stops short of the end returns every player's value itself, which stands for the returns.
"""

from __future__ import annotations

import math

from koloda.games.kit.chance import sample_outcome
from koloda.games.kit.engine import Engine
from koloda.solvers.search.rollout import random_rollout

_HIDDEN = -1  # key of a chance outcome the searcher does not see


class Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.value = 0.0   # sum of the returns of the player who chose this node's action
        self.avail = 0     # times this node's action was legal when its parent was visited


class Tree:
    def __init__(self, player: int, uct_c: float, rng, sees_all_chance: bool = False,
                 rollout=random_rollout, hint=None, prior: float = 0.0):
        self.player = player
        self.hint = hint if prior > 0 else None
        self.prior = prior
        self.rollout = rollout
        self.sees_all_chance = sees_all_chance
        self.uct_c = uct_c
        self.rng = rng
        self.root = Node()
        self.simulations = 0

    def simulate(self, world: Engine) -> None:
        """One simulation in `world` (modified in place)."""
        rng = self.rng
        player = self.player
        uct_c = self.uct_c
        node = self.root
        path = []
        values = None
        while not world.is_terminal():
            if world.is_chance():
                outcome = sample_outcome(world.chance_outcomes(), rng)
                if self.sees_all_chance or world.chance_seen_by(player, outcome):
                    key = outcome
                else:
                    key = _HIDDEN
                world.apply(outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                node = child
                continue
            mover = world.current_player()
            legal = world.legal_actions()
            children = node.children
            hinted = self.hint(world) if self.hint is not None and len(legal) > 1 else -1
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

