"""Models of random weights (a Durak value model, any game's policy), written where the
tests' processes find them."""

from __future__ import annotations

import numpy as np

from koloda import games
from koloda.solvers.learned import durak as durak_value
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import EXTRA_FOLDERS, load_model, write_model
from koloda.solvers.learned.policy import feature_set, variants_of

VARIANT = {"players": 2, "ranks": 9, "suits": 4, "hand_size": 6}


def random_mlp(inputs: int, hidden=(16, 8), outputs: int = 1, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    widths = [inputs, *hidden, outputs]
    return mlp.pack([(rng.normal(0, 0.3, (a, b)), rng.normal(0, 0.1, b))
                     for a, b in zip(widths, widths[1:])])


def install_test_model(folder, monkeypatch, name: str = "durak-v9", seed: int = 0,
                       variant=None) -> np.ndarray:
    """Writes a random Durak value model `name` into `folder` and makes it loadable."""
    weights = random_mlp(durak_value.feature_count(2, 36), seed=seed)
    write_model(folder, name, "durak", "value", durak_value.FEATURE_SET,
                variant or VARIANT, weights)
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
