"""Every rule and gap decision of docs/rules/parket.md, scripted through positions and
action strings (helpers.py)."""

import re

import pytest

from koloda.games.errors import IllegalActionError

from .helpers import CROSS, cells_for, legal, play, position, start

# --- the cross ------------------------------------------------------------------------


def test_the_first_card_goes_on_any_inner_cell_and_never_outside_the_cross():
    state = start()
    assert state.current_player() == 0
    assert cells_for(state, "9h") == {"d2", "c3", "e3", "d4"}
    assert len(legal(state)) == 18 * 4                     # every red card, four cells
    with pytest.raises(IllegalActionError):
        state.string_to_action("9h d1")                    # its inner cell is empty
    with pytest.raises(IllegalActionError):
        state.string_to_action("9c d2")                    # not red's card


def test_an_outer_cell_takes_an_adjacent_rank_of_either_colour_once_its_inner_is_filled():
    state = play(start(), "9h d2")
    assert cells_for(state, "8c") == {"c3", "e3", "d4", "d1"}
    assert cells_for(state, "Ts") == {"c3", "e3", "d4", "d1"}
    assert cells_for(state, "9c") == {"c3", "e3", "d4"}    # same rank: not adjacent
    assert cells_for(state, "Jc") == {"c3", "e3", "d4"}    # two ranks away
    play(state, "Kc c3", "Qh b3")                          # red next to black: colours free
    assert "Ah d1" not in legal(state) and "Jh d1" not in legal(state)


def test_the_ace_links_king_and_six_in_the_cross():
    state = play(start(), "Ah d2")
    assert {"6c d1", "6s d1", "Kc d1", "Ks d1"} <= legal(state)
    assert "Qc d1" not in legal(state) and "7c d1" not in legal(state)


def test_the_main_phase_begins_when_the_eighth_cross_card_is_laid():
    state = play(start(), "9h d2", "Tc d1", "Ah c3", "Ks b3", "Ad e3", "6s f3", "Jh d4")
    assert state.position().endswith(" b x 0")
    play(state, "Ts d5")
    assert state.position() == position({**CROSS, "d2": "9h", "c3": "Ah", "b3": "Ks",
                                          "f3": "6s", "d4": "Jh"}, side="r")


def test_black_moves_first_with_first_color_black():
    state = start(first_color="black")
    assert state.position().endswith(" b x 0") and cells_for(state, "9s") == {
        "d2", "c3", "e3", "d4"}


# --- the corner: shape, colours, sequence ---------------------------------------------


def test_the_rules_example_a_nine_under_a_ten_lets_an_eight_beside_the_nine():
    """x beside A in a row, B above A in a column: 8 at c2 or e2, J at c1 or e1."""
    state = start(position(CROSS))
    assert cells_for(state, "8h") == {"c2", "e2"}
    assert cells_for(state, "Jh") == {"c1", "e1"}
    play(state, "8h c2")
    assert state.position().startswith("------Tc------/----8h9c------/")


def test_a_corner_also_runs_from_a_card_above_to_one_beside_it():
    """x above or below A, B beside A in a row: for black, 6 at c2 or c4 (6, A, K)."""
    state = start(position(CROSS, side="b"))
    assert {"c2", "c4"} <= cells_for(state, "6c")


def test_three_cards_in_a_line_are_no_corner():
    """Q at a3 would continue Kh b3, Ah c3 in a row, but the row is straight."""
    state = start(position(CROSS, side="b"))
    # Q, K, A: above or below Kh b3 (a corner with Ah c3), not beyond it in the row.
    assert cells_for(state, "Qc") == {"b2", "b4"}
    assert not any(text.endswith(" a3") for text in legal(state))


def test_colour_rule_a_corner_of_two_of_the_movers_cards_does_not_count():
    red = start(position(CROSS))
    black = start(position(CROSS, side="b"))
    # Kh b3 and Ah c3 are red: a 6 (6, A, K) may join them for black, not for red.
    assert "6h c2" not in legal(red) and "6c c2" in legal(black)
    # Tc d1 and 9c d2 are black: an 8 may join them for red, not for black.
    assert "8h c2" in legal(red) and "8c c2" not in legal(black)


def test_colour_rule_a_corner_of_one_card_of_each_colour_counts():
    cells = {**CROSS, "b3": "Ks", "d5": "Th"}              # Ah c3 red beside Ks b3 black
    assert "6h c2" in legal(start(position(cells)))
    assert "6c c2" in legal(start(position(cells, side="b")))


def test_sequence_rule_runs_either_way_with_the_corner_card_in_the_middle():
    state = start(position(CROSS))
    assert "8h c2" in legal(state)      # 8, 9, T rising: 9c d2 in the middle
    assert "Jh c1" in legal(state)      # J, T, 9 falling: Tc d1 in the middle
    assert "Qh c4" in legal(state)      # Q, J, T falling: Js d4 in the middle
    assert "9h c5" in legal(state)      # 9, T, J rising: Ts d5 in the middle
    assert "Th c2" not in legal(state)  # T, 9, T is no sequence
    assert "Jh c2" not in legal(state)  # 9 is not the middle of J, 9, T


def test_sequence_rule_crosses_the_ace_both_ways():
    state = start(position(CROSS, side="b"))
    assert "6c c2" in legal(state)      # 6, A, K: Ah c3 in the middle, Kh b3 beyond
    assert "Kc e2" in legal(state)      # K, A, 6: Ad e3 in the middle, 6d f3 beyond
    assert "Qc e2" not in legal(state) and "7c c2" not in legal(state)


def test_corner_order_any_takes_three_consecutive_ranks_in_any_order():
    path = start(position(CROSS))
    any_order = start(position(CROSS), corner_order="any")
    # 9c d2 with Tc d1: 8 (8, 9, T) either way; J (9, T, J) only in any order.
    assert "Jh c2" not in legal(path) and {"8h c2", "Jh c2"} <= legal(any_order)
    # Ts d5 beside Js d4 (two apart from a nine? no: J, T consecutive): 9 or Q at c5.
    assert "Qh c5" not in legal(path) and {"9h c5", "Qh c5"} <= legal(any_order)
    # A corner two ranks apart lets in the rank between them, in any order only.
    cells = {**CROSS, "d1": "Jc"}                          # 9c d2, Jc d1
    assert "Th c2" not in legal(start(position(cells)))
    assert "Th c2" in legal(start(position(cells), corner_order="any"))
    assert "8h c2" not in legal(start(position(cells), corner_order="any"))


def test_the_centre_is_an_ordinary_cell_in_the_main_phase():
    state = play(start(position(CROSS), corner_order="any"), "8h c2")
    # 9c d2 above the centre, 8h c2 beside it: 7 or T (consecutive with 8, 9) at d3.
    assert "7c d3" in legal(state)


# --- relocation ------------------------------------------------------------------------

# Black's lone cards touch nothing; 9s a5 with Ts b5 make the only corners red may use:
# an 8 at a4 (8, 9, T) and a J at b4 (J, T, 9).  Red's row 3 holds both red eights and
# both red jacks, so red's hand has nothing to place.
STUCK = {"a1": "6c", "c1": "7c", "e1": "8c", "g1": "Kc", "a5": "9s", "b5": "Ts",
         "a3": "8h", "b3": "6h", "c3": "Jh", "d3": "6d", "e3": "8d", "f3": "Ah", "g3": "Jd"}


def test_with_nothing_to_place_the_mover_relocates_its_own_card():
    state = start(position(STUCK))
    assert legal(state) == {"move 8h a4", "move 8d a4", "move Jh b4", "move Jd b4"}
    play(state, "move Jh b4")
    assert state.position() == position({**{k: v for k, v in STUCK.items() if k != "c3"},
                                         "b4": "Jh"}, side="b", relocations=1)


def test_no_relocation_while_a_card_can_be_placed():
    cells = {**STUCK, "a3": "Th"}                          # 8h is back in red's hand
    state = start(position(cells))
    # "move 8d a4" would fit, but 8h can be placed, so placing is the only kind of move.
    assert legal(state) == {"8h a4"}


def test_a_relocated_card_leaves_its_cell_empty_and_is_judged_without_it():
    state = start(position(STUCK))
    # 8h a3 may go to a4, beside the corner 9s a5, Ts b5; its own cell is no target,
    # and once moved, a3 is an empty cell like any other.
    assert not any(text.endswith(" a3") for text in legal(state))
    play(state, "move 8h a4")
    assert state.position().split("/")[2].startswith("--6h")
    assert state.core.board[14] == -1


def test_a_placement_resets_the_relocations_in_a_row():
    cells = {**STUCK, "a3": "Th"}
    state = play(start(position(cells, relocations=3)), "8h a4")
    assert state.position().endswith(" b m 0")


# --- the end ---------------------------------------------------------------------------


def test_placing_the_last_card_wins():
    red = ["6h", "6d", "7h", "7d", "8d", "9h", "9d", "Th", "Td", "Jh", "Jd", "Qh", "Qd",
           "Kh", "Kd", "Ah", "Ad"]                         # every red card but 8h
    cells = {"a1": "6c", "c1": "7c", "e1": "8c", "g1": "Kc", "a5": "9s", "b5": "Ts"}
    free = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "c4", "d4", "e4", "f4", "g4",
            "c5", "d5", "e5", "f5", "g5"]
    state = play(start(position({**cells, **dict(zip(free, red))})), "8h a4")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.winners() == frozenset({0})
    assert "p0 (red) wins (placed the last card)" in str(state)


def test_a_player_with_no_legal_move_loses():
    # Black's cards touch nothing, so every corner red sees is two red cards.
    cells = {"a1": "6c", "c1": "7c", "e1": "8c", "g1": "Kc", "a3": "8h", "b3": "6h",
             "c3": "Jh", "d3": "6d", "e3": "8d", "f3": "Ah", "g3": "Jd"}
    state = start(position(cells))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert "p1 (black) wins (the opponent cannot move)" in str(state)


def test_the_relocation_cap_draws_the_game():
    state = play(start(position(STUCK), max_relocations=1), "move 8h a4")
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and not state.winners()
    assert state.position().endswith(" b m 1") and "drawn" in str(state)
    state = play(start(position(STUCK, relocations=1), max_relocations=2), "move Jd b4")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    state = play(start(position(STUCK, relocations=2)), "move Jd b4")
    assert not state.is_terminal() and state.position().endswith(" b m 3")


# --- illegal actions say which rule they break ----------------------------------------


@pytest.mark.parametrize("text, position_cells, message", [
    ("9c d2", None, "9c is not red's card"),
    ("9h d1", None, "d1 takes a card only once its inner cell d2 is filled"),
    ("9h a1", None, "cards go only on the cross cells"),
    ("move 9h d2", None, "no card is relocated in the cross phase"),
    ("8h d2", CROSS, "d2 is taken by 9c"),
    ("Ah a1", CROSS, "Ah is already on the board at c3"),
    ("Th c2", CROSS, "no corner at c2 lets Th in"),
    ("move Ah b2", CROSS, "red can place a card, so it may not relocate one"),
    ("Qh a4", STUCK, "red can place no card, so it must relocate one"),
    ("move Qh a4", STUCK, "Qh is not on the board"),
    ("move 6h a4", STUCK, "no corner at a4 lets 6h in (judged with b3 empty)"),
])
def test_an_illegal_action_names_the_rule_it_breaks(text, position_cells, message):
    state = start(position(position_cells)) if position_cells else start()
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        state.string_to_action(text)
