"""The line that keeps the value, followed by a search left without a move while the
other still values its last ones (driver._SpeculativeLine): it assumes the best value
found so far and stands only when that is the position's value, so two searches give
the line one search gives, and a line called off leaves its search where it began."""

import time

import pytest

from koloda.solvers.parket import _search, driver, kernel, random_position, solve
from koloda.solvers.parket.problem import read_problem
from koloda.solvers.parket.reference import CalledOff


def _one_and_two_searches(position):
    """The solve of one search and of two (as on two cores, whatever the machine)."""
    results = []
    for workers in (1, 2):
        problem = read_problem(position)
        search = _search(problem.core, "fast")
        results.append(driver.solve_with(search, problem, time.perf_counter(),
                                         workers=workers))
    return results


def _answer(result):
    return result.value, result.pv, [(m.move, m.value) for m in result.moves]


def test_two_searches_follow_the_line_one_search_follows(monkeypatch):
    kept = []
    keeps = driver._SpeculativeLine.keeps

    def spy(line, value):
        kept.append(keeps(line, value))
        return kept[-1]

    monkeypatch.setattr(driver._SpeculativeLine, "keeps", spy)
    for seed in range(8):
        one, two = _one_and_two_searches(random_position(11, seed))
        assert _answer(two) == _answer(one), seed
    # Each two-search solve asked about an early line; most of them kept it.
    assert len(kept) == 8 and sum(kept) >= 4


def _drawn_position(empty):
    return next(p for p in (random_position(empty, seed) for seed in range(40))
                if solve(p).value == "draw" and len(solve(p).pv) >= 4)


def test_a_line_assuming_a_value_the_position_has_not_is_not_kept():
    problem = read_problem(_drawn_position(8))
    search = _search(problem.core, "fast")
    moves = search.moves()
    line = driver._SpeculativeLine(problem.core)
    # A drawn position assumed lost: whatever line that gives (or none), it is not the
    # line of a draw.
    line.run(search, {code: ("loss", None) for code in moves})
    assert not line.keeps("draw")
    assert search.moves() == moves               # left where it began
    line.run(search, {moves[0]: ("draw", None)})
    assert line.keeps("draw") and not line.keeps("loss")
    assert line.line == solve(problem.position).pv


class _Search:
    def __init__(self):
        self.called_off = False

    def call_off(self):
        self.called_off = True


@pytest.mark.parametrize("assumed,final,called_off", [
    ("draw", "draw", False), ("draw", "win", True), ("loss", "draw", True)])
def test_a_line_in_progress_is_called_off_once_the_value_is_another(assumed, final,
                                                                     called_off):
    line = driver._SpeculativeLine(None)
    line.assumed, line.search = assumed, _Search()
    line.all_scored({1: ("loss", None), 2: (final, None)})
    assert line.search.called_off is called_off


def test_a_line_called_off_leaves_its_search_where_it_began():
    problem = read_problem(_drawn_position(8))
    search = _search(problem.core, "fast")
    moves = search.moves()
    at_most = search.at_most
    depths = []

    def called_off_three_plies_down(bound):
        depths.append(int(search.st[kernel.SP]))       # the plies played from the start
        if depths[-1] >= 3:
            raise CalledOff(search.nodes)
        return at_most(bound)

    search.at_most = called_off_three_plies_down
    with pytest.raises(CalledOff):
        driver._value_line(search, problem.core.copy(), "draw")
    assert max(depths) == 3
    assert int(search.st[kernel.SP]) == 0 and search.moves() == moves
    search.at_most = at_most
    assert driver._value_line(search, problem.core.copy(), "draw") == \
        solve(problem.position).pv
