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

from koloda.games.errors import KolodaError
from koloda.games.kit.params import shown
from koloda.tournament.config import ConfigError


class OutputBusyError(KolodaError):
    """Another tournament holds the lock on this output."""


@contextlib.contextmanager
def claim_output(config):
    """Hold the output of `config` for the `with` block.  Taken once per run: a second
    claim, in this process too, is another tournament on the output and is refused."""
    lock_path = Path(config.output) / f"{config.name}.lock"
    made = _make_folder(config)
    try:
        handle = _lock(lock_path, config)
    except BaseException:
        _remove_if_made(made)
        raise
    try:
        yield
    finally:
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
