"""From the results of a tournament to the figures a report shows, per game string."""

from __future__ import annotations

import re

from koloda.tournament import ratings
from koloda.tournament.config import TournamentConfig


def game_slug(game_string: str) -> str:
    """`durak(players=4)` -> `durak-players-4`: a file-name-safe form of a game string."""
    return re.sub(r"[^A-Za-z0-9]+", "-", game_string).strip("-")


def report_name(config: TournamentConfig, game_string: str) -> str:
    if len(config.games) == 1:
        return config.name
    return f"{config.name}--{game_slug(game_string)}"


def summarize(config: TournamentConfig, run: dict, game_string: str) -> dict:
    """The summary of one game string's round-robin (see tournament.report for its use)."""
    tasks = [t for t in run["tasks"] if t.game == game_string]
    lines = [run["lines"][t.id] for t in tasks if t.id in run["lines"]]
    agents = list(config.agents)
    outcomes = [ratings.GameOutcome(seats=line["seats"], returns=line["returns"])
                for line in lines]
    rows = ratings.rating_table(outcomes, agents, anchor=config.anchor,
                                samples=config.bootstrap, seed=config.seed)
    thinking = _ms_per_move(tasks, run["timing"], agents)
    wins, draws = ratings.pairwise_counts(outcomes, agents)
    los = ratings.likelihood_of_superiority(wins, draws)
    return {
        "name": report_name(config, game_string),
        "config": config.path,
        "seed": config.seed,
        "jobs": config.jobs,
        "backend": config.backend,
        "games": [game_string],
        "agents": dict(config.agents),
        "anchor": config.anchor,
        "games_played": len(lines),
        "games_scheduled": len(tasks),
        "wall_seconds": run["wall_seconds"],
        "ratings": [dict(vars(row), ms_per_move=thinking.get(row.agent, 0.0)) for row in rows],
        "head_to_head": ratings.head_to_head(outcomes, agents),
        "los": {a: {b: (None if i == j else float(los[i][j])) for j, b in enumerate(agents)}
                for i, a in enumerate(agents)},
        "errors": [dict(line["error"], game=line["id"]) for line in lines if "error" in line],
    }


def _ms_per_move(tasks, timing: dict, agents: list[str]) -> dict:
    seconds = dict.fromkeys(agents, 0.0)
    moves = dict.fromkeys(agents, 0)
    for task in tasks:
        times = timing.get(task.id)
        if times is None:
            continue
        for seat, name in enumerate(task.seats):
            seconds[name] += times["seconds"][seat]
            moves[name] += times["moves"][seat]
    return {a: 1000.0 * seconds[a] / moves[a] if moves[a] else 0.0 for a in agents}
