"""One OpenSpiel observer over any engine: a tensor laid out by the game's pieces (by its
event log, with perfect recall), and strings chosen by the observation type.

OpenSpiel asks for four kinds of view (`IIGObservationType`): with or without perfect
recall, and seeing one player's private cards, all of them, or none.  A game's observer
subclasses `KitObserver` and supplies the pieces of its tensor, how to fill them, and its
strings; this class does the dispatch, which is the same for every game:

* perfect recall: the whole history as `viewer` saw it (`viewer` is the player, `ALL` for
  everything, or `None` for public events only), from the game's `event_tokens(core,
  viewer)` as `recall_string` writes it;
* no recall: `observation_string(core, player, show_own_hand)` (the position now), or
  `full_string(core)` when every private card is to be shown.

Beside the strings, each game gives `seat_view(core, player)`: the position now as the
player sees it, as plain JSON-able data (their hand, the table or board, the other seats'
counts, scores, whose turn), so that whatever draws a game reads fields, not strings.

The tensor without recall is the position now, laid out by the game's `pieces` and
written by its `fill`.  With perfect recall it is the player's seat and the game's event
log as the recall string writes it (`event_log`, an `EventLog` of tensors.py, filled from
`seen_events(core, viewer)`): nothing else, so that two states have equal tensors exactly
when they have equal strings.
"""

from __future__ import annotations

import pyspiel

from koloda.games.errors import GameParameterError
from koloda.games.kit.cards import cards_of
from koloda.games.kit.tensors import EventLog, TensorLayout

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


def turn_view(core, phase_names) -> dict:
    """Whose turn it is and to do what, as a view's fields: `to_move` a seat (None for
    chance and at the end) and `phase` the phase's name (`defend`, `over`)."""
    player = core.current_player()
    return {"to_move": player if player >= 0 else None, "phase": phase_names[core.phase]}


def mask_cards(deck, mask: int) -> list[str]:
    """The cards of a bitmask as card strings, lowest first."""
    names = deck.names
    return [names[card] for card in cards_of(mask)]


def count_cards(deck, counts) -> list[str]:
    """A multiset (count per kind) as card strings, a copy each, lowest first."""
    names = deck.names
    return [names[kind] for kind, n in enumerate(counts) for _ in range(n)]


def card_list(deck, cards) -> list[str]:
    """Card kinds in their order (a pile, top last) as card strings."""
    names = deck.names
    return [names[card] for card in cards]


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
        if self.perfect_recall:
            self.log = self.event_log(rules)
            pieces = [("player", (rules.num_players,)), self.log.piece()]
        else:
            self.log = None
            pieces = self.pieces(rules)
        self.layout = TensorLayout(pieces)
        self.tensor, self.dict = self.layout.allocate()

    # --- the game's part ------------------------------------------------------------

    def pieces(self, rules) -> list[tuple[str, tuple]]:
        """(name, shape) of each piece of the position; may use `own_hand` and
        `all_hands`."""
        raise NotImplementedError

    def fill(self, core, player: int, views: dict) -> None:
        """Write `player`'s view of `core` into the (zeroed) piece views."""
        raise NotImplementedError

    def event_log(self, rules) -> EventLog:
        """The log of the perfect-recall tensor: its bound on events, rows and codes."""
        raise NotImplementedError

    def seen_events(self, core, viewer) -> list[tuple]:
        """The event log as `viewer` saw it, one tuple per event, hidden values hidden."""
        raise NotImplementedError

    def event_tokens(self, core, viewer) -> list[str]:
        raise NotImplementedError

    def observation_string(self, core, player: int, show_own_hand: bool) -> str:
        raise NotImplementedError

    def full_string(self, core) -> str:
        raise NotImplementedError

    def seat_view(self, core, player: int) -> dict:
        """What `player` sees now, as plain data: nothing another seat holds unseen."""
        raise NotImplementedError

    # --- OpenSpiel's observer interface -------------------------------------------------

    def viewer(self, player: int):
        """Whose private cards a perfect-recall view shows: the player's, all, or none."""
        return player if self.own_hand else (ALL if self.all_hands else None)

    def set_from(self, state, player: int) -> None:
        self.tensor.fill(0)
        core = state.core
        if self.log is None:
            self.fill(core, player, self.dict)
            return
        self.dict["player"][player] = 1
        self.log.fill(self.dict[self.log.name], self.seen_events(core, self.viewer(player)))

    def string_from(self, state, player: int) -> str:
        core = state.core
        if self.perfect_recall:
            return recall_string(self.event_tokens, core, player, self.viewer(player))
        if self.all_hands:
            return self.full_string(core)
        return self.observation_string(core, player, show_own_hand=self.own_hand)
