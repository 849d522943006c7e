"""Search budgets: simulations are exact, time limits count from the start of the move."""

import time

import pytest

from koloda import solvers
from koloda.solvers.budget import MAX_SIMS, Budget

from .positions import midgame_states


def test_a_simulation_budget_runs_exactly_that_many():
    assert list(Budget(sims=7, ms=0).run()) == list(range(7))


def test_a_time_budget_stops_at_its_deadline_or_its_simulation_limit():
    budget = Budget(sims=0, ms=30)
    started = time.perf_counter()
    count = sum(1 for _ in budget.run(started))
    assert count >= 1 and time.perf_counter() >= started + 0.030
    assert sum(1 for _ in Budget(sims=5, ms=60_000).run()) == 5


def test_a_move_whose_time_is_already_spent_still_makes_one_simulation():
    assert list(Budget(sims=0, ms=10).run(started=time.perf_counter() - 1.0)) == [0]


def test_search_agents_count_their_time_from_the_start_of_the_move():
    game, states = midgame_states(count=1, seed=2)
    agent = solvers.load_agent(game, "ismcts(ms=50,sims=0)", seed=1)
    view = agent.view(states[0], states[0].current_player())
    agent.move_started = time.perf_counter() - 1.0      # a move that began a second ago
    agent.choose(view, states[0].current_player())
    assert agent.last_simulations == 1
    capped = solvers.load_agent(game, "ismcts(ms=500,sims=40)", seed=1)
    capped.move_started = time.perf_counter() - 1.0
    capped.step(states[0])                              # step starts its own clock
    assert capped.last_simulations == 40


@pytest.mark.parametrize("sims, ms", [(-1, 0), (0, -1), (0, 0), (MAX_SIMS + 1, 0)])
def test_budgets_outside_the_limits_are_refused(sims, ms):
    with pytest.raises(ValueError):
        Budget(sims, ms)


def test_pimc_draws_only_the_worlds_its_simulations_reach():
    game, states = midgame_states(count=1, seed=5)
    agent = solvers.load_agent(game, "pimc(sims=10,worlds=10000)", seed=1)
    agent.step(states[0])
    assert agent.last_worlds == 10
    timed = solvers.load_agent(game, "pimc(ms=500,sims=0,worlds=10000)", seed=1)
    timed.move_started = time.perf_counter() - 1.0
    timed.choose(timed.view(states[0], states[0].current_player()), states[0].current_player())
    assert timed.last_worlds == 1


def test_chunks_add_up_to_the_budget_and_start_small_against_the_clock():
    assert list(Budget(sims=700, ms=0).chunks()) == [700]
    assert list(Budget(sims=0, ms=10).chunks(started=time.perf_counter() - 1.0)) == [1]
    chunks = list(Budget(sims=300, ms=60_000).chunks(size=64))
    assert sum(chunks) == 300 and chunks[:7] == [1, 2, 4, 8, 16, 32, 64]
    assert max(chunks) == 64
