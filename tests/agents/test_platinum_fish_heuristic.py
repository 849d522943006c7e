"""The Platinum Fish heuristic plays its documented habits
(solvers/heuristics/platinum_fish.py)."""

from platinum_fish_rules.helpers import load, start

from koloda import solvers
from koloda.solvers.heuristics.platinum_fish import (
    draw_match_chance,
    roll_match_chance,
    unseen_copies,
)

FULL = load()


def _move(state):
    agent = solvers.load_agent(state.get_game(), "heuristic", seed=1)
    return state.action_to_string(state.current_player(), agent.step(state))


def test_it_takes_the_discard_whenever_it_matches():
    assert _move(start(FULL, [["5", "9", "J"], ["2", "3", "4"]], "5")) == "take discard"


def test_after_a_throw_it_chooses_a_rank_it_holds():
    state = start(FULL, [["9", "J", "K"], ["2", "3", "4"]], "5", "roll", "dice 3 6")
    assert _move(state) == "choose 9"


def test_holding_no_offered_rank_it_chooses_the_rank_with_most_copies_unseen():
    state = start(FULL, [["A", "J", "K"], ["2", "3", "4"]], "7", "roll", "dice 3 4")
    assert _move(state) == "choose 3"        # a 7 was seen (the discard): 3 and 4 tie, low


def test_it_asks_for_a_rank_it_holds_known_to_be_in_another_hand():
    game = load(players=3, ranks=6, copies=4)
    hands = [["A", "2", "4"], ["3", "3", "3", "5"], ["3", "4", "4", "4", "6"]]
    state = start(game, hands, "6", "roll", "dice 3 4")
    assert _move(state) == "ask 4"           # p0 holds a 4: the holder must give one


def test_counting_cards_and_comparing_draw_with_roll():
    state = start(FULL, [["5", "9", "J"], ["2", "3", "4"]], "6")
    core = state.core
    unseen = unseen_copies(core, 0)
    assert unseen[FULL.rules.deck.parse("5")] == 7 and unseen[FULL.rules.deck.parse("6")] == 7
    assert sum(unseen) == core.stock_size + core.hands[1].bit_count()
    hand = core.hands[0]
    assert 0 < draw_match_chance(unseen, hand) < roll_match_chance(core, unseen, hand) < 1
    assert _move(state) == "roll"
