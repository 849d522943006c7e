"""Durak with same-rank-or-suit throw-ins (`durak`), as docs/rules/durak.md plays it."""

import pyspiel

from koloda.games.durak.game import GAME_TYPE, DurakGame, DurakState
from koloda.games.durak.rules import PARAMETERS, DurakRules

SUMMARY = "Durak: throw in cards of the same rank or suit; the last player holding cards loses"

pyspiel.register_game(GAME_TYPE, DurakGame)

__all__ = ["GAME_TYPE", "PARAMETERS", "SUMMARY", "DurakGame", "DurakRules", "DurakState"]
