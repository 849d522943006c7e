"""A gauntlet plays exactly the games the head-to-head matches played before gauntlets
joined the tournament, and scores them the same.

`_head_to_head_deal` and `_head_to_head_match` are the old `tournament.headtohead`
(`play_deal`, and `run_match` with its bookkeeping and interval) as they were, played in
one process: the reference a gauntlet must reproduce game for game (but for the interval of
a match whose deals all scored alike, which no longer has zero width).  The game strings are
written in their normal form (parameters in name order), the form a schedule derives its
seeds from.
"""

import math

import pytest

from koloda import games as koloda_games
from koloda.tournament.config import config_from_dict
from koloda.tournament.match import play_game, seat_agents
from koloda.tournament.ratings import wilson_interval
from koloda.tournament.runner import run_tournament
from koloda.tournament.seeds import derive_seed
from koloda.tournament.summary import summarize

MATCHES = [("durak(hand_size=4,ranks=6)", "heuristic", "random", 6, 11),
           ("durak(hand_size=4,players=3,ranks=6)", "ismcts(sims=10)", "random", 6, 12),
           ("durak(hand_size=4,players=4,ranks=6)", "heuristic", "random(seed=2)", 3, 13)]


def _head_to_head_deal(game_string, agent_spec, opponent_spec, seed, deal):
    game = koloda_games.load_game(game_string)
    n = game.num_players()
    deal_seed = derive_seed(seed, game_string, agent_spec, opponent_spec, deal)
    results = []
    for agent_seat in range(n):
        specs = [agent_spec if seat == agent_seat else opponent_spec for seat in range(n)]
        agents = seat_agents(game, specs, deal_seed)
        results.append((agent_seat, play_game(game, agents, deal_seed, specs=specs)))
    return results


def _head_to_head_match(game_string, agent, opponent, games_wanted, seed):
    """(records in play order, wins, draws, losses, deals, score, interval)."""
    n = koloda_games.load_game(game_string).num_players()
    deals = max(2, math.ceil(games_wanted / n))
    records, deal_scores = [], []
    wins = draws = losses = 0
    for deal in range(deals):
        total = 0.0
        deal_games = _head_to_head_deal(game_string, agent, opponent, seed, deal)
        for agent_seat, record in deal_games:
            records.append(record)
            returns = record.returns
            if all(r == 0 for r in returns):
                draws += 1
                total += 0.5
            elif returns[agent_seat] > 0:
                wins += 1
                total += 1.0
            else:
                losses += 1
        deal_scores.append(total / len(deal_games))
    games = wins + draws + losses
    score = (wins + 0.5 * draws) / games
    k = len(deal_scores)
    mean = sum(deal_scores) / k
    half = 1.96 * math.sqrt(sum((s - mean) ** 2 for s in deal_scores) / (k - 1) / k)
    interval = (max(0.0, mean - half), min(1.0, mean + half))
    if len(set(deal_scores)) == 1:
        # every deal alike: the old match claimed a zero-width interval (100-100% after a
        # few wins); a gauntlet gives the Wilson interval over the deals instead
        interval = wilson_interval(mean, k)
    return records, wins, draws, losses, deals, score, interval


@pytest.mark.parametrize("game, agent, opponent, games, seed", MATCHES)
def test_a_gauntlet_replays_the_head_to_head_match(tmp_path, game, agent, opponent, games,
                                                   seed):
    config = config_from_dict({
        "name": "g", "schedule": "gauntlet", "games": [game], "seed": seed, "bootstrap": 20,
        "output": str(tmp_path), "agents": {"agent": agent, "opponent": opponent},
        "match": [{"agent": "agent", "opponent": "opponent", "games": games}]})
    run = run_tournament(config, progress=False)
    records, wins, draws, losses, deals, score, interval = _head_to_head_match(
        game, agent, opponent, games, seed)
    expected = [(r.seed, ["agent" if spec == agent else "opponent" for spec in r.seats],
                 r.actions, r.returns) for r in records]
    got = [(r.seed, r.seats, r.actions, r.returns) for _, r in run.finished()]
    assert got == expected
    row = summarize(config, run, game).matches[0]
    assert (row.wins, row.draws, row.losses, row.deals) == (wins, draws, losses, deals)
    assert row.score == pytest.approx(score)
    assert (row.low, row.high) == pytest.approx(interval)
