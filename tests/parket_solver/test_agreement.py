"""The solvers agree: the compiled one with the plain minimax on 200 small endgames, and
with the pure-Python reference, move by move, on bigger ones; with lengths (value and
plies to the end) and without (values alone)."""

import pytest

from koloda.solvers.parket import random_position, solve
from koloda.solvers.parket.result import without_lengths

ORDERS = ("path", "any")
# (empty cells, max_relocations, seeds per corner order).  The plain minimax grows with
# the relocations allowed in a row far faster than with the empty cells, so the default
# cap of 4 is checked up to 2 empty cells and a cap of 2 up to 4.
MINIMAX_CASES = [(1, 4, 8), (2, 4, 8), (1, 2, 21), (2, 2, 21), (3, 2, 21), (4, 2, 21)]


def _cases(table):
    return [(order, empty, cap, seed) for order in ORDERS for empty, cap, seeds in table
            for seed in range(seeds)]


def _summary(result):
    return (result.value, result.moves_to_end,
            sorted((m.move, m.value, m.moves_to_end) for m in result.moves))


def test_there_are_at_least_200_minimax_positions():
    assert len(_cases(MINIMAX_CASES)) >= 200


@pytest.mark.parametrize("order,empty,cap,seed", _cases(MINIMAX_CASES))
def test_the_solver_agrees_with_the_plain_minimax(order, empty, cap, seed):
    position = random_position(empty, seed, order)
    fast = solve(position, order, cap, lengths=True)
    plain = solve(position, order, cap, method="minimax", lengths=True)
    assert (fast.value, fast.moves_to_end) == (plain.value, plain.moves_to_end)
    assert _summary(fast) == _summary(plain)
    assert _summary(solve(position, order, cap)) == _summary(without_lengths(plain))


REFERENCE_CASES = [(6, 4, 5), (7, 4, 4), (8, 4, 3)]


@pytest.mark.slow
@pytest.mark.parametrize("order,empty,cap,seed", _cases(REFERENCE_CASES))
def test_the_compiled_solver_matches_the_reference_move_by_move(order, empty, cap, seed):
    position = random_position(empty, seed, order)
    for lengths in (False, True):
        fast = solve(position, order, cap, lengths=lengths)
        reference = solve(position, order, cap, method="reference", lengths=lengths)
        assert _summary(fast) == _summary(reference)
        assert [m.move for m in fast.moves][:1] == [m.move for m in reference.moves][:1]
