"""The koloda protocol without a transport: a request in, a reply out (docs/protocol.md).

`Protocol.handle_text` takes one request as JSON text and answers a reply dict, or, for
`move` and `hint`, a `PendingMove` whose job the transport runs (inline on stdio, in a
worker process over HTTP) and whose `finish` gives the reply.  Every failure is a reply
with an error object; nothing a client sends stops the server.
"""

from __future__ import annotations

import json
import math
import secrets
import sys
import threading
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

import koloda
from koloda import games, solvers
from koloda.games.errors import GameParameterError
from koloda.games.kit.params import cut
from koloda.protocol.errors import ProtocolError
from koloda.protocol.readiness import READY, Readiness
from koloda.protocol.session import DEALERS, Session
from koloda.protocol.thinking import ChosenMove, MoveJob, Spec, move_spec, offered_policies, think
from koloda.solvers.levels import LADDER_GAMES, level_entries

#: 2: `move` always plays the move it answers and tells nothing of the mover's hand
#: (no policy, no figures); `new` keeps a seed the server drew to itself until the end
VERSION = 2

#: request type -> its fields (besides `type` and `id`), and which of them are required
FIELDS = {
    "hello": ((), ()),
    "new": (("game", "seats", "seed", "dealer"), ("game",)),
    "observe": (("session", "actions"), ("session", "actions")),
    "move": (("session", "agent", "sims", "ms", "apply"), ("session", "agent")),
    "hint": (("session", "agent", "sims", "ms", "apply"), ("session", "agent")),
    "state": (("session", "since"), ("session",)),
    "analyse": (("session", "ms"), ("session",)),
    "close": (("session",), ("session",)),
    "quit": ((), ()),
}

SWEEP_SECONDS = 1.0
#: the longest `id` echoed back, written as JSON
MAX_ID_CHARS = 256


@dataclass(frozen=True)
class Limits:
    """What one client may ask of the server; each has a `koloda serve` option.  Every
    agent parameter that sets a move's work has its limit here (thinking.WORK_LIMITS), and
    so do the game parameters that multiply it (GAME_WORK_LIMITS)."""
    max_sessions: int = 100
    max_request_bytes: int = 64 * 1024
    max_ms: int = 10_000
    max_sims: int = 50_000
    max_worlds: int = 1_000
    max_depth: int = 10
    max_nodes: int = 10_000_000
    max_reach: int = 20
    max_relocations: int = 8
    max_analysis_ms: int = 2_000            # per position of an `analyse`
    max_analysis_total_ms: int = 20_000     # per `analyse`
    idle_seconds: float = 600.0

    @classmethod
    def own_process(cls) -> Limits:
        """For a client in the person's own process (`koloda play`): no bounds beyond the
        agents' and games' own ranges, sessions that never expire."""
        return cls(max_sessions=4, max_ms=3_600_000, max_sims=10**7, max_worlds=10**7,
                   max_depth=10**4, max_nodes=10**11, max_reach=1000, max_relocations=1000,
                   max_analysis_ms=600_000, max_analysis_total_ms=3_600_000,
                   idle_seconds=math.inf)


#: game parameter -> the `Limits` field that caps it in a session
GAME_WORK_LIMITS = {"max_relocations": "max_relocations"}


class PendingMove:
    """A `move` or `hint` whose agent has yet to think: run `job` with `thinking.think`
    (anywhere), then `finish(result)` is the reply."""

    def __init__(self, protocol: Protocol, reply: dict, session: Session, player: int,
                 job: MoveJob, apply: bool, spec: Spec, own: bool):
        self.protocol = protocol
        self.reply = reply
        self.session = session
        self.player = player
        self.job = job
        self.apply = apply
        self.spec = spec
        self.own = own            # a hint for a session seat (else a move koloda plays)

    def finish(self, result: ChosenMove) -> dict:
        """The reply.  A hint shows the agent's policy and figures: they are about the
        app's own cards.  A move shows only the move: its policy ranges over the mover's
        hand, and its figures (simulations in a time budget, time itself) vary with it."""
        session, player = self.session, self.player
        name = session.state.action_to_string     # decisions read alike in every state
        reply = dict(self.reply)
        reply.update(player=player, action=name(player, result.action), agent=self.spec.shown)
        if self.own:
            reply.update(
                policy={name(player, a): round(p, 4) for a, p in result.policy.items()},
                policy_kind=result.policy_kind, thinking_ms=round(result.thinking_ms, 2))
            if result.simulations is not None:
                reply["simulations"] = result.simulations
        if self.apply:
            if (self.protocol.sessions.get(session.id) is not session
                    or tuple(session.state.history()) != self.job.history):
                return self.protocol.error_reply(self.reply, ProtocolError(
                    "out_of_turn", f"session {session.id} moved on (or closed) while the "
                    f"agent thought; the move was not applied"))
            reply["events"] = session.play(result.action)
            reply["view"] = session.view()
        session.last_used = self.protocol.clock()
        return reply

    def fail(self, error: BaseException) -> dict:
        return self.protocol.error_reply(self.reply, error)

    def answer_here(self) -> dict:
        """Think in this process and give the reply; a fault of the agent is answered as
        an error reply (`internal` for one koloda did not foresee), never raised."""
        self.protocol.readiness.wait()
        try:
            return self.finish(think(self.job))
        except Exception as err:
            return self.fail(err)


class Protocol:
    """The sessions of one server and the handling of every request."""

    def __init__(self, limits: Limits = Limits(), transport: str = "stdio", clock=time.monotonic,
                 policies: Path | str | None = None, readiness: Readiness = READY):
        """`readiness`: the server's preparation in the background, which `hello` reports
        and moves wait for (protocol/readiness.py)."""
        self.limits = limits
        self.readiness = readiness
        self.transport = transport
        self.clock = clock
        self.policies = Path(policies) if policies is not None else None
        self.sessions: dict[str, Session] = {}
        # Requests of different sessions may be handled in several threads at once (the
        # HTTP transport does): this guards the table of sessions, not a session's game,
        # which the transport gives one request at a time.
        self.lock = threading.RLock()
        self._last_sweep = clock()

    # --- entry points ------------------------------------------------------------------

    def handle_text(self, text: str | bytes) -> dict | PendingMove:
        """One request as JSON text (a line on stdio, a body over HTTP)."""
        if len(text) > self.limits.max_request_bytes:
            return self.error_reply({}, ProtocolError(
                "too_large", f"the request has {len(text)} bytes; this server reads at most "
                f"{self.limits.max_request_bytes}"))
        try:
            message = json.loads(text, parse_constant=_refuse_constant,
                                 parse_float=_finite_float)
        except (ValueError, RecursionError) as err:
            return self.error_reply({}, ProtocolError("bad_json", cut(f"not JSON: {err}")))
        return self.handle(message)

    def handle(self, message) -> dict | PendingMove:
        reply = {}
        try:
            if not isinstance(message, dict):
                raise ProtocolError("bad_json", f"a request is one JSON object, not "
                                    f"{type(message).__name__}")
            if "id" in message:
                _check_id(message["id"])
                reply["id"] = message["id"]
            reply.update(type=None, ok=True)
            kind = message.get("type")
            if not isinstance(kind, str) or kind not in FIELDS:
                raise ProtocolError("unknown_request", f"unknown request type {kind!r}; "
                                    f"requests are {', '.join(FIELDS)}")
            reply["type"] = kind
            _check_fields(kind, message)
            self._sweep()
            return getattr(self, "_" + kind)(message, reply)
        except ProtocolError as err:
            return self.error_reply(reply, err)
        except Exception as err:   # a fault in koloda: answer it, log it, carry on
            return self.error_reply(reply, err)

    def error_reply(self, reply: dict, error: BaseException) -> dict:
        out = {key: reply[key] for key in ("id", "type") if key in reply}
        out.setdefault("type", None)
        out["ok"] = False
        if not isinstance(error, ProtocolError):
            # The log gets the whole story; the client only the kind: an exception's text
            # can hold what the client may not see (a hidden hand, a server path).
            traceback.print_exception(error, file=sys.stderr)
            error = ProtocolError("internal", f"a fault in koloda ({type(error).__name__}), "
                                  f"logged by the server; it carries on")
        out["error"] = error.as_dict()
        return out

    def expire_idle(self) -> int:
        """Close the sessions idle longer than the limit; how many were closed."""
        cutoff = self.clock() - self.limits.idle_seconds
        with self.lock:
            idle = [sid for sid, s in self.sessions.items() if s.last_used < cutoff]
            for sid in idle:
                del self.sessions[sid]
        return len(idle)

    # --- requests ----------------------------------------------------------------------

    def _hello(self, message, reply):
        reply.update(protocol=VERSION, koloda=koloda.__version__,
                     games=[_game_entry(spec) for spec in games.catalog()],
                     agents=[agent_entry(kind) for kind in solvers.agent_kinds()],
                     policies=offered_policies(self.policies),
                     limits=_limits_entry(self.limits), requests=list(FIELDS),
                     ready=self.readiness.ready)
        return reply

    def _new(self, message, reply):
        game_string = _text(message, "game")
        try:
            normal = games.normalize_game_string(game_string)
            _, values = games.parse_game_string(normal)
            self._check_game_work(normal, values)
            game = games.load_game(normal)
        except GameParameterError as err:
            raise ProtocolError("bad_game", cut(str(err))) from None
        seats = _seats(message.get("seats", [0]), game.num_players())
        dealer = message.get("dealer", "koloda")
        if dealer not in DEALERS:
            raise ProtocolError("bad_request", f"dealer must be \"koloda\" or \"app\", "
                                f"not {dealer!r}")
        seed = message.get("seed")
        given_seed = seed is not None
        if seed is None:     # drawn here, and kept secret: the seed decides every hand
            seed = secrets.randbelow(2**31)
        elif not _is_int(seed) or not 0 <= seed < 2**63:
            raise ProtocolError("bad_request", f"seed must be an integer 0..2^63-1, not "
                                f"{cut(repr(seed), 40)}")
        self.expire_idle()
        session_id = secrets.token_hex(8)
        session = Session(session_id, game, normal, seats, dealer, seed, self.clock())
        events = session.start()
        with self.lock:
            if len(self.sessions) >= self.limits.max_sessions:
                raise ProtocolError("limit", f"this server holds at most "
                                    f"{self.limits.max_sessions} sessions; close one (idle "
                                    f"ones close after {self.limits.idle_seconds:g} s)")
            self.sessions[session_id] = session
        reply.update(session=session_id, game=normal, seats=list(seats), dealer=dealer)
        if given_seed:
            reply["seed"] = seed
        reply.update(events=events, view=session.view())
        return reply

    def _observe(self, message, reply):
        session = self._session(message)
        actions = message["actions"]
        if not isinstance(actions, list):
            raise ProtocolError("bad_request", f"actions must be a list of strings, "
                                f"not {actions!r}")
        reply.update(events=session.observe(actions), view=session.view())
        return reply

    def _move(self, message, reply):
        return self._think(message, reply, own=False)

    def _hint(self, message, reply):
        return self._think(message, reply, own=True)

    def _think(self, message, reply, own: bool):
        session = self._session(message)
        state = session.state
        if state.is_terminal():
            raise ProtocolError("out_of_turn", f"the game of session {session.id} is over "
                                f"({state.turn_string()})")
        if state.current_player() < 0:
            raise ProtocolError("out_of_turn", f"chance is to move ({state.turn_string()}): "
                                f"observe its outcome first")
        if own:
            session.prepare_hint()
            state = session.state
        player = state.current_player()
        if own and player not in session.seats:
            raise ProtocolError("out_of_turn", f"it is p{player}'s turn, not a seat of this "
                                f"session: ask `move` for it")
        if not own and player in session.seats:
            raise ProtocolError("out_of_turn", f"it is p{player}'s turn, a seat of this "
                                f"session: ask `hint` for it")
        if not own and player in session.track.guessed_seats:
            raise ProtocolError("hidden_information", f"koloda only guessed cards p{player} "
                                f"saw (they were sent as unknown), so it cannot play p{player}; "
                                f"open a session with seat {player} and ask `hint` there")
        apply = message.get("apply", not own)
        if not isinstance(apply, bool):
            raise ProtocolError("bad_request", f"apply must be true or false, not "
                                f"{cut(repr(apply), 40)}")
        if not own and not apply:
            raise ProtocolError("bad_request", "a move koloda answers for a seat it plays is "
                                "played (apply is true for move): an answer not played would "
                                "let a client ask again until the hand shows; ask `hint` for "
                                "advice on a session seat")
        spec = move_spec(session.game, _text(message, "agent"),
                         _count(message, "sims"), _count(message, "ms"),
                         self.limits, self.policies)
        # A move's reply waits out its time budget, so its timing does not tell a forced
        # move (answered at once) from a searched one.
        job = MoveJob(session.game_string, tuple(state.history()), spec.build,
                      session.next_agent_seed(), hold_ms=0 if own else spec.ms)
        return PendingMove(self, reply, session, player, job, apply, spec, own)

    def _state(self, message, reply):
        session = self._session(message)
        since = message.get("since")
        if since is not None and (not _is_int(since) or since < 0):
            raise ProtocolError("bad_request", f"since must be an event count, 0 or more, "
                                f"not {since!r}")
        reply["view"] = session.view(since)
        return reply

    def _analyse(self, message, reply):
        """A finished Parket game analysed by the exact solver (solvers/parket/game.py),
        each position within `ms` (at most max_analysis_ms), all within
        max_analysis_total_ms.  Only once the game is over: before, it would be a hint
        for both sides.  Parket hides no card, so the analysis shows nothing unseen."""
        session = self._session(message)
        state = session.state
        if session.game.get_type().short_name != "parket":
            raise ProtocolError("unsupported", f"analyse is for Parket games; session "
                                f"{session.id} plays {session.game_string}")
        if not state.is_terminal():
            raise ProtocolError("out_of_turn", f"the game of session {session.id} is not "
                                f"over ({state.turn_string()}); analyse it at the end")
        cap = self.limits.max_analysis_ms
        ms = _count(message, "ms")
        if ms is not None and not 1 <= ms <= cap:
            raise ProtocolError("limit", f"ms is a time per position from 1 to this "
                                f"server's limit of {cap}, not {ms}")
        from koloda.solvers.parket.game import analyse_line
        self.readiness.wait()
        try:
            analysis = analyse_line(session.game.new_initial_state(), state.history(),
                                    (ms or cap) / 1000, self.limits.max_analysis_total_ms / 1000)
        except GameParameterError as err:       # a relocation cap beyond the solver's
            raise ProtocolError("unsupported", cut(str(err))) from None
        reply["analysis"] = analysis.to_json()
        return reply

    def _close(self, message, reply):
        session = self._session(message)
        with self.lock:
            self.sessions.pop(session.id, None)
        return reply

    def _quit(self, message, reply):
        if self.transport != "stdio":
            raise ProtocolError("unsupported", "quit ends a stdio server; over HTTP, close "
                                "your sessions instead")
        return reply

    # --- helpers -----------------------------------------------------------------------

    def _session(self, message) -> Session:
        session_id = _text(message, "session")
        session = self.sessions.get(session_id)
        if session is None:
            raise ProtocolError("unknown_session", f"no session {session_id!r} (never "
                                f"opened, closed, or idle longer than "
                                f"{self.limits.idle_seconds:g} s)")
        session.last_used = self.clock()
        return session

    def _check_game_work(self, normal: str, values: dict) -> None:
        for key, field in GAME_WORK_LIMITS.items():
            cap = getattr(self.limits, field)
            if key in values and values[key] > cap:
                raise ProtocolError("limit", f"{normal}: {key}={values[key]} is beyond this "
                                    f"server's limit of {cap}")

    def _sweep(self) -> None:
        now = self.clock()
        if now - self._last_sweep >= SWEEP_SECONDS:   # a race here only sweeps twice
            self._last_sweep = now
            self.expire_idle()


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{cut(text, 40)} is beyond the range of a number")
    return value


def _check_id(value) -> None:
    """An `id` is echoed in the reply, so it must be writable as strict JSON (no lone
    surrogate), and short."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        text.encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError):
        raise ProtocolError("bad_request", "the id cannot be written back as strict JSON "
                            "(it holds a lone surrogate); use a number or plain text") from None
    if len(text) > MAX_ID_CHARS:
        raise ProtocolError("bad_request", f"the id is {len(text)} characters of JSON; at "
                            f"most {MAX_ID_CHARS}")


def encode(reply: dict) -> str:
    """A reply as one line of strict JSON (UTF-8 encodable, no NaN).  A reply that cannot
    be written so is a fault in koloda: the client gets an `internal` error instead."""
    try:
        text = json.dumps(reply, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        text.encode("utf-8")
        return text
    except (ValueError, TypeError, UnicodeEncodeError) as err:
        print(f"koloda serve: a reply could not be written as JSON ({err})", file=sys.stderr)
        error = {key: reply[key] for key in ("id", "type") if key in reply}
        error.update(ok=False, error=ProtocolError(
                     "internal", "a fault in koloda (a reply that is not JSON), logged by "
                     "the server; it carries on").as_dict())
        return json.dumps(error, separators=(",", ":"))



def _check_fields(kind: str, message: dict) -> None:
    allowed, required = FIELDS[kind]
    for key in message:
        if key not in allowed and key not in ("type", "id"):
            fields = ", ".join(allowed) or "none besides type and id"
            raise ProtocolError("bad_request", f"unknown field {key!r} in {kind}; its fields "
                                f"are {fields}")
    for key in required:
        if key not in message:
            raise ProtocolError("bad_request", f"{kind} needs the field {key!r}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(message: dict, key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str):
        raise ProtocolError("bad_request", f"{key} must be a string, not {value!r}")
    return value


def _count(message: dict, key: str) -> int | None:
    value = message.get(key)
    if value is not None and (not _is_int(value) or value < 0):
        raise ProtocolError("bad_request", f"{key} must be an integer, 0 or more, "
                            f"not {value!r}")
    return value


def _seats(value, players: int) -> tuple[int, ...]:
    seats = [value] if _is_int(value) else value
    if (not isinstance(seats, list) or not seats
            or not all(_is_int(s) and 0 <= s < players for s in seats)
            or len(set(seats)) != len(seats)):
        raise ProtocolError("bad_request", f"seats must be a list of distinct seats "
                            f"0..{players - 1} of this game, not {value!r}")
    return tuple(sorted(seats))


def _limits_entry(limits: Limits) -> dict:
    """The limits in force as JSON can carry them: no limit (sessions that never expire,
    as in a person's own process) is null."""
    return {key: None if value == math.inf else value for key, value in asdict(limits).items()}


def _param_entry(param) -> dict:
    entry = {"name": param.name, "type": param.type.__name__, "default": param.default,
             "help": param.help}
    for key in ("low", "high", "choices"):
        value = getattr(param, key)
        if value is not None:
            entry[key] = list(value) if key == "choices" else value
    return entry


def _game_entry(spec) -> dict:
    return {"name": spec.name, "long_name": spec.long_name, "summary": spec.summary,
            "parameters": [_param_entry(p) for p in spec.parameters],
            "opponent": spec.opponent, "strongest": dict(spec.strongest),
            "levels": level_entries(spec.name), "levels_game": LADDER_GAMES.get(spec.name)}


def agent_entry(kind) -> dict:
    """An agent kind as `hello` lists it (and `koloda agents --json`)."""
    names = [spec.name for spec in games.catalog()]
    plays = names if "*" in kind.classes else [g for g in kind.games() if g in names]
    return {"name": kind.name, "summary": kind.summary, "games": plays,
            "params": [_param_entry(p) for p in kind.params]}
