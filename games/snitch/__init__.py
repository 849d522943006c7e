"""Snitch (`snitch`): sets with wild twos and jokers, deals played to a target score, as
docs/rules/snitch.md plays it."""

from koloda.games.kit.registration import GameSpec, register
from koloda.games.snitch.game import GAME_TYPE, SnitchGame, SnitchState
from koloda.games.snitch.rules import PARAMETERS, SnitchRules

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=SnitchGame,
    parameters=PARAMETERS,
    summary="Snitch: lay sets of a rank (a 2 or a joker may stand in), deal after deal, "
            "until someone's total reaches the target",
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "SnitchGame", "SnitchRules", "SnitchState"]
