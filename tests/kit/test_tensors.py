"""Tensor layouts: named pieces laid end to end, views that write into the tensor."""

import pytest

from koloda.games.kit.tensors import TensorLayout


def test_pieces_are_laid_end_to_end_and_views_write_through():
    layout = TensorLayout([("player", (3,)), ("known", (3, 4)), ("stock", (1,))])
    assert layout.size == 3 + 12 + 1
    assert [layout.offset(n) for n in ("player", "known", "stock")] == [0, 3, 15]
    tensor, views = layout.allocate()
    views["known"][2][1] = 1
    views["stock"][0] = 7
    assert tensor[3 + 2 * 4 + 1] == 1 and tensor[15] == 7 and tensor.sum() == 8
    assert views["known"].shape == (3, 4)


def test_piece_names_are_unique():
    with pytest.raises(ValueError, match="duplicate"):
        TensorLayout([("a", (1,)), ("a", (2,))])
