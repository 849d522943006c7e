"""Snitch (`snitch`): sets with wild twos and jokers, deals played to a target score, as
docs/rules/snitch.md plays it."""

from koloda.games.kit.registration import GameSpec, register
from koloda.games.snitch.game import GAME_TYPE, SnitchGame, SnitchState
from koloda.games.snitch.rules import PARAMETERS, SnitchRules

_LEARNED_SEARCH = "ismcts(sims=500,rollout=learned,uct_c=0.1)"
_TOP_LEVEL = "ismcts(prior=0.5,rollout=learned,sims=3000,uct_c=0.1)"

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=SnitchGame,
    parameters=PARAMETERS,
    summary="Snitch: lay sets of a rank (a 2 or a joker may stand in), deal after deal, "
            "until someone's total reaches the target",
    opponent=_TOP_LEVEL,
    # Quick: search whose leaves the learned model values, 38.8% against two heuristics
    # where even is 33.6% (reports/snitch--snitch.md), 42.2% on other deals
    # (reports/snitch-confirm.md), and 62.5% in reports/default--snitch-* (random rollouts
    # 50.0%).  Full: level 8, the same search of 3000 simulations with the heuristic as a
    # prior, 46.3% [41.7, 50.9] against two heuristics where even is 33.9%, over 402
    # matches to 1000 (reports/top-snitch.md), about 20 ms a move compiled.
    strongest=(("quick", _LEARNED_SEARCH), ("full", _TOP_LEVEL)),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "SnitchGame", "SnitchRules", "SnitchState"]
