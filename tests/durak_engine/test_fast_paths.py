"""Durak's fast paths for search agree with the slow, obviously correct ones (the checks
every game shares are in tests/conformance/test_fast_paths.py)."""

import random

import pytest
from conformance.random_play import Recorder

from koloda import games
from koloda.games.durak.engine import DurakCore


def _random_game_states(game, seed, every=5):
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if len(state.history()) % every == 0:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("game_string", ["durak", "durak(players=4,ranks=13)", "durak(players=6)"])
def test_random_playout_is_uniform_choice_from_the_legal_lists(game_string):
    """random_playout picks legal[int(r * len(legal))] for each r: the same game, move by move."""
    game = games.load_game(game_string)
    for seed in range(5):
        fast = DurakCore(game.rules)
        source = Recorder(seed)
        fast.random_playout(source)
        slow = DurakCore(game.rules)
        for r in source.drawn:
            options = ([c for c, _ in slow.chance_outcomes()] if slow.is_chance()
                       else slow.legal_actions())
            slow.apply(options[int(r * len(options))])
        assert slow.is_terminal()
        assert slow.events == fast.events
        assert slow.returns() == fast.returns()


@pytest.mark.parametrize("game_string", ["durak", "durak(players=3)", "durak(players=6)"])
def test_determinized_worlds_keep_what_the_player_knows(game_string):
    game = games.load_game(game_string)
    rng = random.Random(4)
    for state in _random_game_states(game, seed=8):
        core = state.core
        for player in range(game.num_players()):
            worlds = state.determinizer(player)
            for _ in range(5):
                world = worlds.sample(rng)
                assert world.hands[player] == core.hands[player]
                for seat in range(game.num_players()):
                    assert world.hands[seat].bit_count() == core.hands[seat].bit_count()
                    assert world.hands[seat] & core.known[seat] == core.known[seat]
                assert world.stock.bit_count() == core.stock.bit_count()
                if core.trump_card >= 0:
                    trump = core.trump_card
                    assert (world.stock >> trump & 1) == (core.stock >> trump & 1)
                every = world.stock | world.discard | world.table_mask
                for hand in world.hands:
                    assert not every & hand
                    every |= hand
                assert every == core.rules.deck.full_mask
                assert world.current_player() == core.current_player()
                if core.current_player() == player:
                    assert world.legal_actions() == core.legal_actions()
                assert world.events == []  # a position for search, not a history


def test_determinized_worlds_vary_the_hidden_cards():
    game = games.load_game("durak")
    state = _random_game_states(game, seed=2)[2]
    player = state.current_player()
    worlds = state.determinizer(player)
    rng = random.Random(0)
    opponent_hands = {worlds.sample(rng).hands[1 - player] for _ in range(30)}
    assert len(opponent_hands) > 10


def test_keys_identify_positions_not_histories():
    game = games.load_game("durak")
    core = _random_game_states(game, seed=4)[3].core
    twin = core.copy()
    twin.events = []
    assert twin.key() == core.key() and hash(twin.key()) == hash(core.key())
    twin.apply(core.legal_actions()[0])
    assert twin.key() != core.key()
