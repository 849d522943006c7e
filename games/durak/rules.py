"""Durak's parameters, validated once, and the tables every state of one game shares.

A `DurakRules` is immutable and picklable; states point to it instead of to the pyspiel
game, so the fast engine needs no OpenSpiel object.
"""

from __future__ import annotations

from koloda.games.kit.cards import deck
from koloda.games.errors import GameParameterError

LEADS = ("under", "from_under")

# name: (default, help); the order is the order `koloda games` shows.
PARAMETERS = {
    "players": (2, "number of players, 2..6"),
    "ranks": (9, "ranks counted down from the ace: 9 is the 36-card deck (6..A), 13 the 52-card deck"),
    "suits": (4, "suits in play, 1..4 (c d h s, in that order)"),
    "hand_size": (6, "cards dealt to each player and drawn up to after a bout"),
    "max_attack_cards": (6, "attack cards one bout may hold"),
    "previous_fool": (-1, "seat of the last game's durak in a series; -1 is a single game"),
    "lead": ("under", "in a series, who attacks first: 'under' (fool's right) or 'from_under' (fool's left)"),
    "max_moves": (2000, "decisions after which the game ends in a draw"),
}


class DurakRules:
    """Validated parameters plus lookup tables (card masks, action layout)."""

    def __init__(self, params: dict):
        unknown = set(params) - set(PARAMETERS)
        if unknown:
            raise GameParameterError(
                f"durak has no parameter {', '.join(sorted(unknown))}; "
                f"its parameters are {', '.join(PARAMETERS)}"
            )
        values = {name: params.get(name, default) for name, (default, _) in PARAMETERS.items()}
        for name, (default, _) in PARAMETERS.items():
            if type(values[name]) is not type(default):
                raise GameParameterError(
                    f"durak parameter {name} must be {type(default).__name__}, "
                    f"not {values[name]!r}"
                )
        self.num_players = values["players"]
        self.hand_size = values["hand_size"]
        self.max_attack_cards = values["max_attack_cards"]
        self.previous_fool = values["previous_fool"]
        self.lead = values["lead"]
        self.max_moves = values["max_moves"]
        num_ranks, num_suits = values["ranks"], values["suits"]
        _check(2 <= self.num_players <= 6, "players", self.num_players, "2..6")
        _check(1 <= num_ranks <= 13, "ranks", num_ranks, "1..13")
        _check(1 <= num_suits <= 4, "suits", num_suits, "1..4")
        _check(self.hand_size >= 1, "hand_size", self.hand_size, "at least 1")
        _check(self.max_attack_cards >= 1, "max_attack_cards", self.max_attack_cards, "at least 1")
        _check(-1 <= self.previous_fool < self.num_players, "previous_fool",
               self.previous_fool, f"-1 or a seat 0..{self.num_players - 1}")
        _check(self.lead in LEADS, "lead", self.lead, "'under' or 'from_under'")
        _check(self.max_moves >= 1, "max_moves", self.max_moves, "at least 1")
        self.deck = deck(num_ranks, num_suits)
        size = self.deck.size
        if self.num_players * self.hand_size > size:
            raise GameParameterError(
                f"durak cannot deal {self.hand_size} cards to {self.num_players} players "
                f"from {size} cards ({self.deck.describe()}); lower hand_size or players"
            )
        self.params = values
        self.num_cards = size
        self.dealer = self.previous_fool if self.previous_fool >= 0 else self.num_players - 1

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
        # Chance outcome lists for a uniform draw out of n cards, by n.
        self.uniform = tuple(1.0 / n if n else 0.0 for n in range(size + 1))
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
        changed = [f"{k}={v}" for k, v in self.params.items() if v != PARAMETERS[k][0]]
        return f"durak({','.join(changed)})" if changed else "durak()"


def _check(ok: bool, name: str, value, allowed: str) -> None:
    if not ok:
        raise GameParameterError(f"durak parameter {name}={value!r} is out of range: {allowed}")
