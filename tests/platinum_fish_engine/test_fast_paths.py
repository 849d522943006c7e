"""Platinum Fish's fast paths for search agree with the engine protocol's slow, obviously
correct defaults."""

import random

import pytest

from koloda import games
from koloda.games.kit.engine import Engine, ReplayDeterminizer
from koloda.games.platinum_fish.engine import PlatinumFishCore


class _Recorder:
    """A random source that replays the same numbers to a second consumer."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def __call__(self):
        value = self.rng.random()
        self.drawn.append(value)
        return value


def _decision_states(game, seed, every=9):
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        if len(state.history()) % every == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=4)",
                                         "platinum_fish(ranks=6,copies=3)"])
def test_the_fast_playout_plays_the_engine_protocols_default_playout(game_string):
    game = games.load_game(game_string)
    for seed in range(10):
        fast, slow = PlatinumFishCore(game.rules), PlatinumFishCore(game.rules)
        source = _Recorder(seed)
        fast.random_playout(source)
        Engine.random_playout(slow, iter(source.drawn).__next__)
        assert fast.is_terminal() and fast.events == slow.events


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=3)"])
def test_the_fast_determinizer_draws_the_worlds_a_replayed_history_gives(game_string):
    game = games.load_game(game_string)
    for state in _decision_states(game, seed=3):
        player = state.current_player()
        fast = state.core.determinizer(player)
        slow = ReplayDeterminizer(state.core, player)
        for seed in range(3):
            assert fast.sample(random.Random(seed)).key() == slow.sample(random.Random(seed)).key()


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=4)"])
def test_determinized_worlds_keep_what_the_player_knows_and_vary_the_rest(game_string):
    game = games.load_game(game_string)
    rng = random.Random(4)
    varied = 0
    for state in _decision_states(game, seed=8):
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


class _Checked(PlatinumFishCore):
    """An engine that refuses any action the slow lists do not allow."""

    __slots__ = ()

    def apply(self, action):
        if self.is_chance():
            assert action in [a for a, p in self.chance_outcomes() if p > 0]
        else:
            assert action in self.legal_actions()
        super().apply(action)


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=5)",
                                         "platinum_fish(ranks=6,copies=3)"])
def test_the_heuristic_playout_plays_legal_games_to_the_end(game_string):
    rules = games.load_game(game_string).rules
    for seed in range(20):
        world = _Checked(rules)
        world.heuristic_playout(random.Random(seed).random)
        assert world.is_terminal()
