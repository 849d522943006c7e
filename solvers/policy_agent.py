"""`policy`: a learned policy's move, one model evaluation and no search: an opponent in a
fraction of a millisecond, for small devices and the weak levels.

It reads its seat's observation tensor of the view it is given (solvers/learned/policy.py),
so what it plays is a function of what its seat has seen.  The model is named in the spec
(`policy(model=durak-policy-v1)`), as a search's value model is, so a refit never changes
what a spec plays.
"""

from __future__ import annotations

from koloda.games.kit.params import Param
from koloda.solvers.agent import Agent
from koloda.solvers.learned.models import index
from koloda.solvers.learned.policy import Policy, PolicyInput, load_policy
from koloda.solvers.registry import register

MODEL = Param("model", str, "", "the policy model by name (<game>-policy-v<N>, in "
              "`koloda models`)", max_length=40)
TEMPERATURE = Param("temperature", float, 0.0, "0: the model's most likely move; above 0: "
                    "a draw from its softmax at that temperature", low=0.0, high=10.0)


def policy_models_for(game) -> list[str]:
    """The known policy models of `game`'s kind (short name), for messages."""
    short = game.get_type().short_name
    return [name for name, entry in index().items()
            if entry.get("game") == short and entry.get("kind") == "policy"]


@register("policy", "a learned policy's move: one model evaluation, no search",
          (MODEL, TEMPERATURE))
class PolicyAgent(Agent):
    def __init__(self, game, seed: int = 0, model: str = "", temperature: float = 0.0):
        super().__init__(game, seed)
        self.check(game, {"model": model})
        self.policy = Policy(load_policy(game, model))
        self.input = PolicyInput(game)
        self.temperature = temperature

    @classmethod
    def check(cls, game, params) -> None:
        """ValueError for a missing model; ModelError for one that is not a policy of
        this game variant."""
        name = params.get("model", "")
        if not name:
            known = ", ".join(policy_models_for(game)) or "none"
            raise ValueError(f"policy needs model=<game>-policy-v<N> (for this game: {known})")
        load_policy(game, name)

    def choose(self, view, player: int) -> int:
        legal = view.legal_actions(player)
        return self.policy.choose(self.input.tensor(view.core, player),
                                  self.input.ids(view.core, legal), legal, self.temperature,
                                  self.rng.random)

    def action_distribution(self, view, player: int) -> list[tuple[int, float]]:
        """The policy this agent plays from (at temperature 0, all on its move)."""
        legal = view.legal_actions(player)
        shares = self.policy.distribution(self.input.tensor(view.core, player),
                                          self.input.ids(view.core, legal), self.temperature)
        return list(zip(legal, shares))
