"""Single games between agents: shared deals, crash handling, head-to-head bookkeeping."""

import pytest

from koloda import games
from koloda import solvers
from koloda.solvers.agent import Agent
from koloda.tournament.chance import DeckOrder
from koloda.tournament.headtohead import run_match
from koloda.tournament.match import play_game


@pytest.fixture(scope="module")
def durak():
    return games.load_game("durak")


def _deal_of(game, record):
    """The chance outcomes of a finished game, in order."""
    state = game.new_initial_state()
    dealt = []
    for action in record.actions:
        if state.is_chance_node():
            dealt.append(action)
        state.apply_action(action)
    return dealt


def test_same_seed_same_deck_whoever_sits_where(durak):
    heuristic = solvers.load_agent(durak, "heuristic")
    rand = solvers.load_agent(durak, "random", seed=3)
    first = play_game(durak, [heuristic, rand], seed=42)
    swapped = play_game(durak, [rand, heuristic], seed=42)
    deal_a, deal_b = _deal_of(durak, first), _deal_of(durak, swapped)
    opening = 2 * 6 + 1                      # the deal and the trump
    assert deal_a[:opening] == deal_b[:opening]
    # Later draws follow the same deck order, whoever draws them: both games draw a
    # prefix of one sequence (the trump card, drawn last, aside).
    trump = deal_a[opening - 1]
    rest_a = [c for c in deal_a[opening:] if c != trump]
    rest_b = [c for c in deal_b[opening:] if c != trump]
    shorter = min(len(rest_a), len(rest_b))
    assert rest_a[:shorter] == rest_b[:shorter]
    assert play_game(durak, [heuristic, rand], seed=43).actions != first.actions


def test_deck_order_is_a_uniform_shuffle(durak):
    """The first dealt card is uniform over the deck across seeds."""
    counts = [0] * 36
    for seed in range(3600):
        counts[DeckOrder(durak, seed)(durak.new_initial_state())] += 1
    assert min(counts) > 60 and max(counts) < 145


class _Crasher(Agent):
    def choose(self, view, player):
        raise RuntimeError("boom")


class _Illegal(Agent):
    def step(self, state):
        return -1


@pytest.mark.parametrize("bad", [_Crasher, _Illegal])
def test_a_failing_agent_loses_and_the_error_is_recorded(durak, bad):
    record = play_game(durak, [solvers.load_agent(durak, "heuristic"), bad(durak)], seed=1,
                       specs=["heuristic", "bad"])
    assert record.error is not None
    assert record.error["seat"] == 1 and record.error["agent"] == "bad"
    assert record.returns == [1.0, -1.0] and record.winners == [0]


def test_head_to_head_counts_every_game_and_rotates_seats():
    result = run_match("durak(players=3)", "heuristic", "random", 12, seed=5, jobs=1)
    assert result.deals == 4 and result.games == 12
    assert result.wins + result.draws + result.losses == 12
    assert len(result.deal_scores) == 4
    low, high = result.interval()
    assert 0.0 <= low <= result.score <= high <= 1.0
    assert result.fair_share == pytest.approx(2 / 3)
    assert result.agent_moves > 0 and result.opponent_moves > result.agent_moves


def test_head_to_head_is_reproducible_and_parallel_gives_the_same_result():
    one = run_match("durak", "heuristic", "random(seed=1)", 8, seed=9, jobs=1)
    two = run_match("durak", "heuristic", "random(seed=1)", 8, seed=9, jobs=2)
    assert (one.wins, one.draws, one.losses) == (two.wins, two.draws, two.losses)
    assert one.deal_scores == two.deal_scores
