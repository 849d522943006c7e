"""Events as a seat sees them (games/kit/told.py): decisions as they are, outcomes the seat
did not see masked, and nothing that differs between two deals the seat cannot tell apart."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.random_play import choose
from koloda.games.kit.told import apply_told, history_told, masked

GAMES = ["durak", "durak(players=3)", "platinum_fish", "snitch(target_score=0)", "parket"]


def _played(game_string: str, seed: int, moves: int):
    """A game played at random for `moves` actions (or to its end)."""
    rng, state = random.Random(seed), games.load_game(game_string).new_initial_state()
    while not state.is_terminal() and len(state.history()) < moves:
        state.apply_action(choose(state, rng))
    return state


@pytest.mark.parametrize("game_string", GAMES)
def test_decisions_are_told_as_they_are_and_unseen_outcomes_masked(game_string):
    state = _played(game_string, seed=3, moves=80)
    replay = state.get_game().new_initial_state()
    for seat in range(state.num_players()):
        events = history_told(state, [seat])
        assert len(events) == len(state.history())
        replay = state.get_game().new_initial_state()
        for action, event in zip(state.history(), events):
            player = replay.current_player()
            text = replay.action_to_string(player, action)
            if player < 0:
                seen = [p for p in range(state.num_players())
                        if replay.core.chance_seen_by(p, action)]
                assert event["seen_by"] == seen and event["player"] is None
                assert event["action"] == (text if seat in seen else masked(text))
            else:
                assert event["player"] == player and event["action"] == text
            replay.apply_action(action)


@pytest.mark.parametrize("game_string", ["durak", "durak(players=3)", "platinum_fish",
                                         "snitch(target_score=0)"])
def test_two_deals_a_seat_cannot_tell_apart_are_told_alike(game_string):
    state = _played(game_string, seed=5, moves=60)
    rng = np.random.RandomState(1)
    varied = 0
    for seat in range(state.num_players()):
        for _ in range(3):
            other = state.resample_from_infostate(seat, lambda: rng.random_sample())
            varied += other.history() != state.history()      # the unseen cards differ
            assert history_told(other, [seat]) == history_told(state, [seat])
    assert varied, "no resample differed in an unseen card: the test compared nothing"


def test_an_outcome_any_of_several_seats_saw_is_told_and_since_skips_the_start():
    state = _played("durak(players=3)", seed=2, moves=40)
    everyone = history_told(state, [0, 1, 2])
    assert all("?" not in event["action"].split() for event in everyone)
    assert history_told(state, [1], since=10) == history_told(state, [1])[10:]
    start = state.get_game().new_initial_state()
    first = apply_told(start, state.history()[0], [0])
    assert len(start.history()) == 1 and first == history_told(state, [0])[0]
