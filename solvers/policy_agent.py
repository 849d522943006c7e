"""`policy`: a learned policy's move, one model evaluation and no search: an opponent in a
fraction of a millisecond, for small devices and the weak levels.

Its view of a state is its seat's observation tensor and legal moves, and nothing else
(`SeatView`): the game's observer writes only what that seat has seen, so what it plays
is a function of its seat's information, as with the resampled state other agents look
at, which would cost ten times the move (a resample replays the whole history).  The
model is named in the spec (`policy(model=durak-policy-v1)`), as a search's value model
is, so a refit never changes what a spec plays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from koloda.games.kit.params import Param
from koloda.solvers.agent import Agent
from koloda.solvers.learned.models import index
from koloda.solvers.learned.policy import Policy, PolicyInput, load_policy
from koloda.solvers.registry import register

MODEL = Param("model", str, "", "the policy model by name (<game>-policy-v<N>, in "
              "`koloda models`)", max_length=40)
TEMPERATURE = Param("temperature", float, 0.0, "0: the model's most likely move; above 0: "
                    "a draw from its softmax at that temperature", low=0.0, high=10.0)


@dataclass(frozen=True)
class SeatView:
    """What the policy reads of a state: its seat's observation as the policy reads it,
    the legal moves and their output units."""

    tensor: np.ndarray
    legal: list[int]
    ids: list[int]


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

    def view(self, state, player: int) -> SeatView:
        """The seat's observation of `state` (the observer's: only what it has seen)."""
        legal = state.legal_actions(player)
        return SeatView(self.input.tensor(state.core, player), legal,
                        self.input.ids(state.core, legal))

    def choose(self, view: SeatView, player: int) -> int:
        return self.policy.choose(view.tensor, view.ids, view.legal, self.temperature,
                                  self.rng.random)

    def action_distribution(self, view: SeatView, player: int) -> list[tuple[int, float]]:
        """The policy this agent plays from (at temperature 0, all on its move)."""
        return list(zip(view.legal, self.policy.distribution(view.tensor, view.ids,
                                                             self.temperature)))
