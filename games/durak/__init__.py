"""Durak with same-rank-or-suit throw-ins (`durak`), as docs/rules/durak.md plays it."""

import pyspiel

from games.durak.game import GAME_TYPE, DurakGame, DurakState
from games.durak.rules import PARAMETERS, DurakRules

pyspiel.register_game(GAME_TYPE, DurakGame)

__all__ = ["GAME_TYPE", "PARAMETERS", "DurakGame", "DurakRules", "DurakState"]
