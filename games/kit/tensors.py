"""Observation-tensor layouts: named pieces with their shapes, laid end to end.

    layout = TensorLayout([("player", (n,)), ("hand", (c,)), ("known", (n, c))])
    tensor, views = layout.allocate()
    views["known"][seat][card] = 1          # writes into `tensor`

An observer builds its layout once per game and reuses the tensor; OpenSpiel reads the
flat tensor and its named views (`observer.tensor`, `observer.dict`).  A perfect-recall
tensor holds the event log as one piece of fixed size (`EventLog`).
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


ONE_HOT_LIMIT = 8_192        # floats an event log may take one-hot
EXACT_CODES = 1 << 24        # float32 holds every integer below this exactly


class EventLog:
    """A game's event log as one tensor piece of fixed size, for perfect recall.

    `rows` bounds the events of any game with these parameters.  When `rows * width` fits
    in ONE_HOT_LIMIT floats the piece is `events`, one row per event with ones at
    `columns(event)`; otherwise it is `event_codes`, one float per event holding
    `code(event)` (a positive integer, at most `max_code`).  Rows past the last event are
    zero.  Both encodings are injective as long as the game's `columns` and `code` are, so
    equal logs give equal pieces and different logs different ones.
    """

    def __init__(self, rows: int, width: int, columns, code, max_code: int):
        if max_code > EXACT_CODES:
            raise ValueError(f"event codes up to {max_code} do not fit a float32 exactly")
        self.rows, self.width = rows, width
        self.columns, self.code = columns, code
        self.one_hot = rows * width <= ONE_HOT_LIMIT
        self.name = "events" if self.one_hot else "event_codes"
        self.shape = (rows, width) if self.one_hot else (rows,)

    def piece(self) -> tuple[str, tuple]:
        return self.name, self.shape

    def fill(self, view: np.ndarray, events) -> None:
        """Write `events` (each as the viewer saw it) into the zeroed `view`."""
        if len(events) > self.rows:
            raise ValueError(f"{len(events)} events exceed the log's bound of {self.rows}")
        if self.one_hot:
            width, columns = self.width, self.columns
            flat = view.reshape(-1)
            flat[[row * width + column for row, event in enumerate(events)
                  for column in columns(event)]] = 1
        else:
            view[:len(events)] = [self.code(event) for event in events]

    def describe(self) -> str:
        if self.one_hot:
            return f"{self.rows} rows of {self.width} one-hot columns"
        return f"{self.rows} integer codes"
