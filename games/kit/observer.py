"""One OpenSpiel observer over any engine: a tensor laid out by the game's pieces, and
strings chosen by the observation type.

OpenSpiel asks for four kinds of view (`IIGObservationType`): with or without perfect
recall, and seeing one player's private cards, all of them, or none.  A game's observer
subclasses `KitObserver` and supplies the pieces of its tensor, how to fill them, and its
strings; this class does the dispatch, which is the same for every game:

* perfect recall: the whole history as `viewer` saw it (`viewer` is the player, `ALL` for
  everything, or `None` for public events only), from the game's `event_tokens(core,
  viewer)` as `recall_string` writes it;
* no recall: `observation_string(core, player, show_own_hand)` (the position now), or
  `full_string(core)` when every private card is to be shown.
"""

from __future__ import annotations

import pyspiel

from koloda.games.errors import GameParameterError
from koloda.games.kit.tensors import TensorLayout

ALL = -1   # a viewer who sees every private card


def recall_string(event_tokens, core, player: int, viewer) -> str:
    """A perfect-recall string: the player's seat, then every event as `viewer` saw it
    (`event_tokens(core, viewer)`); with `viewer` the player, its information state."""
    return f"p{player}: " + "; ".join(event_tokens(core, viewer))


def to_move_string(core, phase_names) -> str:
    """Who moves and to do what (`p1 to defend`, `chance to deal`), for a game that names
    its phases."""
    player = core.current_player()
    who = "chance" if player < 0 else f"p{player}"
    return f"{who} to {phase_names[core.phase]}"


class KitObserver:
    """OpenSpiel PyObserver: `tensor` with named views in `dict`, and `string_from`."""

    game_name = "this game"

    def __init__(self, rules, iig_obs_type, params):
        if params:
            raise GameParameterError(f"{self.game_name} observers take no parameters, "
                                     f"got {params}")
        self.rules = rules
        self.perfect_recall = iig_obs_type.perfect_recall
        private = iig_obs_type.private_info
        self.own_hand = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.all_hands = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.layout = TensorLayout(self.pieces(rules))
        self.tensor, self.dict = self.layout.allocate()

    # --- the game's part ------------------------------------------------------------

    def pieces(self, rules) -> list[tuple[str, tuple]]:
        """(name, shape) of each tensor piece; may use `own_hand` and `all_hands`."""
        raise NotImplementedError

    def fill(self, core, player: int, views: dict) -> None:
        """Write `player`'s view of `core` into the (zeroed) piece views."""
        raise NotImplementedError

    def event_tokens(self, core, viewer) -> list[str]:
        raise NotImplementedError

    def observation_string(self, core, player: int, show_own_hand: bool) -> str:
        raise NotImplementedError

    def full_string(self, core) -> str:
        raise NotImplementedError

    # --- OpenSpiel's observer interface -------------------------------------------------

    def set_from(self, state, player: int) -> None:
        self.tensor.fill(0)
        self.fill(state.core, player, self.dict)

    def string_from(self, state, player: int) -> str:
        core = state.core
        if self.perfect_recall:
            viewer = player if self.own_hand else (ALL if self.all_hands else None)
            return recall_string(self.event_tokens, core, player, viewer)
        if self.all_hands:
            return self.full_string(core)
        return self.observation_string(core, player, show_own_hand=self.own_hand)
