"""Principle 3: an agent chooses from a resampled view (the policy: from its seat's
observation), never from the true state."""

import pytest

from koloda import solvers
from koloda.solvers.agent import Agent

from .positions import midgame_states, other_deal

SPECS = ["random", "heuristic", "ismcts(sims=60)", "pimc(sims=60,worlds=4)", "level(n=2)",
         "ismcts(sims=60,temperature=1.0)", "pimc(sims=60,temperature=1.0,worlds=4)",
         "ismcts(infer=8,sims=60)", "ismcts(infer=8,sims=60,tree=python)",
         "ismcts(prior=0.5,sims=60)", "ismcts_openspiel(sims=30)",
         "ismcts(value=durak-v1,sims=60)", "pimc(value=durak-v1,sims=60,worlds=4)",
         "ismcts(value=durak-v1,sims=60,tree=python)",
         "policy(model=durak-policy-v1)", "policy(model=durak-policy-v1,temperature=1)",
         "ismcts(infer=8,opponents=durak-policy-v1,sims=60)",
         "ismcts(prior=0.5,guide=durak-policy-v1,sims=60)"]


@pytest.fixture(scope="module")
def positions():
    return midgame_states(count=5, seed=11)


@pytest.mark.parametrize("spec", SPECS)
def test_same_choice_when_only_hidden_cards_differ(positions, spec):
    game, states = positions
    for i, state in enumerate(states):
        player = state.current_player()
        twin = other_deal(state, player, seed=100 * i)
        assert twin.information_state_string(player) == state.information_state_string(player)
        first = solvers.load_agent(game, spec, seed=5).step(state)
        second = solvers.load_agent(game, spec, seed=5).step(twin)
        assert first == second, f"{spec} changed its move when only hidden cards changed"


class _Spy(Agent):
    """Records what `choose` is handed."""

    def __init__(self, game, seed=0):
        super().__init__(game, seed)
        self.views = []

    def choose(self, view, player):
        self.views.append(view)
        return view.legal_actions(player)[0]


def test_choose_is_handed_a_resample_never_the_true_state(positions):
    game, states = positions
    spy = _Spy(game, seed=3)
    varied = 0
    for state in states:
        player = state.current_player()
        before = str(state)
        for _ in range(10):
            spy.step(state)
            view = spy.views[-1]
            assert view is not state
            assert view.information_state_string(player) == state.information_state_string(player)
            assert view.legal_actions(player) == state.legal_actions(player)
            varied += str(view) != str(state)
        assert str(state) == before
    assert varied > 0.8 * 10 * len(states), "views should show other hidden cards than the truth"


def test_agents_are_reproducible_for_a_seed(positions):
    game, states = positions
    for spec in ["ismcts(sims=80)", "pimc(sims=80,worlds=4)", "random"]:
        a = [solvers.load_agent(game, spec, seed=9).step(s) for s in states]
        b = [solvers.load_agent(game, spec, seed=9).step(s) for s in states]
        assert a == b, spec


def test_an_illegal_choice_is_an_agent_error(positions):
    game, states = positions

    class Cheater(Agent):
        def choose(self, view, player):
            return max(view.legal_actions(player)) + 1  # above every legal action

    with pytest.raises(solvers.AgentError, match="illegal action"):
        Cheater(game).step(states[0])
