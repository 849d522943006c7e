"""A gauntlet plays exactly the games the old head-to-head `run_match` played."""

import pytest

from koloda.tournament.config import config_from_dict
from koloda.tournament.headtohead import play_deal, run_match
from koloda.tournament.runner import run_tournament
from koloda.tournament.summary import summarize

MATCHES = [("durak(ranks=6,hand_size=4)", "heuristic", "random", 6, 11),
           ("durak(players=3,ranks=6,hand_size=4)", "ismcts(sims=10)", "random", 6, 12)]


@pytest.mark.parametrize("game, agent, opponent, games, seed", MATCHES)
def test_a_gauntlet_replays_the_old_head_to_head(tmp_path, game, agent, opponent, games,
                                                  seed):
    config = config_from_dict({
        "name": "g", "schedule": "gauntlet", "games": [game], "seed": seed, "bootstrap": 20,
        "output": str(tmp_path), "agents": {"agent": agent, "opponent": opponent},
        "match": [{"agent": "agent", "opponent": "opponent", "games": games}]})
    run = run_tournament(config, progress=False)
    old = run_match(game, agent, opponent, games, seed)
    expected = [(record.seed, [("agent" if s == seat else "opponent")
                               for s in range(len(record.seats))],
                 record.actions, record.returns)
                for deal in range(old.deals)
                for seat, record in play_deal(game, agent, opponent, seed, deal)]
    got = [(r.seed, r.seats, r.actions, r.returns) for _, r in run.finished()]
    assert got == expected
    row = summarize(config, run, game).matches[0]
    assert (row.wins, row.draws, row.losses, row.deals) == \
        (old.wins, old.draws, old.losses, old.deals)
    assert row.score == pytest.approx(old.score)
    assert (row.low, row.high) == pytest.approx(old.interval())
