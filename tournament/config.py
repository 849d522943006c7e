"""Tournament configs (TOML): what to play, between whom, how many games, where to write.

A round-robin (the default schedule) plays every pair of agents:

    name = "default"
    games = ["durak"]               # game strings, each played as its own round-robin
    seed = 2026
    games_per_pairing = 30          # games in which each pair of agents meets, per game string
    jobs = 2
    output = "reports"              # folder for <name>.jsonl and the reports
    anchor = "random"               # Elo 0; omit to centre the ratings on 0
    backend = "loky"                # or "dask", with scheduler = "tcp://host:8786" or "local"

    [agents]                        # display name = agent spec
    random = "random"
    ismcts = "ismcts(sims=300)"

An agent may play a spec of its own in each game: a table keyed by the games' short names,
with `default` for the games it does not name (one name, so one row of every report):

    [agents.search]
    default = "ismcts(sims=200)"
    snitch = "ismcts(sims=500,rollout=learned,uct_c=0.1)"

A gauntlet plays the listed matches, one agent against copies of another:

    name = "durak-agents"
    schedule = "gauntlet"
    games = ["durak", "durak(players=4)"]
    seed = 2026
    games_per_pairing = 200         # optional: the games of a match that gives none

    [agents]
    heuristic = "heuristic"
    random = "random"

    deals = "shared"                # optional: every match on the same deals (below)

    [[match]]
    game = "durak"                  # one of `games`; may be left out when there is one game
    agent = "heuristic"             # the agent measured (a name from [agents])
    opponent = "random"             # fills every other seat
    games = 1000                    # optional, else games_per_pairing

A gauntlet's matches each play deals of their own (`deals = "per-match"`, the default),
seeded by both agents' specs.  With `deals = "shared"` every match deals from the tournament
seed and the game alone, so two agents measured against one opponent, in one config or in
two with the same seed, meet it on the same cards, and their results pair deal by deal
(`koloda compare`).

An external program plays as an agent given as a table with its command (docs/agents.md),
or as a spec, `external(command="python3 bots/mine.py")`:

    [agents.mine]
    command = ["python3", "bots/mine.py"]
    cwd = "."                       # optional: the folder it runs in
    env = { DEPTH = "3" }           # optional: variables added to its environment
    start_ms = 5000                 # optional: time to start and say hello (default 10000)

Its stderr goes to `<output>/<name>.logs/<agent>.log`.

Time controls hold for every agent (koloda's own too) at the top of the config, or for one
agent in its table (which wins): `move_ms = 200` (each move) or `clock = "60+0.5"`
(seconds for the game, plus seconds added after each move).  A move past its time and
the margin (solvers/clock.py) loses the game as a timeout.  Without one, koloda's agents
have no limit and an external agent 10 s a move.

Everything is checked before any game is played: every game string loads, every agent
has a spec that builds for every game it plays, every match names known agents and games,
and an error names the field.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from koloda import games
from koloda.games.errors import KolodaError
from koloda.games.kit.files import UnreadableFile, read_regular
from koloda.games.kit.params import SHOWN_VALUE, cut, parse_call, shown
from koloda.solvers import external
from koloda.solvers.clock import TimeControl, TimeControlError
from koloda.tournament.seating import (
    SeatSpec,
    check_seat_spec,
    split_time_control,
    with_time_control,
)

BACKENDS = ("loky", "dask")
SCHEDULES = ("round-robin", "gauntlet")
#: how a gauntlet's matches are dealt: each its own deals, or all the same ones
DEALS = ("per-match", "shared")
#: the key of an agent's table that gives its spec in the games the table does not name
DEFAULT_SPEC = "default"
#: the keys of an agent's table that set its time control, and those of an external one
TIME_KEYS = {"move_ms": int, "clock": str}
EXTERNAL_KEYS: dict[str, Any] = {"command": (list, str), "cwd": str, "env": dict,
                                 "start_ms": int}


class ConfigError(KolodaError, ValueError):
    """A config file is missing, malformed, or has a bad field (the message names it)."""


@dataclass(frozen=True)
class Match:
    """One gauntlet match: `agent` against copies of `opponent` in `game`."""
    game: str
    agent: str        # names from [agents]
    opponent: str
    games: int        # games wanted; played as whole deals, one game per seat of the agent


@dataclass
class TournamentConfig:
    name: str
    games: list[str]
    agents: dict[str, Any]     # name -> spec, or a table: game short name -> spec, a program
    games_per_pairing: int | None = None
    seed: int = 0
    jobs: int = 1
    output: str = "reports"
    anchor: str | None = None
    backend: str = "loky"
    scheduler: str | None = None
    bootstrap: int = 1000
    schedule: str = "round-robin"
    matches: list[Match] = field(default_factory=list)
    deals: str = "per-match"
    path: str = ""
    move_ms: int | None = None      # every agent's time control, unless its table sets one
    clock: str | None = None

    @property
    def results_path(self) -> Path:
        return Path(self.output) / f"{self.name}.jsonl"

    @property
    def logs_path(self) -> Path:
        """The folder of the external agents' logs, one file per agent."""
        return Path(self.output) / f"{self.name}.logs"

    def log_path(self, name: str) -> Path:
        return self.logs_path / f"{quote(name, safe='')}.log"

    def time_control(self, name: str) -> TimeControl | None:
        """The agent's time control: its table's, else the config's, else None."""
        entry = self.agents[name]
        table = entry if isinstance(entry, dict) and set(TIME_KEYS) & set(entry) else {}
        source: dict[str, Any] = table or {"move_ms": self.move_ms, "clock": self.clock}
        if source.get("move_ms") is not None:
            return TimeControl.per_move(source["move_ms"])
        if source.get("clock") is not None:
            return TimeControl.parse_clock(source["clock"])
        return None

    @property
    def timing_path(self) -> Path:
        return Path(self.output) / f"{self.name}.timing.jsonl"

    def spec(self, name: str, game_string: str) -> str:
        """The spec the agent `name` plays in `game_string`: its one spec, or its table's
        entry for the game, else the table's default (checked to exist when loaded)."""
        found = self.spec_or_none(name, game_string)
        if found is None:
            raise KeyError(f"agent {name!r} has no spec for {game_string!r}")
        return found

    def spec_or_none(self, name: str, game_string: str) -> str | None:
        """`spec`, or None where a table has neither the game nor a default.  The spec
        has the agent's time control after it (tournament.seating); an external agent's
        carries its log's path along (`SeatSpec.log`)."""
        base = self.agent_spec(name, game_string)
        if base is None:
            return None
        text = with_time_control(base, self.time_control(name))
        try:
            head = split_time_control(base)[0]
        except KolodaError:                  # refused where the config is checked
            head = base
        if external.is_external(head):
            return SeatSpec(text, log=str(self.log_path(name)))
        return text

    def agent_spec(self, name: str, game_string: str) -> str | None:
        """The agent's spec in `game_string` without a time control: its one spec, its
        table's external program, or its table's entry for the game (else default)."""
        entry = self.agents[name]
        if isinstance(entry, str):
            return entry
        if "command" in entry:
            return external.external_spec(entry["command"], entry.get("cwd"),
                                          entry.get("env"), entry.get("start_ms"))
        short, _ = parse_call(game_string, "game string", ConfigError)
        return entry.get(short, entry.get(DEFAULT_SPEC))

    def agents_in(self, game_string: str) -> list[str]:
        """The agents that play `game_string`, in [agents] order: all of them in a
        round-robin, those of its matches in a gauntlet."""
        if self.schedule != "gauntlet":
            return list(self.agents)
        playing = {name for m in self.matches if m.game == game_string
                   for name in (m.agent, m.opponent)}
        return [name for name in self.agents if name in playing]


_FIELDS = {
    "name": str, "games": list, "agents": dict, "games_per_pairing": int, "seed": int,
    "jobs": int, "output": str, "anchor": str, "backend": str, "scheduler": str,
    "bootstrap": int, "schedule": str, "match": list, "move_ms": int, "clock": str,
    "deals": str,
}
_REQUIRED = {"round-robin": ("games", "agents", "games_per_pairing"),
             "gauntlet": ("agents", "match")}
_MATCH_FIELDS = {"game": str, "agent": str, "opponent": str, "games": int}

# (least, most) of each number: a value outside would only fail, or exhaust the machine,
# later.  games_per_pairing and a match's games have no upper limit: the schedule is made
# as it is played, so a huge number costs nothing until its games are played.
LIMITS = {"games_per_pairing": (1, None), "seed": (0, None), "jobs": (1, 256),
          "bootstrap": (10, 100_000)}


#: the largest config read: the longest in configs/ is under 10 KiB
MAX_CONFIG_BYTES = 1024 * 1024


def load_config(path: str) -> TournamentConfig:
    return config_from_dict(read_toml(path), path)


def read_toml(path: str) -> dict:
    """A TOML file as a dict; ConfigError when it is missing or malformed, or is not a
    regular file of at most MAX_CONFIG_BYTES (every command reads its configs here)."""
    try:
        return tomllib.loads(read_regular(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except UnreadableFile as err:
        hint = "; give a TOML file, e.g. configs/default.toml" \
            if str(err).startswith("is a folder") else ""
        raise ConfigError(f"config {path} {err}{hint}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config {path} is not UTF-8 text (is it a TOML file?)") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"config {path} is not valid TOML: {err}") from None
    except ValueError:                      # int() refuses more than 4300 digits
        raise ConfigError(f"config {path} has a number of more than "
                          f"{sys.get_int_max_str_digits()} digits") from None


def check_fields(data: dict, allowed: dict, required, path: str, prefix: str = "") -> None:
    """Every key of `data` known to `allowed` (name: type) and of its type; `required` there."""
    for key, value in data.items():
        if key not in allowed:
            raise ConfigError(f"{path}: unknown field {prefix + key!r}; "
                              f"fields are {', '.join(allowed)}")
        if not isinstance(value, allowed[key]) or isinstance(value, bool):
            raise ConfigError(f"{path}: field {prefix}{key} must be "
                              f"{allowed[key].__name__}, not {value!r}")
    missing = [key for key in required if key not in data]
    if missing:
        raise ConfigError(f"{path}: missing field {', '.join(prefix + k for k in missing)!r}")


def config_from_dict(data: dict, path: str = "<config>") -> TournamentConfig:
    """Check every field of a parsed config and build the TournamentConfig."""
    schedule = data.get("schedule", "round-robin")
    if schedule not in SCHEDULES:
        raise ConfigError(f"{path}: schedule {schedule!r} is unknown; "
                          f"schedules are {', '.join(SCHEDULES)}")
    check_fields(data, _FIELDS, _REQUIRED[schedule], path)
    if schedule != "gauntlet" and "match" in data:
        raise ConfigError(f"{path}: field match lists gauntlet matches; "
                          f"add schedule = \"gauntlet\" or remove the matches")
    if "deals" in data:
        if schedule != "gauntlet":
            raise ConfigError(f"{path}: field deals says how a gauntlet's matches are dealt; "
                              f"a round-robin deals every table its own deals")
        if data["deals"] not in DEALS:
            raise ConfigError(f"{path}: deals {shown(data['deals'], 40)} is unknown; deals "
                              f"are {', '.join(DEALS)}")
    fields = {k: v for k, v in data.items() if k not in ("name", "match")}
    if schedule == "gauntlet":
        fields["matches"] = _read_matches(data, path)
        fields.setdefault("games", list(dict.fromkeys(m.game for m in fields["matches"])))
    if "output" in fields:
        fields["output"] = _output_folder(fields["output"], path)
    config = TournamentConfig(name=data.get("name", Path(path).stem), path=path, **fields)
    _check_values(config, path, games_listed="games" in data)
    return config


def one_match_config(name: str, game: str, agents: dict, agent: str, opponent: str,
                     games: int, seed: int, jobs: int, output: str, deals: str = "per-match",
                     time_control: dict | None = None, path: str = "<config>"
                     ) -> TournamentConfig:
    """The gauntlet of one match, `agent` against copies of `opponent` in `game` (both
    names of `agents`): what `koloda match` and `koloda learn` play."""
    return config_from_dict({
        "name": name, "schedule": "gauntlet", "games": [game], "seed": seed,
        "games_per_pairing": games, "jobs": jobs, "output": output, "agents": agents,
        "deals": deals, **(time_control or {}),
        "match": [{"game": game, "agent": agent, "opponent": opponent, "games": games}],
    }, path)


def _output_folder(output: str, path: str) -> str:
    """`output` with `~` expanded as a shell does (`~/x`, `~user/x`), so it names the home
    folder and not a folder called `~`; a NUL, which no path can hold, is refused."""
    if "\0" in output:
        raise ConfigError(f"{path}: output {shown(output, 40)} holds a NUL character, "
                          f"which no folder name can")
    return os.path.expanduser(output)


def _read_matches(data: dict, path: str) -> list[Match]:
    """The [[match]] tables, each field checked that needs no game loaded."""
    entries = data["match"]
    if not entries:
        raise ConfigError(f"{path}: match is empty; a gauntlet needs at least one [[match]]")
    listed = data.get("games")
    agents = data["agents"]
    default_games = data.get("games_per_pairing")
    matches: list = []
    seen: dict = {}
    for i, entry in enumerate(entries):
        where = f"match[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: {where} must be a table ([[match]])")
        check_fields(entry, _MATCH_FIELDS, ("agent", "opponent"), path, where + ".")
        if "game" in entry:
            game = entry["game"]
            if isinstance(listed, list) and game not in listed:
                raise ConfigError(f"{path}: {where}.game {game!r} is not one of games "
                                  f"({', '.join(map(str, listed))})")
        elif isinstance(listed, list) and len(listed) == 1:
            game = listed[0]
        else:
            raise ConfigError(f"{path}: missing field '{where}.game' (it may be left out "
                              f"only when games lists one game)")
        for role in ("agent", "opponent"):
            if entry[role] not in agents:
                raise ConfigError(f"{path}: {where}.{role} {entry[role]!r} is not one of "
                                  f"the agents ({', '.join(agents)})")
        if entry["agent"] == entry["opponent"]:
            raise ConfigError(f"{path}: {where}: agent and opponent are both "
                              f"{entry['agent']!r}; a match needs two different agents")
        wanted = entry.get("games", default_games)
        if wanted is None:
            raise ConfigError(f"{path}: missing field '{where}.games' (or set "
                              f"games_per_pairing for the matches that give none)")
        if wanted < 1:
            raise ConfigError(f"{path}: {where}.games must be at least 1")
        key = (game, entry["agent"], entry["opponent"])
        if key in seen:
            raise ConfigError(f"{path}: {where} repeats match[{seen[key]}] (same game, "
                              f"agent and opponent); give it more games instead")
        seen[key] = i
        matches.append(Match(game, entry["agent"], entry["opponent"], wanted))
    return matches


def _check_values(config: TournamentConfig, path: str, games_listed: bool = True) -> None:
    if not config.games:
        raise ConfigError(f"{path}: games is empty; give at least one game string")
    if len(config.agents) < 2:
        raise ConfigError(f"{path}: agents needs at least two agents, has {len(config.agents)}")
    for key, (minimum, maximum) in LIMITS.items():
        value = getattr(config, key)
        if value is not None and value < minimum:
            raise ConfigError(f"{path}: {key} must be at least {minimum}, not "
                              f"{cut(str(value), SHOWN_VALUE)}")
        if value is not None and maximum is not None and value > maximum:
            raise ConfigError(f"{path}: {key} must be at most {maximum:,}, not "
                              f"{cut(f'{value:,}', SHOWN_VALUE)}")
    if config.backend not in BACKENDS:
        raise ConfigError(f"{path}: backend {config.backend!r} is unknown; "
                          f"backends are {', '.join(BACKENDS)}")
    if config.backend == "dask" and not config.scheduler:
        raise ConfigError(f"{path}: backend 'dask' needs scheduler = \"tcp://host:port\" "
                          f"(or \"local\" for a cluster on this machine)")
    if config.backend != "dask" and config.scheduler is not None:
        raise ConfigError(f"{path}: scheduler is for backend = \"dask\"; add that line or "
                          f"remove the scheduler")
    _check_time_control({"move_ms": config.move_ms, "clock": config.clock}, "", path)
    if config.anchor is not None and config.anchor not in config.agents:
        raise ConfigError(f"{path}: anchor {config.anchor!r} is not one of the agents "
                          f"({', '.join(config.agents)})")
    if not config.name.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"{path}: name {config.name!r} must be letters, digits, - or _")
    for name, spec in config.agents.items():
        if not name.strip() or not name.isprintable():
            raise ConfigError(f"{path}: agent name {name!r} must be printable text, not "
                              f"empty or blank (it names the agent in every table)")
        if isinstance(spec, dict):
            _check_table(name, spec, path)
        elif not isinstance(spec, str):
            raise ConfigError(f"{path}: agents.{name} must be a spec string or a table of "
                              f"game = spec, not {spec!r}")
    normal: dict[str, int] = {}
    for i, game_string in enumerate(config.games):
        if not isinstance(game_string, str):
            raise ConfigError(f"{path}: games[{i}] must be a game string, not {game_string!r}")
        if game_string in config.games[:i]:
            raise ConfigError(f"{path}: games[{i}] repeats {game_string!r}")
        try:
            game = games.load_game(game_string)
        except KolodaError as err:
            raise ConfigError(f"{path}: {_game_field(config, i, games_listed)}: {err}") from None
        same = normal.setdefault(games.normalize_game_string(game_string), i)
        if same != i:
            raise ConfigError(f"{path}: games[{i}] {game_string!r} repeats games[{same}] "
                              f"{config.games[same]!r}: both are "
                              f"{games.normalize_game_string(game_string)}")
        if config.schedule == "gauntlet" and not config.agents_in(game_string):
            raise ConfigError(f"{path}: games[{i}] {game_string!r} is in no [[match]]; "
                              f"add a match for it or remove it")
        spare = _spare_agents(config)
        for name in _agents_to_check(config, game_string):
            spec = config.spec_or_none(name, game_string)
            if spec is None:
                if name in spare:              # plays no game: its entries are checked
                    continue
                short = game.get_type().short_name
                raise ConfigError(f"{path}: agents.{name} has no spec for {short} "
                                  f"({game_string!r}) and no {DEFAULT_SPEC}; add "
                                  f"{short} = \"SPEC\" or {DEFAULT_SPEC} = \"SPEC\"")
            try:
                base = config.agent_spec(name, game_string)
                assert base is not None, name            # spec_or_none found one
                timed = split_time_control(base)[1]
                if timed is not None and config.time_control(name) is not None:
                    raise ConfigError(f"it has a time control in its spec ({timed.text()}) "
                                      f"and the config gives it one too; keep one")
                check_seat_spec(game, spec)
            except KolodaError as err:
                raise ConfigError(f"{path}: {_spec_field(config, name, game_string)}: "
                                  f"{err}") from None
            if config.backend != "dask":
                _check_program(config, name, spec, path, game_string)


def _check_table(name: str, table: dict, path: str) -> None:
    """An agent's table: game short name (or `default`) = spec, or an external program
    (`command` and its optional keys); either with an optional time control."""
    if not table:
        raise ConfigError(f"{path}: agents.{name} is an empty table; give game = spec "
                          f"(or {DEFAULT_SPEC} = spec), or command = [...] for a program")
    _check_time_control(table, f"agents.{name}.", path)
    if "command" in table:
        _check_external_table(name, table, path)
        return
    specs = {key: spec for key, spec in table.items() if key not in TIME_KEYS}
    if not specs:
        raise ConfigError(f"{path}: agents.{name} gives no spec; give game = spec "
                          f"(or {DEFAULT_SPEC} = spec), or command = [...] for a program")
    for key, spec in specs.items():
        if key in EXTERNAL_KEYS:
            raise ConfigError(f"{path}: agents.{name}.{key} is for an external program; "
                              f"give its command = [\"PROGRAM\", ...] too")
        if key != DEFAULT_SPEC and key not in games.GAMES:
            raise ConfigError(f"{path}: agents.{name} names {shown(key, 40)}, which is "
                              f"not a game; keys are the games' short names "
                              f"({', '.join(games.GAMES)}), {DEFAULT_SPEC}, "
                              f"{', '.join(TIME_KEYS)}, or command and "
                              f"{', '.join(k for k in EXTERNAL_KEYS if k != 'command')} "
                              f"for a program")
        if not isinstance(spec, str):
            raise ConfigError(f"{path}: agents.{name}.{key} must be a spec string, "
                              f"not {spec!r}")


def _check_external_table(name: str, table: dict, path: str) -> None:
    where = f"agents.{name}"
    for key, value in table.items():
        if key in TIME_KEYS:
            continue
        if key not in EXTERNAL_KEYS:
            raise ConfigError(f"{path}: {where} runs a program (command), so it has no "
                              f"{shown(key, 40)}; its keys are "
                              f"{', '.join([*EXTERNAL_KEYS, *TIME_KEYS])}")
        kinds = EXTERNAL_KEYS[key]
        if not isinstance(value, kinds) or isinstance(value, bool):
            wanted = "a list of strings" if key == "command" else \
                {str: "a string", int: "an integer", dict: "a table"}[kinds]
            raise ConfigError(f"{path}: {where}.{key} must be {wanted}, not "
                              f"{shown(value, 40)}")
    command = table["command"]
    if isinstance(command, list) and (not command or not all(
            isinstance(arg, str) and arg for arg in command)):
        raise ConfigError(f"{path}: {where}.command must be a list of the program and its "
                          f"arguments, each a non-empty string, like [\"python3\", "
                          f"\"bots/mine.py\"]")
    env = table.get("env", {})
    if not all(isinstance(value, str) for value in env.values()):
        raise ConfigError(f"{path}: {where}.env must give each variable a string value")
    try:
        external.external_spec(command, table.get("cwd"), env, table.get("start_ms"))
    except KolodaError as err:
        raise ConfigError(f"{path}: {where}: {err}") from None


def _check_time_control(table: dict, prefix: str, path: str) -> None:
    """move_ms or clock, not both, each readable."""
    given = [key for key in TIME_KEYS if table.get(key) is not None]
    if len(given) > 1:
        raise ConfigError(f"{path}: {prefix}move_ms and {prefix}clock are both given; a "
                          f"time control is one of them")
    for key in given:
        value = table[key]
        if not isinstance(value, TIME_KEYS[key]) or isinstance(value, bool):
            raise ConfigError(f"{path}: field {prefix}{key} must be "
                              f"{TIME_KEYS[key].__name__}, not {shown(value, 40)}")
        try:
            if key == "move_ms":
                TimeControl.per_move(value)
            else:
                TimeControl.parse_clock(value)
        except TimeControlError as err:
            raise ConfigError(f"{path}: {prefix}{key}: {err}") from None


def _check_program(config: TournamentConfig, name: str, spec: str, path: str,
                   game_string: str) -> None:
    """An external agent's program must exist here (on Dask, on the workers: unchecked)."""
    agent_spec = split_time_control(spec)[0]
    if not external.is_external(agent_spec):
        return
    _, params = parse_call(agent_spec, "agent spec", ConfigError)
    program = shlex.split(params["command"])[0]
    cwd = Path(params.get("cwd") or ".")
    if not cwd.is_dir():
        raise ConfigError(f"{path}: {_spec_field(config, name, game_string)}: the folder "
                          f"{shown(str(cwd), 80)} (cwd) does not exist")
    if os.sep in program:
        found = (cwd / program).is_file()
    else:
        found = shutil.which(program) is not None
    if not found:
        raise ConfigError(f"{path}: {_spec_field(config, name, game_string)}: the program "
                          f"{shown(program, 80)} is not found"
                          + (f" in {cwd}" if os.sep in program else " on PATH"))


def _spec_field(config: TournamentConfig, name: str, game_string: str) -> str:
    """The field an agent's spec for `game_string` came from: agents.NAME, or the entry
    of its table (agents.NAME.GAME or agents.NAME.default)."""
    entry = config.agents[name]
    if isinstance(entry, str) or "command" in entry:
        return f"agents.{name}"
    short, _ = parse_call(game_string, "game string", ConfigError)
    return f"agents.{name}.{short if short in entry else DEFAULT_SPEC}"


def _game_field(config: TournamentConfig, index: int, games_listed: bool) -> str:
    """The field a bad game string came from: games[i], or the first match naming it
    when a gauntlet left `games` out."""
    if not games_listed:
        first = next(i for i, m in enumerate(config.matches)
                     if m.game == config.games[index])
        return f"match[{first}].game"
    return f"games[{index}]"


def _agents_to_check(config: TournamentConfig, game_string: str) -> list[str]:
    """Every agent in a round-robin; in a gauntlet the agents of the game's matches, and
    agents in no match against every game (a typo in a spare agent still stops the run)."""
    if config.schedule != "gauntlet":
        return list(config.agents)
    spare = _spare_agents(config)
    return [name for name in config.agents
            if name in config.agents_in(game_string) or name in spare]


def _spare_agents(config: TournamentConfig) -> set[str]:
    """The agents of a gauntlet in no match (none in a round-robin)."""
    if config.schedule != "gauntlet":
        return set()
    used = {name for m in config.matches for name in (m.agent, m.opponent)}
    return set(config.agents) - used
