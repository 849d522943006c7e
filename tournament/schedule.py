"""Schedules: every game of a tournament, each a pure function of the config.

Round-robin (the default).  Two-player games: every pair of agents plays
`games_per_pairing` games (rounded up to whole deals), each deal twice with the seats
swapped.  Games of n > 2 players: tables of n agents (every combination of n agents when
there are at least n, so every agent meets every other; otherwise all agents with the
first ones repeated to fill the seats), each deal played n times with the seats rotated.
A game's chance outcomes come from its deal seed, derived from the tournament seed, the
game string, the table and the deal index; each agent's seed from the deal seed, its seat
and its name.

Gauntlet.  Each match puts one agent against copies of another: every deal is played once
per seat of the agent (two players: the seats swapped; n players: the agent in each seat
in turn, copies of the opponent elsewhere), at least two deals, enough for the match's
games.  The deal seed comes from the tournament seed, the game string, the agent's and the
opponent's specs and the deal index, and each agent's seed from the deal seed and its
seat: renaming an agent does not change its games.

Either way every game of a deal sees the same cards, so any game can be replayed alone.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from koloda import games
from koloda.tournament.config import Match
from koloda.tournament.seeds import derive_seed


@dataclass(frozen=True)
class Task:
    id: str                  # stable and unique within a tournament
    game: str                # game string
    seats: tuple[str, ...]   # agent name per seat
    deal: int
    seed: int                # deal seed: chance outcomes and agent seeds
    seed_names: bool = True  # agent seeds mix in the seat's name (round-robin), or not
    match: Match | None = None   # the gauntlet match the game belongs to


def tables_for(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """The agent line-ups that together bring every pair of agents to a table."""
    if players == 2:
        return list(itertools.combinations(agents, 2))
    if len(agents) >= players:
        return list(itertools.combinations(agents, players))
    filled = [agents[i % len(agents)] for i in range(players)]
    return [tuple(filled)]


def meetings_per_deal(table: tuple[str, ...]) -> int:
    """Games per deal at a table: one per seat rotation."""
    return len(table)


def build_schedule(config) -> list[Task]:
    if config.schedule == "gauntlet":
        return gauntlet_schedule(config)
    return round_robin_schedule(config)


def round_robin_schedule(config) -> list[Task]:
    names = list(config.agents)
    tasks = []
    for game_index, game_string in enumerate(config.games):
        players = games.load_game(game_string).num_players()
        tables = tables_for(names, players)
        # How often one pair shares a table in one round of deals over all tables.
        shared = sum(1 for t in tables if names[0] in t and names[1] in t) or 1
        deals = max(1, math.ceil(config.games_per_pairing / (shared * players)))
        for table in tables:
            key = "-".join(table)
            for deal in range(deals):
                seed = derive_seed(config.seed, game_string, key, deal)
                for rotation in range(players):
                    seats = tuple(table[(s - rotation) % players] for s in range(players))
                    tasks.append(Task(f"{game_index}/{key}/{deal}/{rotation}", game_string,
                                      seats, deal, seed))
    return tasks


def gauntlet_deals(games_wanted: int, players: int) -> int:
    """Deals of a match: enough for `games_wanted` games, at least two (for an interval)."""
    return max(2, math.ceil(games_wanted / players))


def gauntlet_schedule(config) -> list[Task]:
    """Match after match in config order; ids `GAME_INDEX/AGENT-vs-OPPONENT/DEAL/SEAT`,
    SEAT being the agent's."""
    tasks = []
    for match in config.matches:
        game_index = config.games.index(match.game)
        players = games.load_game(match.game).num_players()
        specs = (config.agents[match.agent], config.agents[match.opponent])
        key = f"{match.agent}-vs-{match.opponent}"
        for deal in range(gauntlet_deals(match.games, players)):
            seed = derive_seed(config.seed, match.game, *specs, deal)
            for agent_seat in range(players):
                seats = tuple(match.agent if seat == agent_seat else match.opponent
                              for seat in range(players))
                tasks.append(Task(f"{game_index}/{key}/{deal}/{agent_seat}", match.game,
                                  seats, deal, seed, seed_names=False, match=match))
    return tasks
