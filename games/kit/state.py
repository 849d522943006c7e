"""One pyspiel game and state wrapper over any engine (games/kit/engine.py).

A game's `game.py` is then its `GameType` and a short subclass of each:

    GAME_TYPE = game_type("durak", "Durak (same-rank-or-suit throw-in)", PARAMETERS, 2, 6)

    class DurakGame(KitGame):
        game_type, rules_class, observer_class = GAME_TYPE, DurakRules, DurakObserver
        def new_initial_state(self): return DurakState(self)

    class DurakState(KitState):
        engine_class, notation, views = DurakCore, actions, observer

The state's only attribute is the engine, whose `__deepcopy__` is a cheap copy, so
OpenSpiel's own C++ `Clone` (which deep-copies the state's `__dict__`) stays fast and keeps
the C++ history.  The methods Python callers use most (`legal_actions`, `current_player`,
`is_terminal`, ...) are defined here in Python, so calls from Python skip the round trip
through C++.
"""

from __future__ import annotations

import operator
import random
from bisect import bisect_left
from typing import Any

import pyspiel

from koloda.games.errors import ArgumentError, IllegalActionError
from koloda.games.kit.engine import CHANCE, TERMINAL, Determinizer, Engine
from koloda.games.kit.observer import recall_string

_apply_in_cpp = pyspiel.State.apply_action   # appends to the C++ history, calls _apply_action


def game_type(short_name: str, long_name: str, parameters, min_players: int,
              max_players: int, hidden: bool = True, chance: bool = True) -> pyspiel.GameType:
    """The GameType every koloda game shares: sequential, zero-sum, rewarded at the end,
    with strings and tensors for both views; hidden information and chance as given."""
    kind = pyspiel.GameType
    return kind(
        short_name=short_name,
        long_name=long_name,
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=(kind.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else kind.ChanceMode.DETERMINISTIC),
        information=(kind.Information.IMPERFECT_INFORMATION if hidden
                     else kind.Information.PERFECT_INFORMATION),
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={p.name: p.default for p in parameters},
    )


class KitGame(pyspiel.Game):
    """A koloda game: validated rules, and factories for states and observers.

    Subclasses set `game_type`, `rules_class` (built from the parameter dict; it has
    `params`, `num_players`, `num_actions`, `max_chance_outcomes`, `max_chance_nodes`,
    `max_game_length`) and `observer_class`, and define `new_initial_state`.
    """

    game_type: pyspiel.GameType
    rules_class: type
    observer_class: type
    #: parameters that only say where play starts (Parket's position): games that differ
    #: in these alone share their rules, so an action id means the same move in both
    start_parameters: tuple[str, ...] = ()

    def __init__(self, params=None):
        self.rules = self.rules_class(dict(params or {}))
        rules = self.rules
        n = rules.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_actions,
            max_chance_outcomes=rules.max_chance_outcomes,
            num_players=n,
            min_utility=-1.0 / (n - 1),   # the returns formula: a lone loser
            max_utility=1.0,              # a lone winner
            utility_sum=0.0,
            max_game_length=rules.max_game_length,
        )
        super().__init__(self.game_type, info, rules.params)

    def __reduce__(self):
        """Rebuilt from its parameters: pybind11 pickles only the C++ game, so a copy, a
        pickle or a worker process would get a game without `rules`.  The parameters, not
        `str(self)`, because a text parameter's value is not quoted there and would not
        read back."""
        return type(self), (dict(self.rules.params),)

    def initial_engine(self, engine_class: type) -> Engine:
        """A fresh engine at the start, copied from one built once: OpenSpiel's `clone`
        constructs a new state before copying the old one into it, so this is paid on
        every clone, and some engines (Parket's) do real work when built."""
        start = self.__dict__.get("_start_engine")
        if start is None:
            start = self.__dict__["_start_engine"] = engine_class(self.rules)
        return start.copy()

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return self.observer_class(self.rules, iig_obs_type, params)

    def max_chance_nodes_in_history(self):
        return self.rules.max_chance_nodes


class CoreView:
    """A state as the kit's readers take it (an observer, a heuristic, a policy): only its
    engine, `core`; what they are handed where they have an engine and no pyspiel state."""

    __slots__ = ("core",)

    def __init__(self, core):
        self.core = core


class KitState(pyspiel.State):
    """A pyspiel state over an engine.  Subclasses set `engine_class` and the game's
    modules: `notation` (`decision_to_string(rules, action)`, `chance_to_string(core,
    outcome)`, `parse(core, text)`) and `views` (`event_tokens(core, viewer)`,
    `observation_string(core, player)`, `seat_view(core, player)`, `full_string(core)`,
    `turn_string(core)`, `narration(core, since)`).  The information state is the same in
    every game: the player's seat and the event log as the player saw it (perfect
    recall)."""

    engine_class: type
    notation: Any
    views: Any

    def __init__(self, game, engine: Engine | None = None):
        super().__init__(game)
        self._core = engine if engine is not None else game.initial_engine(self.engine_class)

    @property
    def core(self) -> Engine:
        """The engine under this state (full information: not for agents)."""
        return self._core

    # --- the game's own notation and views --------------------------------------------

    def decision_string(self, action: int) -> str:
        return self.notation.decision_to_string(self._core.rules, action)

    def chance_string(self, outcome: int) -> str:
        return self.notation.chance_to_string(self._core, outcome)

    def parse_action(self, text: str) -> int:
        """The action id `text` names here; MalformedActionError if it cannot be read.
        Legality is checked by `string_to_action`."""
        return self.notation.parse(self._core, text)

    def turn_string(self) -> str:
        """Whose turn it is and to do what, for messages (`p1 to defend`)."""
        return self.views.turn_string(self._core)

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        return recall_string(self.views.event_tokens, self._core, player, player)

    def observation_string(self, player=None):
        return self.views.observation_string(
            self._core, self.current_player() if player is None else player)

    def seat_view(self, player: int) -> dict:
        """What `player` sees now as plain data (hand, table or board, counts, scores,
        whose turn): what the protocol sends and every view draws."""
        self._check_seat(player)
        return self.views.seat_view(self._core, player)

    def __str__(self):
        return self.views.full_string(self._core)

    def narration(self, since: int) -> list[str]:
        """What followed from the actions since event `since` beyond the actions themselves
        (a match laid, a deal's scores), as lines for people; `len(core.events)` before
        applying an action is its `since`."""
        return self.views.narration(self._core, since)

    # --- the pyspiel API ------------------------------------------------------------

    def current_player(self):
        return self._core.current_player()

    def is_terminal(self):
        return self._core.is_terminal()

    def is_chance_node(self):
        return self._core.is_chance()

    def is_player_node(self):
        return self._core.current_player() >= 0

    def legal_actions(self, player=None):
        core = self._core
        if core.is_chance():
            if player is None or player == CHANCE:
                return [outcome for outcome, _ in core.chance_outcomes()]
            return []
        if player is not None and player != core.current_player():
            return []
        return core.legal_actions()[:]      # a copy: the engine keeps its own

    def _legal_actions(self, player):
        return self._core.legal_actions()[:]

    def _decision_legal_actions(self, player=None):
        """`legal_actions` of a game without chance (`Engine.has_chance` False)."""
        core = self._core
        if player is not None and player != core.current_player():
            return []
        return core.legal_actions()[:]

    def _never(self):
        return False

    def __init_subclass__(cls, **kwargs):
        """A game without chance never asks its engine whether this is a chance node: the
        pyspiel wrapper's steps are a little shorter."""
        super().__init_subclass__(**kwargs)
        engine = cls.__dict__.get("engine_class")
        if engine is not None and not engine.has_chance:
            cls.is_chance_node = KitState._never
            cls.legal_actions = KitState._decision_legal_actions

    def legal_actions_mask(self, player=None):
        game = self.get_game()
        size = (game.max_chance_outcomes() if self.is_chance_node()
                else game.num_distinct_actions())
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def chance_outcomes(self):
        return self._core.chance_outcomes()

    def apply_action(self, action):
        """Apply a decision or chance outcome; IllegalActionError (the state unchanged) when
        it cannot be applied here.  (C++ callers reach `_apply_action` unchecked.)  This runs
        at every transition OpenSpiel's Python algorithms make, so a legal int goes straight
        through, found by bisection in the engine's list where the legal actions were listed
        here (an engine lists none at chance and at the end: tests/conformance)."""
        if type(action) is int:
            legal = self._core._legal      # listed here: a decision node's, ascending
            if legal is not None:
                at = bisect_left(legal, action)
                if at < len(legal) and legal[at] == action:
                    _apply_in_cpp(self, action)
                    return
            if self._core.is_legal(action):
                _apply_in_cpp(self, action)
                return
        _apply_in_cpp(self, self._legal_id(action))

    def child(self, action):
        """A copy with `action` applied, refused as `apply_action` refuses it: OpenSpiel's
        own `child` applies through C++, unchecked, and would corrupt the copy."""
        action = self._legal_id(action)
        state = self.clone()
        _apply_in_cpp(state, action)
        return state

    def _legal_id(self, action) -> int:
        """`action` as an int legal here, or IllegalActionError saying what is legal."""
        if type(action) is not int:
            try:
                action = operator.index(action)     # numpy integers, as OpenSpiel passes
            except TypeError:
                raise IllegalActionError(f"an action id is an integer, not {action!r}") from None
        if not self._core.is_legal(action):
            raise IllegalActionError(self._not_legal(action))
        return action

    def _apply_action(self, action):
        self._core.apply(action)

    def _not_legal(self, action) -> str:
        """Why an action id cannot be applied, with the legal ones to choose from."""
        if self._core.is_terminal():
            return f"action id {action} cannot be applied: the game is over"
        player = self._core.current_player()
        legal = self.legal_actions()
        names = ", ".join(f"{self._action_to_string(player, a)} ({a})" for a in legal[:12])
        more = ", ..." if len(legal) > 12 else ""
        return (f"action id {action} is not legal here ({self.turn_string()}); "
                f"legal: {names}{more}")

    def returns(self):
        return self._core.returns()

    def rewards(self):
        return self._core.returns()

    def winners(self) -> frozenset:
        """The seats that won (empty before the end and on a draw)."""
        return self._core.winners()

    def _action_to_string(self, player, action):
        if player == CHANCE:
            return self.chance_string(action)
        return self.decision_string(action)

    def string_to_action(self, *args):
        """`string_to_action(text)` or `string_to_action(player, text)`.

        MalformedActionError when the string cannot be read, IllegalActionError when it
        names an action that is not legal here (both are ActionErrors)."""
        if len(args) == 1:
            player, text = self.current_player(), args[0]
        elif len(args) == 2:
            player, text = args
        else:
            raise TypeError("string_to_action takes (text) or (player, text)")
        action = self.parse_action(text)
        if self._core.current_player() == TERMINAL:
            raise IllegalActionError(f"no action is legal: the game is over ({text!r})")
        legal = self.legal_actions(player)
        if action not in legal:
            if player != self._core.current_player():
                raise IllegalActionError(f"{text!r}: it is not p{player}'s turn; "
                                         f"{self.turn_string()}")
            names = ", ".join(self._action_to_string(player, a) for a in legal[:12])
            more = ", ..." if len(legal) > 12 else ""
            raise IllegalActionError(f"{text!r} is not legal here ({self.turn_string()}); "
                                     f"legal: {names}{more}")
        return action

    # --- hidden information -------------------------------------------------------------

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, hidden cards drawn afresh.

        `probability_sampler` is any callable returning floats in [0, 1), for example
        `pyspiel.UniformProbabilitySampler`; it seeds the draw, so a seeded sampler gives
        a reproducible resample.
        """
        self._check_seat(player_id)
        if self._core.perfect_information:
            return self.clone()
        draw = probability_sampler()
        if not (isinstance(draw, (int, float)) and 0.0 <= draw < 1.0):
            raise ArgumentError(f"the probability sampler must return numbers in [0, 1), "
                                f"it returned {draw!r}")
        rng = random.Random(int(draw * (1 << 53)))
        state = self.get_game().new_initial_state()
        for action in self._core.resample_history(player_id, rng):
            state.apply_action(action)
        return state

    def determinizer(self, player: int) -> Determinizer:
        """Fast repeated resamples of this position for `player`, as engines (search)."""
        self._check_seat(player)
        return self._core.determinizer(player)

    def compiled_worlds(self, player: int):
        """This position's worlds for `player` in the game's compiled kernel (search inside
        numba; games/kit/compiled.py), or None where the game has none here."""
        self._check_seat(player)
        return self._core.compiled_worlds(player)

    def _check_seat(self, player) -> None:
        n = self._core.rules.num_players
        if type(player) is not int or not 0 <= player < n:
            raise ArgumentError(f"player must be a seat 0..{n - 1} of this game, not {player!r}")
