"""The external agent: a program of any language playing one seat over koloda's agent
protocol (docs/agents.md).

It is handed the true state, as every agent is, and tells its program only what its seat
has seen: each event through `apply_told(..., [seat])` (games/kit/told.py), the function
the server protocol uses, so a chance outcome the seat did not see reads `deal ?`; the
legal actions of its own turn; and its seat's view (the observer's `seat_view`, equal
for two deals the seat cannot tell apart).

The program is started (or taken from the pool, kept from the agent's last game) and sent
`new_game` when the game starts; each of its turns is one `go` and one `move`, forced
moves included; the end is `game_over`.  A failure of the program is an AgentFailure
with its reason (solvers.agent.REASONS); one found while the game starts (the program
will not start, or say hello) is raised at the seat's first move, so the game stops where
the failing seat is to move, as every failure does.
"""

from __future__ import annotations

import time

from koloda.games import game_string_of
from koloda.games.kit.told import apply_told
from koloda.solvers.agent import Agent, AgentFailure
from koloda.solvers.clock import deadline_ms
from koloda.solvers.errors import AgentError, AgentSpecError
from koloda.solvers.external import messages
from koloda.solvers.external.process import ProcessError, pool

#: the budget of each move when the caller gives none: a program may hang, so an external
#: agent always has a limit
DEFAULT_MOVE_MS = 10_000
#: how long the program may take to start and answer `hello`, unless its spec says
DEFAULT_START_MS = 10_000
#: how long writing `new_game` or `game_over` may take (the program must be reading)
SEND_SECONDS = 2.0


class ExternalAgent(Agent):
    """One seat played by a program: `argv` run in `cwd` with `env` added, stderr to
    `log` (a file path; None: this process's stderr)."""

    name = "external"

    def __init__(self, game, seed: int = 0, argv=(), cwd: str | None = None, env=None,
                 start_ms: int = DEFAULT_START_MS, log: str | None = None):
        super().__init__(game, seed)
        if getattr(game, "rules", None) is None:
            raise AgentSpecError(f"an external agent plays koloda's games, not {game}")
        if not argv:
            raise AgentSpecError("an external agent needs a command")
        self.argv = list(argv)
        self.cwd = cwd or None
        self.env = dict(env or {})
        self.start_ms = start_ms
        self.log_path = log
        self.key = (tuple(self.argv), self.cwd, tuple(sorted(self.env.items())), log or "")
        self.process = None
        self.seat: int | None = None
        self.hello_name: str | None = None      # what the program called itself
        self._replay = None        # the game as far as the program has been told it
        self._failure: AgentFailure | None = None
        self._log = pool().log(log)

    # --- the game ---------------------------------------------------------------------

    def start_game(self, seat: int) -> None:
        if self.process is not None:            # a game left without game_over
            self._drop("a new game began before the last one ended")
        self.seat = seat
        self._replay = self.game.new_initial_state()
        self._failure = None
        try:
            process = pool().checkout(self.key)
            if process is None:
                process = self._start()
            self.process = process
            self.hello_name = process.name
            process.send(messages.encode(messages.new_game(
                game_string_of(self.game), seat, self.game.num_players(), self.seed)),
                time.monotonic() + SEND_SECONDS)
        except ProcessError as err:
            self._failure = self._failed(err.reason, str(err))

    def step(self, state) -> int:
        self.move_started = time.perf_counter()
        started = time.monotonic()
        self.last_visits = None
        self._check_game(state.get_game())
        player = state.current_player()
        if player < 0:
            raise AgentError(f"{self.spec}: asked to move at a non-decision state")
        if self.seat is None:
            self.start_game(player)
        if player != self.seat:
            raise AgentError(f"{self.spec} plays seat {self.seat} in this game, and was "
                             f"asked to move for seat {player}")
        if self._failure is not None:
            raise self._failure
        ids = state.legal_actions(player)
        legal = [state.action_to_string(player, a) for a in ids]
        budget = self.time_budget or {"ms": DEFAULT_MOVE_MS}
        deadline = started + deadline_ms(budget) / 1000.0
        message = messages.go(self._told(state), legal, budget, state.seat_view(player))
        line = b""
        try:
            if self.process.unasked():     # an answer before its go: not this move's
                stale = bytes(self.process.buffer[:messages.MAX_LINE_BYTES])
                raise self._failed("bad_message", "wrote a line when no go was pending "
                                   "(each move answers its own go)", stale)
            self.process.send(messages.encode(message), deadline)
            line = self.process.read_line(deadline)
            action = messages.read_move(line, legal)
        except ProcessError as err:
            raise self._failed(err.reason, _worded(err, budget)) from None
        except messages.BadMessage as err:
            raise self._failed("bad_message", f"{err}", line) from None
        except messages.IllegalMove as err:
            raise self._failed("illegal_action", f"{err}", line) from None
        return ids[legal.index(action)]

    def game_over(self, state, returns) -> None:
        process, self.process = self.process, None
        self.seat = None
        if process is None:
            return
        if returns is None or state is None:
            process.kill("killed: the game was abandoned")
            return
        try:
            events = self._told(state)
            process.send(messages.encode(messages.game_over(events, returns)),
                         time.monotonic() + SEND_SECONDS)
        except (ProcessError, AgentError) as err:
            process.kill(f"killed: game_over could not be sent ({err})")
            return
        process.games += 1
        pool().checkin(process)

    def close(self) -> None:
        """Stop the program now, if this agent holds one."""
        if self.process is not None:
            self._drop("closed")

    # --- inside -----------------------------------------------------------------------

    def _start(self):
        """A fresh process that has said hello, or ProcessError: a program that does not
        start, exits or keeps silent is "no_start", a hello that is no hello
        "bad_message"."""
        process = pool().start(self.key, self.argv, self.cwd, self.env, self._log)
        deadline = time.monotonic() + self.start_ms / 1000.0
        line = b""
        try:
            process.send(messages.encode(messages.hello()), deadline)
            line = process.read_line(deadline)
            process.name = messages.read_hello(line)
        except ProcessError as err:
            process.kill()
            if err.reason == "bad_message":
                raise
            if err.reason == "timeout":
                raise ProcessError("no_start", f"did not say hello within "
                                   f"{self.start_ms} ms of starting") from None
            raise ProcessError("no_start", f"{err}, before saying hello") from None
        except messages.BadMessage as err:
            process.log.note(process.pid, f"bad hello: {err}; it began: "
                             f"{messages.excerpt(line)}")
            process.kill()
            raise ProcessError("bad_message", f"hello: {err}") from None
        process.log.note(process.pid, f"said hello: {process.name}")
        return process

    def _told(self, state) -> list[dict]:
        """The events of `state` the program has not been told yet, as its seat sees them."""
        history = state.history()
        done = self._replay.history()
        if history[:len(done)] != done:
            raise AgentError(f"{self.spec}: the game's history changed between moves")
        return [apply_told(self._replay, action, [self.seat])
                for action in history[len(done):]]

    def _failed(self, reason: str, text: str, line: bytes = b"") -> AgentFailure:
        """Note a failure in the log (with the answer's excerpt, which only the log
        repeats), end the process, and return the AgentFailure to raise."""
        process, self.process = self.process, None
        if process is not None:
            excerpt = f"; it answered: {messages.excerpt(line)}" if line else ""
            process.log.note(process.pid, f"{reason}: {text}{excerpt}")
            process.kill(f"killed after {reason}")
        else:
            self._log.note(None, f"{reason}: {text}")
        return AgentFailure(reason, text)

    def _drop(self, why: str) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.kill(f"killed: {why}")


def _worded(err: ProcessError, budget: dict) -> str:
    if err.reason == "timeout":
        shown = (f"{budget['ms']} ms a move" if "ms" in budget else
                 f"{budget['remaining_ms']} ms left on its clock")
        return f"{err} ({shown}, and the margin)"
    return str(err)
