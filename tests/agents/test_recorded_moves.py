"""Search agents play the recorded moves (tests/agents/recorded_moves.py): the same
action, and the same visits at the root, from the same seed at the same position; and
each game generates the same moves along seeded random games."""

import json

import pytest

from koloda import games

from .recorded_moves import FILE, GAMES, move_generation_digest, played, positions, specs_of

RECORDED = json.loads(FILE.read_text())


@pytest.mark.parametrize("game_string", GAMES)
def test_every_agent_plays_its_recorded_moves(game_string):
    game = games.load_game(game_string)
    states = positions(game)
    recorded = RECORDED[game_string]["moves"]
    assert sorted(recorded) == sorted(specs_of(game))
    for spec in specs_of(game):
        assert [played(game, spec, state) for state in states] == recorded[spec], spec


@pytest.mark.parametrize("game_string", GAMES)
def test_move_generation_is_as_recorded(game_string):
    game = games.load_game(game_string)
    assert move_generation_digest(game, seed=3) == RECORDED[game_string]["move_generation"]
