"""Where parallel work runs: joblib's processes on this machine (loky), or a Dask cluster
named by its scheduler ("local" starts one here).  Tournaments and the Parket endgames
hand their tasks to the same executor, so a cluster that runs one runs the other."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import threading
import time

from joblib import Parallel, parallel_config

from koloda.games.errors import KolodaError
from koloda.games.kit.params import cut
from koloda.solvers.external.process import pool
from koloda.solvers.interrupts import note_signal
from koloda.tournament.config import ConfigError

SCHEDULER_TIMEOUT = 10      # seconds to wait for a Dask scheduler to answer
#: how long a Dask scheduler may take to send its greeting (it sends it at once), and the
#: most bytes its first message may say it has
GREETING_SECONDS = 5.0
MAX_GREETING_BYTES = 16 * 1024 * 1024


class SchedulerError(KolodaError):
    """The Dask scheduler of a config does not answer."""


class Terminated(KeyboardInterrupt):
    """SIGTERM while parallel work runs (`kill`, `timeout`, a job scheduler): a
    KeyboardInterrupt, so it stops the run the way Ctrl-C does, workers and all."""


@contextlib.contextmanager
def sigterm_stops_the_run():
    """Inside this block SIGTERM raises Terminated in the main thread.  Without it the
    process dies at once and its loky workers, orphaned, go on playing the games already
    handed to them, their results lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        note_signal()           # a stop, not an agent's KeyboardInterrupt (solvers.interrupts)
        raise Terminated()
    handler = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, handler)


#: how often a worker looks whether the process that started it is still there
OWNER_POLL_SECONDS = 1.0
_watched_owner: int | None = None


def exit_with(owner: int) -> None:
    """In a worker of the process `owner` (a tournament's main process, the parent of its
    loky workers): exit, with the agent programs it started, within a second or two of
    `owner` ending, however it ends.  SIGKILL gives the main process no chance to end its
    workers, and loky's would idle for minutes.  Called by every task; watches once.

    A thread polling the parent's id, not PR_SET_PDEATHSIG: loky starts workers from
    whichever of its threads needs one, and the death signal would come when that thread
    ended, not the process; a poll also works beyond Linux."""
    global _watched_owner
    if _watched_owner == owner or os.getpid() == owner:
        return
    _watched_owner = owner

    def watch():
        while os.getppid() == owner:
            time.sleep(OWNER_POLL_SECONDS)
        pool().kill_all()
        os._exit(1)
    threading.Thread(target=watch, name="koloda-owner-watch", daemon=True).start()


@contextlib.contextmanager
def workers_deaf_to_ctrl_c():
    """Processes started inside this block ignore SIGINT for life (an ignored signal stays
    ignored in a child), so Ctrl-C, which a terminal sends to every process of the job,
    reaches this process alone: it stops the run, and joblib ends the workers, none of
    them printing a traceback of its own half-done start."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)


@contextlib.contextmanager
def parallel_for(backend: str, scheduler: str | None, jobs: int):
    """A joblib Parallel (results as a generator) for `backend`, "loky" with `jobs`
    processes or "dask" at `scheduler` (a client for the block's length; "local" starts a
    cluster of `jobs` workers here).  SchedulerError for a scheduler that does not
    answer, ConfigError where dask.distributed is not installed.  SIGTERM stops the block
    as Ctrl-C does (sigterm_stops_the_run)."""
    with sigterm_stops_the_run():
        if backend != "dask":
            yield Parallel(n_jobs=jobs, return_as="generator")
        else:
            with _dask_parallel(scheduler, jobs) as parallel:
                yield parallel


@contextlib.contextmanager
def _dask_parallel(scheduler: str | None, jobs: int):
    """parallel_for's Dask half: a client of `scheduler`, or of a cluster started here."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("backend 'dask' needs dask.distributed: "
                          "pip install 'koloda[dask]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            with workers_deaf_to_ctrl_c():
                cluster = stack.enter_context(LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True,
                    dashboard_address=None))
            stack.enter_context(Client(cluster))
        else:
            assert scheduler, "the config check asks a dask backend for its scheduler"
            stack.enter_context(_connect(Client, scheduler))
        stack.enter_context(parallel_config(backend="dask", wait_for_workers_timeout=60))
        yield Parallel(n_jobs=-1, return_as="generator")


def _connect(client, address: str):
    """A Dask client of the scheduler at `address`, or SchedulerError within the timeout:
    the address is checked first (`greeting_problem`), so a server that is not a Dask
    scheduler is one line, not whatever the Dask client makes of its bytes."""
    problem = greeting_problem(address)
    if problem is not None:
        raise SchedulerError(f"the Dask scheduler {address} {problem}")
    try:
        return client(address, timeout=SCHEDULER_TIMEOUT)
    except Exception as err:           # the Dask client raises many kinds: all are this
        reason = " ".join(str(err).split()) or type(err).__name__
        raise SchedulerError(f"the Dask scheduler {address} did not answer within "
                             f"{SCHEDULER_TIMEOUT} s ({cut(reason, 200)}); is it running? "
                             f"(scheduler = \"local\" starts a cluster here)") from None


def greeting_problem(address: str) -> str | None:
    """Why `address` is not a Dask scheduler koloda can reach, None if it may be: only
    `tcp://HOST:PORT` (or `HOST:PORT`) is taken, and the server there must greet as a
    Dask scheduler does on every connection, at once, with the 8-byte length of its first
    message.  A web server waits for a request, and other servers greet otherwise; the
    Dask client would read their first bytes as a length (`HTTP/1.0` asks for 3 EiB)."""
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return (f"is a {cut(scheme, 20)}:// address; koloda reaches Dask schedulers over "
                f"tcp:// (tcp://HOST:PORT), or starts one here (scheduler = \"local\")")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return "is not an address of the form tcp://HOST:PORT"
    try:
        with socket.create_connection((host, int(port)), timeout=SCHEDULER_TIMEOUT) as sock:
            sock.settimeout(GREETING_SECONDS)
            greeting = b""
            while len(greeting) < 8:
                chunk = sock.recv(8 - len(greeting))
                if not chunk:
                    return "closed the connection without a word: it is not a Dask scheduler"
                greeting += chunk
    except TimeoutError:
        return (f"did not greet within {GREETING_SECONDS:g} s, as a Dask scheduler does at "
                f"once: is it a Dask scheduler's address?")
    except OSError as err:
        return (f"did not answer within {SCHEDULER_TIMEOUT} s ({err.strerror or err}); is "
                f"it running? (scheduler = \"local\" starts a cluster here)")
    (length,) = struct.unpack("<Q", greeting)
    if not 0 < length <= MAX_GREETING_BYTES:
        return "greets as no Dask scheduler does: it is some other kind of server"
    return None
