"""The solver keeps its answers: a fixed set of positions of 10 to 14 empty cells, both
corner orders, with the value, length and every move's value and length the solver gave
before its speed work (regression_positions.json; each solves within about a second)."""

import json
from pathlib import Path

import pytest

from koloda.solvers.parket import random_position, solve

CASES = json.loads((Path(__file__).parent / "regression_positions.json").read_text())["cases"]


def test_the_set_covers_10_to_14_empty_cells_and_both_corner_orders():
    assert {c["empty"] for c in CASES} == {10, 11, 12, 14}
    assert {c["corner_order"] for c in CASES} == {"path", "any"}
    assert {c["value"] for c in CASES} == {"win", "draw", "loss"}


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['empty']}-{c['corner_order']}-"
                                                      f"{c['seed']}")
def test_the_solver_gives_the_stored_answer(case):
    assert random_position(case["empty"], case["seed"], case["corner_order"]) == \
        case["position"]
    result = solve(case["position"], case["corner_order"], 4, lengths=True)
    assert (result.value, result.moves_to_end) == (case["value"], case["moves_to_end"])
    assert sorted((m.move, m.value, m.moves_to_end) for m in result.moves) == \
        sorted(tuple(m) for m in case["moves"])
    assert [m.move for m in result.moves][0] in {
        m[0] for m in case["moves"] if (m[1], m[2]) == (case["value"], case["moves_to_end"])}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['empty']}-{c['corner_order']}-"
                                                      f"{c['seed']}")
def test_values_alone_are_the_stored_values(case):
    result = solve(case["position"], case["corner_order"], 4)
    assert result.value == case["value"]
    assert sorted((m.move, m.value) for m in result.moves) == \
        sorted((m[0], m[1]) for m in case["moves"])
