"""Reading a file a person names (a config, a game record): a regular file only, and only
so much of it, so that a device (`/dev/zero`), a pipe that never closes or a huge file is
one clear error at once instead of a hang or a process out of memory."""

from __future__ import annotations

import os
import stat


class UnreadableFile(ValueError):
    """Why a named file is not read, as the end of a sentence that begins with its name
    ("does not exist", "is a folder", ...)."""


def read_regular(path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, of at most `limit` bytes; UnreadableFile
    otherwise.  A pipe is opened without waiting for a writer, and refused."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise UnreadableFile("does not exist") from None
    except OSError as err:
        raise UnreadableFile(f"cannot be read: {err.strerror or err}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UnreadableFile("is a folder, not a file" if stat.S_ISDIR(mode) else
                             "is not a regular file (a device, a pipe or a socket)")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise UnreadableFile(f"cannot be read: {err.strerror or err}") from None
    if len(data) > limit:
        raise UnreadableFile(f"is larger than {_size(limit)}")
    return data


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
