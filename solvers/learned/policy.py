"""What a learned policy reads and how its moves are read off: the mover's observation
tensor in, a score (a logit) for every action of the game out.

The input is the game's own OpenSpiel observation tensor from the moving seat, the one
every koloda game provides and tests for hidden information: the position as that seat
sees it, with nothing it has not seen.  So a policy model works for every game alike, and
its choice is a function of its seat's information by construction.  The output layer
has one unit per distinct action of the game; the legal actions' logits, and only
theirs, make the move: the most likely one, or a draw from their softmax.

A policy model is a packed mlp (mlp.py) of kind "policy" (models.py), fitted for one game
variant: the parameters that leave the tensor and the actions alone (`FREE_PARAMS`: where
a game starts, its caps on length) are free.
"""

from __future__ import annotations

import math

import numpy as np

from koloda.solvers.learned.mlp import unpack
from koloda.solvers.learned.models import Model, ModelError, load_model

#: parameters a policy model is not fitted for: they change neither the observation tensor
#: nor the actions (a Parket game's starting position, the games' caps on their length)
FREE_PARAMS = frozenset({"position", "max_moves", "max_turns", "max_deals"})


def feature_set(game) -> str:
    """The name of what a policy of `game` reads: the game's observation tensor."""
    return f"{game.get_type().short_name}-observation-1"


def variants_of(game) -> dict:
    """The parameters of `game` a policy model fitted on it is fitted for."""
    return {k: v for k, v in sorted(game.get_parameters().items()) if k not in FREE_PARAMS}


def load_policy(game, name: str) -> Model:
    """The policy model `name`, checked against `game`; ModelError (one line) for a model
    that is not a policy of this game variant."""
    model = load_model(name)
    if model.kind != "policy":
        raise ModelError(f"model {name} is a {model.kind} model, not a policy "
                         f"(<game>-policy-v<N>)")
    model.check_game(game)
    layers = unpack(model.weights)
    inputs, outputs = layers[0][0].shape[0], layers[-1][0].shape[1]
    if (inputs, outputs) != (game.observation_tensor_size(), game.num_distinct_actions()):
        raise ModelError(f"model {name} reads {inputs} numbers into {outputs} actions; this "
                         f"game has {game.observation_tensor_size()} and "
                         f"{game.num_distinct_actions()}")
    return model


class Policy:
    """A policy model ready to play: its layers unpacked once."""

    def __init__(self, model: Model):
        self.model = model
        self.layers = [(np.ascontiguousarray(w), b) for w, b in unpack(model.weights)]

    def logits(self, tensor) -> np.ndarray:
        """Every action's logit for one observation tensor (numpy; a few tens of µs)."""
        h = np.asarray(tensor, np.float64)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

    def distribution(self, tensor, legal, temperature: float = 1.0) -> list[float]:
        """The probabilities of the `legal` actions: the softmax of their logits at
        `temperature` (0: all on the best, the lowest id among equals)."""
        scores = self.logits(tensor)[list(legal)]
        if temperature <= 0.0:
            best = int(np.argmax(scores))
            return [1.0 if i == best else 0.0 for i in range(len(legal))]
        z = (scores - scores.max()) / temperature
        p = np.exp(z)
        p /= p.sum()
        return p.tolist()

    def choose(self, tensor, legal, temperature: float, random) -> int:
        """A legal action: the best at temperature 0, else drawn with `random()`."""
        p = self.distribution(tensor, legal, temperature)
        if temperature <= 0.0:
            return legal[p.index(1.0)]
        x, total = random(), 0.0
        for action, share in zip(legal, p):
            total += share
            if x < total:
                return action
        return legal[-1] if math.isfinite(total) else legal[0]
