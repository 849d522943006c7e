"""Snitch (`snitch`): sets with wild twos and jokers, deals played to a target score, as
docs/rules/snitch.md plays it."""

from koloda.games.kit.registration import GameSpec, register
from koloda.games.snitch.game import GAME_TYPE, SnitchGame, SnitchState
from koloda.games.snitch.rules import PARAMETERS, SnitchRules

_LEARNED_SEARCH = "ismcts(sims=500,rollout=learned,uct_c=0.1)"

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=SnitchGame,
    parameters=PARAMETERS,
    summary="Snitch: lay sets of a rank (a 2 or a joker may stand in), deal after deal, "
            "until someone's total reaches the target",
    opponent=_LEARNED_SEARCH,
    # Search whose leaves the learned model values: 38.8% against two heuristics where
    # even is 33.6% (reports/snitch--snitch.md), 42.2% on other deals
    # (reports/snitch-confirm.md).  About 50 ms a move, the cost of ismcts(sims=200) with
    # random rollouts, so the quick budget's too (62.5% in reports/default--snitch-*,
    # where random rollouts scored 50.0%).
    strongest=(("quick", _LEARNED_SEARCH), ("full", _LEARNED_SEARCH)),
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "SnitchGame", "SnitchRules", "SnitchState"]
