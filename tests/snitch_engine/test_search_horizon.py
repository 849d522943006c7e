"""Search in Snitch looks as far as the end of the deal in progress (`horizon=deal`): a copy
told `end_at_deal()` ends there, valued by the deal's score difference, unless that deal
ends the match."""

import random

import pytest
from snitch_rules.helpers import load, start

from koloda.solvers.search.ismcts import world_for_search
from koloda.solvers.search.tree import Tree

PASS_ROUND = ([["3", "4"], ["4", "5"], ["5", "2"]],
              ("discard 4", "draw 3", "discard 5", "draw X", "discard 2", "draw 2",
               "set 33", "stop", "pass", "set 52", "stop", "pass"))   # deal points 10, 0, 25


def test_a_copy_told_to_end_at_the_deal_ends_there_valued_by_the_score_difference():
    game = load(ranks=3, copies=2, hand_size=2, target_score=100)
    hands, moves = PASS_ROUND
    state = start(game, hands)
    cut = state.core.copy()
    cut.end_at_deal()
    for move in moves:
        action = state.string_to_action(move)
        state.apply_action(action)
        cut.apply(action)
    assert not state.is_terminal() and state.core.totals == [10, 0, 25]
    assert cut.is_terminal() and cut.totals == [10, 0, 25]
    # each deal's points less the mean of the others', over a fair share: 120 / 3 = 40
    share = game.rules.deck_points / 3
    assert game.rules.deck_points == 120
    assert cut.returns() == pytest.approx([(10 - 12.5) / share, (0 - 17.5) / share,
                                           (25 - 5) / share])
    assert sum(cut.returns()) == pytest.approx(0.0)


def test_a_cut_deal_that_ends_the_match_has_the_match_returns():
    game = load(ranks=3, copies=2, hand_size=2, target_score=20)
    hands, moves = PASS_ROUND
    cut = start(game, hands).core.copy()
    cut.end_at_deal()
    state = start(game, hands, *moves)
    for event in state.history()[len(cut.events):]:
        cut.apply(event)
    assert state.is_terminal() and cut.is_terminal()
    assert cut.returns() == state.returns() == pytest.approx([-0.5, -0.5, 1.0])


@pytest.mark.parametrize("horizon", ["deal", "game"])
def test_simulations_stop_at_the_horizon(horizon):
    game = load(target_score=300)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    tree = Tree(state.current_player(), 0.7, rng)
    deals = set()
    for _ in range(20):
        world = world_for_search(state.core.copy(), horizon)
        tree.simulate(world)
        assert world.is_terminal()
        deals.add(world.deals)
        if horizon == "game":
            assert max(world.totals) >= 300
    if horizon == "deal":
        assert deals == {1}
    else:
        assert max(deals) > 1
