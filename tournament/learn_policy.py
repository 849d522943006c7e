"""Learning a game's policy from a teacher's moves: `koloda learn GAME --policy`.

The run is a `Learning` (learn.py) of another kind, its generations made alike: the
teacher (a strong searcher, by default the game's level 7) plays a gauntlet against
itself through the tournament's runner; every decision with a choice is replayed from the
records, read as the mover's observation tensor (solvers/learned/policy.py) and labelled
with the move the teacher made; an mlp classifier is fitted by scikit-learn over the
positions of the generations so far (up to `window`); the policy it makes
(`policy(model=<game>-policy-g<N>)`) is scored against the last generation's and against
the yardstick (by default the game's level 6), on paired deals with seats rotated.

The teacher's moves are hard labels: the move it played, not its visit shares, so the
records of any agent, koloda's or not, can teach.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koloda.games.errors import KolodaError
from koloda.solvers.learned import mlp
from koloda.solvers.learned.policy import PolicyInput, feature_set, variants_of
from koloda.solvers.levels import LEVELS
from koloda.tournament.learn import (
    LearnError,
    Learning,
    Settings,
    best_epoch,
    losses_of,
    replayed_decisions,
    split_by_deal,
)
from koloda.tournament.seating import check_seat_spec

#: the teacher's and the yardstick's levels when the settings name none
TEACHER_LEVEL = 7
YARDSTICK_LEVEL = 6
#: a logit no legal move's falls to: the actions the teacher never played
NEVER = -30.0


def policy_settings(game: str, **given) -> Settings:
    """Settings of a policy run: the game's levels as teacher and yardstick, and one
    hidden layer of 128, unless given."""
    from koloda import games as koloda_games

    short = koloda_games.parse_game_string(game)[0]
    levels = LEVELS.get(short)
    defaults: dict[str, Any] = {"kind": "policy", "hidden": [128], "alpha": 1e-4,
                                "window": 100, "games": 400}
    if levels:
        defaults |= {"teacher": levels[TEACHER_LEVEL - 1], "against": levels[YARDSTICK_LEVEL - 1]}
    return Settings(game, **(defaults | {k: v for k, v in given.items() if v is not None}))


class PolicyLearning(Learning):
    """A learning run whose models are policies (settings.kind "policy")."""

    kind = "policy"

    def __init__(self, settings: Settings, folder, out=None):
        if settings.kind != "policy" or not settings.teacher or not settings.against:
            raise LearnError("a policy run needs kind 'policy', a teacher and a yardstick")
        super().__init__(settings, folder, **({} if out is None else {"out": out}))
        for role, spec in (("teacher", settings.teacher), ("yardstick", settings.against)):
            try:                          # refused before any game is played
                check_seat_spec(self.game, spec)
            except KolodaError as err:
                raise LearnError(f"the {role}: {err}") from None

    def _check_features(self) -> None:
        """Every game has an observation tensor: nothing to check."""

    def selfplay_spec(self, previous: str | None) -> str:
        return self.settings.teacher

    def scored_spec(self, model: str) -> str:
        return f"policy(model={model})"

    def yardstick_spec(self) -> str:
        return self.settings.against

    def model_name(self, number: int) -> str:
        return f"{self.game.get_type().short_name}-policy-g{number}"

    def model_entry(self) -> tuple[str, dict]:
        return feature_set(self.game), variants_of(self.game)

    def positions(self, paths):
        """The mover's observation tensor at every decision with a choice of the games in
        `paths`, the teacher's move there, the legal moves (a mask) and the deal, as the
        policy reads them (PolicyInput)."""
        tensors, moves, legal, deals = [], [], [], []
        actions = self.game.num_distinct_actions()
        reading = PolicyInput(self.game)
        for state, action, result in replayed_decisions(self.game, paths):
            player = state.current_player()
            moves_here = state.legal_actions(player)
            if len(moves_here) > 1:
                tensors.append(reading.tensor(state.core, player))
                moves.append(reading.ids(state.core, [action])[0])
                mask = np.zeros(actions, bool)
                mask[reading.ids(state.core, moves_here)] = True
                legal.append(mask)
                deals.append(result.seed)
        if not tensors:
            raise LearnError("the teacher's games hold no decision with a choice")
        self._legal = np.array(legal)
        return np.array(tensors), np.array(moves), np.array(deals)

    def fit(self, x: np.ndarray, y: np.ndarray, deal: np.ndarray, seed: int):
        """An mlp classifier over every action, fitted epoch by epoch on nine tenths of
        the deals, the epoch kept that predicts the teacher best on another tenth, and
        scored on the last tenth: its log loss over the legal moves, the loss of the
        teacher's move frequencies alone, and how often its best legal move is the
        teacher's (`agreement`).  The inputs are standardised, and the standardisation
        folded into the first layer, so the packed model reads the raw tensor."""
        try:
            from sklearn.neural_network import MLPClassifier
        except ImportError:
            raise LearnError("learning needs scikit-learn: pip install 'koloda[learn]'") \
                from None
        s = self.settings
        legal = self._legal
        rng = np.random.default_rng(seed)
        train, check, test = split_by_deal(deal, rng)
        mean = x[train].mean(axis=0)
        scale = x[train].std(axis=0)
        scale[scale < 1e-6] = 1.0
        z = (x - mean) / scale
        classes = np.arange(self.game.num_distinct_actions())
        model = MLPClassifier(hidden_layer_sizes=tuple(s.hidden), alpha=s.alpha,
                              batch_size=min(256, len(train)), learning_rate_init=1e-3,
                              random_state=seed % (1 << 31))
        frequencies = np.bincount(y[train], minlength=len(classes)) + 1.0
        baseline = _legal_log_loss(np.log(np.broadcast_to(frequencies, (len(test),
                                                                           len(classes)))),
                                   y[test], legal[test])

        def epoch():
            order = train[rng.permutation(len(train))]
            model.partial_fit(z[order], y[order], classes=classes)
            return pack_classifier(model, mean, scale, classes)
        best = best_epoch(epoch, lambda packed: _legal_log_loss(
            mlp.forward_reference(packed, x[check]), y[check], legal[check]), s.epochs)
        logits = {rows: mlp.forward_reference(best, x[index])
                  for rows, index in (("train", train), ("test", test))}
        return best, losses_of(_legal_log_loss(logits["train"], y[train], legal[train]),
                             _legal_log_loss(logits["test"], y[test], legal[test]), baseline,
                             agreement=_agreement(logits["test"], y[test], legal[test]))


def pack_classifier(model, mean: np.ndarray, scale: np.ndarray, classes) -> np.ndarray:
    """A fitted scikit-learn MLPClassifier as a packed mlp (mlp.py) of one logit per
    action, reading the raw inputs: the standardisation folded into the first layer, and
    the actions it never saw given the logit NEVER."""
    layers = [(np.array(w, np.float64), np.array(b, np.float64))
              for w, b in zip(model.coefs_, model.intercepts_)]
    w, b = layers[0]
    layers[0] = (w / scale[:, None], b - (mean / scale) @ w)
    w, b = layers[-1]
    seen = np.asarray(model.classes_)
    if w.shape[1] == 1:              # two classes: scikit-learn keeps one logit, the second's
        w, b = np.hstack([np.zeros_like(w), w]), np.concatenate([[0.0], b])
    full_w = np.zeros((w.shape[0], len(classes)))
    full_b = np.full(len(classes), NEVER)
    full_w[:, seen], full_b[seen] = w, b
    layers[-1] = (full_w, full_b)
    return mlp.pack(layers)


def _legal_log_loss(logits: np.ndarray, moves: np.ndarray, legal: np.ndarray) -> float:
    """The mean negative log probability of the teacher's move, among the legal moves."""
    masked = np.where(legal, logits, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    log_norm = np.log(np.exp(masked - top).sum(axis=1)) + top[:, 0]
    return float(np.mean(log_norm - logits[np.arange(len(moves)), moves]))


def _agreement(logits: np.ndarray, moves: np.ndarray, legal: np.ndarray) -> float:
    """How often the best legal move is the teacher's."""
    return float(np.mean(np.argmax(np.where(legal, logits, -np.inf), axis=1) == moves))
