"""The game's heuristic as a prior in the search tree: progressive bias (Chaslot et al.,
"Progressive strategies for Monte-Carlo tree search", 2008).

At every decision node of a simulation the mover's heuristic move in that world is its
hint: it is the first of the untried moves to be tried, and in selection it scores
`prior / (1 + visits)` above UCB1, a bonus that fades as search learns the move's value.
Search thus starts from the rules of thumb and leaves them only where its own values say
so, which matters where a playout or a leaf model judges a position worse than the
heuristic plays it.  The heuristics read only the mover's hand and what is public (their
modules say so), so in an opponent's node of a world the hint is what the heuristic would
play holding that world's hand.
"""

from __future__ import annotations

from typing import NamedTuple

from koloda.games.kit.params import Param
from koloda.solvers.registry import load_agent

PRIOR = Param("prior", float, 0.0, "weight of the game's heuristic move as a prior in the "
              "tree: tried first, and a bonus prior/(1+visits) in selection (progressive "
              "bias); 0 = none; compiled in Snitch, elsewhere on the Python tree", low=0.0,
              high=100.0)


class _CoreView(NamedTuple):
    """What a heuristic reads of a state: its engine."""
    core: object


class HeuristicHint:
    """`hint(world)`: the game's heuristic's move for the player to move in the engine
    `world`."""

    def __init__(self, game):
        self.agent = load_agent(game, "heuristic", seed=0)

    def __call__(self, world) -> int:
        return self.agent.choose(_CoreView(world), world.current_player())
