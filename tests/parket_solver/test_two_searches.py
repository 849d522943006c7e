"""Two searches of one solve (driver.py: one per core, sharing their tables) give what one
search gives: every move's value, and the value line, whose moves at each step both test
and which must still be the first of the search's order that keeps the value."""

import time

import pytest

from koloda.solvers.parket import random_position
from koloda.solvers.parket.codes import search_args
from koloda.solvers.parket.driver import _all_outcomes, _first_keeping, solve_with
from koloda.solvers.parket.fast import FastSearch
from koloda.solvers.parket.problem import read_problem


def _solve(position, workers):
    problem = read_problem(position)
    return solve_with(FastSearch(*search_args(problem.core)), problem, time.perf_counter(),
                      workers=workers)


@pytest.mark.parametrize("empty, seed", [(12, 0), (12, 3), (13, 1), (14, 2), (14, 5)])
def test_two_searches_find_the_values_and_the_line_of_one(empty, seed):
    position = random_position(empty, seed)
    one, two = _solve(position, 1), _solve(position, 2)
    assert (two.value, two.moves, two.pv) == (one.value, one.moves, one.pv)
    assert len(one.pv) > 1


class _Idle:
    """A stand-in search for the scheduler, whose scoring function does the work."""

    def helping(self, on):
        pass

    def resume(self):
        pass

    def call_off(self):
        pass


@pytest.mark.parametrize("kept", [[False, True, True, False], [False, False, False, True],
                                  [True, True, True, True], [False] * 4])
def test_the_first_keeping_move_is_the_first_in_order(kept):
    codes = [10, 11, 12, 13]
    delays = {10: 0.05, 11: 0.0, 12: 0.0, 13: 0.0}

    def keeps(search, code):
        time.sleep(delays[code])
        return kept[codes.index(code)]

    searches = [_Idle(), _Idle()]
    expected = next((c for c, k in zip(codes, kept) if k), None)
    assert _first_keeping(searches, codes, keeps) == expected
    assert _first_keeping(searches[:1], codes, keeps) == expected


def test_moves_no_longer_wanted_are_not_scored_while_an_earlier_one_still_is():
    """The first move is slow, the second keeps at once: the third and fourth are never
    scored, and the second search then helps with the first."""
    codes = [10, 11, 12, 13]
    scored = []

    def score(search, code, found):
        scored.append(code)
        time.sleep(0.5 if code == 10 else 0.0)
        found[code] = code == 11

    kept = {}

    def wanted(code):
        return not any(kept.get(c) for c in codes[:codes.index(code)])

    _all_outcomes([_Idle(), _Idle()], codes, kept, score, help_out=True, wanted=wanted)
    assert sorted(scored) == [10, 10, 11]
    assert kept == {10: False, 11: True}


def test_help_first_without_help_out_still_shares_the_moves():
    """`help_first` only orders helping before taking: with `help_out` off, a search
    takes the next move instead of leaving."""
    searches = [_Idle(), _Idle()]
    by = {}

    def score(search, code, found):
        by[code] = searches.index(search)
        time.sleep(0.2)
        found[code] = False

    _all_outcomes(searches, [10, 11, 12, 13], {}, score, help_first=True)
    assert sorted(by) == [10, 11, 12, 13]
    assert set(by.values()) == {0, 1}
