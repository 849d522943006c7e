"""Platinum Fish's determinized worlds keep what the player knows and vary the rest (the
checks every game shares are in tests/conformance/test_fast_paths.py)."""

import random

import pytest
from conformance.random_play import decision_states

from koloda import games
from koloda.games.platinum_fish.engine import ASK, CHOOSE


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



@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=3)",
                                         "platinum_fish(ranks=6,copies=3)"])
def test_resamples_after_a_throw_leave_the_same_choice_or_ask(game_string):
    """After a throw the player's options say what the stock holds; every resample and
    every determinized world must offer the same options."""
    game = games.load_game(game_string)
    rng = random.Random(6)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            if state.core.phase in (CHOOSE, ASK):
                player = state.current_player()
                for k in range(3):
                    view = state.resample_from_infostate(player, random.Random(k).random)
                    assert view.legal_actions() == state.legal_actions()
                    world = state.determinizer(player).sample(random.Random(k))
                    assert world.legal_actions() == state.core.legal_actions()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10


def test_a_player_about_to_ask_keeps_asking_in_every_resample():
    """All 3s and 4s are in hands, so a throw of 3 and 4 offers nothing the stock holds: a
    resample must not put a 3 or a 4 back into the stock."""
    from platinum_fish_rules.helpers import start
    game = games.load_game("platinum_fish(players=3,ranks=6,copies=4)")
    hands = [["A", "2", "4"], ["3", "3", "3", "5"], ["3", "4", "4", "4", "6"]]
    state = start(game, hands, "6", "roll", "dice 3 4")
    assert state.core.phase == ASK
    for k in range(30):
        view = state.resample_from_infostate(0, random.Random(k).random)
        assert view.legal_actions() == state.legal_actions()
        world = state.determinizer(0).sample(random.Random(k))
        assert world.legal_actions() == state.core.legal_actions()
