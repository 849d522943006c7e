"""Platinum Fish as an OpenSpiel Python game: its GameType and short game and state classes
over the kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

from koloda.games.kit.state import KitGame, KitState, game_type
from koloda.games.platinum_fish import actions, observer
from koloda.games.platinum_fish.engine import PlatinumFishCore
from koloda.games.platinum_fish.rules import PARAMETERS, PlatinumFishRules

GAME_TYPE = game_type("platinum_fish", "Platinum Fish", PARAMETERS, 2, 6)


class PlatinumFishGame(KitGame):
    game_type = GAME_TYPE
    rules_class = PlatinumFishRules
    observer_class = observer.PlatinumFishObserver

    def new_initial_state(self):
        return PlatinumFishState(self)


class PlatinumFishState(KitState):
    """A Platinum Fish position as a pyspiel state."""

    engine_class, notation, views = PlatinumFishCore, actions, observer
