"""`koloda agent SPEC` plays through the protocol the moves the agent plays in process,
for the same seeds, in every game: the protocol is tested against koloda itself."""

import json

import pytest

from koloda import games, solvers
from koloda.solvers.external import external_spec, load_external
from koloda.tournament.match import play_game
from koloda.tournament.runner import run_tournament
from koloda.tournament.seeds import derive_seed

from .conftest import KOLODA, TINY, tiny_config

CASES = [("durak(ranks=6,hand_size=4)", "heuristic"), ("durak(ranks=6,hand_size=4)", "random"),
         ("durak(players=3,ranks=6,hand_size=4)", "heuristic"),
         ("durak(ranks=6,hand_size=4)", "ismcts(sims=20)"),
         ("platinum_fish", "heuristic"), ("platinum_fish", "random"),
         ("snitch(target_score=0)", "heuristic"), ("snitch(target_score=0)", "random"),
         ("parket", "heuristic"), ("parket", "random")]


@pytest.mark.parametrize("game_string, spec", CASES)
def test_an_agent_through_the_protocol_plays_as_in_process(game_string, spec):
    game = games.load_game(game_string)
    program = external_spec([*KOLODA, "agent", spec])       # one process for every seed
    for seed in range(2):
        seeds = [derive_seed(seed, seat) for seat in range(game.num_players())]
        seat = seed % game.num_players()
        through = [solvers.load_agent(game, spec, seed=s) for s in seeds]
        through[seat] = load_external(game, program, seed=seeds[seat])
        reference = play_game(game, [solvers.load_agent(game, spec, seed=s) for s in seeds],
                              seed)
        played = play_game(game, through, seed)
        assert played.error is None, played.error
        assert played.actions == reference.actions


def test_a_tournament_with_koloda_agent_replays_the_in_process_tournament(tmp_path):
    inside = tiny_config(tmp_path / "in", {"h": "heuristic", "r": "random"},
                         games_per_pairing=4)
    through = tiny_config(tmp_path / "out", {
        "h": {"command": [*KOLODA, "agent", "heuristic", "--game", TINY]}, "r": "random"},
        games_per_pairing=4)
    run_tournament(inside, progress=False)
    run_tournament(through, progress=False)
    first = [json.loads(line) for line in inside.results_path.read_text().splitlines()]
    second = [json.loads(line) for line in through.results_path.read_text().splitlines()]
    assert [(x["id"], x["actions"], x["returns"]) for x in first] == \
        [(x["id"], x["actions"], x["returns"]) for x in second]
    assert all("error" not in line for line in second)
    assert second[0]["specs"][second[0]["seats"].index("h")].startswith("external(command=")
