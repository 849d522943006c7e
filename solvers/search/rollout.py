"""Rollout policies: how search plays a position out to the end to value a new leaf.

A policy is a function `policy(world, rng)` that plays the engine `world` to the end in
place, or stops short and returns every player's value (a list, one per player) to
stand for the returns there.  Search takes one as a parameter, so a stronger playout (a heuristic, a learned
policy) changes no tree code; agents name it in their spec (`ismcts(rollout=random)`).
"""

from __future__ import annotations

import functools

from koloda.games.kit.engine import Engine


def random_rollout(world: Engine, rng) -> None:
    """Uniformly random decisions, chance by its probabilities (the engine's fast path)."""
    world.random_playout(rng.random)


def heuristic_rollout(world: Engine, rng) -> None:
    """The game's rules of thumb (`Engine.heuristic_playout`; random where a game has none)."""
    world.heuristic_playout(rng.random)


def learned_rollout(world: Engine, rng, player: int = 0, turns: int = 1):
    """For `player`'s search: the game's rules of thumb until `player`'s turn has begun
    `turns` times, then the game's learned value of the position for every player
    (`Engine.learned_values`; a whole heuristic playout where a game has no model)."""
    return world.learned_values(rng.random, player, turns)


ROLLOUTS = {"random": random_rollout, "heuristic": heuristic_rollout,
            "learned": learned_rollout}


def rollout_for(policy, player: int, depth: int = 1):
    """`policy` (one of ROLLOUTS) as a `policy(world, rng)` for `player`'s search."""
    if policy is learned_rollout:
        return functools.partial(learned_rollout, player=player, turns=depth)
    return policy
