"""Walks of a miniature's whole tree.

Policies here are tables keyed by information-state strings.  A table is read off a
solver, an agent or a file by visiting each information state once, at the first history
that reaches it (`first_states`): agents decide from the information state alone, so any
history of it gives the same question.
"""

from __future__ import annotations

import random
import statistics

from koloda.games.errors import KolodaError

#: trees larger than this are refused: the methods here are for miniatures
MAX_HISTORIES = 5_000_000
#: random paths that estimate a tree's size, and how far above the limit their median
#: must be to refuse the tree unwalked (see `estimated_histories`)
PROBES = 51
FAR_ABOVE = 10


class TreeTooLargeError(KolodaError, ValueError):
    """The game is no miniature: its tree is too large to walk whole."""


def walk(game, limit: int = MAX_HISTORIES):
    """Every history of the game, depth first (parents before children)."""
    stack = [game.new_initial_state()]
    seen = 0
    while stack:
        state = stack.pop()
        seen += 1
        if seen > limit:
            raise TreeTooLargeError(f"{game} has more than {limit:,} histories; the exact "
                                    f"methods are for miniatures")
        yield state
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        for action in reversed(actions):
            stack.append(state.child(action))


def check_size(game, limit: int = MAX_HISTORIES) -> int:
    """The number of histories of `game`, at most `limit`, or TreeTooLargeError: counted
    before anything is built from the tree, so a game too large is refused holding one
    path of states, not the tree; one far too large is refused from an estimate, at once."""
    if estimated_histories(game, ceiling=FAR_ABOVE * limit) > FAR_ABOVE * limit:
        raise TreeTooLargeError(f"{game} has far more than {limit:,} histories (random paths "
                                f"through it estimate more than {FAR_ABOVE * limit:,}); the "
                                f"exact methods are for miniatures")
    return sum(1 for _ in walk(game, limit))


def estimated_histories(game, probes: int = PROBES, ceiling: float = float("inf"),
                        seed: int = 0) -> float:
    """The median of `probes` Knuth estimates of the tree's size, each the sum of the
    products of the branching factors along one random path (stopped past `ceiling`).
    Each estimate's mean is the true size, so by Markov's inequality an estimate is more
    than ten times the size with probability at most 1/10, and a median of 51 that far
    above a tree within the limit is a chance below 10^-12."""
    rng = random.Random(seed)
    return statistics.median(_probe(game, rng, ceiling) for _ in range(probes))


def _probe(game, rng: random.Random, ceiling: float) -> int:
    state, width, total = game.new_initial_state(), 1, 1
    while not state.is_terminal() and total <= ceiling:
        actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        width *= len(actions)
        total += width
        state.apply_action(rng.choice(actions))
    return total


def first_states(game, limit: int = MAX_HISTORIES):
    """(information state string, player, state) for the first history of each
    information state of the players."""
    seen = set()
    for state in walk(game, limit):
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        if key not in seen:
            seen.add(key)
            yield key, player, state


def tree_size(game, limit: int = MAX_HISTORIES) -> tuple[int, int]:
    """(histories, information states) of the whole tree."""
    histories, infosets = 0, set()
    for state in walk(game, limit):
        histories += 1
        if not (state.is_terminal() or state.is_chance_node()):
            infosets.add(state.information_state_string(state.current_player()))
    return histories, len(infosets)


def uniform(legal) -> list[tuple[int, float]]:
    return [(a, 1.0 / len(legal)) for a in legal]


def table_from(game, policy_at) -> dict:
    """{infostate: [(action, probability)]} with `policy_at(state, player)` asked once per
    information state."""
    return {key: list(policy_at(state, player)) for key, player, state in first_states(game)}
