"""Platinum Fish as an OpenSpiel Python game: its GameType and short game and state classes
over the kit's wrapper (games/kit/state.py)."""

from __future__ import annotations

import pyspiel

from koloda.games.kit.state import KitGame, KitState
from koloda.games.platinum_fish import actions, observer
from koloda.games.platinum_fish.engine import PlatinumFishCore
from koloda.games.platinum_fish.rules import PARAMETERS, PlatinumFishRules

GAME_TYPE = pyspiel.GameType(
    short_name="platinum_fish",
    long_name="Platinum Fish",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={p.name: p.default for p in PARAMETERS},
)


class PlatinumFishGame(KitGame):
    game_type = GAME_TYPE
    rules_class = PlatinumFishRules
    observer_class = observer.PlatinumFishObserver

    def new_initial_state(self):
        return PlatinumFishState(self)


class PlatinumFishState(KitState):
    """A Platinum Fish position as a pyspiel state."""

    engine_class = PlatinumFishCore

    def decision_string(self, action):
        return actions.decision_to_string(self._core.rules, action)

    def chance_string(self, outcome):
        core = self._core
        return actions.chance_to_string(core.rules, core.phase, outcome)

    def parse_action(self, text):
        core = self._core
        return actions.parse(core.rules, text, core.phase)

    def turn_string(self):
        return observer.turn_string(self._core)

    def information_state_string(self, player=None):
        return observer.information_state_string(
            self._core, self.current_player() if player is None else player)

    def observation_string(self, player=None):
        return observer.observation_string(
            self._core, self.current_player() if player is None else player)

    def __str__(self):
        return observer.full_string(self._core)
