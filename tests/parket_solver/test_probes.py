"""Probes: a position of PROBE_FROM cards in hands or more tries its moves with small
budgets of nodes first, and again with bigger ones.  They change the order of the search
and which positions it visits, never a value: the compiled solver, the reference with
probes and the reference without them agree move by move."""

import pytest

from koloda.solvers.parket import random_position, reference, solve
from koloda.solvers.parket.tables import PROBE_FROM

# 8 empty cells: 9 cards in hands at the root, so the root and its children probe, and
# their subtrees outgrow the first budget.
POSITIONS = [(order, 8, seed) for order in ("path", "any") for seed in range(3)]


def _values(result):
    return result.value, sorted((m.move, m.value) for m in result.moves)


@pytest.mark.parametrize("order,empty,seed", POSITIONS)
def test_probes_change_no_value(order, empty, seed, monkeypatch):
    position = random_position(empty, seed, order)
    fast = solve(position, order)
    probed = solve(position, order, method="reference")
    monkeypatch.setattr(reference, "PROBE_FROM", 99)
    plain = solve(position, order, method="reference")
    assert _values(fast) == _values(probed) == _values(plain)
    assert plain.stats["probe_stops"] == 0


def test_probes_stop_searches_in_both_solvers():
    """The budgets are reached (else the rounds above were never tested): searches
    stopped by a probe and taken up again in a later round."""
    assert PROBE_FROM <= 10
    fast = reference_ = 0
    for seed in range(3):
        position = random_position(8, seed)
        fast += solve(position).stats["probe_stops"]
        reference_ += solve(position, method="reference").stats["probe_stops"]
    assert fast > 0 and reference_ > 0
