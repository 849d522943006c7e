"""Durak's parameters, validated once, and the tables every state of one game shares.

A `DurakRules` is immutable and picklable; states point to it instead of to the pyspiel
game, so the fast engine needs no OpenSpiel object.
"""

from __future__ import annotations

from koloda.games.errors import GameParameterError
from koloda.games.kit.cards import deck
from koloda.games.kit.params import Param, format_call, validate

MAX_CARDS = 52          # the largest deck: 13 ranks x 4 suits
MAX_MOVES = 100_000     # fifty times the default cap; keeps max_game_length a C++ int

# The order is the order `koloda games` shows.
PARAMETERS = (
    Param("players", int, 2, "number of players, 2..6", low=2, high=6),
    Param("ranks", int, 9, "ranks counted down from the ace: 9 is the 36-card deck (6..A), "
          "13 the 52-card deck", low=1, high=13),
    Param("suits", int, 4, "suits in play, 1..4 (c d h s, in that order)", low=1, high=4),
    Param("hand_size", int, 6, "cards dealt to each player and drawn up to after a bout",
          low=1, high=MAX_CARDS // 2),
    Param("max_attack_cards", int, 6, "attack cards one bout may hold", low=1,
          high=MAX_CARDS),
    Param("previous_fool", int, -1, "seat of the last game's durak in a series; -1 is a "
          "single game", low=-1, high=5),
    Param("lead", str, "under", "in a series, who attacks first: 'under' (fool's right) or "
          "'from_under' (fool's left)", choices=("under", "from_under")),
    Param("max_moves", int, 2000, "decisions after which the game ends in a draw", low=1,
          high=MAX_MOVES),
)


class DurakRules:
    """Validated parameters plus lookup tables (card masks, action layout)."""

    def __init__(self, params: dict):
        values = validate(PARAMETERS, params, "durak", GameParameterError)
        self.num_players = values["players"]
        self.hand_size = values["hand_size"]
        self.max_attack_cards = values["max_attack_cards"]
        self.previous_fool = values["previous_fool"]
        self.lead = values["lead"]
        self.max_moves = values["max_moves"]
        num_ranks, num_suits = values["ranks"], values["suits"]
        if self.previous_fool >= self.num_players:
            raise GameParameterError(
                f"durak parameter previous_fool={self.previous_fool} is out of range: "
                f"-1 or a seat 0..{self.num_players - 1}")
        self.deck = deck(num_ranks, num_suits)
        size = self.deck.size
        if self.num_players * self.hand_size > size:
            raise GameParameterError(
                f"durak cannot deal {self.hand_size} cards to {self.num_players} players "
                f"from {size} cards ({self.deck.describe()}); lower hand_size or players"
            )
        self.params = values
        self.num_cards = size
        self.max_chance_outcomes = size
        self.dealer = self.previous_fool if self.previous_fool >= 0 else self.num_players - 1
        n = self.num_players
        # clockwise[s]: every seat in turn, starting with s.
        self.clockwise = tuple(tuple((s + i) % n for i in range(n)) for s in range(n))

        # Action layout: attack c, throw c, beat c, take, pass.
        self.attack_base = 0
        self.throw_base = size
        self.beat_base = 2 * size
        self.take_action = 3 * size
        self.pass_action = 3 * size + 1
        self.num_actions = 3 * size + 2

        d = self.deck
        # Cards that share rank or suit with a card: what a card on the table admits.
        self.match_masks = tuple(
            d.rank_masks[d.rank(c)] | d.suit_masks[d.suit(c)] for c in range(size)
        )
        # beaters[trump_suit][card]: the cards that beat `card` under that trump suit.
        self.beaters = tuple(
            tuple(self._beaters_of(c, trump) for c in range(size)) for trump in range(num_suits)
        )
        # Chance nodes: every card is dealt or drawn once, the trump is also turned up.
        self.max_chance_nodes = size + 1
        self.max_game_length = self.max_moves + self.max_chance_nodes

    def _beaters_of(self, card: int, trump: int) -> int:
        d = self.deck
        suit, rank = d.suit(card), d.rank(card)
        higher_same_suit = sum(
            1 << (r * d.num_suits + suit) for r in range(rank + 1, d.num_ranks)
        )
        if suit == trump:
            return higher_same_suit
        return higher_same_suit | d.suit_masks[trump]

    def game_string(self) -> str:
        """The canonical game string: parameters that differ from their defaults, sorted."""
        return format_call("durak", {p.name: self.params[p.name] for p in PARAMETERS
                                     if self.params[p.name] != p.default})
