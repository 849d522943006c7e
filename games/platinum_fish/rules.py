"""Platinum Fish's parameters, validated once, and the tables every state of one game shares.

Suits play no part, so a card is its rank: `ranks` ranks counted from the ace upward
(A, 2, 3, ..., K), `copies` cards of each.  Inside a game a rank is its index 0..ranks-1
(0 is the ace), and a hand is a bitmask of ranks: a hand never holds two cards of a rank,
because such a pair is laid as a match at once.
"""

from __future__ import annotations

from koloda.games.errors import GameParameterError
from koloda.games.kit.cards import rank_deck
from koloda.games.kit.params import Param, format_call, validate

RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
MAX_HAND = 6                      # the top face of the die
MAX_TURNS = 100_000               # a hundred times the default cap

PARAMETERS = (
    Param("players", int, 2, "number of players, 2..6", low=2, high=6),
    Param("ranks", int, 13, "ranks in play, counted from the ace upward (A, 2, 3, ...; "
          "13 is the full deck)", low=1, high=13),
    Param("copies", int, 8, "cards of each rank (8: two 52-card decks)", low=2, high=8),
    Param("min_hand", int, 3, "the smallest hand dealt: a die showing less is rolled again",
          low=1, high=MAX_HAND),
    Param("max_hand", int, 6, "the largest hand dealt (6, the die's top face; less in a "
          "miniature, where higher faces are rolled again)", low=1, high=MAX_HAND),
    Param("max_turns", int, 1000, "turns after which the game ends, scored as it stands",
          low=1, high=MAX_TURNS),
)

# The two dice, low face first: (low, high) for every unordered throw.
DICE = tuple((low, high) for low in range(1, 7) for high in range(low, 7))
DICE_PROBABILITIES = tuple((1 if low == high else 2) / 36 for low, high in DICE)


def ranks_of_number(number: int) -> tuple[int, ...]:
    """The rank indices a dice number names: 1 the ace, 2..10 that rank, 11 the jack,
    12 the queen or the king."""
    if number == 12:
        return (11, 12)
    return (number - 1,)


class PlatinumFishRules:
    """Validated parameters plus lookup tables (action layout, dice offers)."""

    def __init__(self, params: dict):
        values = validate(PARAMETERS, params, "platinum_fish", GameParameterError)
        self.params = values
        self.num_players = values["players"]
        self.num_ranks = values["ranks"]
        self.copies = values["copies"]
        self.max_turns = values["max_turns"]
        self.min_hand, self.max_hand = values["min_hand"], values["max_hand"]
        if self.min_hand > self.max_hand:
            raise GameParameterError(f"platinum_fish parameter min_hand={self.min_hand} must not "
                                     f"exceed max_hand={self.max_hand}")
        # A hand's size: a die rolled until it shows min_hand..max_hand, each equally likely.
        self.hand_sizes = tuple(range(self.min_hand, self.max_hand + 1))
        self.deck = rank_deck(RANK_ORDER[:self.num_ranks], (self.copies,) * self.num_ranks)
        size = self.deck.size
        needed = self.num_players * self.max_hand + 2
        if size < needed:
            raise GameParameterError(
                f"platinum_fish needs at least {needed} cards for {self.num_players} players "
                f"(hands of up to {self.max_hand}, the first discard and a stock), but ranks="
                f"{self.num_ranks} x copies={self.copies} is {size}; raise ranks or copies")
        self.num_cards = size
        self.dealer = self.num_players - 1
        self.all_ranks = (1 << self.num_ranks) - 1

        # Action layout: take discard, draw, roll, choose r, ask r.
        self.take_action = 0
        self.draw_action = 1
        self.roll_action = 2
        self.choose_base = 3
        self.ask_base = 3 + self.num_ranks
        self.num_actions = 3 + 2 * self.num_ranks

        # offers[d]: the ranks in play that throw d of the dice offers (each face, the sum).
        self.offers = tuple(self._offer(low, high) for low, high in DICE)
        self.max_chance_outcomes = max(len(DICE), self.max_hand + 1, self.num_ranks)
        # Chance nodes: a hand size and its cards per player, the first discard, and a draw
        # or a throw of the dice per turn.
        self.max_chance_nodes = self.num_players * (1 + self.max_hand) + 1 + self.max_turns
        # Decisions: a turn's choice, and after a throw a choice or an ask.
        self.max_game_length = self.max_chance_nodes + 2 * self.max_turns

    def _offer(self, low: int, high: int) -> int:
        mask = 0
        for number in (low, high, low + high):
            for rank in ranks_of_number(number):
                if rank < self.num_ranks:
                    mask |= 1 << rank
        return mask

    def game_string(self) -> str:
        """The canonical game string: parameters that differ from their defaults, sorted."""
        return format_call("platinum_fish", {p.name: self.params[p.name] for p in PARAMETERS
                                             if self.params[p.name] != p.default})
