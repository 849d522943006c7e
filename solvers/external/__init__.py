"""External agents: programs of any language that play a seat over koloda's agent
protocol (docs/agents.md), named by a spec like any agent:

    external(command="python3 bots/mine.py")
    external(command="node bot.js --fast",cwd=bots,env="DEPTH=3 MODE='two words'",start_ms=5000)

`command` is a command line, split as a POSIX shell splits it (no shell runs it); `env`
adds variables, written the same way (`NAME=value ...`); `cwd` is the folder it runs in;
`start_ms` how long it may take to start and say hello.

The kind is not in the agent registry (solvers.registry), on purpose: the registry is
what the protocol server builds agents from for its clients, and a client must never be
able to make the server run a command.  Tournaments, matches and benchmarks build
external agents here (`load_external`), which the tournament's seats do
(tournament/seating.py).
"""

from __future__ import annotations

import re
import shlex

from koloda.games.kit.params import Param, format_value, shown, validate
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.external.agent import DEFAULT_MOVE_MS, DEFAULT_START_MS, ExternalAgent
from koloda.solvers.registry import SEED
from koloda.solvers.spec import format_spec, parse_spec

KIND = "external"
#: the most variables `env` may add
MAX_ENV = 100
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z", re.ASCII)

PARAMS = (
    SEED,
    Param("command", str, "", "the program's command line, split as a shell splits it",
          max_length=4000),
    Param("cwd", str, "", "the folder it runs in (default: koloda's)", max_length=4000),
    Param("env", str, "", "variables added to its environment: NAME=value ...",
          max_length=4000),
    Param("start_ms", int, DEFAULT_START_MS, "how long it may take to start and say hello",
          low=1, high=600_000),
)

__all__ = ["DEFAULT_MOVE_MS", "DEFAULT_START_MS", "ExternalAgent", "KIND", "PARAMS",
           "check_external", "external_spec", "is_external", "load_external"]


def is_external(spec) -> bool:
    """Whether `spec` names the external kind (a spec that does not parse does not)."""
    try:
        return parse_spec(spec)[0] == KIND
    except AgentSpecError:
        return False


def load_external(game, spec: str, seed: int | None = None,
                  log: str | None = None) -> ExternalAgent:
    """The external agent of `spec` for `game`; `seed` unless the spec sets one (it is
    sent to the program in `new_game`), its stderr to `log`.  AgentSpecError for a spec
    that is wrong."""
    raw, values = _read(spec)
    if seed is not None and "seed" not in raw:
        values["seed"] = SEED.check(seed, f"agent {KIND}", AgentSpecError)
    agent = ExternalAgent(game, seed=values["seed"], argv=values["argv"],
                          cwd=values["cwd"] or None, env=values["env"],
                          start_ms=values["start_ms"], log=log)
    agent.spec = format_spec(KIND, raw)
    return agent


def check_external(game, spec: str) -> None:
    """AgentSpecError, worded as load_external words it, without starting anything."""
    _read(spec)
    if getattr(game, "rules", None) is None:
        raise AgentSpecError(f"agent spec {shown(spec)}: an external agent plays koloda's "
                             f"games, not {game}")


def external_spec(command, cwd: str | None = None, env: dict | None = None,
                  start_ms: int | None = None) -> str:
    """The spec of an external agent given as a config's table: `command` a list of
    arguments (or one command line), `env` a table of NAME = value."""
    params = {"command": command if isinstance(command, str) else shlex.join(command)}
    if cwd:
        params["cwd"] = cwd
    if env:
        params["env"] = " ".join(shlex.quote(f"{name}={value}")
                                 for name, value in env.items())
    if start_ms is not None:
        params["start_ms"] = start_ms
    for key, value in params.items():
        if isinstance(value, str) and '"' in value and "'" in value:
            raise AgentSpecError(f"external agent {key} {shown(value, 60)} holds both "
                                 f"kinds of quote, which a spec cannot carry; move the "
                                 f"arguments into a script")
    spec = format_spec(KIND, params)
    _read(spec)
    return spec


def _read(spec: str) -> tuple[dict, dict]:
    """(the parameters as given, every value checked: argv, env as a dict)."""
    name, raw = parse_spec(spec)
    if name != KIND:
        raise AgentSpecError(f"agent spec {shown(spec)} is not an external agent")
    values = validate(PARAMS, raw, f"agent {KIND}", AgentSpecError)
    try:
        argv = shlex.split(values["command"])
    except ValueError as err:
        raise AgentSpecError(f"agent {KIND}: command {shown(values['command'], 60)} does "
                             f"not split into arguments ({err})") from None
    if not argv:
        raise AgentSpecError(f"agent {KIND} needs command=\"PROGRAM ARGUMENTS\", e.g. "
                             f"external(command={format_value('python3 bots/mine.py')})")
    values["argv"] = argv
    values["env"] = _env(values["env"])
    return raw, values


def _env(text: str) -> dict[str, str]:
    try:
        items = shlex.split(text)
    except ValueError as err:
        raise AgentSpecError(f"agent {KIND}: env {shown(text, 60)} does not split into "
                             f"NAME=value items ({err})") from None
    if len(items) > MAX_ENV:
        raise AgentSpecError(f"agent {KIND}: env sets {len(items)} variables; at most "
                             f"{MAX_ENV}")
    env = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not _ENV_NAME.match(name) or "\0" in value:
            raise AgentSpecError(f"agent {KIND}: env item {shown(item, 40)} is not "
                                 f"NAME=value")
        env[name] = value
    return env
