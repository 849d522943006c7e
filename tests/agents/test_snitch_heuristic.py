"""The Snitch heuristic plays its documented habits (solvers/heuristics/snitch.py)."""

from snitch_rules.helpers import load, start

from koloda import solvers

GAME = load(ranks=6, copies=4, hand_size=3, target_score=0)   # 3..8, 2 and X: 30 cards


def _move(state):
    agent = solvers.load_agent(state.get_game(), "heuristic", seed=1)
    return state.action_to_string(state.current_player(), agent.step(state))


def test_a_natural_pair_is_laid():
    state = start(GAME, [["5", "5", "2"], ["3", "4", "6"], ["7", "8", "X"]])
    assert _move(state) == "set 55"


def test_a_wild_is_kept_from_a_low_natural_while_the_deal_is_young():
    state = start(GAME, [["3", "2", "7"], ["3", "4", "6"], ["7", "8", "X"]])
    assert _move(state) in {"discard 3", "discard 7"}       # never the 2, never 32


def test_the_discard_is_never_a_wild_while_a_natural_can_go():
    state = start(GAME, [["X", "2", "4"], ["3", "4", "6"], ["7", "8", "5"]])
    assert _move(state) == "discard 4"


def test_after_a_set_it_stops_when_nothing_worth_laying_is_left():
    state = start(GAME, [["5", "5", "3"], ["3", "4", "6"], ["7", "8", "X"]], "set 55")
    assert _move(state) == "stop"
