"""An agent's program as a child process: started, spoken to one line at a time within
deadlines, its stderr copied to a log, stopped or killed, and kept between games.

Lines go through the pipes' file descriptors with `select`, never a blocking read or
write, so a program that hangs, or stops reading, costs its deadline and no more.  An
answer line is bounded (messages.MAX_LINE_BYTES); the log is bounded too (LOG_MAX_BYTES
per file, then the program's stderr is read and dropped, so it never blocks on it).

Starting a program is slow beside a move (a Python bot about 50 ms, `koloda agent` about
a second), so a process is kept for the next game of the same agent in the same worker
(`Pool`): `checkout` hands out an idle one or None, `checkin` takes it back after a game
that ended well.  A process that failed is killed, never kept, so the agent's next game
starts a fresh one.  Two seats of one command in one game get two processes.  Idle
processes are stopped after IDLE_SECONDS, and every process this one started is stopped
when it exits (atexit, and multiprocessing's finalizers in a worker process).

A program runs in a process group of its own, and whenever koloda ends it (after a game
that ended well and it quit, after a failure, at the end of the run) it ends the whole
group: a program that forks a helper leaves nothing behind.  On Linux a program started
from a process's main thread also dies with that process (PR_SET_PDEATHSIG): a worker
killed outright (joblib ends its workers so on Ctrl-C) takes its program with it, even
one it started a moment before.  A program that exits while a child of its own still
holds its output open has crashed, and is known to at once (a pidfd beside the pipe).
POSIX only (select on pipes).
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import errno
import multiprocessing.util
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from koloda.solvers.external.messages import MAX_LINE_BYTES

#: the most bytes of stderr (and koloda's notes) a log file takes; beyond, stderr is dropped
LOG_MAX_BYTES = 64 * 1024 * 1024
#: an idle process is stopped after this long without a game
IDLE_SECONDS = 30.0
#: how long a process may take to exit after `quit` before it is killed
QUIT_SECONDS = 1.0
#: how long a worker waits, after its program was killed by another, before it goes on
KILLED_GRACE_SECONDS = 1.0
#: the longest stderr line copied to the log in one piece, and the most read at once
_LOG_LINE_BYTES = 8192
_STDERR_CHUNK = 65536
#: how often a wait for output looks whether the program exited, where no pidfd tells
_EXIT_POLL_SECONDS = 0.05


def _die_with_parent():
    """The `preexec_fn` of a program started from a main thread on Linux: SIGKILL when
    the process that started it dies (prctl(PR_SET_PDEATHSIG)); None elsewhere.  The
    signal comes when the *thread* that started the program ends, so only a main thread,
    which lasts as long as its process, may ask for it."""
    if not sys.platform.startswith("linux") or \
            threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6",
                            use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def set_death_signal():                  # in the child, before exec: nothing else
        prctl(1, signal.SIGKILL)             # PR_SET_PDEATHSIG
        if os.getppid() != parent:           # the parent died before the prctl
            os._exit(1)
    return set_death_signal


class ProcessError(Exception):
    """A process failed: `reason` is "no_start", "crashed", "timeout" or "bad_message"."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class Log:
    """An agent's log file, shared by its processes (each line of a process's stderr is
    written whole, after the process's id); None writes nowhere."""

    def __init__(self, path: str | None):
        self.path = path
        self.lock = threading.Lock()
        self.handle = None
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.handle = open(path, "ab", buffering=0)

    def write(self, data: bytes, force: bool = False) -> bool:
        """Write `data` unless the file is full (`force`: koloda's own short notes go in
        regardless); False once it is full."""
        if self.handle is None:
            return True
        with self.lock:
            try:
                full = os.fstat(self.handle.fileno()).st_size + len(data) > LOG_MAX_BYTES
                if full and not force:
                    return False
                self.handle.write(data)
            except (OSError, ValueError):      # a full disk, a closed handle: no log
                return False
        return True

    def note(self, pid: int | None, text: str) -> None:
        """One line of koloda's own about a process."""
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        self.write(f"[{stamp} koloda, pid {pid}] {text}\n".encode("utf-8", "replace"),
                   force=True)

    def close(self) -> None:
        if self.handle is not None:
            with self.lock:
                self.handle.close()


class BotProcess:
    """One running program and the unread part of its output."""

    def __init__(self, argv: list[str], cwd: str | None, env: dict[str, str], log: Log):
        self.argv = argv
        self.log = log
        self.buffer = bytearray()
        self.name: str | None = None          # what it said in its hello
        self.idle_since = 0.0
        self.games = 0
        try:
            self.proc = subprocess.Popen(
                argv, cwd=cwd or None, env={**os.environ, **env}, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if log.handle is not None else None,
                bufsize=0, close_fds=True, start_new_session=True,
                preexec_fn=_die_with_parent())
        except OSError as err:
            raise ProcessError("no_start", f"cannot start {argv[0]!r}: "
                               f"{err.strerror or type(err).__name__}") from None
        self.pid = self.proc.pid
        try:
            self._exited = os.pidfd_open(self.pid)      # readable once it has exited
        except (AttributeError, OSError):
            self._exited = None
        self._out = self.proc.stdout.fileno()
        self._in = self.proc.stdin.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)
        self._stderr = None
        if log.handle is not None:
            self._stderr = threading.Thread(target=self._copy_stderr, daemon=True,
                                            name=f"koloda-agent-stderr-{self.pid}")
            self._stderr.start()
        log.note(self.pid, f"started: {' '.join(argv)}")

    # --- lines ------------------------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> None:
        """Write `data` whole by `deadline` (a `time.monotonic()` time); ProcessError
        "crashed" when the program has closed its input, "timeout" when it stops
        reading."""
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProcessError("timeout", "stopped reading its input")
            try:
                _, ready, _ = select.select([], [self._in], [], left)
                if not ready:
                    continue
                written = os.write(self._in, view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise ProcessError("crashed", self._ended("closed its input")) from None
            except OSError as err:
                if err.errno in (errno.EPIPE, errno.EBADF):
                    raise ProcessError("crashed", self._ended("closed its input")) from None
                raise
            view = view[written:]

    def read_line(self, deadline: float) -> bytes:
        """The next line (without its newline) by `deadline`; ProcessError "timeout",
        "crashed" (the output ended) or "bad_message" (a line beyond the bound)."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                if end + 1 > MAX_LINE_BYTES:
                    raise ProcessError("bad_message", f"answered a line longer than "
                                       f"{MAX_LINE_BYTES} bytes")
                return line.rstrip(b"\r")
            if len(self.buffer) > MAX_LINE_BYTES:
                raise ProcessError("bad_message", f"answered a line longer than "
                                   f"{MAX_LINE_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProcessError("timeout", "did not answer in time")
            watched = [self._out] if self._exited is None else [self._out, self._exited]
            wait = left if self._exited is not None else min(left, _EXIT_POLL_SECONDS)
            ready, _, _ = select.select(watched, [], [], wait)
            if self._out not in ready:
                if self.proc.poll() is not None and not self._drain():
                    # exited, while something of its own still holds its output open
                    raise ProcessError("crashed", self._ended("ended"))
                continue
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                raise ProcessError("crashed", self._ended("ended its output"))
            self.buffer += chunk

    def _drain(self) -> bool:
        """Read what its output holds now, without waiting; whether there was any."""
        got = False
        while True:
            try:
                chunk = os.read(self._out, 65536)
            except (BlockingIOError, OSError):
                return got
            if not chunk:
                return got
            self.buffer += chunk
            got = True

    def unasked(self) -> bool:
        """Whether it has written something nobody asked for: output waiting before a
        `go` is sent (a stale answer would otherwise pass for the next move's)."""
        if self.buffer:
            return True
        ready, _, _ = select.select([self._out], [], [], 0)
        return bool(ready) and self._drain()

    def pending(self) -> bool:
        """Whether it has written something not yet read (between games: a protocol
        break) or has exited."""
        if self.buffer or self.proc.poll() is not None:
            return True
        ready, _, _ = select.select([self._out], [], [], 0)
        return bool(ready)

    # --- ending -----------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self, why: str = "") -> None:
        """End it and its process group now (SIGKILL) and reap it."""
        self._kill_group()
        self._reap(why or "killed")

    def _kill_group(self) -> None:
        """SIGKILL to its process group: the program and whatever it started.  Reaped or
        not, the group lives on while any of its processes does."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        except OSError:
            if self.proc.poll() is None:
                self.proc.kill()

    def stop(self, quit_line: bytes | None = None) -> None:
        """Ask it to quit (`quit_line`), then kill it if it has not exited in time."""
        if self.proc.poll() is None and quit_line is not None:
            try:
                self.send(quit_line, time.monotonic() + QUIT_SECONDS)
                self.proc.stdin.close()
                self.proc.wait(QUIT_SECONDS)
            except (ProcessError, OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.kill("killed: it did not quit")
        else:
            self._kill_group()                  # what it started, if it left anything
            self._reap("quit")

    def _reap(self, why: str) -> None:
        try:
            code = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self._exited is not None:
            os.close(self._exited)
            self._exited = None
        if self._stderr is not None:
            self._stderr.join(1.0)
        self.log.note(self.pid, f"{why} (exit status {code})")
        _POOL.forget(self)

    def _ended(self, what: str) -> str:
        """`what` it did, or that it exited (with its status) if it has."""
        try:
            code = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return what
        self.wait_if_killed_by_another()
        return f"exited with status {code}"

    def wait_if_killed_by_another(self) -> None:
        """A program that died of a SIGKILL koloda did not send is, most likely, one of a
        worker being stopped: loky kills a worker's children first and the worker a moment
        later.  So the worker waits KILLED_GRACE_SECONDS before it goes on to record a
        crash or start a fresh program, in a game or between games, and a stopped run
        does neither.  Call it before ending the process (its own SIGKILL comes after)."""
        if self.proc.poll() == -signal.SIGKILL:
            _grace()

    def _copy_stderr(self) -> None:
        """Copy stderr to the log, a line at a time after the process id, until the log
        is full; then read on and drop it, so the program never blocks on stderr.  It is
        read in chunks of 64 KiB (a flood of stderr costs a few system calls a
        megabyte, not one a byte)."""
        stream = self.proc.stderr
        fd = stream.fileno()
        prefix = f"[pid {self.pid}] ".encode()
        room = True
        pending = bytearray()
        try:
            while True:
                chunk = os.read(fd, _STDERR_CHUNK)
                if not chunk:
                    break
                if not room:
                    continue
                pending += chunk
                lines, pending = _whole_lines(pending)
                if lines:
                    room = self.log.write(b"".join(prefix + line for line in lines))
                    if not room:
                        self.log.note(self.pid, f"the log is full ({LOG_MAX_BYTES} "
                                      f"bytes): this process's stderr is dropped from here on")
            if room and pending:
                self.log.write(prefix + bytes(pending) + b"\n")
        except (OSError, ValueError):
            pass
        finally:
            try:
                stream.close()
            except OSError:
                pass


def _grace() -> None:
    time.sleep(KILLED_GRACE_SECONDS)


def _whole_lines(pending: bytearray) -> tuple[list[bytes], bytearray]:
    """The complete lines at the start of `pending` (each with its newline; a line longer
    than _LOG_LINE_BYTES cut into pieces of that length, each given a newline) and what
    is left of it."""
    lines = []
    start = 0
    while True:
        end = pending.find(b"\n", start, start + _LOG_LINE_BYTES)
        if end >= 0:
            lines.append(bytes(pending[start:end + 1]))
            start = end + 1
        elif len(pending) - start >= _LOG_LINE_BYTES:
            lines.append(bytes(pending[start:start + _LOG_LINE_BYTES]) + b"\n")
            start += _LOG_LINE_BYTES
        else:
            return lines, pending[start:]


class Pool:
    """The idle processes of this process, by agent (command, folder, environment, log),
    and every process it started, for the end."""

    def __init__(self):
        self.lock = threading.Lock()
        self.idle: dict[tuple, list[BotProcess]] = {}
        self.live: set[BotProcess] = set()
        self.logs: dict[str, Log] = {}
        self._reaper: threading.Thread | None = None
        self._owner = os.getpid()

    def log(self, path: str | None) -> Log:
        with self.lock:
            self._after_fork()
            key = path or ""
            if key not in self.logs:
                self.logs[key] = Log(path)
            return self.logs[key]

    def start(self, key: tuple, argv, cwd, env, log: Log) -> BotProcess:
        process = BotProcess(argv, cwd, env, log)
        process.key = key
        with self.lock:
            self.live.add(process)
        return process

    def checkout(self, key: tuple) -> BotProcess | None:
        """An idle process of that agent that is still well, or None."""
        while True:
            with self.lock:
                self._after_fork()
                waiting = self.idle.get(key)
                process = waiting.pop() if waiting else None
            if process is None:
                return None
            if not process.pending():
                return process
            process.wait_if_killed_by_another()
            process.log.note(process.pid, "wrote or exited between games: stopped; a "
                             "fresh process plays the next game")
            process.kill()

    def checkin(self, process: BotProcess) -> None:
        """Keep a process that finished a game well for the agent's next game."""
        if not process.alive():
            process.wait_if_killed_by_another()
            process.kill()
            return
        process.idle_since = time.monotonic()
        with self.lock:
            self.idle.setdefault(process.key, []).append(process)
            if self._reaper is None or not self._reaper.is_alive():
                self._reaper = threading.Thread(target=self._reap_idle, daemon=True,
                                                name="koloda-agent-reaper")
                self._reaper.start()

    def forget(self, process: BotProcess) -> None:
        with self.lock:
            self.live.discard(process)
            for waiting in self.idle.values():
                if process in waiting:
                    waiting.remove(process)

    def close_idle(self, older_than: float = 0.0) -> int:
        """Stop the idle processes idle for `older_than` seconds or more; how many."""
        now = time.monotonic()
        with self.lock:
            stale = [p for waiting in self.idle.values() for p in waiting
                     if now - p.idle_since >= older_than]
            for waiting in self.idle.values():
                waiting[:] = [p for p in waiting if p not in stale]
        for process in stale:
            process.stop(_QUIT)
        return len(stale)

    def kill_all(self) -> None:
        """End every process this process started, and their groups, now: this process
        is about to exit without a word to them."""
        with self.lock:
            everyone = list(self.live)
        for process in everyone:
            process._kill_group()

    def close_all(self) -> None:
        """Stop every process this process started (idle or not)."""
        if os.getpid() != self._owner:
            return
        with self.lock:
            everyone = list(self.live)
            self.idle.clear()
        for process in everyone:
            process.stop(_QUIT)

    def _reap_idle(self) -> None:
        while True:
            time.sleep(1.0)
            self.close_idle(IDLE_SECONDS)
            with self.lock:
                if not any(self.idle.values()):
                    self._reaper = None
                    return

    def _after_fork(self) -> None:
        """In a forked child, the parent's processes are not this one's to use."""
        if os.getpid() != self._owner:
            self.idle, self.live, self.logs = {}, set(), {}
            self._reaper, self._owner = None, os.getpid()


_QUIT = b'{"type":"quit"}\n'
_POOL = Pool()
# At the end of this process: atexit for a main process; a multiprocessing child (a loky
# or Dask worker) ends with os._exit and runs only multiprocessing's finalizers.
atexit.register(_POOL.close_all)
multiprocessing.util.Finalize(_POOL, _POOL.close_all, exitpriority=100)


def pool() -> Pool:
    return _POOL


def close_idle() -> int:
    """Stop this process's idle agent processes now (the end of a run); how many."""
    return _POOL.close_idle()
