"""Platinum Fish's determinized worlds keep what the player knows and vary the rest (the
checks every game shares are in tests/conformance/test_fast_paths.py)."""

import random

import pytest

from koloda import games

from conformance.random_play import decision_states


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=4)"])
def test_determinized_worlds_keep_what_the_player_knows_and_vary_the_rest(game_string):
    game = games.load_game(game_string)
    rng = random.Random(4)
    varied = 0
    for state in decision_states(game_string, seed=8, count=12):
        core = state.core
        player = core.current_player()
        worlds = state.determinizer(player)
        others = set()
        for _ in range(5):
            world = worlds.sample(rng)
            assert world.hands[player] == core.hands[player]
            for seat in range(game.num_players()):
                assert world.hands[seat].bit_count() == core.hands[seat].bit_count()
                assert world.hands[seat] & core.known[seat] == core.known[seat]
            assert sum(world.stock) == core.stock_size == world.stock_size
            assert world.legal_actions() == core.legal_actions()
            assert world.events == []
            others.add(tuple(world.hands))
        varied += len(others) > 1
    assert varied > 0

