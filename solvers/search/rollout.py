"""Rollout policies: how search plays a position out to the end to value a new leaf.

A policy is a function `policy(world, rng)` that plays the engine `world` to the end in
place, or stops short and returns every player's value (a list, one per player) to stand
for the returns there.  Search takes one as a parameter, so a stronger playout (a
heuristic, a learned value) changes no tree code; agents name it in their spec
(`ismcts(rollout=random)`).

`random` is the engine's own playout, a rule.  `heuristic` and `learned` are how to play
well, so they live here, beside search, and not in the engines (as OpenSpiel keeps its
`Evaluator` beside MCTS): a game's own are found in `LEAVES` by (rollout name, game short
name) when a search binds its policy (`rollout_for`).
"""

from __future__ import annotations

from koloda.games.kit.engine import Engine
from koloda.solvers.learned import snitch as snitch_value
from koloda.solvers.playouts import platinum_fish, snitch

#: A game's own leaf evaluators by (rollout name, game short name).  `heuristic`:
#: `playout(world, random)` plays to the end by the game's rules of thumb.  `learned`:
#: `values(world, random, player, turns)` plays a copy on until `player`'s turn has begun
#: `turns` times and gives every player's learned value there, or the returns where the
#: game ended first.  `random()` gives floats in [0, 1) (such as `Random.random`).  The
#: compiled tree calls the kernel functions behind them (kernel_leaves.py).
LEAVES = {
    ("heuristic", "platinum_fish"): platinum_fish.heuristic_playout,
    ("heuristic", "snitch"): snitch.heuristic_playout,
    ("learned", "snitch"): snitch_value.truncated_values,
}


def random_rollout(world: Engine, rng) -> None:
    """Uniformly random decisions, chance by its probabilities (the engine's fast path)."""
    world.random_playout(rng.random)


def heuristic_rollout(world: Engine, rng) -> None:
    """The game's rules of thumb (its `LEAVES` playout, bound by `rollout_for`); a game
    without them plays uniformly at random, as here."""
    world.random_playout(rng.random)


def learned_rollout(world: Engine, rng, player: int = 0, turns: int = 1):
    """For `player`'s search: the game's rules of thumb until `player`'s turn has begun
    `turns` times, then the game's learned value of the position for every player (its
    `LEAVES` model, bound by `rollout_for`).  A game without a model plays its heuristic
    rollout to the end; one with neither plays uniformly at random, as here."""
    world.random_playout(rng.random)


ROLLOUTS = {"random": random_rollout, "heuristic": heuristic_rollout,
            "learned": learned_rollout}


def rollout_for(policy, player: int, depth: int = 1, game: str = ""):
    """`policy` (one of ROLLOUTS) as a `policy(world, rng)` for `player`'s search in the
    game of short name `game`: the game's own evaluator where `LEAVES` has one."""
    if policy is learned_rollout:
        values = LEAVES.get(("learned", game))
        if values is not None:
            def learned(world, rng):
                return values(world, rng.random, player, depth)
            return learned
        policy = heuristic_rollout
    if policy is heuristic_rollout:
        playout = LEAVES.get(("heuristic", game))
        if playout is not None:
            def heuristic(world, rng):
                playout(world, rng.random)
            return heuristic
    return policy
