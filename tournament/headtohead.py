"""Head-to-head matches: one agent against copies of another, over the same deals.

Each deal is played once per seat the agent can take: with two players the agent and its
opponent swap seats, with n players the agent sits in each of the n seats in turn while
copies of the opponent fill the others.  Every game of a deal sees the same deck
(`tournament.chance.DeckOrder`), so the luck of the cards cancels within a deal.

The score of a game is 1 when the agent is among the winners (not the durak, in Durak),
1/2 for a draw, 0 for a loss.  The 95% interval of the mean score treats the deal, not
the game, as the independent unit (the games of one deal are correlated by design).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from joblib import Parallel, delayed

from koloda import games
from koloda import solvers
from koloda.tournament.match import play_game, seat_agents
from koloda.tournament.seeds import derive_seed


@dataclass
class MatchResult:
    game: str
    agent: str
    opponent: str
    players: int
    deals: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    deal_scores: list[float] = field(default_factory=list)
    agent_seconds: float = 0.0
    agent_moves: int = 0
    opponent_seconds: float = 0.0
    opponent_moves: int = 0
    errors: list[dict] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """95% confidence interval of the mean score, deals as the unit."""
        k = len(self.deal_scores)
        if k < 2:
            return 0.0, 1.0
        mean = sum(self.deal_scores) / k
        var = sum((s - mean) ** 2 for s in self.deal_scores) / (k - 1)
        half = z * math.sqrt(var / k)
        return max(0.0, mean - half), min(1.0, mean + half)

    @property
    def fair_share(self) -> float:
        """The score of an agent exactly as strong as its opponents: (n-1)/n in Durak."""
        return (self.players - 1) / self.players

    def ms_per_move(self, who: str = "agent") -> float:
        seconds = getattr(self, f"{who}_seconds")
        moves = getattr(self, f"{who}_moves")
        return 1000.0 * seconds / moves if moves else 0.0


def play_deal(game_string: str, agent_spec: str, opponent_spec: str, seed: int, deal: int):
    """All seat rotations of one deal; returns per-game (agent seat, record) pairs."""
    game = games.load_game(game_string)
    n = game.num_players()
    deal_seed = derive_seed(seed, game_string, agent_spec, opponent_spec, deal)
    results = []
    for agent_seat in range(n):
        specs = [agent_spec if seat == agent_seat else opponent_spec for seat in range(n)]
        agents = seat_agents(game, specs, deal_seed)
        results.append((agent_seat, play_game(game, agents, deal_seed, specs=specs)))
    return results


def run_match(game_string: str, agent: str, opponent: str, games_wanted: int, seed: int,
              jobs: int = 1, progress=None) -> MatchResult:
    """Play about `games_wanted` games (rounded up to whole deals) of agent vs opponent."""
    game = games.load_game(game_string)
    n = game.num_players()
    solvers.load_agent(game, agent), solvers.load_agent(game, opponent)  # fail fast on specs
    deals = max(2, math.ceil(games_wanted / n))
    result = MatchResult(game_string, agent, opponent, n, deals)
    start = time.perf_counter()
    tasks = (delayed(play_deal)(game_string, agent, opponent, seed, d) for d in range(deals))
    for deal_games in Parallel(n_jobs=jobs, return_as="generator")(tasks):
        _add_deal(result, deal_games)
        if progress:
            progress(result)
    result.wall_seconds = time.perf_counter() - start
    return result


def _add_deal(result: MatchResult, deal_games) -> None:
    total = 0.0
    for agent_seat, record in deal_games:
        result.games += 1
        if record.error:
            result.errors.append(record.error)
        returns = record.returns
        if all(r == 0 for r in returns):
            result.draws += 1
            total += 0.5
        elif returns[agent_seat] > 0:
            result.wins += 1
            total += 1.0
        else:
            result.losses += 1
        for seat in range(result.players):
            if seat == agent_seat:
                result.agent_seconds += record.move_seconds[seat]
                result.agent_moves += record.moves[seat]
            else:
                result.opponent_seconds += record.move_seconds[seat]
                result.opponent_moves += record.moves[seat]
    result.deal_scores.append(total / len(deal_games))
