"""Game knowledge in search, one record per game: how a new leaf is valued, and which move
the tree tries first.  The one place a game plugs its knowledge into `ismcts`, `pimc` and
`mcts`, as OpenSpiel's `Evaluator` (`evaluate`, `prior`) is for its MCTS.

A `Leaf` values a new leaf: `random` plays the game out uniformly at random (every game
has it: its engine's and its kernel's own playout), `heuristic` plays it out by the
game's rules of thumb, `learned` is the leaf of the game's own learned value model where
it names one (Snitch's `snitch-v1`, which plays on to the searcher's next turn and reads
the model there), and a value model named in a spec (`value=`) is the one leaf of
learned/value.py.  A `Hint` is the heuristic's move at a node, the prior of
progressive bias (Chaslot et al., "Progressive strategies for Monte-Carlo tree search",
2008): tried first, and a bonus `prior / (1 + visits)` in selection that fades as the
search learns the move's value.  The heuristics read only the mover's hand and what is
public, so at an opponent's node the hint is what the heuristic would play holding that
world's hand.

Each has a Python form, which the tree of tree.py calls on engines, and may have a kernel
form, which the compiled tree (compiled_tree.py) runs inside numba on the kernel's state
array; a search runs compiled only where each piece it uses has its kernel form.  A kernel
form is either compiled already (it then reads the state through its own game's kernel)
or a plain function calling the game's kernel functions by their names
(games/kit/compiled.py FUNCTIONS), which the compiled tree binds to each game's kernel.

A game asked for knowledge it lacks falls back to what it has: `learned` to `heuristic`,
`heuristic` to `random`.  A new evaluator is one entry in `EVALUATORS`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType

import numpy as np
from numba import njit

from koloda.games.kit.state import CoreView
from koloda.solvers.heuristics.snitch import rules_of_thumb
from koloda.solvers.learned import durak as durak_value
from koloda.solvers.learned import parket as parket_value
from koloda.solvers.learned import platinum_fish as platinum_fish_value
from koloda.solvers.learned import snitch as snitch_value
from koloda.solvers.learned import value as learned_value
from koloda.solvers.learned.models import Model, ModelError, load_model
from koloda.solvers.learned.policy import Policy, PolicyInput, load_policy
from koloda.solvers.learned.value import ValueFeatures, value_leaf
from koloda.solvers.playouts import platinum_fish, snitch
from koloda.solvers.registry import load_agent

ROLLOUTS = ("random", "heuristic", "learned")
FALLBACK = {"learned": "heuristic", "heuristic": "random"}


def _no_weights() -> np.ndarray:
    return np.zeros(1, np.float64)


@dataclass(frozen=True)
class Leaf:
    """One way to value a new leaf of the tree.

    `python(world, random, player, turns)`: plays the engine `world` on in place to the
    end (returning None: its returns stand) or returns every player's value;
    `random()` gives floats in [0, 1).  `kernel(st, r, x, player, turns, weights, legal,
    out) -> (x, valued)`: the same on a kernel state with the xorshift state `x`,
    `out` holding the values where `valued`; None where the game has no kernel form.
    `weights()`: the learned model's weights the kernel form reads.  `modules`: the
    modules the kernel form compiles from (the compiled tree's cache digest); `names`:
    what a plain kernel form calls by name beyond the kernel's FUNCTIONS, bound with
    them."""

    name: str
    python: Callable
    kernel: Callable | None = None
    weights: Callable[[], np.ndarray] = _no_weights
    modules: tuple[ModuleType, ...] = ()
    names: Mapping[str, Callable] = field(default_factory=lambda: MappingProxyType({}))

    def on_engines(self, player: int, turns: int = 1):
        """This leaf as the tree's `rollout(world, rng)` for `player`'s search."""
        python = self.python

        def rollout(world, rng):
            return python(world, rng.random, player, turns)
        rollout.__qualname__ = f"{self.name}_rollout"
        return rollout


@dataclass(frozen=True)
class Hint:
    """The heuristic's move at a decision.  `python(game)`: a function `hint(world)` of
    the engine `world`; `kernel(st, r, legal)`: the same on a kernel state (`legal` a
    MAX_LEGAL buffer it may write), or None."""

    python: Callable
    kernel: Callable | None = None
    modules: tuple[ModuleType, ...] = ()


def _random_playout(world, random, player, turns):
    world.random_playout(random)


def _kernel_playout(st, r, x, player, turns, weights, legal, out):
    """The kernel's own uniformly random playout; `playout` is bound to each game's kernel
    function of that name where the compiled tree compiles this."""
    return playout(st, r, x), False  # noqa: F821  (bound per game: see the docstring)


def _playing(heuristic_playout):
    """A `playout(world, random)` to the end as a leaf's Python form."""
    def python(world, random, player, turns):
        heuristic_playout(world, random)
    python.__qualname__ = heuristic_playout.__module__.rpartition(".")[2] + "_playout"
    return python


class HeuristicHint:
    """`hint(world)`: the game's heuristic agent's move for the player to move in the
    engine `world` (every game's Python form of its hint)."""

    def __init__(self, game):
        self.agent = load_agent(game, "heuristic", seed=0)

    def __call__(self, world) -> int:
        return self.agent.choose(CoreView(world), world.current_player())


class PolicyHint:
    """`hint(world)`: a learned policy's best move for the player to move in the engine
    `world`, read from that player's observation (solvers/learned/policy.py).  Search
    asks it once a move, for the searcher's root decision (`root_hint`), where the
    observation is the searcher's own and the same in every world; a model evaluation
    at every node would cost more than the simulations it guides."""

    def __init__(self, game, model: str):
        self.policy = Policy(load_policy(game, model))
        self.input = PolicyInput(game)

    def __call__(self, world) -> int:
        player = world.current_player()
        legal = world.legal_actions()
        scores = self.policy.legal_logits(self.input.tensor(world, player),
                                          self.input.ids(world, legal))
        return legal[int(np.argmax(scores))]


@njit(cache=True)
def no_hint(st, r, legal):
    """The kernel form of no hint: no move is preferred."""
    return -1


RANDOM = Leaf("random", _random_playout, _kernel_playout)


@dataclass(frozen=True)
class Evaluator:
    """One game's knowledge for search: its leaves beyond `random`, its hint, and how its
    learned value models value a leaf."""

    leaves: Mapping[str, Leaf] = field(default_factory=lambda: MappingProxyType({}))
    hint: Hint = Hint(HeuristicHint)
    #: what its learned value models read (learned/value.py), where it has them
    values: ValueFeatures | None = None
    #: the value model `rollout=learned` names, where the game has one
    learned: str = ""

    def model_leaf(self, name: str, game, mix: float = 1.0) -> Leaf:
        """The leaf valued by the shipped model `name`, checked against `game`
        (ModelError, one line, for a model that is not this game's value model), mixed
        with a random playout's returns where `mix` is below 1."""
        model = load_model(name)
        model.check_game(game)
        if model.kind != "value" or self.values is None:
            raise ModelError(f"model {name} is a {model.kind} model; value= takes a value "
                             f"model of this game")
        if model.features != self.values.name:
            raise ModelError(f"model {name} reads the features {model.features}; "
                             f"{model.game}'s are {self.values.name} now")
        return _valued_by(model, self.values, mix)

    def leaf(self, rollout: str, game=None) -> Leaf:
        """The leaf `rollout` names (one of ROLLOUTS), or the nearest the game has;
        `learned`, the game's own value model, is checked against `game` (a pyspiel
        game)."""
        while rollout != "random":
            if rollout == "learned" and self.learned:
                return self.model_leaf(self.learned, game)
            leaf = self.leaves.get(rollout)
            if leaf is not None:
                return leaf
            rollout = FALLBACK[rollout]
        return RANDOM


EVALUATORS: Mapping[str, Evaluator] = MappingProxyType({
    "durak": Evaluator(values=durak_value.FEATURES),
    "platinum_fish": Evaluator(MappingProxyType({
        "heuristic": Leaf("heuristic", _playing(platinum_fish.heuristic_playout)),
    }), values=platinum_fish_value.FEATURES),
    "snitch": Evaluator(
        MappingProxyType({
            "heuristic": Leaf("heuristic", _playing(snitch.heuristic_playout)),
        }),
        Hint(HeuristicHint, rules_of_thumb, (sys.modules[rules_of_thumb.__module__],)),
        values=snitch_value.FEATURES, learned="snitch-v1"),
    "parket": Evaluator(values=parket_value.FEATURES),
})

_PLAIN = Evaluator()


def _valued_by(model: Model, features: ValueFeatures, mix: float) -> Leaf:
    """The leaf of learned/value.py: the model's values, mixed with a random playout's
    returns where `mix` is below 1 (its kernel form reads `mix` from weights[0])."""
    weights = np.concatenate([[mix], model.weights])
    weights.setflags(write=False)
    packed = model.weights

    def valued(world, random, player, turns):
        return features.mixed_values(world, packed, mix, random, player, turns).tolist()
    valued.__qualname__ = f"{model.game}_value"
    return Leaf("value", valued, value_leaf, lambda: weights,
                (learned_value, features.module), features.names())


def evaluator_for(short_name: str) -> Evaluator:
    """The knowledge of the game of that short name (any other game's: random leaves and
    its heuristic agent's hint)."""
    return EVALUATORS.get(short_name, _PLAIN)
