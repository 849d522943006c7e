"""Models of random weights (a value model, a policy), written where the
tests' processes find them."""

from __future__ import annotations

import numpy as np

from koloda import games
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import EXTRA_FOLDERS, load_model, write_model
from koloda.solvers.learned.policy import feature_set, variants_of
from koloda.solvers.search.evaluators import evaluator_for


def random_mlp(inputs: int, hidden=(16, 8), outputs: int = 1, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    widths = [inputs, *hidden, outputs]
    return mlp.pack([(rng.normal(0, 0.3, (a, b)), rng.normal(0, 0.1, b))
                     for a, b in zip(widths, widths[1:])])


def install_test_model(folder, monkeypatch, name: str = "durak-v9", seed: int = 0,
                       variant=None, game_string: str = "durak") -> np.ndarray:
    """Writes a random value model `name` of `game_string` (Durak's by default) into
    `folder` and makes it loadable."""
    game = games.load_game(game_string)
    features = evaluator_for(game.get_type().short_name).values
    weights = random_mlp(features.count(game.new_initial_state().core.r), seed=seed)
    params = game.get_parameters()
    write_model(folder, name, game.get_type().short_name, "value", features.name,
                variant or {key: params[key] for key in features.variant_keys}, weights)
    monkeypatch.setenv(EXTRA_FOLDERS, str(folder))
    load_model.cache_clear()
    return weights


def install_policy(folder, monkeypatch, game_string: str, name: str, seed: int = 0):
    """A policy of random weights for `game_string`, loadable as `name`; the game."""
    game = games.load_game(game_string)
    weights = random_mlp(game.observation_tensor_size(), hidden=(16,),
                         outputs=game.num_distinct_actions(), seed=seed)
    write_model(folder, name, game.get_type().short_name, "policy", feature_set(game),
                variants_of(game), weights)
    monkeypatch.setenv(EXTRA_FOLDERS, str(folder))
    load_model.cache_clear()
    return game
