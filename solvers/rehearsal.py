"""A rehearsal: agents play a short game on budgets of a millisecond, so that everything
their moves run is compiled, or loaded from numba's cache, before a move of a real game
is timed.

numba compiles a function on its first call in a process (or loads it from its cache on
disk, which also takes a while); the first search move of a process on an empty cache
took seconds where a clock gave it 100 ms.  Playing a few moves through the pyspiel state
runs what a real game runs: the game's kernels (legal actions, chance, apply), the
resampling of every view, and the agents' own kernels (search loops, rollouts, learned
values, rules of thumb).  The budget of a millisecond keeps a search of any size short:
its first chunk of simulations compiles the loops, and the clock stops it there.  What a
short game does not reach (the Parket solver's endgames) an agent runs in its
`prepare_kernels`.

A rehearsal moves its agents' random streams, so callers rehearse copies built for the
purpose (solvers/prepare.py), never agents that then play a game that must replay.
"""

from __future__ import annotations

import random

from koloda.games.kit.chance import sample_outcome

#: the seed of a rehearsal's chance outcomes: every process rehearses the same game
SEED = 2026
#: decisions a rehearsal plays at most (the game may end first): enough to reach every
#: kind of move (a Durak bout, a Snitch turn with sets), and little time
DECISIONS = 24
#: each rehearsed move's time: one chunk of simulations, whatever the agent's size
BUDGET = {"ms": 1}


def rehearse(game, agents, decisions: int = DECISIONS, seed: int = SEED) -> int:
    """Play `game` with `agents[seat]` in each seat, chance from `seed`, each move on a
    budget of 1 ms, for at most `decisions` decisions with a choice; then each agent's
    `prepare_kernels`.  The decisions played."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for seat, agent in enumerate(agents):
        agent.start_game(seat)
    played = 0
    while not state.is_terminal() and played < decisions:
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        agent = agents[state.current_player()]
        if len(state.legal_actions()) > 1:
            played += 1
        agent.time_budget = dict(BUDGET)
        state.apply_action(agent.step(state))
    state.returns()         # what the end of a game reads, where a short game stops early
    for agent in agents:
        agent.time_budget = None
        agent.game_over(state, None)
        agent.prepare_kernels()
    return played


def played_until(game, reached, seed: int = SEED):
    """A state of `game` reached by uniformly random play from `seed` where `reached(state)`
    first holds (or the end): a position for an agent's `prepare_kernels`."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not reached(state):
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state
