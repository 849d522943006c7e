"""The round-robin schedule: every game of a tournament, each a pure function of the config.

Two-player games: every pair of agents plays `games_per_pairing` games (rounded up to whole
deals), each deal twice with the seats swapped.  Games of n > 2 players: tables of n
agents (every combination of n agents when there are at least n, so every agent meets every
other; otherwise all agents with the first ones repeated to fill the seats), each deal
played n times with the seats rotated.  A game's chance outcomes come from its deal seed,
derived from the tournament seed, the game string, the table and the deal index, so any
game can be replayed alone.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from koloda import games
from koloda.tournament.seeds import derive_seed


@dataclass(frozen=True)
class Task:
    id: str                  # stable and unique within a tournament
    game: str                # game string
    seats: tuple[str, ...]   # agent name per seat
    deal: int
    seed: int                # deal seed: chance outcomes and agent seeds


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
