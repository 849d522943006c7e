"""From the results of a run to the figures a report shows, one `Summary` per game string.

Both schedule kinds get the Elo ratings, the pairwise head-to-head table and the
likelihood of superiority.  A gauntlet also gets its match table (`MatchRow`): the score
of the agent against copies of its opponent with a 95% interval that treats the deal as
the unit, and *even*, the score an agent exactly as strong as its opponents would get in
those games.  A gauntlet's Elo table is left out (with the reason) when its matches do not
connect all of its agents: ratings of agents that never met, directly or through others,
cannot be compared.
"""

from __future__ import annotations

import collections
import math
import re
from dataclasses import dataclass, field, replace

from koloda.games.kit.outcomes import expected_score, is_draw, score
from koloda.tournament import ratings
from koloda.tournament.config import Match, TournamentConfig
from koloda.tournament.ratings import PairRecord, RatingRow


@dataclass
class MatchRow:
    """One gauntlet match: the agent's results against copies of the opponent."""
    game: str
    players: int
    agent: str
    opponent: str
    games: int            # games played
    deals: int            # deals with at least one game played
    wins: int             # the agent among the winners
    draws: int            # nobody won
    losses: int
    score: float          # mean of per-deal mean scores (win 1, draw 1/2); NaN without games
    low: float            # 95% interval of the score, deals as the unit
    high: float
    even: float           # mean expected score of these games: an equally strong agent's score
    agent_ms_per_move: float | None
    opponent_ms_per_move: float | None
    errors: int           # games an agent lost by failing


@dataclass
class ErrorRow:
    """An agent's failure: the game id, the seat, the agent's name, the message, and the
    reason (solvers.agent.REASONS; None from results written before reasons were kept)."""
    game: str
    seat: int
    agent: str
    message: str
    reason: str | None = None


@dataclass
class Summary:
    """Everything the report of one game string shows (see tournament.report)."""
    name: str
    schedule: str                      # "round-robin" or "gauntlet"
    game: str                          # the game string
    config: str                        # the config's path
    seed: int
    jobs: int
    backend: str
    agents: dict[str, str]             # name: spec, the agents that play this game
    anchor: str | None                 # the agent at Elo 0, if it plays this game
    games_played: int
    games_scheduled: int
    games_played_now: int              # of games_played, those this run played (not read back)
    wall_seconds: float
    ratings: list[RatingRow]           # best first; empty when there is no Elo table
    head_to_head: dict[str, dict[str, PairRecord]]
    los: dict[str, dict[str, float | None]]
    matches: list[MatchRow] = field(default_factory=list)    # gauntlet only
    errors: list[ErrorRow] = field(default_factory=list)
    no_ratings: str | None = None      # why there is no Elo table


def game_slug(game_string: str) -> str:
    """`durak(players=4)` -> `durak-players-4`: a file-name-safe form of a game string."""
    return re.sub(r"[^A-Za-z0-9]+", "-", game_string).strip("-")


def report_name(config: TournamentConfig, game_string: str) -> str:
    if len(config.games) == 1:
        return config.name
    return f"{config.name}--{game_slug(game_string)}"


def summarize(config: TournamentConfig, run, game_string: str,
              jobs: int | None = None) -> Summary:
    """The summary of one game string of a `Run` (finished or not); `jobs` is what the run
    was played on, when not the config's."""
    tasks = run.tasks.of_game(config.games.index(game_string))
    finished = run.finished(tasks)
    agents = config.agents_in(game_string)
    anchor = config.anchor if config.anchor in agents else None
    outcomes = [ratings.GameOutcome(seats=list(r.seats), returns=r.returns)
                for _, r in finished]
    thinking = _ms_per_move(tasks, run.timing, agents)
    matches = [m for m in config.matches if m.game == game_string]
    apart = _unconnected(agents, matches) if config.schedule == "gauntlet" else None
    rows = []
    if not apart:
        rows = [replace(row, ms_per_move=thinking[row.agent])
                for row in ratings.rating_table(outcomes, agents, anchor=anchor,
                                                samples=config.bootstrap, seed=config.seed)]
    wins, draws = ratings.pairwise_counts(outcomes, agents)
    los = ratings.likelihood_of_superiority(wins, draws)
    return Summary(
        name=report_name(config, game_string),
        schedule=config.schedule,
        game=game_string,
        config=config.path,
        seed=config.seed,
        jobs=jobs or config.jobs,
        backend=config.backend,
        agents={name: config.spec(name, game_string) for name in agents},
        anchor=anchor,
        games_played=len(finished),
        games_scheduled=len(tasks),
        games_played_now=sum(1 for task, _ in finished if task.id in run.played),
        wall_seconds=run.wall_seconds,
        ratings=rows,
        head_to_head=ratings.head_to_head(outcomes, agents),
        los={a: {b: (None if i == j else float(los[i][j])) for j, b in enumerate(agents)}
             for i, a in enumerate(agents)},
        matches=[match_row(m, tasks, run) for m in matches],
        errors=[ErrorRow(r.id, r.error.seat, r.error.agent, r.error.message, r.error.reason)
                for _, r in finished if r.error],
        no_ratings=apart,
    )


def match_row(match: Match, tasks, run) -> MatchRow:
    """The figures of one gauntlet match from its finished games."""
    mine = [t for t in tasks if t.match == match]
    players = len(mine[0].seats) if mine else 0
    deals = collections.defaultdict(list)
    wins = draws = losses = errors = 0
    even = 0.0
    seconds, moves = [0.0, 0.0], [0, 0]          # agent, opponent
    for task, result in run.finished(mine):
        seat = task.seats.index(match.agent)        # the one seat of the agent
        got = score(result.returns, seat)
        deals[task.deal].append(got)
        even += expected_score(result.returns)
        if is_draw(result.returns):
            draws += 1
        elif got == 1.0:
            wins += 1
        else:
            losses += 1
        errors += result.error is not None
        times = run.timing.get(task.id)
        if times:
            for s in range(players):
                seconds[s != seat] += times.seconds[s]
                moves[s != seat] += times.moves[s]
    games = wins + draws + losses
    interval = ratings.clustered_score(deals.values())
    return MatchRow(
        game=match.game, players=players, agent=match.agent, opponent=match.opponent,
        games=games, deals=len(deals), wins=wins, draws=draws, losses=losses,
        score=interval.score, low=interval.low, high=interval.high,
        even=even / games if games else math.nan,
        agent_ms_per_move=_ms(seconds[0], moves[0]),
        opponent_ms_per_move=_ms(seconds[1], moves[1]),
        errors=errors)


def _unconnected(agents: list[str], matches: list[Match]) -> str | None:
    """Why the matches give no common Elo scale (groups that never met), or None."""
    group = {name: {name} for name in agents}
    for m in matches:
        if group[m.agent] is not group[m.opponent]:
            merged = group[m.agent] | group[m.opponent]
            for name in merged:
                group[name] = merged
    groups = list({id(g): g for g in group.values()}.values())
    if len(groups) <= 1:
        return None
    parts = " | ".join(", ".join(a for a in agents if a in g) for g in groups)
    return (f"no Elo table: the matches do not connect all agents ({parts}), so their "
            f"ratings would have no common scale")


def _ms(seconds: float, moves: int) -> float | None:
    return 1000.0 * seconds / moves if moves else None


def ms_per_move_by_game(tasks, timing: dict, agents: list[str]) -> dict[str, list[float]]:
    """Each agent's thinking time per move in each game whose timing is known, for the
    spread of its time (one game slowed by a busy machine moves a mean, not a median)."""
    games: dict[str, list] = {a: [] for a in agents}
    for task in tasks:
        times = timing.get(task.id)
        if times is None:
            continue
        for seat, name in enumerate(task.seats):
            if times.moves[seat]:
                games[name].append(_ms(times.seconds[seat], times.moves[seat]))
    return games


def _ms_per_move(tasks, timing: dict, agents: list[str]) -> dict:
    """Mean thinking time per move of each agent over the games whose timing is known;
    None (unknown) for an agent with none, e.g. when the timing file was deleted."""
    seconds = dict.fromkeys(agents, 0.0)
    moves = dict.fromkeys(agents, 0)
    for task in tasks:
        times = timing.get(task.id)
        if times is None:
            continue
        for seat, name in enumerate(task.seats):
            seconds[name] += times.seconds[seat]
            moves[name] += times.moves[seat]
    return {a: _ms(seconds[a], moves[a]) for a in agents}
