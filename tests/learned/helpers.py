"""A Durak value model of random weights, written where the tests' processes find it."""

from __future__ import annotations

import numpy as np

from koloda.solvers.learned import durak as durak_value
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import EXTRA_FOLDERS, load_model, write_model

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
