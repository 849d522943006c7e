"""Durak as an OpenSpiel Python game: GameType, game, state and observer, registered as `durak`.

The state is a thin wrapper around `DurakCore`.  Its only attribute is the core, whose
`__deepcopy__` is a cheap copy, so OpenSpiel's own C++ `Clone` (which deep-copies the
state's `__dict__`) stays fast and keeps the C++ history.  The methods Python callers use
most (`legal_actions`, `current_player`, `is_terminal`, ...) are defined here in Python,
so calls from Python skip the round trip through C++.
"""

from __future__ import annotations

import pyspiel

from koloda.games.durak import actions, observer
from koloda.games.durak.engine import CHANCE, DRAW, DurakCore
from koloda.games.durak.resample import Determinizer, resample_history
from koloda.games.durak.rules import PARAMETERS, DurakRules
from koloda.games.errors import ActionError

GAME_TYPE = pyspiel.GameType(
    short_name="durak",
    long_name="Durak (same-rank-or-suit throw-in)",
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
    parameter_specification={name: default for name, (default, _) in PARAMETERS.items()},
)


class DurakGame(pyspiel.Game):
    """The game: parameters, sizes, and a factory for initial states and observers."""

    def __init__(self, params=None):
        self.rules = DurakRules(dict(params or {}))
        rules = self.rules
        n = rules.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_actions,
            max_chance_outcomes=rules.num_cards,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=rules.max_game_length,
        )
        super().__init__(GAME_TYPE, info, rules.params)

    def new_initial_state(self):
        return DurakState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return observer.DurakObserver(self.rules, iig_obs_type, params)

    def max_chance_nodes_in_history(self):
        return self.rules.max_chance_nodes


class DurakState(pyspiel.State):
    """A Durak position as a pyspiel state."""

    def __init__(self, game, core=None):
        super().__init__(game)
        self._core = core if core is not None else DurakCore(game.rules)

    @property
    def core(self) -> DurakCore:
        """The rules engine under this state (full information: not for agents)."""
        return self._core

    # --- the pyspiel API; Python callers reach these without a trip through C++ ---

    def current_player(self):
        return self._core.current_player()

    def is_terminal(self):
        return self._core.phase == 6

    def is_chance_node(self):
        return self._core.phase <= DRAW

    def is_player_node(self):
        return self._core.current_player() >= 0

    def legal_actions(self, player=None):
        core = self._core
        if core.phase <= DRAW:
            if player is None or player == CHANCE:
                return [card for card, _ in core.chance_outcomes()]
            return []
        if player is not None and player != core.current_player():
            return []
        return list(core.legal_actions())

    def _legal_actions(self, player):
        return list(self._core.legal_actions())

    def legal_actions_mask(self, player=None):
        mask = [0] * (self.get_game().max_chance_outcomes() if self.is_chance_node()
                      else self.get_game().num_distinct_actions())
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def chance_outcomes(self):
        return self._core.chance_outcomes()

    def _apply_action(self, action):
        self._core.apply(action)

    def returns(self):
        return self._core.returns()

    def rewards(self):
        return self._core.returns()

    def winners(self) -> frozenset:
        return self._core.winners()

    def _action_to_string(self, player, action):
        core = self._core
        if player == CHANCE:
            return actions.chance_to_string(core.rules, core.phase, action)
        return actions.decision_to_string(core.rules, action)

    def string_to_action(self, *args):
        """`string_to_action(text)` or `string_to_action(player, text)`; ActionError if the
        string is malformed or its action is not legal here."""
        if len(args) == 1:
            player, text = self.current_player(), args[0]
        elif len(args) == 2:
            player, text = args
        else:
            raise TypeError("string_to_action takes (text) or (player, text)")
        core = self._core
        if core.phase == 6:
            raise ActionError(f"no action is legal: the game is over ({text!r})")
        action = actions.parse(core.rules, text, core.phase)
        legal = self.legal_actions(player)
        if action not in legal:
            if player != core.current_player():
                raise ActionError(f"{text!r}: it is not p{player}'s turn; "
                                  f"{observer.turn_string(core)}")
            names = ", ".join(self._action_to_string(player, a) for a in legal[:12])
            more = ", ..." if len(legal) > 12 else ""
            raise ActionError(f"{text!r} is not legal here ({observer.turn_string(core)}); "
                              f"legal: {names}{more}")
        return action

    def information_state_string(self, player=None):
        return observer.information_state_string(
            self._core, self.current_player() if player is None else player)

    def observation_string(self, player=None):
        return observer.observation_string(
            self._core, self.current_player() if player is None else player)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, hidden cards drawn afresh.

        `probability_sampler` is any callable returning floats in [0, 1), for example
        `pyspiel.UniformProbabilitySampler`; it seeds the draw, so a seeded sampler gives
        a reproducible resample.
        """
        history = resample_history(self._core, player_id, probability_sampler)
        state = self.get_game().new_initial_state()
        for action in history:
            state.apply_action(action)
        return state

    def determinizer(self, player: int) -> Determinizer:
        """Fast repeated resamples of this position for `player`, as engine states (search)."""
        return Determinizer(self._core, player)

    def __str__(self):
        return observer.full_string(self._core)
