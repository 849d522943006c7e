"""Every rule and gap decision of docs/rules/snitch.md, scripted through action strings
(helpers.py)."""

import pytest

from koloda import games
from koloda.games.errors import GameParameterError, IllegalActionError, MalformedActionError

from .helpers import deal, hand, legal, load, play, start

# Three natural ranks (3, 4, 5) and the wilds, four of each and two jokers: 18 cards.
SMALL = load(ranks=3, copies=4, hand_size=2, target_score=0)


def test_sets_are_a_rank_twice_or_a_rank_and_one_wild():
    state = start(SMALL, [["3", "3"], ["4", "2"], ["5", "X"]])
    assert legal(state) == {"discard 3", "set 33"}
    play(state, "discard 3", "draw 4")
    assert legal(state) == {"discard 4", "discard 2", "set 42", "pick 2"}
    play(state, "set 42")
    assert state.core.points[1] == 5 + 20 and state.current_player() == 1
    assert legal(state) == {"stop"}                # nothing more to lay; the turn may end


@pytest.mark.parametrize("text", ["set 22", "set 2X", "set XX", "set X2", "extend 2X",
                                  "set 34", "extend 33"])
def test_two_wilds_never_make_a_set_and_ranks_do_not_mix(text):
    state = start(SMALL, [["2", "X"], ["4", "2"], ["5", "X"]])
    with pytest.raises(MalformedActionError):
        state.string_to_action(text)
    assert legal(state) == {"discard 2", "discard X"}


def test_a_discard_set_takes_the_top_discard_and_the_next_becomes_the_top():
    state = start(SMALL, [["3", "5"], ["4", "2"], ["5", "3"]],
                  "discard 5", "draw 4", "discard 4", "draw 3", "discard 3", "draw 5")
    names = SMALL.rules.deck.names
    assert [names[c] for c in state.core.discard] == ["5", "4", "3"]
    assert "pick 3" in legal(state) and "pick 4" not in legal(state)   # p0 holds 3 4
    play(state, "pick 3")
    assert [names[c] for c in state.core.discard] == ["5", "4"]
    assert state.core.points[0] == 10
    assert "pick 4" in legal(state)                 # the 4 is the top now


def test_discard_sets_only_while_the_reserve_lasts():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)   # 9 cards, reserve of 3
    state = start(tiny, [["3", "5"], ["4", "2"], ["5", "3"]],
                  "discard 5", "draw 4", "discard 4", "draw 2", "discard 3", "draw X")
    assert state.core.reserve_size == 0
    assert not any(a.startswith("pick") for a in legal(state))
    assert "pass" in legal(state)


def test_passing_only_once_the_reserve_is_empty():
    state = start(SMALL, [["3", "5"], ["4", "2"], ["5", "3"]])
    assert "pass" not in legal(state)
    with pytest.raises(IllegalActionError):
        state.string_to_action("pass")


def test_an_extension_goes_only_onto_the_players_own_set_of_that_rank():
    state = start(SMALL, [["3", "3"], ["3", "X"], ["4", "4"]], "set 33", "stop",
                  "draw 3", "draw 2")
    # p1 holds 3 and X but has no set of threes: it may lay 3X as a new set, not extend.
    assert "set 3X" in legal(state) and not any(a.startswith("extend") for a in legal(state))
    play(state, "discard 3", "draw 5", "set 44", "stop", "draw 5", "draw 5")
    assert "extend 32" in legal(state)             # p0: a 3 and a 2 onto its own threes
    play(state, "extend 32")
    assert state.core.points[0] == 10 + 25 and state.core.laid[0] == ((0, 0), (0, 3))


def test_a_turn_lays_at_most_max_sets_per_turn_sets_then_refills():
    game = load(ranks=3, copies=4, hand_size=4, max_sets_per_turn=2, target_score=0)
    state = start(game, [["3", "3", "4", "4"], ["5", "5", "2", "X"], ["3", "4", "5", "2"]],
                  "set 33", "set 44")
    assert state.is_chance_node() and state.core.held[0] == 0   # the turn ended: refill
    play(state, "draw 5", "draw 3", "draw 2", "draw X")
    assert hand(state, 0) == ["2", "3", "5", "X"] and state.current_player() == 1


def test_the_hand_is_refilled_to_the_hand_size_as_far_as_the_reserve_lasts():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)
    state = start(tiny, [["3", "3"], ["4", "2"], ["5", "X"]], "set 33", "stop",
                  "draw 4", "draw 5")
    assert state.core.held[0] == 2 and state.core.reserve_size == 1
    play(state, "set 42", "stop", "draw 2")        # the last reserve card: one only
    assert state.core.held[1] == 1 and state.current_player() == 2


def test_a_deal_ends_after_a_full_round_of_passes():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)
    state = start(tiny, [["3", "4"], ["4", "5"], ["5", "2"]],
                  "discard 3", "draw 3", "discard 4", "draw X", "discard 2", "draw 2")
    assert state.core.reserve_size == 0
    play(state, "pass", "pass")
    assert not state.is_terminal()
    play(state, "pass")
    assert state.is_terminal()
    assert state.core.totals == [0, 0, 0] and state.returns() == [0.0, 0.0, 0.0]


def test_a_set_restarts_the_round_of_passes_and_empty_hands_are_skipped():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)
    state = start(tiny, [["3", "4"], ["4", "5"], ["5", "2"]],
                  "discard 4", "draw 3", "discard 5", "draw X", "discard 2", "draw 2",
                  "set 33", "stop", "pass", "set 52", "stop")
    assert state.core.held[0] == 0 and state.current_player() == 1   # p0 skipped
    play(state, "pass")                            # the only holder passes: the deal ends
    assert state.is_terminal() and state.core.totals == [10, 0, 25]


def test_a_deal_ends_when_every_hand_is_empty():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)
    state = start(tiny, [["3", "3"], ["4", "4"], ["5", "5"]], "set 33", "stop",
                  "draw 2", "draw 2", "set 44", "stop", "draw X", "set 55", "stop")
    assert state.core.reserve_size == 0 and not state.is_terminal()
    # p0 holds 2 2 (no set), p1 X: they pass; p2 is empty and skipped
    play(state, "pass", "pass")
    assert state.is_terminal() and state.core.totals == [10, 10, 10]


@pytest.mark.parametrize("card, points", [
    ("3", 5), ("4", 5), ("5", 5), ("6", 5), ("7", 5), ("8", 5), ("9", 5), ("T", 10),
    ("J", 10), ("Q", 10), ("K", 10), ("A", 15), ("2", 20), ("X", 50)])
def test_the_value_of_every_card(card, points):
    rules = load().rules
    assert rules.points[rules.deck.parse(card)] == points


def test_deals_go_on_to_the_target_with_the_dealer_moving_clockwise():
    game = load(ranks=3, copies=2, hand_size=2, target_score=20)
    state = start(game, [["3", "3"], ["4", "4"], ["5", "5"]], "set 33", "stop",
                  "draw 2", "draw 2", "set 44", "stop", "draw X", "set 55", "stop",
                  "pass", "pass")
    assert not state.is_terminal() and state.core.totals == [10, 10, 10]
    assert state.core.dealer == 0 and state.is_chance_node()
    # The second deal starts at the new dealer's left: p1 is dealt first and plays first.
    second = [["3", "3"], ["4", "X"], ["5", "2"]]
    play(state, *[f"deal {second[(1 + i) % 3][i // 3]}" for i in range(6)])
    assert state.current_player() == 1
    assert "deal 1 scores 10 10 10" in state.information_state_string(2)


def test_equal_top_totals_are_all_winners():
    tiny = load(ranks=3, copies=2, hand_size=2, target_score=0)
    state = start(tiny, [["3", "3"], ["4", "4"], ["5", "2"]], "set 33", "stop",
                  "draw 5", "draw 2", "set 44", "stop", "draw X", "pass", "pass", "pass")
    assert state.is_terminal() and state.core.totals == [10, 10, 0]
    assert state.winners() == frozenset({0, 1})
    assert state.returns() == pytest.approx([0.25, 0.25, -0.5])


def test_the_deal_cap_ends_the_match_the_highest_total_winning():
    game = load(ranks=3, copies=2, hand_size=2, target_score=1000, max_deals=1)
    state = start(game, [["3", "3"], ["4", "5"], ["5", "2"]], "set 33", "stop",
                  "draw 4", "draw X", "discard 4", "draw 2", "pass", "pass", "pass")
    assert state.is_terminal() and state.core.totals == [10, 0, 0]
    assert state.returns() == pytest.approx([1.0, -0.5, -0.5])


@pytest.mark.parametrize("game_string, named", [
    ("snitch(players=2)", "players"), ("snitch(players=9)", "players"),
    ("snitch(copies=3)", "copies"), ("snitch(ranks=13)", "ranks"),
    ("snitch(max_sets_per_turn=0)", "max_sets_per_turn"), ("snitch(target_score=-1)",
                                                           "target_score"),
    ("snitch(max_deals=0)", "max_deals"), ("snitch(ranks=1,copies=2,hand_size=2)", "hand_size"),
])
def test_bad_parameters_are_refused_naming_them(game_string, named):
    with pytest.raises(GameParameterError, match=named):
        games.load_game(game_string)


def test_the_default_is_the_whole_game():
    rules = load().rules
    assert (rules.num_players, rules.hand_size, rules.max_sets_per_turn, rules.target_score,
            rules.num_cards) == (3, 3, 3, 1000, 108)
    assert rules.deck.names == tuple("3456789TJQKA2X")


def test_deal_strings_go_clockwise_from_the_dealers_left():
    assert deal(SMALL, [["3", "4"], ["5", "2"], ["X", "3"]]) == [
        "deal 3", "deal 5", "deal X", "deal 4", "deal 2", "deal 3"]
