"""Parket as an OpenSpiel Python game: a perfect-information game without chance, over
the kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

from koloda.games.errors import IllegalActionError
from koloda.games.kit.state import KitGame, KitState, game_type
from koloda.games.parket import actions, observer
from koloda.games.parket.engine import ParketCore
from koloda.games.parket.explain import why_illegal
from koloda.games.parket.rules import PARAMETERS, ParketRules

GAME_TYPE = game_type("parket", "Parket", PARAMETERS, 2, 2, hidden=False, chance=False)


class ParketGame(KitGame):
    game_type = GAME_TYPE
    rules_class = ParketRules
    observer_class = observer.ParketObserver
    start_parameters = ("position",)

    def new_initial_state(self):
        return ParketState(self)


class ParketState(KitState):
    """A Parket position as a pyspiel state."""

    engine_class, notation, views = ParketCore, actions, observer

    def position(self) -> str:
        """The position in the notation of docs/rules/parket.md."""
        return self._core.position()

    def string_to_action(self, *args):
        """As the kit's, with the rule an illegal action breaks named first."""
        try:
            return super().string_to_action(*args)
        except IllegalActionError as error:
            core = self._core
            player = args[0] if len(args) == 2 else core.current_player()
            if core.is_terminal() or player != core.current_player():
                raise
            action = self.parse_action(args[-1])
            raise IllegalActionError(f"{why_illegal(core, action)}; {error}") from None
