"""Readers that must refuse a named pipe at once: a pipe nobody writes to makes a plain
`open` wait for ever, so the read runs in a thread, and a reader still waiting after
`PATIENCE` seconds fails the test (the pipe is then opened for writing, so the thread
ends)."""

from __future__ import annotations

import os
import threading

import pytest

PATIENCE = 10.0


def pipe(path):
    """A named pipe at `path` that nobody ever writes to."""
    os.mkfifo(path)
    return path


def without_waiting_on(fifo, read, what: str = "the reader"):
    """`read()`'s result, or the test fails if it waits on `fifo`."""
    result = []
    reader = threading.Thread(target=lambda: result.append(read()), daemon=True)
    reader.start()
    reader.join(PATIENCE)
    if reader.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"{what} waited on a pipe")
    assert result, f"{what} raised instead of answering"
    return result[0]
