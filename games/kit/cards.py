"""The card model and card notation of all four games.

A deck is a list of card *kinds*, each with a number of copies:

* suited decks (Durak, Parket): ranks x suits, one copy each, named rank then suit (`7s`,
  `Th`; `10h` is read as `Th`).  Kind = ``rank_index * num_suits + suit``, so comparing
  ranks is integer division and a set of cards is an int bitmask (bit `card` set).  Suits
  have colours: hearts and diamonds are red, clubs and spades black.
* rank-only decks (Platinum Fish, Snitch): suits play no part, a card is its rank (`7`,
  `Q`, `T` or `10`), with several copies of each, and jokers written `X`.  A hand is a
  multiset: a count per kind.

`Deck.parse` and `Deck.name` are the one reader and writer of card strings; every game's
action strings, positions and logs go through them.
"""

from __future__ import annotations

from functools import cache

from koloda.games.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
PRETTY_SUITS = "♣♦♥♠"
RED_SUITS = "dh"
JOKER = "X"
MAX_KINDS = 128         # distinct cards a deck may have (card masks are read 8 bits at a time)
_RANK_ALIASES = {"10": "T"}


class Deck:
    """One deck layout: its card kinds, their copies, and card <-> string."""

    def __init__(self, ranks, suits: str = "", copies=1):
        self.ranks = tuple(ranks)                 # rank symbols, lowest first in this game
        self.suits = suits
        self.num_ranks = len(self.ranks)
        self.num_suits = len(suits)
        if self.num_suits:
            self.names = tuple(r + s for r in self.ranks for s in suits)
        else:
            self.names = self.ranks
        self.num_kinds = len(self.names)
        if self.num_kinds > MAX_KINDS:
            raise CardError(f"a deck has at most {MAX_KINDS} distinct cards, not {self.num_kinds}")
        self.copies = ((copies,) * self.num_kinds if isinstance(copies, int)
                       else tuple(copies))
        if len(self.copies) != self.num_kinds or min(self.copies, default=1) < 1:
            raise CardError(f"a deck needs 1 or more copies of each of its {self.num_kinds} "
                            f"cards, not {self.copies}")
        self.size = sum(self.copies)              # cards in the deck, copies counted
        self.single = all(c == 1 for c in self.copies)
        self.full_mask = (1 << self.num_kinds) - 1
        self._by_name = {name.upper(): kind for kind, name in enumerate(self.names)}
        per_suit = max(1, self.num_suits)
        # Masks of all cards of one rank / one suit, for "same rank or suit" rules.
        self.rank_masks = tuple(sum(1 << (r * per_suit + s) for s in range(per_suit))
                                for r in range(self.num_ranks))
        self.suit_masks = tuple(sum(1 << (r * self.num_suits + s) for r in range(self.num_ranks))
                                for s in range(self.num_suits))
        self.red_mask = sum(1 << card for card in range(self.num_kinds) if self.is_red(card))

    # --- what a card is ------------------------------------------------------------

    def rank(self, card: int) -> int:
        """Rank index inside this deck: 0 is the lowest rank in play."""
        return card // self.num_suits if self.num_suits else card

    def suit(self, card: int) -> int:
        """Suit index, -1 in a rank-only deck."""
        return card % self.num_suits if self.num_suits else -1

    def is_red(self, card: int) -> bool:
        return bool(self.num_suits) and self.suits[card % self.num_suits] in RED_SUITS

    def colour(self, card: int) -> str:
        """`red` (hearts, diamonds) or `black` (clubs, spades); `none` without suits."""
        if not self.num_suits:
            return "none"
        return "red" if self.is_red(card) else "black"

    # --- notation ------------------------------------------------------------------

    def name(self, card: int) -> str:
        return self.names[card]

    def parse(self, text: str) -> int:
        """The card kind named by `text` (`7s`, `Th`, `10h`; `7`, `Q`, `X` without suits);
        CardError names what is wrong."""
        token = text.strip() if isinstance(text, str) else ""
        if self.num_suits:
            rank, suit = token[:-1], token[-1:].lower()
        else:
            rank, suit = token, ""
        rank = _RANK_ALIASES.get(rank, rank).upper()
        card = self._by_name.get(rank + suit.upper())
        if card is not None:
            return card
        if len(rank) == 1 and rank in RANK_CHARS + JOKER and (
                not self.num_suits or (len(suit) == 1 and suit in SUIT_CHARS)):
            raise CardError(f"card {text!r} is not in this deck ({self.describe()})")
        raise CardError(f"{text!r} is not a card: {self.how_to_write()}")

    def how_to_write(self) -> str:
        if self.num_suits:
            return (f"write rank then suit, ranks {RANK_CHARS} (or 10), suits {SUIT_CHARS}, "
                    f"for example 7s or Th")
        return f"write the rank alone, one of {' '.join(self.ranks)} (10 for T), for example 7"

    def parse_many(self, text: str) -> list[int]:
        """Cards written with spaces or commas between them: `6c 7h, As`."""
        return [self.parse(tok) for tok in text.replace(",", " ").split()]

    def describe(self) -> str:
        if self.num_suits:
            return (f"{self.size} cards, ranks {self.ranks[0]}..{self.ranks[-1]}, "
                    f"suits {self.suits}")
        kinds = " ".join(f"{name}x{n}" for name, n in zip(self.names, self.copies))
        return f"{self.size} cards: {kinds}"

    def mask_names(self, mask: int) -> str:
        """Cards of a bitmask, lowest first, space separated (`-` for none)."""
        return " ".join(self.names[c] for c in cards_of(mask)) or "-"

    def count_names(self, counts) -> str:
        """A multiset hand (count per kind) as card names, lowest first: `7 7 Q` (`-`)."""
        return " ".join(self.names[kind] for kind, n in enumerate(counts)
                        for _ in range(n)) or "-"

    def pretty(self, card: int) -> str:
        """Human output: `10♥`, `10`."""
        name = self.names[card]
        rank = "10" if name[0] == "T" else name[0]
        return rank + (PRETTY_SUITS[SUIT_CHARS.index(name[1])] if self.num_suits else "")


@cache
def deck(num_ranks: int, num_suits: int) -> Deck:
    """The suited deck of the top `num_ranks` ranks (counted down from the ace) in the first
    `num_suits` suits (c d h s); one shared, immutable instance per layout."""
    if not 1 <= num_ranks <= len(RANK_CHARS):
        raise CardError(f"a deck has 1..13 ranks, not {num_ranks}")
    if not 1 <= num_suits <= len(SUIT_CHARS):
        raise CardError(f"a deck has 1..4 suits, not {num_suits}")
    return Deck(RANK_CHARS[len(RANK_CHARS) - num_ranks:], SUIT_CHARS[:num_suits])


@cache
def rank_deck(ranks: tuple[str, ...], copies: tuple[int, ...]) -> Deck:
    """A rank-only deck: `ranks` in the game's order (`X` for a joker), `copies` of each."""
    for rank in ranks:
        if rank not in RANK_CHARS + JOKER:
            raise CardError(f"{rank!r} is not a rank: ranks are {RANK_CHARS} and {JOKER}")
    return Deck(ranks, "", copies)


def cards_of(mask: int, base: int = 0) -> list[int]:
    """The set bits of a card mask, lowest card first, each plus `base` (an action id
    offset, so legal-action lists are built in one pass)."""
    out = []
    if base:                     # a hand's few cards: one step per card
        while mask:
            low = mask & -mask
            out.append(base + low.bit_length() - 1)
            mask ^= low
        return out
    chunk = 0                    # a stock's many cards: one step per 8 bits, from a table
    while mask:
        byte = mask & 255
        if byte:
            out += _BYTE_CARDS[chunk][byte]
        mask >>= 8
        chunk += 1
    return out


# _BYTE_CARDS[k][b]: the cards of the bits set in byte b at bits 8k..8k+7 (masks of up to
# MAX_KINDS cards).
_BYTE_CARDS = tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
                    for k in range(MAX_KINDS // 8))


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def nth_card(mask: int, index: int) -> int:
    """The `index`-th card of a mask, lowest first (a uniform pick without building a list)."""
    while index:
        mask &= mask - 1
        index -= 1
    return (mask & -mask).bit_length() - 1


def counts_of(cards, num_kinds: int) -> list[int]:
    """A multiset of card kinds as a count per kind."""
    counts = [0] * num_kinds
    for card in cards:
        counts[card] += 1
    return counts


def cards_in(counts) -> list[int]:
    """The cards of a count-per-kind multiset, each copy listed, lowest kind first."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]
