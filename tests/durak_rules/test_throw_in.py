"""Throwing in: by rank or suit of any table card, in the order first attacker then clockwise
skipping the defender, restarting after each beat; the bout limits (durak.md, "A bout")."""

import pytest

from koloda.games.errors import ActionError

from .helpers import discard, hand, legal, load, play, start, table

# --- two players: which cards may be thrown in ------------------------------------------
# Trump hearts (Ah turned up).  Seat 0 holds the lowest trump (6h) and attacks.
P0 = ["6h", "8c", "8d", "Ts", "Qc", "Kd"]
P1 = ["Tc", "Ks", "9d", "Jd", "7s", "7h"]


@pytest.fixture
def two():
    return start(load(), [P0, P1], "Ah")


def test_throw_in_by_rank_or_suit_of_the_attack_and_the_defence_card(two):
    play(two, "attack 8c", "beat Tc")
    assert two.current_player() == 0
    # On the table 8c and Tc: ranks 8 and T, suit clubs.  8d (rank of the attack card),
    # Ts (rank of the defence card), Qc (clubs); not 6h, not Kd.
    assert legal(two) == {"throw 8d", "throw Ts", "throw Qc", "pass"}
    for text in ("throw 6h", "throw Kd", "attack 8d"):
        with pytest.raises(ActionError):
            two.string_to_action(text)


def test_every_card_on_the_table_widens_what_may_be_thrown(two):
    play(two, "attack 8c", "beat Tc", "throw Ts")
    assert two.current_player() == 1
    assert legal(two) == {"beat Ks", "beat 7h", "take"}
    play(two, "beat Ks")  # now kings and spades match too: Kd becomes throwable
    assert legal(two) == {"throw 8d", "throw Qc", "throw Kd", "pass"}


def test_suit_of_a_trump_defence_card_admits_trumps(two):
    play(two, "attack Kd")
    assert legal(two) == {"beat 7h", "take"}
    play(two, "beat 7h")  # Kd / 7h: kings, sevens, diamonds, hearts match
    assert legal(two) == {"throw 6h", "throw 8d", "pass"}


def test_thrown_card_must_be_answered_by_the_defender(two):
    play(two, "attack 8c", "beat Tc", "throw 8d")
    assert two.current_player() == 1
    assert legal(two) == {"beat 9d", "beat Jd", "beat 7h", "take"}


def test_two_players_all_passed_ends_bout_into_discard_and_defender_attacks_next(two):
    play(two, "attack 8c", "beat Tc", "pass")
    assert discard(two) == {"8c", "Tc"}
    assert table(two) == []
    assert two.is_chance_node()  # both draw one card: attacker first
    play(two, "draw 9s", "draw 6s")
    assert "9s" in hand(two, 0) and "6s" in hand(two, 1)
    assert two.current_player() == 1 and two.core.attacker == 1 and two.core.defender == 0


# --- four players: who throws in, and in what order --------------------------------------
# Trump hearts (Ah turned up).  Seat 0 holds the lowest trump (6h): attacker 0, defender 1,
# throw-in order 0, 2, 3.
S0 = ["6h", "8c", "9s", "Js", "Qd", "Ks"]
S1 = ["Tc", "Jc", "Kc", "9d", "7s", "8s"]
S2 = ["8d", "7c", "Td", "Jd", "6s", "As"]
S3 = ["Qc", "6d", "7d", "9h", "Th", "Qs"]


def four(**params):
    state = start(load(players=4, **params), [S0, S1, S2, S3], "Ah", "attack 8c", "beat Tc")
    assert (state.core.attacker, state.core.defender) == (0, 1)
    return state


def test_throw_in_order_is_first_attacker_then_clockwise_skipping_the_defender():
    state = four()
    assert state.current_player() == 0
    play(state, "pass")
    assert state.current_player() == 2  # seat 1 defends: skipped
    play(state, "pass")
    assert state.current_player() == 3
    assert legal(state) == {"throw Qc", "throw Th", "pass"}


def test_player_without_a_matching_card_still_decides_and_may_only_pass():
    state = four()
    # Seat 0 holds 6h 9s Js Qd Ks: nothing matches 8c / Tc.
    assert state.current_player() == 0
    assert legal(state) == {"pass"}


def test_after_a_beat_the_right_to_throw_returns_to_the_first_attacker():
    state = four()
    play(state, "pass", "pass", "throw Qc")  # 0 and 2 pass, 3 throws
    assert state.current_player() == 1
    play(state, "beat Kc")
    assert state.current_player() == 0  # not 3, not 2: the round starts again
    # Queens and kings now match too: Qd (rank of Qc), Ks (rank of Kc).
    assert legal(state) == {"throw Qd", "throw Ks", "pass"}
    play(state, "pass")
    assert state.current_player() == 2


def test_bout_ends_when_every_eligible_player_passes_in_a_row():
    state = four()
    play(state, "pass", "throw 7c", "beat Jc")  # 2 throws: the passes so far no longer count
    assert state.current_player() == 0
    play(state, "pass", "pass")
    assert state.current_player() == 3 and not state.is_chance_node()
    play(state, "pass")
    # All cards were beaten: the table goes to the discard, the defender attacks next.
    assert discard(state) == {"8c", "Tc", "7c", "Jc"}
    assert table(state) == []
    assert state.is_chance_node()  # seats 0, 1 and 2 draw, in that order
    play(state, "draw 6c", "draw 7h", "draw 8h", "draw Ac")
    assert state.current_player() == 1
    assert (state.core.attacker, state.core.defender) == (1, 2)


def test_bout_holds_at_most_max_attack_cards():
    state = four(max_attack_cards=2)
    play(state, "pass", "throw 7c", "beat Jc")
    # Two attack cards: the bout is over although seat 3 could throw Qc and seat 0 pass.
    assert state.is_chance_node()
    assert discard(state) == {"8c", "Tc", "7c", "Jc"}
    assert "Qc" in hand(state, 3)


def test_max_attack_cards_one_ends_the_bout_at_the_first_beat():
    state = start(load(players=4, max_attack_cards=1), [S0, S1, S2, S3], "Ah", "attack 8c")
    play(state, "beat Tc")
    assert state.is_chance_node() and discard(state) == {"8c", "Tc"}


def test_no_throw_in_once_the_defender_holds_no_card():
    # Three players, two cards each, trump spades.  Seat 0 holds the lowest trump (6s).
    game = load(players=3, hand_size=2)
    state = start(game, [["6s", "7c"], ["9c", "Jc"], ["8c", "Qc"]], "As",
                  "attack 7c", "beat 9c", "pass", "throw 8c", "beat Jc")
    # The defender's last card beat the throw-in: the bout ends though Qc matches.
    assert state.core.hands[1] == 0
    assert state.is_chance_node()
    assert discard(state) == {"7c", "9c", "8c", "Jc"}
    assert "Qc" in hand(state, 2)


def test_player_without_cards_cannot_throw_in_even_with_stock_left():
    # One card each, trump spades (nobody holds one): the lowest card, 6h, attacks.
    state = start(load(hand_size=1), [["6h"], ["7c"]], "As", "attack 6h", "take", "draw 6c")
    # Seat 1 took and holds two cards; seat 0 attacks again with its only card.
    play(state, "attack 6c", "beat 7c")
    # The attacker holds nothing, the defender still holds 6h: no throw-in decision at all,
    # the bout is over and everything goes to the discard.
    assert state.core.hands[0] == 0 and hand(state, 1) == {"6h"}
    assert state.core.stock != 0
    assert state.is_chance_node()
    assert discard(state) == {"6c", "7c"}
