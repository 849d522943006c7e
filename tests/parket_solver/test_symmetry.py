"""The symmetries the solver relies on: the board's mirror images keep the cross and
every corner, so a mirrored position (or one with two same-class cards swapped) has the
same solution."""

import pytest

from koloda.games.errors import GameParameterError
from koloda.games.parket import PositionError
from koloda.games.parket.board import (
    CORNERS,
    CROSS_CELLS,
    INNER_CELLS,
    INNER_OF,
    NUM_CELLS,
    OUTER_CELLS,
)
from koloda.solvers.parket import random_position, solve
from koloda.solvers.parket.tables import SYMMETRIES

CELLS = [f"{c}{r}" for r in range(1, 6) for c in "abcdefg"]


@pytest.mark.parametrize("symmetry", range(4))
def test_mirror_images_keep_the_cross_and_the_corners(symmetry):
    image = SYMMETRIES[symmetry]
    assert sorted(image) == list(range(NUM_CELLS))
    assert {image[c] for c in CROSS_CELLS} == set(CROSS_CELLS)
    assert {image[c] for c in INNER_CELLS} == set(INNER_CELLS)
    assert {image[c] for c in OUTER_CELLS} == set(OUTER_CELLS)
    assert all(INNER_OF[image[o]] == image[INNER_OF[o]] for o in OUTER_CELLS)
    for cell in range(NUM_CELLS):
        assert {(image[a], image[b]) for a, b in CORNERS[cell]} == set(CORNERS[image[cell]])


def _cells(position):
    rows, *rest = position.split()
    flat = "".join(rows.split("/"))
    return [flat[i:i + 2] for i in range(0, len(flat), 2)], rest


def _mirrored(position, symmetry):
    cells, rest = _cells(position)
    image = SYMMETRIES[symmetry]
    out = [None] * NUM_CELLS
    for cell, token in enumerate(cells):
        out[image[cell]] = token
    rows = "/".join("".join(out[r * 7:(r + 1) * 7]) for r in range(5))
    return " ".join([rows, *rest]), image


def _rename(move, image):
    words = move.split()
    words[-1] = CELLS[image[CELLS.index(words[-1])]]
    return " ".join(words)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("symmetry", [1, 2, 3])
def test_a_mirror_image_solves_alike(seed, symmetry):
    position = random_position(7, seed)
    twin, image = _mirrored(position, symmetry)
    a, b = solve(position), solve(twin)
    assert (a.value, a.moves_to_end) == (b.value, b.moves_to_end)
    assert sorted((_rename(m.move, image), m.value, m.moves_to_end) for m in a.moves) == \
        sorted((m.move, m.value, m.moves_to_end) for m in b.moves)


def _swap(text, first, second):
    return text.replace(first, "##").replace(second, first).replace("##", second)


@pytest.mark.parametrize("seed", range(4))
def test_swapping_two_cards_of_one_class_solves_alike(seed):
    position = random_position(7, seed)
    pairs = [("7h", "7d"), ("Qc", "Qs"), ("Ah", "Ad"), ("9s", "9c")]
    first, second = pairs[seed]
    twin = _swap(position, first, second)
    a, b = solve(position), solve(twin)
    assert (a.value, a.moves_to_end) == (b.value, b.moves_to_end)
    assert sorted((_swap(m.move, first, second), m.value, m.moves_to_end)
                  for m in a.moves) == sorted((m.move, m.value, m.moves_to_end)
                                              for m in b.moves)


@pytest.mark.parametrize("text", [
    "nonsense",
    "--------------/--------------/--------------/--------------/-------------- r q 0",
    "--------------/--------------/--------------/--------------/-------------- r m 0",
    "9h9h----------/--------------/--------------/--------------/-------------- r x 0",
])
def test_bad_positions_are_refused(text):
    with pytest.raises(PositionError):
        solve(text)


def test_bad_parameters_are_refused():
    position = random_position(3, 0)
    for kwargs in ({"method": "magic"}, {"corner_order": "zigzag"},
                   {"max_relocations": 0}):
        with pytest.raises(GameParameterError):
            solve(position, **kwargs)
