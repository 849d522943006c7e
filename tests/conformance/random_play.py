"""Seeded random playouts and state snapshots shared by the conformance tests.

Chance outcomes are drawn by their probabilities and decisions uniformly from the legal
actions, both from a `random.Random`, so a (game string, seed) pair always gives the same
game.  Games are kept as action histories (tuples of ints); states are rebuilt from them.
"""

from __future__ import annotations

import functools
import random

import pyspiel

from koloda import games


@functools.cache
def load(game_string: str) -> pyspiel.Game:
    """The game for `game_string` (games are immutable, so one instance is shared)."""
    return games.load_game(game_string)


def chance_outcome(state: pyspiel.State, rng: random.Random) -> int:
    outcomes, probabilities = zip(*state.chance_outcomes())
    return rng.choices(outcomes, weights=probabilities)[0]


def random_action(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        return chance_outcome(state, rng)
    return rng.choice(state.legal_actions())


def play_on(state: pyspiel.State, rng: random.Random, max_actions: int | None = None) -> None:
    """Apply random actions to `state` until it is terminal (or `max_actions` were applied)."""
    applied = 0
    while not state.is_terminal() and (max_actions is None or applied < max_actions):
        state.apply_action(random_action(state, rng))
        applied += 1


@functools.cache
def random_history(game_string: str, seed: int) -> tuple[int, ...]:
    """The action history of one complete random game."""
    state = load(game_string).new_initial_state()
    play_on(state, random.Random(seed))
    return tuple(state.history())


def replay(game: pyspiel.Game, actions) -> pyspiel.State:
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def states_along(game: pyspiel.Game, actions):
    """Every state of a game, from the initial state to the end of `actions`.

    Yields fresh clones, so callers may keep or modify them.
    """
    state = game.new_initial_state()
    yield state.clone()
    for action in actions:
        state.apply_action(action)
        yield state.clone()


def first_decision_state(game_string: str, seed: int) -> pyspiel.State:
    """The first player decision of a random game: the state right after the deal."""
    state = load(game_string).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(chance_outcome(state, rng))
    assert not state.is_terminal(), f"{game_string}: the game ended during the deal"
    return state


def decision_states(game_string: str, seed: int, count: int) -> list[pyspiel.State]:
    """`count` decision nodes of one random game, spread evenly from its first decision to
    its last, the first decision after the deal always included."""
    game = load(game_string)
    decisions = [s for s in states_along(game, random_history(game_string, seed))
                 if s.is_player_node()]
    return spread(decisions, count)


def spread(items: list, count: int) -> list:
    """`count` items spread evenly over `items`, the first and last included."""
    if len(items) <= count:
        return list(items)
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def snapshot(state: pyspiel.State) -> dict:
    """Everything the API tells about a state, for comparing two states."""
    players = range(state.get_game().num_players())
    return {
        "str": str(state),
        "history": state.history(),
        "current_player": state.current_player(),
        "is_terminal": state.is_terminal(),
        "is_chance_node": state.is_chance_node(),
        "legal_actions": state.legal_actions(),
        "chance_outcomes": state.chance_outcomes() if state.is_chance_node() else [],
        "information_state_string": [state.information_state_string(p) for p in players],
        "observation_string": [state.observation_string(p) for p in players],
        "information_state_tensor": [list(state.information_state_tensor(p)) for p in players],
        "observation_tensor": [list(state.observation_tensor(p)) for p in players],
        "returns": state.returns(),
    }


class Recorder:
    """A random source (floats in [0, 1)) that keeps what it gave, to replay the same
    numbers to a second consumer."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def __call__(self):
        value = self.rng.random()
        self.drawn.append(value)
        return value
