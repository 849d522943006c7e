"""Taking (the bout ends at once, the cards become known, the defender's left attacks next)
and drawing after a bout (order, up to hand_size, the face-up trump last)."""

import pytest

from koloda.games.errors import ActionError

from .helpers import discard, hand, known, legal, load, play, start, table

# Four players, trump hearts (Ah turned up); seat 0 holds the lowest trump and attacks seat 1.
S0 = ["6h", "8c", "9s", "Js", "Qd", "Ks"]
S1 = ["Tc", "Jc", "Kc", "9d", "7s", "8s"]
S2 = ["8d", "7c", "Td", "Jd", "6s", "As"]
S3 = ["Qc", "6d", "7d", "9h", "Th", "Qs"]


def four_taken():
    state = start(load(players=4), [S0, S1, S2, S3], "Ah",
                  "attack 8c", "beat Tc", "pass", "throw 7c", "take")
    return state


def test_take_ends_the_bout_at_once_without_further_throw_ins():
    state = four_taken()
    # Seat 3 holds Qc (a club) and was never asked: the bout is over, drawing begins.
    assert state.is_chance_node()
    assert "Qc" in hand(state, 3)
    assert table(state) == []


def test_defender_picks_up_every_table_card_attack_and_defence():
    state = four_taken()
    assert hand(state, 1) == set(S1) - {"Tc"} | {"8c", "Tc", "7c"}
    assert len(hand(state, 1)) == 8
    assert discard(state) == set()


def test_picked_up_cards_are_publicly_known():
    state = four_taken()
    assert known(state, 1) == {"7c", "8c", "Tc"}
    for viewer in (0, 2, 3):
        assert "p1 8 cards (known 7c 8c Tc)" in state.observation_string(viewer)
        info = state.information_state_string(viewer)
        assert "p0 attack 8c; p1 beat Tc; p0 pass; p2 throw 7c; p1 take" in info
    # Cards the others never saw stay hidden from them.
    assert "9d" not in state.observation_string(0)


def test_after_a_take_the_defenders_left_attacks_next_and_the_taker_draws_nothing():
    state = four_taken()
    # Draw order from the first attacker: seat 0 (5 cards), seat 2 (5); seat 1 holds 8.
    play(state, "draw 6c")
    assert "6c" in hand(state, 0)
    play(state, "draw 7h")
    assert "7h" in hand(state, 2)
    assert not state.is_chance_node()
    assert state.current_player() == 2
    assert (state.core.attacker, state.core.defender) == (2, 3)


# Two players, trump hearts; seat 0 attacks.
P0 = ["6h", "8c", "8d", "Ac", "9h", "Qs"]
P1 = ["6c", "9c", "Tc", "7d", "7h", "Jh"]


def test_two_players_after_a_take_the_same_attacker_attacks_again():
    state = start(load(), [P0, P1], "Ah", "attack 8c", "take", "draw 7c")
    assert state.current_player() == 0
    assert (state.core.attacker, state.core.defender) == (0, 1)


def test_a_picked_up_card_stops_being_known_once_played():
    state = start(load(), [P0, P1], "Ah", "attack 8c", "take", "draw 7c")
    assert known(state, 1) == {"8c"}
    play(state, "attack 7c", "beat 8c")
    assert known(state, 1) == set()
    assert "known" not in state.observation_string(0)


# --- drawing order --------------------------------------------------------------------------
# Same four hands rotated by two seats: seat 2 holds the lowest trump, attacks seat 3;
# throw-in order 2, 0, 1.
R = {2: S0, 3: S1, 0: S2, 1: S3}


def test_drawing_order_first_attacker_then_clockwise_with_the_defender_in_seat_order():
    state = start(load(players=4), [R[0], R[1], R[2], R[3]], "Ah",
                  "attack 8c", "beat Tc", "pass", "throw 7c", "beat Jc",
                  "pass", "pass", "throw Qc", "beat Kc", "pass", "pass", "pass")
    assert discard(state) == {"8c", "Tc", "7c", "Jc", "Qc", "Kc"}
    # Hands: seat 2 five cards, seat 3 three, seat 0 five, seat 1 five.
    # Draw order: 2 (attacker), 3 (defender, next clockwise), 0, 1; each up to six.
    expected = [("6c", 2), ("7h", 3), ("8h", 3), ("Ac", 3), ("Ad", 0), ("Jh", 1)]
    for name, seat in expected:
        assert state.is_chance_node()
        assert state.core.draw_queue[0] == seat
        play(state, f"draw {name}")
        assert name in hand(state, seat)
    assert [len(hand(state, s)) for s in range(4)] == [6, 6, 6, 6]
    # Everybody saw who drew, not what (the face-up trump aside).
    info = state.information_state_string(0)
    assert "p2 draw ?; p3 draw ?; p3 draw ?; p3 draw ?; p0 draw Ad; p1 draw ?" in info
    # The defender beat everything: it attacks next.
    assert state.current_player() == 3 and state.core.defender == 0


# Miniature: 2 players, ranks J..A, suits c d (8 cards), 3 each; stock Qd and the trump Ad.
MINI = dict(ranks=4, suits=2, hand_size=3)
M0 = ["Jd", "Qc", "Kc"]   # lowest trump Jd: seat 0 attacks
M1 = ["Jc", "Kd", "Ac"]


def test_face_up_trump_is_drawn_last_and_its_drawer_is_known():
    state = start(load(**MINI), [M0, M1], "Ad", "attack Qc", "beat Ac", "pass")
    assert state.is_chance_node()
    # Stock Qd and Ad: only Qd can come first.
    assert [o for o, _ in state.chance_outcomes()] == [state.core.rules.deck.parse("Qd")]
    assert legal(state) == {"draw Qd"}
    with pytest.raises(ActionError):
        state.string_to_action("draw Ad")
    play(state, "draw Qd")
    assert "Qd" in hand(state, 0)
    # Only the trump card is left: now it is the outcome, with probability one.
    assert state.chance_outcomes() == [(state.core.rules.deck.parse("Ad"), 1.0)]
    play(state, "draw Ad")
    assert "Ad" in hand(state, 1)
    assert known(state, 1) == {"Ad"} and known(state, 0) == set()
    assert "p1 3 cards (known Ad)" in state.observation_string(0)
    assert "p1 draw Ad" in state.information_state_string(0)
    assert "p0 draw ?" in state.information_state_string(1)  # Qd stays private


def test_drawing_stops_when_the_stock_runs_out():
    state = start(load(**MINI), [M0, M1], "Ad",
                  "attack Qc", "beat Ac", "throw Kc", "beat Kd")
    assert legal(state) == {"throw Jd", "pass"}  # the defender still holds Jc
    play(state, "pass")
    # Seat 0 holds one card, seat 1 one card, the stock two: seat 0 takes both.
    play(state, "draw Qd", "draw Ad")
    assert hand(state, 0) == {"Jd", "Qd", "Ad"}
    assert hand(state, 1) == {"Jc"}
    assert state.core.stock == 0
    assert state.current_player() == 1  # the defender attacks next
