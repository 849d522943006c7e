"""Seeded Durak positions for agent tests."""

import random

import games


def midgame_states(game_string="durak", count=6, seed=0, min_history=20):
    """Decision nodes with a real choice, from seeded random games."""
    game = games.load_game(game_string)
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if len(state.history()) >= min_history and len(legal) > 1 and rng.random() < 0.2:
                states.append(state.clone())
                break
            state.apply_action(legal[rng.randrange(len(legal))])
    return game, states
