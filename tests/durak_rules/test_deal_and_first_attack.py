"""The deal, the trump and who attacks first (durak.md, "Deal and trump", "Who attacks
first"), series parameters included."""

import pytest

from koloda.games.errors import ActionError

from .helpers import deal, hand, known, legal, load, play, start


def test_deal_goes_one_card_at_a_time_clockwise_from_the_dealers_left():
    game = load(players=3, hand_size=2)  # dealer seat 2: seat 0 gets the first card
    state = game.new_initial_state()
    for name, seat in [("6c", 0), ("6d", 1), ("6h", 2), ("7c", 0), ("7d", 1), ("7h", 2)]:
        assert state.is_chance_node()
        assert legal(state) >= {f"deal {name}"}
        play(state, f"deal {name}")
        assert name in hand(state, seat)
    assert legal(state) == {f"trump {c}" for c in names_left(state)}


def names_left(state):
    deck = state.core.rules.deck
    return {deck.name(c) for c in range(deck.size) if state.core.stock >> c & 1}


def test_turned_up_trump_stays_in_the_stock_and_sets_the_trump_suit():
    game = load()
    state = start(game, [["6c", "7c", "8c", "9c", "Tc", "Jc"],
                         ["6d", "7d", "8d", "9d", "Td", "Jd"]], "9h")
    assert state.core.trump_card == state.core.rules.deck.parse("9h")
    assert state.core.stock.bit_count() == 36 - 12  # the trump card included
    for viewer in (0, 1):
        assert "trump 9h | stock 24" in state.observation_string(viewer)
        assert "trump 9h" in state.information_state_string(viewer)


def test_the_lowest_trump_attacks_first():
    game = load(players=3)
    # Trump spades.  Seat 0 holds the lowest card (6c) but no trump; seat 1 has 8s, seat 2 7s.
    state = start(game, [["6c", "6d", "6h", "7c", "7d", "7h"],
                         ["8s", "Ts", "Jc", "Qc", "Kc", "Ac"],
                         ["7s", "9s", "8c", "9c", "Tc", "Jd"]], "As")
    assert state.current_player() == 2
    assert (state.core.attacker, state.core.defender) == (2, 0)


def test_without_any_trump_dealt_the_lowest_card_attacks_first():
    # 2 players, ranks 9..A, suits c d; trump diamonds and every diamond stays in the stock.
    game = load(ranks=6, suits=2, hand_size=3)
    state = start(game, [["Tc", "Jc", "Kc"], ["9c", "Qc", "Ac"]], "Ad")
    assert state.current_player() == 1
    assert state.core.defender == 0


def test_equal_lowest_ranks_go_to_the_first_player_clockwise_from_the_dealers_left():
    # 3 players, ranks 9..A, suits c d h; trump hearts, no heart dealt.  Seats 1 and 2 both
    # hold a nine; seat 1 comes first from the dealer's left (seat 0), although seat 2's 9c
    # is the "lower" card by suit order.
    game = load(players=3, ranks=6, suits=3, hand_size=2)
    state = start(game, [["Tc", "Jd"], ["9d", "Ac"], ["9c", "Kd"]], "Ah")
    assert state.current_player() == 1
    assert state.core.defender == 2


# --- series: previous_fool and lead ---------------------------------------------------------
SERIES_HANDS = [["7c", "8c"], ["7d", "8d"], ["9c", "9d"], ["6h", "Tc"]]  # seat 3: lowest trump


@pytest.mark.parametrize("lead, attacker, defender", [
    ("under", 0, 1),        # the fool's right attacks, the fool defends
    ("from_under", 2, 3),   # the fool's left attacks
])
def test_series_lead_decides_the_first_attacker_not_the_trumps(lead, attacker, defender):
    game = load(players=4, hand_size=2, previous_fool=1, lead=lead)
    state = start(game, SERIES_HANDS, "Ah")
    assert state.current_player() == attacker
    assert (state.core.attacker, state.core.defender) == (attacker, defender)


@pytest.mark.parametrize("lead, attacker", [("under", 2), ("from_under", 1)])
def test_series_lead_wraps_around_the_table(lead, attacker):
    game = load(players=3, hand_size=2, previous_fool=0, lead=lead)
    state = start(game, [["7c", "8c"], ["7d", "8d"], ["6h", "9c"]], "Ah")
    assert state.current_player() == attacker


def test_default_lead_is_under():
    game = load(players=4, hand_size=2, previous_fool=1)
    assert start(game, SERIES_HANDS, "Ah").current_player() == 0


def test_in_a_series_the_previous_fool_deals():
    game = load(players=4, hand_size=2, previous_fool=1)
    assert game.rules.dealer == 1
    state = game.new_initial_state()
    for name, seat in [("7c", 2), ("7d", 3), ("7h", 0), ("7s", 1), ("8c", 2)]:
        play(state, f"deal {name}")
        assert name in hand(state, seat)
    assert "p2 deal 7c" in state.information_state_string(2)
    assert "p2 deal ?" in state.information_state_string(0)


def test_single_game_dealer_is_the_last_seat():
    assert load(players=5).rules.dealer == 4


# --- no stock after the deal: the dealer's last card shows the trump ------------------------
SIX = [
    ["6c", "6d", "7c", "7d", "8c", "8d"],
    ["9c", "9d", "Tc", "Td", "Jc", "Jd"],
    ["6h", "7h", "6s", "7s", "8s", "9s"],
    ["8h", "9h", "Th", "Ts", "Js", "Qs"],
    ["Qc", "Qd", "Kc", "Kd", "Ac", "Ad"],
    ["Jh", "Qh", "Kh", "Ks", "As", "Ah"],   # dealt last: Ah, the dealer's last card
]


def test_six_players_take_all_cards_and_the_dealers_last_card_is_trump():
    game = load(players=6)
    state = game.new_initial_state()
    play(state, *deal(game, SIX))  # no trump string: there is no trump chance node
    assert not state.is_chance_node()
    assert state.core.stock == 0
    assert state.core.trump_card == state.core.rules.deck.parse("Ah")
    assert known(state, 5) == {"Ah"}
    for viewer in range(5):
        obs = state.observation_string(viewer)
        assert "trump Ah | stock 0" in obs
        assert "p5 6 cards (known Ah)" in obs
        assert "p5 shows trump Ah" in state.information_state_string(viewer)
    # Hearts are trump: seat 2 holds the lowest (6h), attacks seat 3.
    assert state.current_player() == 2
    assert state.core.defender == 3
    with pytest.raises(ActionError):
        state.string_to_action("trump Ah")


def test_every_player_sees_the_dealers_last_card_when_it_shows_the_trump():
    game = load(players=6)
    state = game.new_initial_state()
    strings = deal(game, SIX)
    play(state, *strings[:-1])
    last = state.string_to_action(strings[-1])
    assert state.core.chance_outcomes() == [(last, 1.0)]
    assert [state.core.chance_seen_by(p, last) for p in range(6)] == [True] * 6
    earlier = game.new_initial_state()
    play(earlier, *strings[:-2])
    outcome = earlier.core.chance_outcomes()[0][0]
    assert [earlier.core.chance_seen_by(p, outcome) for p in range(6)] == [
        p == 4 for p in range(6)]       # a card of the deal before it: its receiver only


def test_no_stock_miniature_uses_the_dealers_last_card_as_trump():
    game = load(ranks=2, suits=2, hand_size=2)  # Kc Kd Ac Ad, all dealt
    state = start(game, [["Kc", "Ac"], ["Ad", "Kd"]])  # seat 1's last card: Kd
    assert state.core.trump_card == state.core.rules.deck.parse("Kd")
    assert state.current_player() == 1  # the lowest trump is Kd itself
    assert known(state, 1) == {"Kd"}
