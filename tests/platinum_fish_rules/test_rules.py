"""Every rule and gap decision of docs/rules/platinum_fish.md, scripted through action
strings (helpers.py)."""

import pytest

from koloda import games
from koloda.games.errors import GameParameterError, IllegalActionError, MalformedActionError
from koloda.games.platinum_fish.rules import DICE

from .helpers import discard, hand, laid, legal, load, play, start

FULL = load()


# --- the deal -------------------------------------------------------------------------

def test_hand_sizes_are_three_to_six_equally_likely():
    state = FULL.new_initial_state()
    assert state.chance_outcomes() == [(3, 0.25), (4, 0.25), (5, 0.25), (6, 0.25)]
    assert [state.action_to_string(-1, a) for a, _ in state.chance_outcomes()] == [
        "hand 3", "hand 4", "hand 5", "hand 6"]


def test_a_miniature_deals_smaller_hands():
    state = load(ranks=2, copies=4, min_hand=1, max_hand=2).new_initial_state()
    assert state.chance_outcomes() == [(1, 0.5), (2, 0.5)]
    with pytest.raises(MalformedActionError, match="a size from 1 to 2"):
        state.string_to_action("hand 3")


def test_dealt_cards_are_drawn_by_the_copies_left():
    state = play(FULL.new_initial_state(), "hand 3", "deal 7")
    outcomes = dict(state.chance_outcomes())
    assert outcomes[FULL.rules.deck.parse("7")] == pytest.approx(7 / 103)
    assert outcomes[FULL.rules.deck.parse("Q")] == pytest.approx(8 / 103)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_pairs_are_laid_after_the_deal_three_make_one_match_four_make_two():
    state = start(FULL, [["7", "7", "7", "Q"], ["K", "K", "K", "K", "2"]], "5")
    assert laid(state, 0) == ["7"] and hand(state, 0) == {"7", "Q"}
    assert laid(state, 1) == ["K", "K"] and hand(state, 1) == {"2"}
    tokens = state.information_state_string(1).split("; ")
    last_deal = max(i for i, t in enumerate(tokens) if " deal " in t)
    assert tokens.index("p0 lays 7") > last_deal     # nothing shows before the whole deal


def test_play_starts_at_the_dealers_left_after_the_first_discard():
    state = start(load(players=3), [["A", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]], "T")
    assert state.current_player() == 0 and discard(state) == ["T"]


# --- a turn: take the discard, draw, or throw the dice --------------------------------

def test_the_discard_can_be_taken_only_for_a_match_which_gives_another_turn():
    state = start(FULL, [["5", "9", "J"], ["2", "3", "4"]], "5")
    assert legal(state) == {"take discard", "draw", "roll"}
    play(state, "take discard")
    assert laid(state, 0) == ["5"] and discard(state) == [] and state.current_player() == 0
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5")
    assert legal(state) == {"draw", "roll"}
    with pytest.raises(IllegalActionError, match="take discard"):
        state.string_to_action("take discard")


def test_a_drawn_card_without_a_match_goes_onto_the_discard_and_play_passes_left():
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "draw", "stock 8")
    assert discard(state) == ["5", "8"] and hand(state, 0) == {"6", "9", "J"}
    assert state.current_player() == 1


def test_a_drawn_card_that_matches_is_laid_and_the_player_goes_again():
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "draw", "stock 9")
    assert laid(state, 0) == ["9"] and discard(state) == ["5"]
    assert state.current_player() == 0 and "9" not in hand(state, 0)


@pytest.mark.parametrize("dice, offered", [
    ("dice 3 4", {"3", "4", "7"}), ("dice 1 1", {"A", "2"}), ("dice 1 2", {"A", "2", "3"}),
    ("dice 5 6", {"5", "6", "J"}), ("dice 6 6", {"6", "Q", "K"}), ("dice 4 6", {"4", "6", "T"}),
    ("dice 2 3", {"2", "3", "5"}),
])
def test_the_dice_offer_each_face_and_their_sum(dice, offered):
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "roll", dice)
    assert legal(state) == {f"choose {rank}" for rank in offered}


def test_the_ace_comes_only_from_a_single_die():
    rules = FULL.rules
    for d, (low, high) in enumerate(DICE):
        assert bool(rules.offers[d] & 1) == (low == 1), (low, high)


def test_the_dice_are_two_fair_dice():
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "roll")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    names = {state.action_to_string(-1, a): p for a, p in outcomes}
    assert names["dice 3 3"] == pytest.approx(1 / 36)
    assert names["dice 3 4"] == pytest.approx(2 / 36)
    assert state.string_to_action("dice 4 3") == state.string_to_action("dice 3 4")


def test_a_rank_chosen_from_the_stock_makes_a_match_or_joins_the_hand_in_view_of_all():
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "roll", "dice 3 4")
    stock_sevens = state.core.stock[FULL.rules.deck.parse("7")]
    assert "stock holds 3 4 7" in state.information_state_string(1)
    play(state, "choose 7")
    assert state.core.stock[FULL.rules.deck.parse("7")] == stock_sevens - 1
    assert "7" in hand(state, 0) and state.current_player() == 1
    assert "(known 7)" in state.observation_string(1)
    state = start(FULL, [["6", "9", "J"], ["2", "3", "4"]], "5", "roll", "dice 3 6",
                  "choose 9")
    assert laid(state, 0) == ["9"] and state.current_player() == 0


# --- asking, when the stock holds no offered rank ---------------------------------------

# ranks A..6, four of each; all 3s and 4s are dealt, so a throw of 3 and 4 (the sum 7 is
# not in play) offers nothing the stock holds.
ASK_GAME = load(players=3, ranks=6, copies=4)
ASK_HANDS = [["A", "2", "4"], ["3", "3", "3", "5"], ["3", "4", "4", "4", "6"]]


def test_with_no_offered_rank_in_the_stock_the_player_asks_for_one():
    state = start(ASK_GAME, ASK_HANDS, "6", "roll", "dice 3 4")
    assert legal(state) == {"ask 3", "ask 4"}


def test_the_first_holder_clockwise_gives_one_and_a_match_gives_another_turn():
    state = start(ASK_GAME, ASK_HANDS, "6", "roll", "dice 3 4", "ask 4")
    assert "4" not in hand(state, 2) and laid(state, 0) == ["4"]
    assert state.current_player() == 0
    assert "p2 gives 4" in state.information_state_string(1)


def test_an_asked_card_without_a_match_stays_in_the_hand_and_play_passes():
    state = start(ASK_GAME, ASK_HANDS, "6", "roll", "dice 3 4", "ask 3")
    assert "3" in hand(state, 0) and "3" not in hand(state, 1) and "3" in hand(state, 2)
    assert state.current_player() == 1
    assert "p1 gives 3" in state.information_state_string(2)


def test_when_nobody_holds_the_asked_rank_the_turn_ends():
    hands = [["A", "2", "5"], ["3", "3", "3", "3", "5"], ["4", "4", "4", "4", "6"]]
    state = start(ASK_GAME, hands, "6", "roll", "dice 3 4", "ask 3")
    assert state.current_player() == 1 and "p0 gets nothing for 3" in str(
        state.information_state_string(0))


def test_a_throw_that_offers_no_rank_in_play_ends_the_turn():
    tiny = load(ranks=2, copies=7)
    state = start(tiny, [["A", "2", "A"], ["2", "A", "2"]], "A", "roll", "dice 3 4")
    assert state.current_player() == 1
    assert "p0 nothing offered" in state.information_state_string(1)


# --- the end ----------------------------------------------------------------------------

def test_the_game_ends_when_the_last_stock_card_is_taken_even_after_a_match():
    tiny = load(ranks=2, copies=7)
    hands = [["A", "A", "A", "2", "2", "2"], ["A", "A", "A", "2", "2", "2"]]
    state = start(tiny, hands, "A")
    assert state.core.stock_size == 1
    play(state, "draw", "stock 2")
    assert laid(state, 0) == ["A", "2", "2"] and state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_equal_top_scores_are_all_winners():
    three = load(players=3, ranks=3, copies=7, max_turns=1)
    hands = [["A", "A", "2", "2", "3", "3"], ["A", "A", "2", "2", "3", "3"], ["A", "2", "3"]]
    state = start(three, hands, "3", "draw", "stock A")
    assert state.is_terminal() and state.winners() == frozenset({0, 1})
    assert state.returns() == pytest.approx([0.25, 0.25, -0.5])


def test_all_equal_is_a_draw():
    tiny = load(ranks=2, copies=7)
    hands = [["A", "A", "2", "2", "2", "2"], ["A", "A", "A", "A", "2", "2"]]
    state = start(tiny, hands, "A", "draw", "stock 2")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_the_turn_cap_ends_the_game_scored_as_it_stands_extra_turns_counting():
    capped = load(max_turns=2)
    state = start(capped, [["5", "9", "J"], ["2", "3", "4"]], "5", "take discard")
    assert not state.is_terminal() and state.current_player() == 0
    play(state, "draw", "stock 8")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# --- parameters -------------------------------------------------------------------------

@pytest.mark.parametrize("game_string, named", [
    ("platinum_fish(players=1)", "players"), ("platinum_fish(players=7)", "players"),
    ("platinum_fish(ranks=0)", "ranks"), ("platinum_fish(ranks=14)", "ranks"),
    ("platinum_fish(copies=1)", "copies"), ("platinum_fish(max_turns=0)", "max_turns"),
    ("platinum_fish(ranks=2,copies=4)", "copies"),       # 8 cards cannot deal two hands
    ("platinum_fish(min_hand=0)", "min_hand"), ("platinum_fish(max_hand=7)", "max_hand"),
    ("platinum_fish(min_hand=4,max_hand=3)", "min_hand"),
    ("platinum_fish(players=6,ranks=4)", "ranks"),       # 32 cards for six hands of six
])
def test_bad_parameters_are_refused_naming_them(game_string, named):
    with pytest.raises(GameParameterError, match=named):
        games.load_game(game_string)


def test_the_default_is_the_full_game():
    rules = FULL.rules
    assert (rules.num_players, rules.num_ranks, rules.copies, rules.num_cards) == (2, 13, 8, 104)
    assert FULL.rules.deck.names == tuple("A23456789TJQK")

