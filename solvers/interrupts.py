"""A person's Ctrl-C told apart from a KeyboardInterrupt that an agent's own code raises.

An agent from another package may raise anything from its move, `KeyboardInterrupt` and
`SystemExit` included; that is the agent's failure, a lost game, while a real Ctrl-C (or
SIGTERM) must still stop the run.  Python raises the same KeyboardInterrupt for both, so
koloda notes the signal where it arrives: inside `signals_noted()` SIGINT raises
KeyboardInterrupt as Python's own handler does, and is remembered first.  A process that
ignores SIGINT (a tournament's worker: tournament/executor.py) hears no Ctrl-C at all, so
every KeyboardInterrupt there is an agent's, as is one raised in any thread but the
main one (Python raises a signal's there only).  Where nobody notes signals, a
KeyboardInterrupt is taken for a person's.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from koloda.solvers.errors import AgentError

_arrived = False


def note_signal() -> None:
    """A stopping signal arrived (SIGINT here; SIGTERM's handler calls it too)."""
    global _arrived
    _arrived = True


def _on_sigint(signum, frame):
    note_signal()
    raise KeyboardInterrupt


@contextlib.contextmanager
def signals_noted():
    """Inside this block (in the main thread, where signals arrive) SIGINT is noted before
    it raises KeyboardInterrupt; elsewhere, and where SIGINT is ignored, nothing changes."""
    global _arrived
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    _arrived = False
    previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stops_the_program(err: BaseException) -> bool:
    """Whether `err`, raised while an agent moved, must stop the program: a
    KeyboardInterrupt that a signal raised.  Anything else (any exception, SystemExit, a
    KeyboardInterrupt the agent raised itself) is the agent's failure."""
    if not isinstance(err, KeyboardInterrupt):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False              # a signal raises its KeyboardInterrupt in the main one
    handler = signal.getsignal(signal.SIGINT)
    if handler is signal.SIG_IGN:
        return _arrived           # deaf to Ctrl-C: only a noted SIGTERM stops it
    if handler is _on_sigint:
        return _arrived
    return True


@contextlib.contextmanager
def exits_as_agent_error(spec: str):
    """Inside this block, an agent's SystemExit or its own KeyboardInterrupt is an
    AgentError naming it, the failure of that move alone, where a single move is asked
    (the server, `koloda agent`; a tournament records it instead: tournament/match.py).
    Exceptions pass as they are, and so does a person's Ctrl-C."""
    try:
        yield
    except BaseException as err:
        if isinstance(err, Exception) or stops_the_program(err):
            raise
        raise AgentError(f"{spec}: the agent raised {type(err).__name__} in its "
                         f"move") from None
