"""Players out, the end of the game, the durak, returns, draws and the move cap
(durak.md, "End")."""

import pytest

from .helpers import discard, legal, load, play, start


def test_three_players_durak_loses_half_and_winners_get_a_quarter():
    # Aces of clubs, diamonds, hearts; one card each; no stock, so the dealer's Ah is trump.
    game = load(players=3, ranks=1, suits=3, hand_size=1)
    state = start(game, [["Ac"], ["Ad"], ["Ah"]])
    assert state.current_player() == 2 and state.core.defender == 0
    assert legal(state) == {"attack Ah"}
    play(state, "attack Ah")
    assert legal(state) == {"take"}  # Ac cannot beat a trump
    play(state, "take")
    # Seat 2 is out (no card, empty stock).  The defender's left, seat 1, attacks; its left,
    # seat 2, is out, so seat 0 defends.
    assert state.current_player() == 1
    assert (state.core.attacker, state.core.defender) == (1, 0)
    play(state, "attack Ad", "beat Ah")
    # Nobody left to throw in (seats 1 and 2 hold nothing): the bout ends, seat 0 is the
    # only one holding cards and is the durak.
    assert state.is_terminal()
    assert state.core.fool == 0
    assert state.returns() == pytest.approx([-1 / 2, 1 / 4, 1 / 4])
    assert state.winners() == frozenset({1, 2})


def test_two_players_durak_gets_minus_one():
    game = load(ranks=1, suits=2, hand_size=1)  # Ac Ad; trump the dealer's Ad
    state = start(game, [["Ac"], ["Ad"]], None, "attack Ad", "take")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]


def test_last_cards_leaving_every_hand_at_once_is_a_draw():
    game = load(ranks=2, suits=1, hand_size=1)  # Kc Ac; trump clubs
    state = start(game, [["Kc"], ["Ac"]], None, "attack Kc", "beat Ac")
    assert state.is_terminal()
    assert state.core.fool == -1
    assert state.returns() == [0.0, 0.0]
    assert state.winners() == frozenset()


def test_game_does_not_end_while_the_stock_has_cards():
    # The attacker's only card is beaten by the defender's only card, but the stock refills.
    game = load(hand_size=1)
    state = start(game, [["6h"], ["7h"]], "As", "attack 6h", "beat 7h")
    assert not state.is_terminal()
    assert state.is_chance_node()
    play(state, "draw 6c", "draw 7c")
    assert state.current_player() == 1


# Four players, Q K A in four suits, three cards each: no stock; the dealer's Ah is trump.
# Seat 0 holds the lowest trump (Qh) and attacks seat 1.
OUT = [["Qc", "Qd", "Qh"], ["Kc", "Kd", "Ks"], ["Qs", "Ac", "Ad"], ["As", "Kh", "Ah"]]


def four_with_seat_1_out():
    game = load(players=4, ranks=3, suits=4, hand_size=3)
    state = start(game, OUT, None, "attack Qc", "beat Kc", "throw Qd", "beat Kd",
                  "pass", "throw Qs", "beat Ks")
    assert state.core.hands[1] == 0
    return state


def test_defender_who_beats_with_the_last_card_is_out_and_skipped_as_next_attacker():
    state = four_with_seat_1_out()
    assert discard(state) == {"Qc", "Kc", "Qd", "Kd", "Qs", "Ks"}
    # Seat 1 would attack next but is out: seat 2 attacks seat 3.
    assert state.current_player() == 2
    assert (state.core.attacker, state.core.defender) == (2, 3)


def test_player_out_gets_no_throw_in_decision():
    state = four_with_seat_1_out()
    play(state, "attack Ac", "beat Kh")
    assert state.core.throw_order == (2, 0)
    assert state.current_player() == 2
    play(state, "pass")
    assert state.current_player() == 0
    assert legal(state) == {"throw Qh", "pass"}
    play(state, "pass")
    # Seat 1 (out) was skipped: the bout is over; the defender, seat 3, attacks seat 0.
    assert discard(state) >= {"Ac", "Kh"}
    assert (state.current_player(), state.core.defender) == (3, 0)


def test_player_out_is_skipped_as_defender():
    state = four_with_seat_1_out()
    play(state, "attack Ac", "beat Kh", "pass", "pass", "attack As", "beat Qh")
    # Seat 0 beat with its last card: out.  Next attacker seat 0 is out, seat 1 is out:
    # seat 2 attacks seat 3.
    assert (state.current_player(), state.core.defender) == (2, 3)
    play(state, "attack Ad")
    assert legal(state) == {"beat Ah", "take"}
    play(state, "take")
    # The defender's left (seat 0) and seat 1 are out; seat 2 is out now too; seat 3 holds
    # Ad and Ah alone: the durak.
    assert state.is_terminal()
    assert state.core.fool == 3
    assert state.returns() == pytest.approx([1 / 9, 1 / 9, 1 / 9, -1 / 3])


def test_four_players_all_out_at_once_is_a_draw():
    state = four_with_seat_1_out()
    play(state, "attack Ac", "beat Kh", "pass", "pass", "attack As", "beat Qh",
         "attack Ad", "beat Ah")
    assert state.is_terminal()
    assert state.returns() == [0.0] * 4


def test_out_player_is_skipped_when_choosing_the_defender():
    game = load(players=3, ranks=1, suits=3, hand_size=1)  # Ac Ad Ah, trump the dealer's Ah
    state = start(game, [["Ac"], ["Ad"], ["Ah"]], None, "attack Ah", "take")
    assert state.core.hands[2] == 0 and state.core.stock == 0
    # Seat 1 attacks; its left neighbour, seat 2, is out, so seat 0 defends.
    assert state.core.attacker == 1
    assert state.core.defender == 0


def test_out_player_is_skipped_as_next_attacker_after_a_take():
    game = load(players=3, ranks=2, suits=3, hand_size=2)  # K A of c d h; no stock
    # Seat 2 is dealt Kh then Ah (trump hearts) and holds the lowest trump, Kh.
    state = start(game, [["Kc", "Kd"], ["Ac", "Ad"], ["Kh", "Ah"]], None,
                  "attack Kh", "take")
    # Seat 0 took: its left, seat 1, attacks seat 2.
    assert (state.current_player(), state.core.defender) == (1, 2)
    play(state, "attack Ac", "beat Ah")
    # Seat 2 beat with its last card (no throw-in) and the stock is empty: it is out.
    assert state.core.hands[2] == 0
    # The next attacker would be seat 2, the defender; it is out, so seat 0 attacks seat 1.
    assert (state.current_player(), state.core.defender) == (0, 1)
    play(state, "attack Kc")
    assert legal(state) == {"take"}
    play(state, "take")
    # Seat 1 took: its left, seat 2, is out, so seat 0 attacks again.
    assert (state.current_player(), state.core.defender) == (0, 1)
    assert not state.is_terminal()


# --- the move cap ------------------------------------------------------------------------
P0 = ["6h", "8c", "8d", "Ac", "9h", "Qs"]
P1 = ["6c", "9c", "Tc", "7d", "7h", "Jh"]


def test_max_moves_ends_the_game_in_a_draw():
    game = load(max_moves=3)
    state = start(game, [P0, P1], "Ah", "attack 8c", "beat 9c")
    assert not state.is_terminal()  # chance actions do not count
    play(state, "throw 8d")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.winners() == frozenset()
    assert state.legal_actions() == []


def test_max_moves_counts_decisions_only_across_bouts():
    game = load(max_moves=4)
    state = start(game, [P0, P1], "Ah", "attack 8c", "take", "draw 7c", "attack 7c")
    assert not state.is_terminal() and state.core.moves == 3
    play(state, "take")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
