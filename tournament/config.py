"""Tournament configs (TOML): what to play, between whom, how many games, where to write.

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

Everything is checked before any game is played: every game string loads and every agent
spec builds for every game, and an error names the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from koloda import games
from koloda import solvers
from koloda.games.errors import KolodaError

BACKENDS = ("loky", "dask")


class ConfigError(KolodaError, ValueError):
    """A config file is missing, malformed, or has a bad field (the message names it)."""


@dataclass
class TournamentConfig:
    name: str
    games: list[str]
    agents: dict[str, str]
    games_per_pairing: int
    seed: int = 0
    jobs: int = 1
    output: str = "reports"
    anchor: str | None = None
    backend: str = "loky"
    scheduler: str | None = None
    bootstrap: int = 1000
    path: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def results_path(self) -> Path:
        return Path(self.output) / f"{self.name}.jsonl"

    @property
    def timing_path(self) -> Path:
        return Path(self.output) / f"{self.name}.timing.jsonl"


_FIELDS = {
    "name": str, "games": list, "agents": dict, "games_per_pairing": int, "seed": int,
    "jobs": int, "output": str, "anchor": str, "backend": str, "scheduler": str,
    "bootstrap": int,
}
_REQUIRED = ("games", "agents", "games_per_pairing")


def load_config(path: str) -> TournamentConfig:
    return config_from_dict(read_toml(path), path)


def read_toml(path: str) -> dict:
    """A TOML file as a dict; ConfigError when it is missing or malformed."""
    try:
        return tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"config {path} does not exist") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"config {path} is not valid TOML: {err}") from None


def check_fields(data: dict, allowed: dict, required, path: str, prefix: str = "") -> None:
    """Every key of `data` known to `allowed` (name: type) and of its type; `required` there."""
    for key, value in data.items():
        if key not in allowed:
            raise ConfigError(f"{path}: unknown field {prefix}{key!r}; "
                              f"fields are {', '.join(allowed)}")
        if not isinstance(value, allowed[key]) or isinstance(value, bool):
            raise ConfigError(f"{path}: field {prefix}{key} must be "
                              f"{allowed[key].__name__}, not {value!r}")
    missing = [key for key in required if key not in data]
    if missing:
        raise ConfigError(f"{path}: missing field {', '.join(prefix + k for k in missing)!r}")


def config_from_dict(data: dict, path: str = "<config>") -> TournamentConfig:
    """Check every field of a parsed config and build the TournamentConfig."""
    check_fields(data, _FIELDS, _REQUIRED, path)
    config = TournamentConfig(
        name=data.get("name", Path(path).stem), path=path,
        **{k: v for k, v in data.items() if k != "name"})
    _check_values(config, path)
    return config


def _check_values(config: TournamentConfig, path: str) -> None:
    if not config.games:
        raise ConfigError(f"{path}: games is empty; give at least one game string")
    if len(config.agents) < 2:
        raise ConfigError(f"{path}: agents needs at least two agents, has {len(config.agents)}")
    for key, minimum in (("games_per_pairing", 1), ("jobs", 1), ("bootstrap", 10)):
        if getattr(config, key) < minimum:
            raise ConfigError(f"{path}: {key} must be at least {minimum}")
    if config.backend not in BACKENDS:
        raise ConfigError(f"{path}: backend {config.backend!r} is unknown; "
                          f"backends are {', '.join(BACKENDS)}")
    if config.backend == "dask" and not config.scheduler:
        raise ConfigError(f"{path}: backend 'dask' needs scheduler = \"tcp://host:port\" "
                          f"(or \"local\" for a cluster on this machine)")
    if config.anchor is not None and config.anchor not in config.agents:
        raise ConfigError(f"{path}: anchor {config.anchor!r} is not one of the agents "
                          f"({', '.join(config.agents)})")
    if not config.name.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"{path}: name {config.name!r} must be letters, digits, - or _")
    for i, game_string in enumerate(config.games):
        if not isinstance(game_string, str):
            raise ConfigError(f"{path}: games[{i}] must be a game string, not {game_string!r}")
        try:
            game = games.load_game(game_string)
        except KolodaError as err:
            raise ConfigError(f"{path}: games[{i}]: {err}") from None
        for name, spec in config.agents.items():
            if not isinstance(spec, str):
                raise ConfigError(f"{path}: agents.{name} must be a spec string, not {spec!r}")
            try:
                solvers.load_agent(game, spec)
            except KolodaError as err:
                raise ConfigError(f"{path}: agents.{name}: {err}") from None
