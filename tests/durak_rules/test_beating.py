"""Beating: a higher card of the same suit, any trump against a non-trump, a trump only by a
higher trump; the defender may always take instead (durak.md, "A bout")."""

import pytest

from koloda.games.errors import ActionError

from .helpers import hand, legal, load, play, start, table

# Two players, full deck, trump hearts (the turned-up Ah stays in the stock).
# Seat 0 holds the lowest trump (6h), so it attacks seat 1.
ATTACKER = ["6h", "8c", "8d", "Ac", "9h", "Qs"]
DEFENDER = ["6c", "9c", "Tc", "7d", "7h", "Jh"]


@pytest.fixture
def state():
    s = start(load(), [ATTACKER, DEFENDER], "Ah")
    assert s.current_player() == 0 and s.core.defender == 1
    return s


def test_attacker_may_lead_any_card_of_the_hand(state):
    assert legal(state) == {f"attack {c}" for c in ATTACKER}


def test_higher_card_of_the_same_suit_or_any_trump_beats_a_non_trump(state):
    play(state, "attack 8c")
    assert state.current_player() == 1
    # 9c, Tc: higher clubs; 7h, Jh: trumps.  Not 6c (lower club), not 7d (another suit).
    assert legal(state) == {"beat 9c", "beat Tc", "beat 7h", "beat Jh", "take"}


def test_lower_card_of_the_same_suit_does_not_beat(state):
    play(state, "attack 8d")
    assert legal(state) == {"beat 7h", "beat Jh", "take"}  # 7d is lower, only trumps beat
    with pytest.raises(ActionError):
        state.string_to_action("beat 7d")


def test_the_lowest_trump_beats_a_non_trump_ace(state):
    play(state, "attack Ac")
    assert legal(state) == {"beat 7h", "beat Jh", "take"}
    play(state, "beat 7h")
    assert table(state) == ["Ac", "7h"]
    assert "7h" not in hand(state, 1)


def test_a_card_of_another_non_trump_suit_never_beats(state):
    play(state, "attack Qs")  # the defender holds no spade: only trumps beat
    assert legal(state) == {"beat 7h", "beat Jh", "take"}
    with pytest.raises(ActionError):
        state.string_to_action("beat Tc")


def test_a_trump_is_beaten_only_by_a_higher_trump(state):
    play(state, "attack 9h")
    assert legal(state) == {"beat Jh", "take"}
    for text in ("beat 7h", "beat Tc", "beat 9c"):  # lower trump, higher-ranked non-trumps
        with pytest.raises(ActionError):
            state.string_to_action(text)
    assert state.current_player() == 1  # a rejected string changes nothing


def test_defender_may_take_even_when_able_to_beat(state):
    play(state, "attack 8c")
    assert "beat 9c" in legal(state) and "take" in legal(state)
    play(state, "take")
    assert "8c" in hand(state, 1) and len(hand(state, 1)) == 7
    assert table(state) == []


def test_beating_card_goes_to_the_table_over_the_attack_card(state):
    play(state, "attack 8c", "beat Tc")
    assert table(state) == ["8c", "Tc"]
    assert hand(state, 1) == set(DEFENDER) - {"Tc"}
    assert hand(state, 0) == set(ATTACKER) - {"8c"}


def test_only_the_defender_answers_and_only_the_attacker_leads(state):
    for text in ("take", "pass", "beat 9c", "throw 8d"):
        with pytest.raises(ActionError):
            state.string_to_action(text)  # seat 0 must attack
    play(state, "attack 8c")
    for text in ("pass", "attack 9c", "throw 9c"):
        with pytest.raises(ActionError):
            state.string_to_action(text)  # seat 1 must beat or take
