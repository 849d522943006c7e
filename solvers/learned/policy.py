"""What a learned policy reads and how its moves are read off: the mover's observation
tensor in, a score (a logit) for every action of the game out.

The input is the game's own OpenSpiel observation tensor from the moving seat, the one
every koloda game provides and tests for hidden information: the position as that seat
sees it, with nothing it has not seen.  So a policy model works for every game alike, and
its choice is a function of its seat's information by construction.  The output layer
has one unit per distinct action of the game; the legal actions' logits, and only
theirs, make the move: the most likely one, or a draw from their softmax.

A game with a symmetry writes its positions one way (`PolicyInput`): in Durak the suits
are alike but for the trump, so the tensor and the actions are read with the trump suit
first, as the value features are (learned/durak.py), and a model learns one game where
the deals have four.

A policy model is a packed mlp (mlp.py) of kind "policy" (models.py), fitted for one game
variant: the parameters that leave the tensor and the actions alone (`FREE_PARAMS`: where
a game starts, its caps on length) are free.
"""

from __future__ import annotations

import math

import numpy as np

from koloda.games.kit.state import CoreView
from koloda.solvers.learned.mlp import unpack
from koloda.solvers.learned.models import Model, ModelError, load_model

#: parameters a policy model is not fitted for: they change neither the observation tensor
#: nor the actions (a Parket game's starting position, the games' caps on their length)
FREE_PARAMS = frozenset({"position", "max_moves", "max_turns", "max_deals"})


def feature_set(game) -> str:
    """The name of what a policy of `game` reads: the game's observation tensor, in
    Durak with the trump suit first."""
    short = game.get_type().short_name
    return f"{short}-observation-{'trump-first-' if short == 'durak' else ''}1"


class PolicyInput:
    """The observation tensor of a seat and the game's actions as a policy reads them:
    `tensor(core, player)` and `ids(core, legal)`, the model's output unit of each
    action.  The identity, but in Durak (trump suit first)."""

    def __init__(self, game):
        self.observer = game.make_py_observer()
        self.actions = game.num_distinct_actions()
        self.durak = game.get_type().short_name == "durak"
        self._orders: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def tensor(self, core, player: int) -> np.ndarray:
        self.observer.set_from(CoreView(core), player)
        if not self.durak:
            return self.observer.tensor.copy()
        return self.observer.tensor[self._order(core)[0]]

    def ids(self, core, legal) -> list[int]:
        if not self.durak:
            return list(legal)
        unit = self._order(core)[1]
        return [int(unit[a]) for a in legal]

    def _order(self, core) -> tuple[np.ndarray, np.ndarray]:
        """For the trump suit of `core`: where each canonical tensor entry is read from,
        and each real action's canonical id."""
        trump = int(core.trump_suit)
        found = self._orders.get(trump)
        if found is None:
            found = self._orders[trump] = _trump_first(self.observer, core.rules, trump)
        return found


def _trump_first(observer, rules, trump: int) -> tuple[np.ndarray, np.ndarray]:
    """Durak's canonical order: the card of rank r and suit place k (trump 0, the others
    in order) in canonical card r * suits + k, in every piece with a card axis, and in
    each card action (verb * cards + card; take and pass stay)."""
    cards, suits = rules.num_cards, rules.deck.num_suits
    order = [trump] + [x for x in range(suits) if x != trump] if trump >= 0 else \
        list(range(suits))
    real_card = np.array([(c // suits) * suits + order[c % suits] for c in range(cards)])
    read = np.arange(observer.layout.size)
    for _, shape, offset, size in observer.layout.pieces:
        if shape[-1] == cards:
            block = np.arange(size).reshape(-1, cards)[:, real_card].ravel()
            read[offset:offset + size] = offset + block
    canonical_card = np.empty(cards, np.int64)
    canonical_card[real_card] = np.arange(cards)
    canonical = np.arange(rules.take_action + 2)          # take and pass stay
    for action in range(rules.take_action):
        verb, card = divmod(action, cards)
        canonical[action] = verb * cards + canonical_card[card]
    return read, canonical


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

    def legal_logits(self, tensor, ids) -> np.ndarray:
        """The logits of the output units `ids` (PolicyInput.ids of the legal moves)."""
        return self.logits(tensor)[list(ids)]

    def logits(self, tensor) -> np.ndarray:
        """Every action's logit for one observation tensor (numpy; a few tens of µs)."""
        h = np.asarray(tensor, np.float64)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

    def distribution(self, tensor, ids, temperature: float = 1.0) -> list[float]:
        """The probabilities of the legal actions whose output units are `ids`: the
        softmax of their logits at `temperature` (0: all on the best, the first among
        equals)."""
        scores = self.legal_logits(tensor, ids)
        if temperature <= 0.0:
            best = int(np.argmax(scores))
            return [1.0 if i == best else 0.0 for i in range(len(scores))]
        z = (scores - scores.max()) / temperature
        p = np.exp(z)
        p /= p.sum()
        return p.tolist()

    def choose(self, tensor, ids, legal, temperature: float, random) -> int:
        """One of the `legal` actions (their output units `ids`): the best at
        temperature 0, else drawn with `random()`."""
        p = self.distribution(tensor, ids, temperature)
        if temperature <= 0.0:
            return legal[p.index(1.0)]
        x, total = random(), 0.0
        for action, share in zip(legal, p):
            total += share
            if x < total:
                return action
        return legal[-1] if math.isfinite(total) else legal[0]
