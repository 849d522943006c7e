"""A game kept as seats were told it (games/kit/belief.py): guesses agree with everything
told, a guess a later event contradicts is redrawn, the belief hangs on nothing but what
was told, and a search that finds no world stops within its bounds with the kit's error."""

import random
import time

import pytest

from koloda import games
from koloda.games.kit.belief import (
    BeliefError,
    Budget,
    Impossible,
    Limits,
    OutOfTime,
    RedrawBelief,
    RedrawLimits,
    RepairBelief,
    RepairLimits,
)
from koloda.games.kit.random_play import choose
from koloda.games.kit.told import history_told

GAMES = ["durak", "durak(players=3)", "platinum_fish", "snitch(target_score=0)"]
SMALL = RedrawLimits(quick=Limits(20, 1.0), redraws=Limits(20, 1.0), reguesses=Limits(20, 1.0))


def _played(game_string: str, seed: int, moves: int):
    """A game played at random for `moves` actions (or to its end): the truth."""
    rng, state = random.Random(seed), games.load_game(game_string).new_initial_state()
    while not state.is_terminal() and len(state.history()) < moves:
        state.apply_action(choose(state, rng))
    return state


def _tell(belief: RedrawBelief, event: dict, rng: random.Random) -> dict:
    """One told event as an app tells it: the action, its player, exactly what followed."""
    return belief.observe(event["action"], rng, event.get("then", []), seat=event["player"])


def _believed(state, seat: int, seed: int, limits: RedrawLimits | None = None):
    belief = RedrawBelief(state.get_game().new_initial_state(), (seat,),
                          *([limits] if limits else []))
    rng = random.Random(seed)
    for event in history_told(state, [seat]):
        _tell(belief, event, rng)
    return belief


def _hidden_cards(truth, seat: int) -> set[str]:
    """The cards in other seats' hands that `seat` has not seen."""
    seen = set(truth.seat_view(seat)["hand"])
    return {card for other in range(truth.num_players()) if other != seat
            for card in truth.seat_view(other)["hand"]} - seen


@pytest.mark.parametrize("game_string", GAMES)
def test_every_guess_agrees_with_everything_the_seat_was_told(game_string):
    truth = _played(game_string, seed=4, moves=70)
    seat = 1
    told = history_told(truth, [seat])
    belief = RedrawBelief(truth.get_game().new_initial_state(), (seat,))
    rng = random.Random(2)
    for event in told:
        assert _tell(belief, event, rng) == event     # each event as the seat was told it
    assert belief.guessed                               # cards it never saw were guessed
    assert history_told(belief.state, [seat]) == told   # ... and agree with all it was told
    assert belief.state.information_state_string(seat) == truth.information_state_string(seat)
    assert belief.state.seat_view(seat) == truth.seat_view(seat)


def test_a_guess_a_later_play_contradicts_is_redrawn():
    """An opponent plays a card the guess put elsewhere: the state is redrawn so that the
    play is legal, and the seat's view stays the truth's."""
    contradicted = 0
    for seed in range(4):
        truth = _played("durak", seed, moves=80)
        belief = RedrawBelief(truth.get_game().new_initial_state(), (0,))
        rng = random.Random(seed)
        replay = truth.get_game().new_initial_state()
        for action, event in zip(truth.history(), history_told(truth, [0])):
            world = belief.state
            if event["player"] == 1 and not world.core.is_legal(action):
                contradicted += 1
                guesses = [world.history()[i] for i in belief.guessed]
                _tell(belief, event, rng)
                assert [belief.state.history()[i] for i in belief.guessed] != guesses
            else:
                _tell(belief, event, rng)
            replay.apply_action(action)
            assert belief.state.information_state_string(0) == \
                replay.information_state_string(0)
    assert contradicted >= 3


def test_the_repairing_strategy_keeps_a_seat_at_its_turn_with_the_legal_actions_sent():
    """RepairBelief, told events in batches, is at the seat's turn with the legal actions
    the true game has, seen as the seat sees it, after repairing contradicted guesses."""
    repairs = 0
    for seed in range(3):
        game = games.load_game("platinum_fish")
        truth, rng = game.new_initial_state(), random.Random(seed)
        belief = RepairBelief(game, 0, random.Random(seed))
        told = 0
        while not truth.is_terminal():
            if truth.current_player() == 0:
                legal = [truth.action_to_string(0, a) for a in truth.legal_actions()]
                belief.tell(history_told(truth, [0], told))
                told = len(truth.history())
                world = belief.position(legal)
                assert world.information_state_string(0) == truth.information_state_string(0)
                assert [world.action_to_string(0, a) for a in world.legal_actions()] == legal
            truth.apply_action(choose(truth, rng))
        repairs += belief.repairs
    assert repairs >= 1


def test_deals_that_differ_only_in_unseen_cards_are_told_alike_and_believed_alike():
    truth = _played("durak", seed=5, moves=40)
    draws = random.Random(9)
    other = truth.resample_from_infostate(0, draws.random)
    while other.history() == truth.history():
        other = truth.resample_from_infostate(0, draws.random)
    assert history_told(other, [0]) == history_told(truth, [0])
    first, second = _believed(truth, 0, seed=3), _believed(other, 0, seed=3)
    assert first.state.history() == second.state.history()
    game = truth.get_game()
    beliefs = [RepairBelief(game, 0, random.Random(3)) for _ in range(2)]
    for belief, state in zip(beliefs, (truth, other)):
        belief.tell(history_told(state, [0]))
    assert beliefs[0].state().history() == beliefs[1].state().history()


def _defending():
    """Durak after p0's first attack: p1 to defend, which is public."""
    for seed in range(20):
        truth = _played("durak", seed, moves=12)
        while truth.is_chance_node():
            truth.apply_action(choose(truth, random.Random(seed)))
        if truth.current_player() == 0:
            truth.apply_action(truth.legal_actions()[0])
            return truth
    raise AssertionError("no deal where p0 attacks first")


def test_a_play_no_world_allows_is_impossible_and_names_no_unseen_card():
    """p1 cannot beat with a card p0 holds: every world is tried in vain, within the
    limits, and the error names no card p0 has not seen."""
    truth = _defending()
    own = truth.seat_view(0)["hand"][0]
    belief = _believed(truth, 0, seed=1, limits=SMALL)
    history = belief.state.history()
    began = time.monotonic()
    with pytest.raises(Impossible) as raised:
        belief.observe(f"beat {own}", random.Random(1), seat=1)
    assert time.monotonic() - began < 3.0 + 1.0
    assert not set(str(raised.value).split()) & _hidden_cards(truth, 0)
    assert belief.state.history() == history        # the redraw found nothing to keep


def test_a_redraw_past_the_callers_deadline_is_out_of_time():
    truth = _defending()
    belief = _believed(truth, 0, seed=1)
    belief.deadline = time.monotonic() - 1.0
    with pytest.raises(OutOfTime):
        belief.observe(f"beat {truth.seat_view(0)['hand'][0]}", random.Random(1), seat=1)


@pytest.mark.parametrize("limits", [RepairLimits(resamples=30, replays=30, seconds=60.0),
                                    RepairLimits(seconds=0.0)])
def test_a_repair_that_finds_no_world_stops_at_its_tries_or_seconds(limits):
    truth = _defending()
    own = truth.seat_view(0)["hand"][0]
    belief = RepairBelief(truth.get_game(), 0, random.Random(1))
    belief.tell(history_told(truth, [0]))
    repairs, belief.limits = belief.repairs, limits
    began = time.monotonic()
    with pytest.raises(BeliefError) as raised:
        belief.tell([{"player": 1, "action": f"beat {own}"}])
    assert isinstance(raised.value, Impossible) and belief.repairs == repairs + 1
    assert time.monotonic() - began < 5.0
    assert not set(str(raised.value).split()) & _hidden_cards(truth, 0)


def test_a_budget_counts_its_tries_and_stops_at_its_deadline():
    budget = Budget(5, time.monotonic() + 60.0)
    assert list(budget) == [0, 1, 2, 3, 4] and not budget.out_of_time
    late = Budget(5, time.monotonic() - 1.0)
    assert list(late) == [] and late.out_of_time
