"""The card model carries every deck: suited, rank-only with copies, jokers, colours."""

import pytest

from koloda.games.errors import CardError
from koloda.games.kit.cards import (
    cards_in,
    cards_of,
    counts_of,
    deck,
    mask_of,
    nth_card,
    rank_deck,
)


def test_suited_decks_keep_the_durak_notation():
    d = deck(9, 4)
    assert d.names[:4] == ("6c", "6d", "6h", "6s") and d.names[-1] == "As"
    assert d.size == 36 and d.single and d.full_mask == (1 << 36) - 1
    for card, name in enumerate(d.names):
        assert d.parse(name) == card
        assert d.parse(name.lower()) == card
    assert d.parse("10h") == d.parse("Th") == d.parse(" th ")
    assert d.rank(d.parse("7s")) == 1 and d.suit(d.parse("7s")) == 3


def test_colours_of_suited_cards():
    d = deck(9, 4)
    assert [d.colour(d.parse(n)) for n in ("9h", "9d", "9c", "9s")] == [
        "red", "red", "black", "black"]
    assert d.red_mask == mask_of(c for c in range(36) if d.names[c][1] in "dh")


def test_rank_only_decks_with_copies_and_jokers():
    snitch = rank_deck(tuple("3456789TJQKA2X"), (8,) * 13 + (4,))
    assert snitch.size == 108 and not snitch.single
    assert snitch.parse("X") == 13 and snitch.parse("x") == 13
    assert snitch.parse("10") == snitch.parse("T") == 7
    assert snitch.suit(0) == -1 and snitch.colour(0) == "none"
    hand = counts_of([snitch.parse(n) for n in ("7", "X", "7", "2")], snitch.num_kinds)
    assert snitch.count_names(hand) == "7 7 2 X"
    assert cards_in(hand) == sorted(snitch.parse(n) for n in ("7", "X", "7", "2"))


@pytest.mark.parametrize("text, says", [
    ("7z", "not a card"), ("", "not a card"), ("s", "not a card"), ("77s", "not a card"),
    ("2c", "not in this deck"),
])
def test_bad_suited_card_strings_say_what_is_wrong(text, says):
    with pytest.raises(CardError, match=says):
        deck(9, 4).parse(text)


def test_bad_rank_only_card_strings_say_what_is_wrong():
    fish = rank_deck(tuple("A23"), (8, 8, 8))
    with pytest.raises(CardError, match="not in this deck"):
        fish.parse("K")
    with pytest.raises(CardError, match="rank alone"):
        fish.parse("7s")


def test_mask_helpers_agree():
    mask = mask_of([3, 17, 30])
    assert cards_of(mask) == [3, 17, 30]
    assert cards_of(mask, base=100) == [103, 117, 130]
    assert [nth_card(mask, i) for i in range(3)] == [3, 17, 30]
