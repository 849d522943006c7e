"""Durak with same-rank-or-suit throw-ins (`durak`), as docs/rules/durak.md plays it."""

from koloda.games.durak.game import GAME_TYPE, DurakGame, DurakState
from koloda.games.durak.rules import PARAMETERS, DurakRules
from koloda.games.kit.registration import GameSpec, register

SPEC = register(GameSpec(
    game_type=GAME_TYPE,
    game_class=DurakGame,
    parameters=PARAMETERS,
    summary="Durak: throw in cards of the same rank or suit; the last player holding cards loses",
))

__all__ = ["GAME_TYPE", "PARAMETERS", "SPEC", "DurakGame", "DurakRules", "DurakState"]
