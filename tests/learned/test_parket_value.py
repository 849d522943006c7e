"""Parket's value features: the cells and the room to move agree with the game's own legal
placements, and the two seats of one position read it as mirror images."""

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.random_play import midgame_states
from koloda.games.parket import kernel as k
from koloda.games.parket.board import EMPTY, NUM_CELLS, NUM_RANKS
from koloda.games.parket.rules import PLACE_ACTIONS
from koloda.solvers.learned import parket as value

SIDE = NUM_CELLS * value.PER_CELL
ROOM_TO_MOVE = 2 * NUM_RANKS


def _main_phase_states(count=12):
    return [s for s in midgame_states(games.load_game("parket"), 40, seed=7, min_history=9)
            if s.core.st[k.MAIN]][:count]


def _placements(core, seat):
    """The (card, cell) placements `seat` could make here: the kernel's legal actions."""
    out = np.empty(k.MAX_LEGAL, np.int64)
    n = k.legal_actions_of(core.st, core.r, seat, out)
    return [int(a) for a in out[:n] if a < PLACE_ACTIONS]


def test_the_room_to_move_is_the_legal_placements_of_each_side():
    states = _main_phase_states()
    assert len(states) >= 8
    for state in states:
        core = state.core
        for seat in range(2):
            f = value.FEATURES.of(core, seat)
            for place, side in enumerate((seat, seat ^ 1)):
                placements = _placements(core, side)
                cells = {a % NUM_CELLS for a in placements}
                marked = {c for c in range(NUM_CELLS) if f[c * value.PER_CELL + 2 + place]}
                assert marked == cells
                at = SIDE + place * value.PER_SIDE + ROOM_TO_MOVE
                assert f[at + 1] == min(len(placements), value.MANY_PLACEMENTS) / \
                    value.MANY_PLACEMENTS
                assert f[at + 3] == len(cells) / NUM_CELLS
                assert f[at + 4] == (1.0 if placements else 0.0)


def test_the_two_seats_read_one_position_as_mirror_images():
    for state in _main_phase_states(6):
        core = state.core
        f0, f1 = value.FEATURES.of(core, 0), value.FEATURES.of(core, 1)
        cells0 = f0[:SIDE].reshape(NUM_CELLS, value.PER_CELL)
        cells1 = f1[:SIDE].reshape(NUM_CELLS, value.PER_CELL)
        np.testing.assert_array_equal(cells0[:, [1, 0, 3, 2]], cells1)
        sides0 = f0[SIDE:SIDE + 2 * value.PER_SIDE].reshape(2, -1)
        sides1 = f1[SIDE:SIDE + 2 * value.PER_SIDE].reshape(2, -1)
        np.testing.assert_array_equal(sides0[::-1], sides1)
        scalars0, scalars1 = f0[-value.SCALARS:], f1[-value.SCALARS:]
        assert scalars0[0] + scalars1[0] == 1.0                # one of them is to move
        np.testing.assert_array_equal(scalars0[1:5], scalars1[1:5])
        assert scalars0[5] == -scalars1[5]                     # the hands' difference


def test_the_cells_and_hands_are_the_position():
    for state in _main_phase_states(6):
        core = state.core
        seat = int(core.st[k.PLAYER])
        f = value.FEATURES.of(core, seat)
        red = core.r[k.R_SEAT_RED + seat]
        for cell in range(NUM_CELLS):
            card = core.st[k.BOARD + cell]
            mine = card != EMPTY and k.CARD_RED_A[card] == red
            theirs = card != EMPTY and not mine
            assert (f[cell * value.PER_CELL], f[cell * value.PER_CELL + 1]) == \
                (float(mine), float(theirs))
        hand = int(core.st[k.HANDS + seat])
        assert f[SIDE + 2 * NUM_RANKS] == bin(hand).count("1") / 18
        assert f[-value.SCALARS + 3] == sum(core.st[k.BOARD + c] == EMPTY
                                            for c in range(NUM_CELLS)) / NUM_CELLS
        assert len(f) == value.count(core.r)


def test_the_solver_and_mcts_value_their_leaves_by_a_shipped_model():
    from koloda.solvers.errors import AgentSpecError
    from koloda.solvers.registry import check_spec, load_agent

    from .test_policy import play_out

    game = games.load_game("parket")
    agents = [load_agent(game, "solver(reach=8,sims=40,value=parket-v1)", seed=1),
              load_agent(game, "mcts(sims=40,value=parket-v2,mix=0.5)", seed=2)]
    assert agents[0].search.leaf.name == "value" and agents[1].leaf.name == "value"
    assert play_out(game, agents, seed=3) > 0                   # legal moves to the end
    with pytest.raises(AgentSpecError, match="model parket-v1 was fitted for"):
        check_spec(games.load_game("parket(corner_order=any)"),
                   "solver(value=parket-v1)")
