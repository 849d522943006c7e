"""Card notation shared by the four games: `7s`, `Th`, `As`; ranks 2..A, suits c d h s.

A deck is a contiguous block of the top ranks (counted down from the ace) in the first
`num_suits` suits.  Inside a deck a card is a small int, rank-major:
``card = rank_index * num_suits + suit``, so comparing ranks is integer division and a
set of cards is an int bitmask (bit `card` set).  Games keep hands as bitmasks; the
helpers here convert between masks, lists and strings.
"""

from __future__ import annotations

from functools import lru_cache

from koloda.games.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
PRETTY_SUITS = "♣♦♥♠"
_RANK_ALIASES = {"10": "T"}


class Deck:
    """One deck layout: which ranks and suits are in play, and card <-> string."""

    def __init__(self, num_ranks: int, num_suits: int):
        if not 1 <= num_ranks <= len(RANK_CHARS):
            raise CardError(f"a deck has 1..13 ranks, not {num_ranks}")
        if not 1 <= num_suits <= len(SUIT_CHARS):
            raise CardError(f"a deck has 1..4 suits, not {num_suits}")
        self.num_ranks = num_ranks
        self.num_suits = num_suits
        self.size = num_ranks * num_suits
        self.lowest_rank = len(RANK_CHARS) - num_ranks  # index into RANK_CHARS
        self.full_mask = (1 << self.size) - 1
        self.names = tuple(
            RANK_CHARS[self.lowest_rank + card // num_suits] + SUIT_CHARS[card % num_suits]
            for card in range(self.size)
        )
        self._by_name = {name: card for card, name in enumerate(self.names)}
        # Masks of all cards of one rank / one suit, for "same rank or suit" rules.
        self.rank_masks = tuple(
            sum(1 << (r * num_suits + s) for s in range(num_suits)) for r in range(num_ranks)
        )
        self.suit_masks = tuple(
            sum(1 << (r * num_suits + s) for r in range(num_ranks)) for s in range(num_suits)
        )

    def rank(self, card: int) -> int:
        """Rank index inside this deck: 0 is the lowest rank in play."""
        return card // self.num_suits

    def suit(self, card: int) -> int:
        return card % self.num_suits

    def name(self, card: int) -> str:
        return self.names[card]

    def parse(self, text: str) -> int:
        """The card named by `text` (`7s`, `Th`, `10h`); CardError names what is wrong."""
        token = text.strip()
        if len(token) >= 2:
            rank, suit = token[:-1], token[-1].lower()
            rank = _RANK_ALIASES.get(rank, rank.upper())
            card = self._by_name.get(rank + suit)
            if card is not None:
                return card
            if rank in RANK_CHARS and suit in SUIT_CHARS:
                raise CardError(f"card {text!r} is not in this deck ({self.describe()})")
        raise CardError(
            f"{text!r} is not a card: write rank then suit, ranks {RANK_CHARS} "
            f"(or 10), suits {SUIT_CHARS}, for example 7s or Th"
        )

    def parse_many(self, text: str) -> list[int]:
        """Cards written with spaces or commas between them: `6c 7h, As`."""
        return [self.parse(tok) for tok in text.replace(",", " ").split()]

    def describe(self) -> str:
        low = RANK_CHARS[self.lowest_rank]
        return f"{self.size} cards, ranks {low}..A, suits {SUIT_CHARS[:self.num_suits]}"

    def mask_names(self, mask: int) -> str:
        """Cards of a bitmask, lowest first, space separated (`-` for none)."""
        return " ".join(self.names[c] for c in cards_of(mask)) or "-"

    def pretty(self, card: int) -> str:
        """Human output: `10♥`."""
        name = self.names[card]
        rank = "10" if name[0] == "T" else name[0]
        return rank + PRETTY_SUITS[SUIT_CHARS.index(name[1])]


@lru_cache(maxsize=None)
def deck(num_ranks: int, num_suits: int) -> Deck:
    """Shared, immutable Deck instances (one per layout)."""
    return Deck(num_ranks, num_suits)


def cards_of(mask: int, base: int = 0) -> list[int]:
    """The set bits of a card mask, lowest card first, each plus `base` (an action id
    offset, so legal-action lists are built in one pass)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
