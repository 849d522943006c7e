"""One tournament at a time on a results file: the output is claimed before any game.

`claim_output(config)` makes the output folder (refusing an output that is a file or a
place that cannot be written) and takes an exclusive lock, `fcntl.flock` on
`OUTPUT/NAME.lock`, held until the run and its reports are done.  A second tournament on
the same output is refused at once, instead of playing the same missing games into the
same file.  On the way out the lock file is removed, and the folder too if this run made
it and left it empty, so a refused or failed run leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from koloda.tournament.config import ConfigError
from koloda.games.errors import KolodaError
from koloda.games.kit.params import shown


class OutputBusyError(KolodaError):
    """Another tournament holds the lock on this output."""


_held: dict[str, int] = {}   # lock files this process holds, and how many claims each


@contextlib.contextmanager
def claim_output(config):
    """Hold the output of `config` for the `with` block (reentrant in one process)."""
    lock_path = Path(config.output) / f"{config.name}.lock"
    key = os.path.abspath(lock_path)
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    made = _make_folder(config)
    try:
        handle = _lock(lock_path, config)
    except BaseException:
        _remove_if_made(made)
        raise
    _held[key] = 1
    try:
        yield
    finally:
        del _held[key]
        lock_path.unlink(missing_ok=True)       # still holding it: no one else can
        handle.close()
        _remove_if_made(made)


def _make_folder(config) -> Path | None:
    """Make the output folder; returns it if it did not exist before."""
    folder = Path(config.output)
    where = f"{config.path}: " if config.path else ""
    try:
        if folder.exists() and not folder.is_dir():
            raise ConfigError(f"{where}output {shown(config.output)} is a file; output names "
                              f"the folder for the results and reports")
        if folder.is_dir():
            return None
        folder.mkdir(parents=True)
    except OSError as err:                  # a name too long is refused even by exists()
        raise ConfigError(f"{where}output folder {shown(config.output)} cannot be made: "
                          f"{err.strerror}") from None
    return folder


def _lock(lock_path: Path, config):
    """An open handle holding the lock file's lock."""
    while True:
        try:
            handle = lock_path.open("a")
        except OSError as err:
            raise ConfigError(f"cannot write in output folder {config.output!r}: "
                              f"{err.strerror}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise OutputBusyError(
                f"another tournament is writing {config.results_path} (it holds "
                f"{lock_path}); wait for it to finish, or give this one another output "
                f"or name") from None
        try:
            same = os.stat(lock_path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return handle
        handle.close()          # its holder removed it as we opened it: take a fresh one


def _remove_if_made(folder: Path | None) -> None:
    if folder is not None:
        with contextlib.suppress(OSError):
            folder.rmdir()          # only if empty
