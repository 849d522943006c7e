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
seat: renaming an agent does not change its games.  With `deals = "shared"` the deal seed
comes from the tournament seed, the game string and the deal index alone: every match
plays the same deals, so results against one opponent pair deal by deal.

Either way every game of a deal sees the same cards, so any game can be replayed alone.
Game strings enter seeds and results in their normal form (`durak()` is `durak`).

A `Schedule` is built as it is read: its memory is that of the tables and matches, not of
the games, so `games_per_pairing = 1000000000` costs nothing until the games are played.
Any game is found again from its id (`Schedule.find`), which is how a rerun checks the
results file against the config.
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
    id: str                  # unique within a tournament whatever the agent names
    game: str                # game string, normalised
    seats: tuple[str, ...]   # agent name per seat
    deal: int
    seed: int                # deal seed: chance outcomes and agent seeds
    seed_names: bool = True  # agent seeds mix in the seat's name (round-robin), or not
    match: Match | None = None   # the gauntlet match the game belongs to
    specs: tuple[str, ...] = ()  # agent spec per seat


def id_name(name: str) -> str:
    """An agent name as it appears in game ids: `%`, `-` and `/` escaped (`x-y` reads
    `x%2Dy`), so the `-` and `/` that join the parts of an id stay unambiguous."""
    return name.replace("%", "%25").replace("-", "%2D").replace("/", "%2F")


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


class _RoundRobinGame:
    """The games of one game string of a round-robin: tables x deals x seat rotations,
    ids `GAME_INDEX/TABLE/DEAL/ROTATION`."""

    def __init__(self, config, index: int, game_string: str):
        names = list(config.agents)
        self.index = index
        self.game = games.normalize_game_string(game_string)
        self.players = games.load_game(game_string).num_players()
        self.tables = tables_for(names, self.players)
        # How often one pair shares a table in one round of deals over all tables.
        shared = sum(1 for t in self.tables if names[0] in t and names[1] in t) or 1
        self.deals = max(1, math.ceil(config.games_per_pairing / (shared * self.players)))
        self.specs = {name: config.spec(name, game_string) for name in names}
        self.tournament_seed = config.seed

    def keys(self):
        return {"-".join(map(id_name, table)): table for table in self.tables}

    def seat_specs(self) -> tuple[str, ...]:
        return tuple(self.specs.values())

    def __len__(self) -> int:
        return len(self.tables) * self.deals * self.players

    def __iter__(self):
        for table in self.tables:
            for deal in range(self.deals):
                for rotation in range(self.players):
                    yield self.task(table, deal, rotation)

    def task(self, table, deal: int, rotation: int) -> Task:
        seed = derive_seed(self.tournament_seed, self.game, "-".join(table), deal)
        seats = tuple(table[(s - rotation) % self.players] for s in range(self.players))
        key = "-".join(map(id_name, table))
        return Task(f"{self.index}/{key}/{deal}/{rotation}", self.game, seats, deal, seed,
                    specs=tuple(self.specs[name] for name in seats))


def gauntlet_deals(games_wanted: int, players: int) -> int:
    """Deals of a match: enough for `games_wanted` games, at least two (for an interval)."""
    return max(2, math.ceil(games_wanted / players))


class _GauntletMatch:
    """The games of one match: deals x seats of the agent, ids
    `GAME_INDEX/AGENT-vs-OPPONENT/DEAL/SEAT`, SEAT being the agent's."""

    def __init__(self, config, match: Match):
        self.match = match
        self.index = config.games.index(match.game)
        self.game = games.normalize_game_string(match.game)
        self.players = games.load_game(match.game).num_players()
        self.deals = gauntlet_deals(match.games, self.players)
        self.specs = (config.spec(match.agent, match.game),
                      config.spec(match.opponent, match.game))
        self.tournament_seed = config.seed
        self.dealt_by = () if config.deals == "shared" else self.specs

    def keys(self):
        return {f"{id_name(self.match.agent)}-vs-{id_name(self.match.opponent)}": None}

    def seat_specs(self) -> tuple[str, ...]:
        return self.specs

    def __len__(self) -> int:
        return self.deals * self.players

    def __iter__(self):
        for deal in range(self.deals):
            for agent_seat in range(self.players):
                yield self.task(None, deal, agent_seat)

    def task(self, _table, deal: int, agent_seat: int) -> Task:
        m = self.match
        seed = derive_seed(self.tournament_seed, self.game, *self.dealt_by, deal)
        seats = tuple(m.agent if seat == agent_seat else m.opponent
                      for seat in range(self.players))
        specs = tuple(self.specs[seat != agent_seat] for seat in range(self.players))
        key = f"{id_name(m.agent)}-vs-{id_name(m.opponent)}"
        return Task(f"{self.index}/{key}/{deal}/{agent_seat}", self.game, seats, deal, seed,
                    seed_names=False, match=m, specs=specs)


class Schedule:
    """Every game of a tournament in order, made as it is read; `len()` counts them."""

    def __init__(self, parts):
        self.parts = list(parts)
        self._by_key = {(part.index, key): (part, table)
                        for part in self.parts for key, table in part.keys().items()}

    def __iter__(self):
        for part in self.parts:
            yield from part

    def __len__(self) -> int:
        return sum(len(part) for part in self.parts)

    def seat_specs(self) -> dict[str, tuple[str, ...]]:
        """Each game string with the seat specs that play it, without walking the games
        (a schedule may hold billions)."""
        played: dict[str, dict] = {}
        for part in self.parts:
            played.setdefault(part.game, {}).update(dict.fromkeys(part.seat_specs()))
        return {game: tuple(specs) for game, specs in played.items()}

    def of_game(self, index: int) -> Schedule:
        """The games of `config.games[index]`, in order."""
        return Schedule(part for part in self.parts if part.index == index)

    def find(self, task_id: str) -> Task | None:
        """The scheduled game of that id, or None when the schedule has no such game."""
        parts = task_id.split("/")
        if len(parts) != 4 or not all(_index(p) is not None for p in parts[::2] + parts[3:]):
            return None
        game_index, key, deal, slot = _index(parts[0]), parts[1], _index(parts[2]), \
            _index(parts[3])
        found = self._by_key.get((game_index, key))
        if found is None:
            return None
        part, table = found
        if deal >= part.deals or slot >= part.players:
            return None
        return part.task(table, deal, slot)


def _index(text: str) -> int | None:
    """A non-negative integer written the way ids write it (no sign, no leading zero)."""
    if text.isascii() and text.isdigit() and str(int(text)) == text:
        return int(text)
    return None


def build_schedule(config) -> Schedule:
    if config.schedule == "gauntlet":
        return Schedule(_GauntletMatch(config, match) for match in config.matches)
    return Schedule(_RoundRobinGame(config, index, game_string)
                    for index, game_string in enumerate(config.games))
