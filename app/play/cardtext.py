"""Card notation for people: `7s` -> `7♠` with a colour, in any text koloda writes.

Kept apart from any one screen so the terminal and a web page draw cards alike: the text
is cut into spans, each a piece of the text and the colour of the card it names (`red`,
`black`) or None for the text between cards.
"""

from __future__ import annotations

import re

from koloda.games.kit.cards import PRETTY_SUITS, RED_SUITS, SUIT_CHARS

#: a suited card of the notation (`7s`, `Th`, `10h`), standing alone between spaces,
#: slashes, commas or brackets; rank-only cards (`7`, `X`) are left as written, since a
#: bare number in an observation is as often a count as a card
CARD = re.compile(r"(?<![\w?])(10|[2-9TJQKA])([cdhs])(?![\w])")
SYMBOLS = dict(zip(SUIT_CHARS, PRETTY_SUITS))
ASCII_SYMBOLS = {suit: suit for suit in SUIT_CHARS}


def pretty_card(rank: str, suit: str, unicode: bool = True) -> str:
    """`T`, `h` -> `10♥` (`Th` without unicode, so it reads back as notation)."""
    if not unicode:
        return ("T" if rank == "10" else rank) + suit
    return ("10" if rank in ("T", "10") else rank) + SYMBOLS[suit]


def card_spans(text: str, unicode: bool = True) -> list[tuple[str, str | None]]:
    """`"attack 7s"` -> [("attack ", None), ("7♠", "black")]: the suited cards in `text`
    drawn with their suit symbol and colour, the rest as it is."""
    spans: list[tuple[str, str | None]] = []
    at = 0
    for match in CARD.finditer(text):
        if match.start() > at:
            spans.append((text[at:match.start()], None))
        rank, suit = match.groups()
        spans.append((pretty_card(rank, suit, unicode), "red" if suit in RED_SUITS
                      else "black"))
        at = match.end()
    if at < len(text):
        spans.append((text[at:], None))
    return spans


def plain_notation(text: str) -> str:
    """What a person typed, with suit symbols read back as letters: `7♠` -> `7s`,
    `10♥` -> `Th`, so a move copied from the screen reads as a move."""
    for suit, symbol in SYMBOLS.items():
        text = text.replace(symbol, suit)
    for symbol, suit in (("♤", "s"), ("♡", "h"), ("♢", "d"), ("♧", "c")):
        text = text.replace(symbol, suit)
    return re.sub(r"(?<!\w)10([cdhs])(?!\w)", r"T\1", text)
