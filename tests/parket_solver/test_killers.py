"""Killer moves: at each ply, the two moves that last cut off there are tried right after
the table move and before the history's choice (positions a ply apart in sibling
subtrees differ in a card or two, so a move that refuted one often refutes the next).
They order the search and change no value: the reference agreement tests hold."""

import numpy as np

from koloda.solvers.parket import kernel as k

HISTORY_SIZE = k.RELOCATION + k.NUM_CELLS * k.NUM_CELLS


def _order(moves, hist, table_move=-1, killers=(0, 0), last_first=0):
    """The order `kernel._pick` tries `moves` in (killers as codes + 1, 0 none)."""
    buf = np.array(moves, np.int64)
    return [int(k._pick(buf, 0, i, len(moves), hist, table_move, killers[0], killers[1],
                        last_first)) for i in range(len(moves))]


def _by_history(order, hist):
    return all(hist[a] >= hist[b] for a, b in zip(order, order[1:]))


def test_the_killers_come_after_the_table_move_and_before_the_history():
    hist = np.zeros(HISTORY_SIZE, np.int64)
    hist[40], hist[12] = 1 << 24, 10
    moves = [5, 9, 12, 40, 1005]
    plain = _order(moves, hist)
    assert plain[:2] == [40, 12] and _by_history(plain, hist)
    killed = _order(moves, hist, killers=(9 + 1, 5 + 1))
    assert killed[:4] == [9, 5, 40, 12]
    tabled = _order(moves, hist, table_move=12, killers=(9 + 1, 5 + 1))
    assert tabled[:4] == [12, 9, 5, 40]
    assert _order(moves, hist, killers=(1005 + 1, 0))[:3] == [1005, 40, 12]
    # a killer that is not legal here is passed over
    skipped = _order(moves, hist, killers=(77 + 1, 9 + 1))
    assert skipped[:3] == [9, 40, 12] and _by_history(skipped[1:], hist)
    # a helping search takes the last generated first among equals, killers kept
    helping = _order(moves, hist, killers=(5 + 1, 0), last_first=1)
    assert helping[:3] == [5, 40, 12] and helping[3] == 1005


def test_a_cut_off_makes_its_move_the_plys_killer_and_keeps_the_one_before():
    killers = np.zeros((4, 2), np.int64)
    k._new_killer(killers, 2, 7)
    assert killers[2].tolist() == [8, 0]
    k._new_killer(killers, 2, 7)                 # again: no duplicate
    assert killers[2].tolist() == [8, 0]
    k._new_killer(killers, 2, 1003)
    assert killers[2].tolist() == [1004, 8]
    k._new_killer(killers, 2, 7)
    assert killers[2].tolist() == [8, 1004]
    assert killers[[0, 1, 3]].sum() == 0         # other plies untouched
