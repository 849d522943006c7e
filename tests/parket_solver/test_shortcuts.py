"""The search's shortcut for a stuck mover two relocations from the cap, for whom a draw
is enough (reference.ReferenceSearch.drawing_relocation, kernel._drawing_relocation),
checked against the plain minimax and the rules on the positions where it applies."""

import pytest

from koloda.solvers.parket import kernel, random_position, solve
from koloda.solvers.parket.codes import search_args
from koloda.solvers.parket.fast import FastSearch
from koloda.solvers.parket.problem import read_problem
from koloda.solvers.parket.reference import ReferenceSearch
from koloda.solvers.parket.scores import BEST_NONTERMINAL, INFINITY
from koloda.solvers.parket.tables import RELOCATION

CAP = 2          # the start of a random position, 0 relocations in a row, is two from it


def _stuck_positions(order):
    """Random positions of 2-4 empty cells whose mover is stuck, two relocations from
    the cap, with their reference and compiled searches."""
    found = []
    for empty in (2, 3, 4):
        for seed in range(40):
            position = random_position(empty, seed, order, CAP)
            args = search_args(read_problem(position, order, CAP).core)
            reference = ReferenceSearch(*args)
            moves = reference.moves()
            if moves and moves[0] >= RELOCATION and reference.relocations + 2 == CAP:
                found.append((position, reference, FastSearch(*args), moves))
    return found


def _replies_place(search, move):
    search.apply(move)
    replies = search.moves()
    search.undo()
    return bool(replies) and replies[0] < RELOCATION


@pytest.mark.parametrize("order", ["path", "any"])
def test_a_drawing_relocation_is_judged_as_the_minimax_and_the_rules_say(order):
    cases = _stuck_positions(order)
    outcomes = set()
    for position, reference, fast, moves in cases:
        found = reference.drawing_relocation(moves)
        base = int(fast.st[kernel.SP]) * kernel.MAX_MOVES
        assert fast.moves() == moves
        compiled = kernel._drawing_relocation(fast.st, fast.buf, base, len(moves))
        assert compiled == (INFINITY if found is None else found), position
        plain = solve(position, order, CAP, method="minimax")
        if found is None:            # every relocation leaves the opponent a placement
            assert all(_replies_place(reference, move) for move in moves), position
        elif found == 0:             # a draw is found: the position is no loss
            assert plain.value in ("draw", "win"), position
        else:                        # the opponent is left without a move
            assert found == BEST_NONTERMINAL and plain.value == "win", position
        outcomes.add("none" if found is None else found)
    assert {"none", 0, BEST_NONTERMINAL} <= outcomes, "every outcome is met here"
