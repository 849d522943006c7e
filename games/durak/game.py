"""Durak as an OpenSpiel Python game: its GameType and short game and state classes over the
kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

from koloda.games.durak import actions, observer
from koloda.games.durak.engine import DurakCore
from koloda.games.durak.rules import PARAMETERS, DurakRules
from koloda.games.kit.state import KitGame, KitState, game_type

GAME_TYPE = game_type("durak", "Durak (same-rank-or-suit throw-in)", PARAMETERS, 2, 6)


class DurakGame(KitGame):
    game_type = GAME_TYPE
    rules_class = DurakRules
    observer_class = observer.DurakObserver

    def new_initial_state(self):
        return DurakState(self)


class DurakState(KitState):
    """A Durak position as a pyspiel state."""

    engine_class, notation, views = DurakCore, actions, observer
