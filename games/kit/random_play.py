"""The random-play step that `show` and `bench` share, so both play games the same way."""

import random

import numpy as np
import pyspiel

from koloda.games.kit.chance import sample_outcome


def choose(state: pyspiel.State, rng: random.Random) -> int:
    """A chance outcome drawn with its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        return sample_outcome(state.chance_outcomes(), rng)
    return rng.choice(state.legal_actions())


def random_playout(state: pyspiel.State, rng: random.Random) -> int:
    """Play `state` to the end at random, in place; returns the number of actions applied."""
    transitions = 0
    while not state.is_terminal():
        state.apply_action(choose(state, rng))
        transitions += 1
    return transitions


def midgame_states(game: pyspiel.Game, count: int, seed: int, min_history: int = 30,
                   chance: float = 0.15) -> list:
    """`count` decision nodes with a real choice (two or more legal actions) and at least
    `min_history` actions behind them, one from each of several seeded random games."""
    rng = random.Random(seed)
    states: list[pyspiel.State] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if (not state.is_chance_node() and len(state.history()) >= min_history
                    and len(state.legal_actions()) > 1 and rng.random() < chance):
                states.append(state.clone())
                break
            state.apply_action(choose(state, rng))
    return states


def engine_step(core, rng: random.Random) -> None:
    """One step of random play on the engine `core`: any possible chance outcome, each as
    likely, or a uniformly random legal decision (a walk through positions, for tests)."""
    if core.is_chance():
        outcomes = core.chance_outcomes()
        core.apply(outcomes[rng.randrange(len(outcomes))][0])
    else:
        legal = core.legal_actions()
        core.apply(legal[rng.randrange(len(legal))])


def kernel_step(kernel, st, r, rng: random.Random) -> None:
    """The same step on a kernel state `st` of the game's kernel module `kernel`, through
    the interface every kernel offers (games/kit/compiled.py)."""
    if kernel.current_player(st) == -1:
        outcomes = np.empty(kernel.MAX_CHANCE, np.int64)
        count = kernel.chance_outcomes(st, r, outcomes, np.empty_like(outcomes))
        kernel.apply(st, r, int(outcomes[rng.randrange(count)]))
    else:
        legal = np.empty(kernel.MAX_LEGAL, np.int64)
        kernel.apply(st, r, int(legal[rng.randrange(kernel.legal_actions(st, r, legal))]))
