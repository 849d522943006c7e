"""The kernel's incremental corner table (`room`) always equals the plain rules' fresh
computation (reference.py), on every empty cell."""

import random

from parket_rules.helpers import load

from koloda.games.parket.board import EMPTY, NUM_CELLS
from koloda.games.parket.reference import Reference


def _fresh(core, cell):
    """(black, red): the ranks each colour may lay on `cell`, counted afresh."""
    plain = Reference(core.rules)
    plain.board = core.board
    return plain.corner_ranks(cell, False), plain.corner_ranks(cell, True)


def test_room_after_every_move_equals_a_fresh_count():
    for corner_order in ("path", "any"):
        game = load(corner_order=corner_order)
        rng = random.Random(corner_order)
        relocations = 0
        for _ in range(20):
            core = game.new_initial_state().core
            while not core.is_terminal():
                action = rng.choice(core.legal_actions())
                relocations += action >= game.rules.num_actions // 2
                core.apply(action)
                room = core.room
                for cell in range(NUM_CELLS):
                    if core.board[cell] == EMPTY:
                        assert (room[0][cell], room[1][cell]) == _fresh(core, cell)
        assert relocations > 0
