"""Snitch's parameters, validated once, and the tables every state of one game shares.

Suits play no part, so a card is its rank: the natural ranks 3, 4, ..., K, A (`ranks` of
them, from 3 upward), then the two wild kinds, 2 and the joker `X`.  Inside a game a card
is its kind index: naturals 0..ranks-1, then 2, then X.  A hand, the reserve and each
player's sets are counts per kind.
"""

from __future__ import annotations

from koloda.games.errors import GameParameterError
from koloda.games.kit.cards import rank_deck
from koloda.games.kit.params import Param, format_call, validate

NATURALS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
WILDS = ("2", "X")
POINTS = {"3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 5, "9": 5, "T": 10, "J": 10,
          "Q": 10, "K": 10, "A": 15, "2": 20, "X": 50}

# Generous caps, far beyond real play, so that no bound of the game overflows.
MAX_SETS_PER_TURN = 100
MAX_TARGET_SCORE = 1_000_000
MAX_DEALS = 1000

PARAMETERS = (
    Param("players", int, 3, "number of players, 3..8", low=3, high=8),
    Param("hand_size", int, 3, "cards dealt to each player and drawn up to after a turn",
          low=2, high=10),
    Param("max_sets_per_turn", int, 3, "sets one turn may lay", low=1,
          high=MAX_SETS_PER_TURN),
    Param("target_score", int, 1000, "total that ends the game at the end of a deal; "
          "0 plays a single deal", low=0, high=MAX_TARGET_SCORE),
    Param("ranks", int, 12, "natural ranks, from 3 upward (12: 3..A)", low=1, high=12),
    Param("copies", int, 8, "cards of each natural rank and of the 2; half as many jokers",
          low=2, high=8, allowed="an even number 2..8"),
    Param("max_deals", int, 50, "deals after which the game ends, the highest total winning",
          low=1, high=MAX_DEALS),
)


class SnitchRules:
    """Validated parameters plus lookup tables (kinds, points, action layout)."""

    def __init__(self, params: dict):
        values = validate(PARAMETERS, params, "snitch", GameParameterError)
        self.params = values
        self.num_players = values["players"]
        self.hand_size = values["hand_size"]
        self.max_sets_per_turn = values["max_sets_per_turn"]
        self.target_score = values["target_score"]
        self.num_ranks = values["ranks"]
        self.copies = values["copies"]
        self.max_deals = values["max_deals"]
        if self.copies % 2:
            raise GameParameterError(f"snitch parameter copies must be an even number 2..8 "
                                     f"(half as many jokers), not {self.copies}")
        r = self.num_ranks
        names = NATURALS[:r] + WILDS
        copies = (self.copies,) * (r + 1) + (self.copies // 2,)
        self.deck = rank_deck(names, copies)
        self.num_kinds = r + 2
        self.two, self.joker = r, r + 1            # the wild kinds
        self.num_cards = self.deck.size
        if self.num_players * self.hand_size >= self.num_cards:
            raise GameParameterError(
                f"snitch cannot deal {self.hand_size} cards to {self.num_players} players and "
                f"keep a reserve from {self.num_cards} cards; lower hand_size or players, or "
                f"raise ranks or copies")
        self.points = tuple(POINTS[name] for name in names)
        self.deck_points = sum(p * c for p, c in zip(self.points, copies))

        # Action layout: discard c, set (R, R/2/X), pick c, extend (R, 2/X), stop, pass.
        k = self.num_kinds
        self.discard_base = 0
        self.set_base = k
        self.pick_base = k + 3 * r
        self.extend_base = self.pick_base + k
        self.stop_action = self.extend_base + 2 * r
        self.pass_action = self.stop_action + 1
        self.num_actions = self.pass_action + 1
        self.max_chance_outcomes = k

        # Bounds: every card is dealt or drawn once a deal; a deal's decisions are at most a
        # discard per reserve card, a set and a stop per two cards, and a round of passes
        # after each set and at the end.
        cards = self.num_cards
        self.max_chance_nodes = cards * self.max_deals
        per_deal = cards + cards + self.num_players * (cards // 2 + 1)
        self.max_game_length = self.max_chance_nodes + per_deal * self.max_deals

    def is_wild(self, kind: int) -> bool:
        return kind >= self.two

    def game_string(self) -> str:
        """The canonical game string: parameters that differ from their defaults, sorted."""
        return format_call("snitch", {p.name: self.params[p.name] for p in PARAMETERS
                                      if self.params[p.name] != p.default})
