"""A solve spread over work units (solvers/parket/spread.py) gives solve's values, units
one or two plies down, and says what it did not finish within its time."""

import pytest
from joblib import Parallel

from koloda.games.parket import from_position
from koloda.solvers.parket import random_position, solve
from koloda.solvers.parket.spread import solve_spread, units_of

IN_ORDER = Parallel(n_jobs=1)


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("order,empty,seed", [(o, e, s) for o in ("path", "any")
                                              for e in (3, 6, 9) for s in range(2)])
def test_a_spread_solve_gives_the_values_of_solve(depth, order, empty, seed):
    position = random_position(empty, seed, order)
    state = from_position(position, corner_order=order)
    spread = solve_spread(state, IN_ORDER, depth)
    whole = solve(position, order)
    assert spread.value == whole.value and spread.moves_to_end is None
    assert sorted((m.move, m.value) for m in spread.moves) == \
        sorted((m.move, m.value) for m in whole.moves)


def test_the_units_are_the_positions_two_plies_down():
    core = from_position(random_position(8, 1)).core
    units = units_of(core, 2)
    firsts = {u.path[0] for u in units}
    assert firsts == set(core.legal_actions())
    for unit in units:
        node = core.copy()
        for action in unit.path:
            node.apply(action)
        assert node.position() == unit.position
        assert len(unit.path) == 2 or node.is_terminal()


def test_units_stopped_by_their_time_leave_their_moves_unknown():
    state = from_position(random_position(22, 0))
    spread = solve_spread(state, IN_ORDER, 1, time_limit=0.01)
    assert spread.value is None and all(m.value is None for m in spread.moves)
