"""Parket as an OpenSpiel Python game: a perfect-information game without chance, over
the kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

from koloda.games.kit.state import KitGame, KitState, game_type
from koloda.games.parket import actions, observer
from koloda.games.parket.engine import ParketCore
from koloda.games.parket.rules import PARAMETERS, ParketRules

GAME_TYPE = game_type("parket", "Parket", PARAMETERS, 2, 2, hidden=False, chance=False)


class ParketGame(KitGame):
    game_type = GAME_TYPE
    rules_class = ParketRules
    observer_class = observer.ParketObserver

    def new_initial_state(self):
        return ParketState(self)


class ParketState(KitState):
    """A Parket position as a pyspiel state."""

    engine_class, notation, views = ParketCore, actions, observer

    def position(self) -> str:
        """The position in the notation of docs/rules/parket.md."""
        return self._core.position()
