"""`random`: a uniformly random legal move; the baseline every agent must beat."""

from koloda.solvers.agent import Agent
from koloda.solvers.registry import register


@register("random", "uniformly random legal move")
class RandomAgent(Agent):
    def choose(self, view, player: int) -> int:
        legal = view.legal_actions(player)
        return legal[self.rng.randrange(len(legal))]

    def action_distribution(self, view, player: int) -> list[tuple[int, float]]:
        """Uniform over the legal actions: the policy this agent samples from."""
        legal = view.legal_actions(player)
        return [(a, 1.0 / len(legal)) for a in legal]
