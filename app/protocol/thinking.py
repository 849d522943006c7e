"""An agent's move as a job that can run in another process: the game string and the
action history stand for the state (replayed there), so nothing but plain data crosses.

`think` is what a worker runs; `move_spec` turns a client's agent spec and budget into the
spec the agent is built from, within the server's limits: every parameter that sets how
much work a move does has a limit (`WORK_LIMITS`), and a policy is named from the server's
policy folder, never by a path (`policy_path`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from koloda import games, solvers
from koloda.games.kit.params import cut
from koloda.protocol.errors import ProtocolError
from koloda.solvers import AgentSpecError
from koloda.solvers.interrupts import exits_as_agent_error
from koloda.solvers.prepare import prepare, prepare_everything

#: agent parameter -> the `Limits` field that caps it over the protocol.  Every numeric
#: parameter of every agent is either here or in NO_WORK (tests/protocol check both).
WORK_LIMITS = {"sims": "max_sims", "ms": "max_ms", "worlds": "max_worlds",
               "infer": "max_worlds", "depth": "max_depth", "nodes": "max_nodes",
               "reach": "max_reach"}
#: numeric agent parameters that do not change how long a move takes; a level's `n` and
#: `elo` choose the spec it plays, whose own work is held to the limits (move_spec); a
#: `prior` is a weight (above 0 the search runs on the Python tree, as `tree=python` has
#: it, its simulations held to max_sims all the same); a `mix` below 1 adds one playout
#: a simulation, as random playouts take anyway
NO_WORK = frozenset({"seed", "uct_c", "temperature", "noise", "recent", "n",
                     "elo", "prior", "mix"})
#: agent parameters that name a file: over the protocol, a name in the policy folder
FILE_PARAMS = frozenset({"policy"})
#: agent parameters that name a learned model: a name of the form <game>-v<N> or
#: <game>-policy-v<N>, never a path, looked up in the models koloda ships (models.py)
MODEL_PARAMS = frozenset({"value", "model", "opponents", "guide"})
#: agent parameters that name a file the agent writes (the solver's store of solved
#: positions): for the person who runs koloda, never for a protocol client
LOCAL_PARAMS = frozenset({"store"})

#: a policy's name in the server's folder: a plain file name, no path
_POLICY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,127}", re.ASCII)
#: the largest policy file a server reads
MAX_POLICY_BYTES = 256 * 1024 * 1024
#: the most policies `hello` lists
MAX_POLICIES_LISTED = 1000


@dataclass(frozen=True)
class MoveJob:
    game: str                 # the game string
    history: tuple[int, ...]  # every action id so far, chance outcomes included
    spec: str                 # the agent spec, budget included, as it is built
    seed: int                 # used when the spec sets no seed
    hold_ms: int = 0          # answer no sooner: a forced move takes as long as a search


@dataclass(frozen=True)
class ChosenMove:
    action: int
    policy: dict              # action id -> probability
    policy_kind: str          # "visits": root visit shares; "chosen": one-hot on the move
    thinking_ms: float        # from asking the agent to its answer
    simulations: int | None   # for search agents that count them


def think(job: MoveJob) -> ChosenMove:
    """Replay the history and ask the agent for the player to move."""
    asked = time.perf_counter()
    game = games.load_game(job.game)
    state = game.new_initial_state()
    for action in job.history:
        state.apply_action(action)
    prepare(game, job.spec)          # once per process: never on the move's budget
    agent = solvers.load_agent(game, job.spec, seed=job.seed)
    started = time.perf_counter()
    with exits_as_agent_error(job.spec):     # SystemExit, its own KeyboardInterrupt
        action = agent.step(state)
    thinking_ms = (time.perf_counter() - started) * 1000.0
    visits = agent.last_visits
    if visits and sum(visits.values()) > 0:
        total = sum(visits.values())
        policy = {a: v / total for a, v in sorted(visits.items())}
        kind = "visits"
    else:
        policy, kind = {action: 1.0}, "chosen"
    wait = asked + job.hold_ms / 1000.0 - time.perf_counter()
    if wait > 0:
        time.sleep(wait)
    return ChosenMove(action, policy, kind, thinking_ms,
                      getattr(agent, "last_simulations", None) if kind == "visits" else None)


def warm_up(names=None) -> None:
    """Run once per process that answers moves or sessions, at its start, so that no
    request pays for the imports or for numba: the games `names` (default all) and their
    documented agents, compiled or loaded from numba's cache (solvers/prepare.py)."""
    prepare_everything(names)


@dataclass(frozen=True)
class Spec:
    """A client's agent spec made ready: `build` is what the agent is built from (a policy
    as the server's path), `shown` what replies say (the policy by its name)."""
    build: str
    shown: str
    ms: int                   # the time budget (0: none)


def move_spec(game, agent: str, sims: int | None, ms: int | None, limits,
              policy_folder: Path | None = None) -> Spec:
    """The spec to build: `agent` with the budget put in (`ms` alone means time only),
    refused with `limit` when any parameter that sets work is beyond the server's limits
    (before its own range is checked) and `bad_agent` when it names no agent, a bad
    parameter, or a policy the server does not offer."""
    try:
        name, params = solvers.parse_spec(agent)
        kinds = {kind.name: kind for kind in solvers.agent_kinds(game)}
        kind = kinds.get(name)
        if kind is None:                         # check_spec words the error
            solvers.check_spec(game, agent)
        assert kind is not None, agent          # check_spec raised for an unknown name
        names = {p.name: p for p in kind.params}
        for key, value in (("sims", sims), ("ms", ms)):
            if value is not None and key in names:
                params[key] = value
        if ms is not None and sims is None and "sims" in names and "sims" not in params:
            params["sims"] = 0
        _check_work(params, names, limits, own=kind.source == "koloda")
        local = sorted(LOCAL_PARAMS & set(params) & set(names))
        if local:
            raise AgentSpecError(f"{name}: {local[0]} names a file on the machine that "
                                 f"runs koloda; a protocol client cannot set it")
        shown = solvers.format_spec(name, params)
        built = dict(params)
        for key in FILE_PARAMS & set(params) & set(names):
            built[key] = str(policy_path(params[key], policy_folder))
        build = solvers.format_spec(name, built)
        _check_spec(game, build, shown, built, params)
        _check_played_work(game, kind, shown, params, limits)
    except AgentSpecError as err:
        raise ProtocolError("bad_agent", cut(str(err))) from None
    effective = {key: params.get(key, names[key].default) for key in ("sims", "ms")
                 if key in names}
    if effective.get("sims") == 0 and not effective.get("ms") and "ms" in names:
        raise ProtocolError("bad_agent", f"{shown}: set sims or ms")
    return Spec(build, shown, effective.get("ms", 0) or 0)


def _check_work(params: dict, names: dict, limits, own: bool = True) -> None:
    """`limit` for a parameter beyond the server's limits, and for a parameter the server
    knows no limit for: its work might be any, so a client may not set it (the kind's
    default holds).  Of koloda's own kinds (`own`) that is a numeric parameter in neither
    WORK_LIMITS nor NO_WORK; of a plugin's, a number or a text (NO_WORK's names say
    nothing of another package's), all but a seed, WORK_LIMITS' (held to their caps) and
    a parameter of a few values (a bool, or one with `choices`)."""
    for key in params:
        param = names.get(key)
        if param is None or key in WORK_LIMITS or key == "seed":
            continue
        if own:
            unbounded = param.type in (int, float) and key not in NO_WORK
        else:
            unbounded = param.type is not bool and param.choices is None
        if unbounded:
            raise ProtocolError("limit", f"{key} is a parameter this server cannot bound "
                                f"(it knows no limit for the work it sets); leave it out, "
                                f"to play at its default")
    for key, field in WORK_LIMITS.items():
        if key not in names:
            continue
        value = params.get(key, names[key].default)
        cap = getattr(limits, field)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
            shown = f"{value:.3g}" if isinstance(value, float) else cut(str(value), 24)
            raise ProtocolError("limit", f"{key}={shown} is beyond this server's limit of "
                                f"{cap} ({_WORDS[key]})")


def _check_played_work(game, kind, shown: str, params: dict, limits) -> None:
    """A kind that plays another spec (`level`: its `plays(game, params)`) is held to the
    limits of the spec it plays."""
    plays = getattr(kind.for_game(game.get_type()), "plays", None)
    if plays is None:
        return
    played = plays(game, {k: v for k, v in params.items() if k != "seed"})
    name, played_params = solvers.parse_spec(played)
    played_kind = next(k for k in solvers.agent_kinds(game) if k.name == name)
    try:
        _check_work(played_params, {p.name: p for p in played_kind.params}, limits,
                    own=played_kind.source == "koloda")
    except ProtocolError as err:
        raise ProtocolError("limit", f"{shown} plays {played}: {err}") from None


_WORDS = {"sims": "simulations per move", "ms": "milliseconds per move",
          "worlds": "worlds per move", "infer": "worlds per move",
          "depth": "depth of a rollout",
          "nodes": "solver nodes per move", "reach": "empty cells for a solve"}


def _check_spec(game, build: str, shown: str, built: dict, params: dict) -> None:
    """Check every parameter as building the agent would, without building it (`think`
    builds it, once); the errors name the policy as the client did, never the server's
    path, and echo nothing of a file's content."""
    try:
        solvers.check_spec(game, build)
    except AgentSpecError as err:
        message = str(err)
        for key in FILE_PARAMS & set(built):
            message = message.replace(built[key], params[key])
        raise AgentSpecError(message.replace(build, shown)) from None
    except Exception as err:      # a broken file in the server's folder, for instance
        raise AgentSpecError(f"{shown}: the agent cannot be built "
                             f"({type(err).__name__})") from None


def policy_path(name, folder: Path | None) -> Path:
    """The file a policy name stands for: a regular file directly in the server's policy
    folder (a name, not a path; no link, device or pipe), or AgentSpecError."""
    if folder is None:
        raise AgentSpecError("this server offers no policies (it is started with "
                             "--policies DIR to offer the files in DIR)")
    offered = ", ".join(offered_policies(folder)[:20]) or "none"
    if not isinstance(name, str) or not _POLICY_NAME.fullmatch(name):
        raise AgentSpecError(f"policy {cut(repr(name), 60)} is not a file name; name one "
                             f"of the server's policies: {offered}")
    path = folder / name
    try:
        regular = path.is_file() and not path.is_symlink()
        size = path.stat().st_size if regular else 0
    except OSError:
        regular, size = False, 0
    if not regular or size > MAX_POLICY_BYTES:
        raise AgentSpecError(f"no policy {name!r} on this server; its policies: {offered}")
    return path.resolve()


def offered_policies(folder: Path | None) -> list[str]:
    """The policy names a server offers: the plain files directly in its folder."""
    if folder is None:
        return []
    try:
        entries = sorted(folder.iterdir())[:MAX_POLICIES_LISTED]
    except OSError:
        return []
    return [entry.name for entry in entries
            if _POLICY_NAME.fullmatch(entry.name) and entry.is_file()
            and not entry.is_symlink()]
