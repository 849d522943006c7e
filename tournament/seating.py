"""What sits in a tournament's seat: an agent spec, koloda's own (solvers.load_agent) or an
external program (`external(command=...)`, solvers.external), with a time control after
` @ ` when the config gives one:

    ismcts(sims=300)                        no time control (as every config before clocks)
    ismcts(sims=300) @ move_ms=200          200 ms a move
    external(command="python3 bots/mine.py") @ clock=60+0.5

The whole text is the seat's spec: the results file records it and a rerun compares it,
so a changed time control is a changed agent.  `SeatSpec` is that text with where an
external agent's stderr goes (`log`) carried along to the worker: run-local, so it is in
no results line and no seed.  `prepare_seats` makes a game's agents ready before the
game's clocks start.
"""

from __future__ import annotations

import re

from koloda import solvers
from koloda.solvers import external
from koloda.solvers.clock import TimeControl, TimeControlError
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.prepare import prepare, prepare_game

SEPARATOR = " @ "
_TIME_CONTROL = re.compile(r"(move_ms=[0-9]+|clock=[0-9.]+(?:\+[0-9.]+)?)\Z", re.ASCII)


class SeatSpec(str):
    """A seat's spec text, with `log`: the file an external agent's stderr goes to."""

    log: str | None

    def __new__(cls, text: str, log: str | None = None):
        spec = super().__new__(cls, text)
        spec.log = log
        return spec

    def __reduce__(self):
        return SeatSpec, (str(self), self.log)


def with_time_control(spec: str, control: TimeControl | None) -> str:
    return spec if control is None else f"{spec}{SEPARATOR}{control.text()}"


def split_time_control(spec: str) -> tuple[str, TimeControl | None]:
    """(the agent spec, its time control or None); AgentSpecError for a time control
    that does not read."""
    head, separator, tail = spec.rpartition(SEPARATOR)
    if not separator or not _TIME_CONTROL.match(tail.strip()):
        return spec, None
    key, _, value = tail.strip().partition("=")
    try:
        control = (TimeControl.per_move(int(value)) if key == "move_ms"
                   else TimeControl.parse_clock(value))
    except TimeControlError as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None
    return head.strip(), control


def load_seat_agent(game, spec: str, seed: int | None = None):
    """The agent of a seat's spec, its time control as `agent.time_control`."""
    agent_spec, control = split_time_control(spec)
    if external.is_external(agent_spec):
        agent = external.load_external(game, agent_spec, seed=seed,
                                       log=getattr(spec, "log", None))
    else:
        agent = solvers.load_agent(game, agent_spec, seed=seed)
    agent.time_control = control
    return agent


def prepare_seats(game, specs) -> float:
    """Make `game` and the agents of its seats' `specs` ready in this process before any
    clock of the game starts (solvers/prepare.py); the seconds it took, 0 when all were
    ready.  An external program prepares itself, within its `start_ms`."""
    seconds = prepare_game(game)
    for spec in dict.fromkeys(specs):
        agent_spec, _ = split_time_control(spec)
        if not external.is_external(agent_spec):
            seconds += prepare(game, agent_spec)
    return seconds


def check_seat_spec(game, spec: str) -> None:
    """AgentSpecError for a seat's spec load_seat_agent would refuse, building nothing."""
    agent_spec, _ = split_time_control(spec)
    if external.is_external(agent_spec):
        external.check_external(game, agent_spec)
    else:
        solvers.check_spec(game, agent_spec)
