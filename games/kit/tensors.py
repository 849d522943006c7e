"""Observation-tensor layouts: named pieces with their shapes, laid end to end.

    layout = TensorLayout([("player", (n,)), ("hand", (c,)), ("known", (n, c))])
    tensor, views = layout.allocate()
    views["known"][seat][card] = 1          # writes into `tensor`

An observer builds its layout once per game and reuses the tensor; OpenSpiel reads the
flat tensor and its named views (`observer.tensor`, `observer.dict`).
"""

from __future__ import annotations

import math

import numpy as np


class TensorLayout:
    """Pieces in order, each with a name, a shape, a size and an offset into the tensor."""

    def __init__(self, pieces):
        self.pieces = []
        offset = 0
        for name, shape in pieces:
            shape = tuple(shape)
            size = math.prod(shape)
            self.pieces.append((name, shape, offset, size))
            offset += size
        self.size = offset
        names = [name for name, *_ in self.pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in a tensor layout: {names}")

    def offset(self, name: str) -> int:
        for piece, _, offset, _ in self.pieces:
            if piece == name:
                return offset
        raise KeyError(name)

    def allocate(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero float32 tensor and a view of it per piece, shaped as declared."""
        tensor = np.zeros(self.size, np.float32)
        views = {name: tensor[offset:offset + size].reshape(shape)
                 for name, shape, offset, size in self.pieces}
        return tensor, views

    def describe(self) -> str:
        """One line per piece: name, shape, offset (for docs and debugging)."""
        return "\n".join(f"{name:>16} {str(shape):>10} at {offset}"
                         for name, shape, offset, _ in self.pieces)
