"""`random`: a uniformly random legal move; the baseline every agent must beat."""

from koloda.solvers.agent import Agent
from koloda.solvers.registry import register


@register("random", "uniformly random legal move")
class RandomAgent(Agent):
    def choose(self, view, player: int) -> int:
        legal = view.legal_actions(player)
        return legal[self.rng.randrange(len(legal))]
