"""A failure's reason is kept in the results file and read back; a results file written
before reasons were kept reads as it did; koloda's own agents fail with reasons too."""

import json

import pytest

from koloda import games, solvers
from koloda.solvers.agent import Agent
from koloda.tournament.match import play_game
from koloda.tournament.results import ResultsError, read_results
from koloda.tournament.runner import run_tournament

from .conftest import TINY, bot, tiny_config


class _Raises(Agent):
    def choose(self, view, player):
        raise RuntimeError("boom")


class _Illegal(Agent):
    def choose(self, view, player):
        return -7


@pytest.mark.parametrize("agent, reason", [(_Raises, "crashed"), (_Illegal, "illegal_action")])
def test_koloda_agents_fail_with_a_reason(agent, reason):
    game = games.load_game(TINY)
    record = play_game(game, [agent(game), solvers.load_agent(game, "random")], seed=1,
                       specs=["bad", "random"])
    assert record.error["reason"] == reason and record.error["seat"] == 0


def test_the_reason_is_kept_and_an_older_file_without_it_still_reads(tmp_path):
    config = tiny_config(tmp_path, {"r": "random",
                                    "i": {"command": bot("python", "illegal")}})
    run_tournament(config, progress=False)
    lines = [json.loads(x) for x in config.results_path.read_text().splitlines()]
    failed = [line for line in lines if "error" in line]
    assert failed and all(line["error"]["reason"] == "illegal_action" for line in failed)
    game = {games.normalize_game_string(TINY): games.load_game(TINY)}
    assert {r.error.reason for r in read_results(config.results_path, game).values()
            if r.error} == {"illegal_action"}
    older = tmp_path / "older.jsonl"          # as koloda wrote it before reasons
    older.write_text("".join(json.dumps({**line, "error": {
        k: v for k, v in line["error"].items() if k != "reason"}} if "error" in line
        else line) + "\n" for line in lines))
    read = read_results(older, game)
    assert all(r.error is None or r.error.reason is None for r in read.values())
    assert [r.line() for r in read.values()] == [json.loads(x) for x in
                                                  older.read_text().splitlines()]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps({**line, "error": {**line["error"], "reason": "sad"}}
                                      if "error" in line else line) + "\n" for line in lines))
    with pytest.raises(ResultsError, match="reason 'sad'"):
        read_results(bad, game)
