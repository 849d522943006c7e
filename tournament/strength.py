"""Strength reports: a list of head-to-head matches from a TOML config, run and written
up as Markdown (and JSON, for the figures).

    title = "Durak agents"
    report = "reports/durak-agents.md"
    seed = 2026
    jobs = 2

    [[match]]
    game = "durak"              # any koloda game string
    agent = "heuristic"         # the agent measured
    opponent = "random"         # fills every other seat
    games = 1000
"""

from __future__ import annotations

import json
import platform
from dataclasses import asdict, dataclass
from pathlib import Path

from tabulate import tabulate

from koloda import games
from koloda import solvers
from koloda.games.errors import KolodaError
from koloda.tournament.config import ConfigError, check_fields, read_toml
from koloda.tournament.headtohead import MatchResult, run_match


@dataclass
class MatchSpec:
    game: str
    agent: str
    opponent: str
    games: int


@dataclass
class StrengthConfig:
    title: str
    report: str
    seed: int
    jobs: int
    matches: list[MatchSpec]


_TOP = {"title": str, "report": str, "seed": int, "jobs": int, "match": list}
_MATCH = {"game": str, "agent": str, "opponent": str, "games": int}


def load_config(path: str) -> StrengthConfig:
    """Read and check a config; every game and agent spec is built once, before any play."""
    data = read_toml(path)
    check_fields(data, _TOP, ("report", "match"), path)
    matches = []
    for i, entry in enumerate(data["match"]):
        where = f"match[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: {where} must be a table ([[match]])")
        check_fields(entry, _MATCH, tuple(_MATCH), path, where + ".")
        try:
            game = games.load_game(entry["game"])
        except KolodaError as err:
            raise ConfigError(f"{path}: {where}.game: {err}") from None
        for field in ("agent", "opponent"):
            try:
                solvers.load_agent(game, entry[field])
            except KolodaError as err:
                raise ConfigError(f"{path}: {where}.{field}: {err}") from None
        if entry["games"] < 1:
            raise ConfigError(f"{path}: {where}.games must be at least 1")
        matches.append(MatchSpec(**entry))
    return StrengthConfig(
        title=data.get("title", "Agent strength"), report=data["report"],
        seed=data.get("seed", 0), jobs=data.get("jobs", 1), matches=matches)


def run_config(config: StrengthConfig, jobs: int | None = None, progress=None):
    """Play every match of the config in order; returns the MatchResults."""
    results = []
    for spec in config.matches:
        results.append(run_match(spec.game, spec.agent, spec.opponent, spec.games,
                                 config.seed, jobs=jobs or config.jobs, progress=progress))
    return results


def table_rows(results: list[MatchResult]) -> list[list]:
    rows = []
    for r in results:
        low, high = r.interval()
        rows.append([
            r.game, r.players, r.agent, r.opponent, r.games, f"{r.wins}/{r.draws}/{r.losses}",
            f"{100 * r.score:.1f}%", f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{100 * r.fair_share:.0f}%", f"{r.ms_per_move('agent'):.1f}",
            f"{r.ms_per_move('opponent'):.1f}", len(r.errors),
        ])
    return rows


HEADERS = ["game", "players", "agent", "opponent", "games", "W/D/L", "score", "95% CI",
           "even", "agent ms/move", "opp. ms/move", "errors"]


def markdown(config: StrengthConfig, results: list[MatchResult], command: str) -> str:
    lines = [
        f"# {config.title}", "",
        f"Produced by `{command}` (seed {config.seed}).", "",
        "Each deal is played once per seat of the agent (seats swapped in two-player games,",
        "rotated in larger ones) with the same deck, the opponent's copies in the other",
        "seats. A game scores 1 when the agent is not the durak, 1/2 for a draw. The 95%",
        "interval treats the deal as the unit. *even* is the score of an agent exactly as",
        "strong as its opponents: (n-1)/n with n players. Time per move counts only the",
        "moves with more than one legal action.", "",
        tabulate(table_rows(results), headers=HEADERS, tablefmt="github"), "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{config.jobs} jobs; wall time "
        + ", ".join(f"{r.wall_seconds:.0f} s" for r in results) + ".", "",
    ]
    errors = [e for r in results for e in r.errors]
    if errors:
        lines += ["## Agent errors", ""] + [f"- {e['agent']}: {e['message']}" for e in errors]
    return "\n".join(lines)


def write_report(config: StrengthConfig, results: list[MatchResult], command: str) -> Path:
    path = Path(config.report)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(config, results, command))
    figures = [dict(asdict(r), score=r.score, interval=r.interval()) for r in results]
    path.with_suffix(".json").write_text(json.dumps(figures, indent=1))
    return path
