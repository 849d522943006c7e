"""The engine's incremental corner table (`room`) always equals a fresh computation, on
every empty cell."""

import random

from koloda.games.parket.board import EMPTY, NUM_CELLS
from parket_rules.helpers import load


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
                for cell in range(NUM_CELLS):
                    if core.board[cell] == EMPTY:
                        assert (core.room[0][cell], core.room[1][cell]) == \
                            core._corner_ranks(cell)
        assert relocations > 0
