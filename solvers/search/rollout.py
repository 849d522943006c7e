"""Rollout policies: how search plays a position out to the end to value a new leaf.

A policy is a function `policy(world, rng)` that plays the engine `world` to the end in
place.  Search takes one as a parameter, so a stronger playout (a heuristic, a learned
policy) changes no tree code; agents name it in their spec (`ismcts(rollout=random)`).
"""

from __future__ import annotations

from koloda.games.kit.engine import Engine


def random_rollout(world: Engine, rng) -> None:
    """Uniformly random decisions, chance by its probabilities (the engine's fast path)."""
    world.random_playout(rng.random)


def heuristic_rollout(world: Engine, rng) -> None:
    """The game's rules of thumb (`Engine.heuristic_playout`; random where a game has none)."""
    world.heuristic_playout(rng.random)


ROLLOUTS = {"random": random_rollout, "heuristic": heuristic_rollout}
