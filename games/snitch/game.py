"""Snitch as an OpenSpiel Python game: its GameType and short game and state classes over
the kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

from koloda.games.kit.state import KitGame, KitState, game_type
from koloda.games.snitch import actions, observer
from koloda.games.snitch.engine import SnitchCore
from koloda.games.snitch.rules import PARAMETERS, SnitchRules

GAME_TYPE = game_type("snitch", "Snitch", PARAMETERS, 3, 8)


class SnitchGame(KitGame):
    game_type = GAME_TYPE
    rules_class = SnitchRules
    observer_class = observer.SnitchObserver

    def new_initial_state(self):
        return SnitchState(self)


class SnitchState(KitState):
    """A Snitch position (in a match of deals) as a pyspiel state."""

    engine_class, notation, views = SnitchCore, actions, observer
