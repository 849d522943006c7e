"""Platinum Fish (`platinum_fish`): pairs from a double deck with two dice, as
docs/rules/platinum_fish.md plays it."""

from koloda.games.kit.registration import GameSpec, register
from koloda.games.platinum_fish.game import GAME_TYPE, PlatinumFishGame, PlatinumFishState
from koloda.games.platinum_fish.rules import PARAMETERS, PlatinumFishRules

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=PlatinumFishGame,
    parameters=PARAMETERS,
    summary="Platinum Fish: collect pairs by taking the discard, drawing, or throwing two "
            "dice and taking or asking for the rank they name; most matches wins",
    opponent="ismcts(ms=500)",
    # ismcts with random rollouts: first in reports/default--platinum-fish.md (86.7%), and
    # 71.5% against the heuristic at 300 simulations, above the heuristic rollout's 64.8%
    # (reports/platinum_fish--platinum-fish.md); at 10000, level 8, 90.4% against the
    # heuristic over 400 games (reports/top-platinum_fish.md), about 0.1 s a move.
    strongest=(("quick", "ismcts(sims=200)"), ("full", "ismcts(sims=10000)")),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "PlatinumFishGame", "PlatinumFishRules",
           "PlatinumFishState"]
