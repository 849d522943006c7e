"""Fitting Snitch's linear value model `snitch-v1` (snitch.py) on positions of heuristic
self-play.

Positions come from every turn of matches to 1000 at three players (so the totals and the
race vary), each labelled by how much its deal's value still changed; a linear
least-squares fit on them, plus the points laid as they stand, is the shipped model.
`python -m koloda.solvers.learned.snitch_fit --deals 10000 --seed 1` writes it again, the
same digest.  It is `snitch-v1`'s recipe; later models are fitted to search's self-play by
`koloda learn snitch --search SPEC` (tournament/learn.py), as every game's are.
"""

from __future__ import annotations

import argparse
import random
from importlib import resources
from pathlib import Path

import numpy as np

from koloda.games.snitch.engine import OVER, TURN, SnitchCore
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import write_model
from koloda.solvers.learned.snitch import FEATURE_NAMES, FEATURES, LAID_DIFF, features, laid_value
from koloda.solvers.playouts.snitch import heuristic_step

NAME = "snitch-v1"


def generate(deals: int, seed: int, players: int = 3):
    """Positions of heuristic self-play (every turn, every seat) with their labels: the
    change of the seat's deal value from the position to the end of the deal.  Deals come
    from matches to 1000 (so the totals and the race vary)."""
    import pyspiel  # noqa: F401  (the game registers with OpenSpiel)

    from koloda.games.snitch.game import SnitchGame

    game = SnitchGame({"players": players})
    rng = random.Random(seed)
    rows, labels, groups = [], [], []
    done = 0
    while done < deals:
        core = game.initial_engine(SnitchCore)
        pending = []        # (row, seat, value now) of the deal in progress
        deal = core.deals
        start = core.totals[:]
        while core.phase != OVER and done < deals:
            if core.deals != deal:          # a deal was scored: label its positions
                _label(core, start, pending, rows, labels, groups, done)
                pending = []
                deal = core.deals
                start = core.totals[:]
                done += 1
                continue
            if core.phase == TURN:
                now = laid_value(core)
                for seat in range(players):
                    pending.append((features(core, seat), seat, now[seat]))
            heuristic_step(core, rng.random)
        if core.phase == OVER and pending and done < deals:
            _label(core, start, pending, rows, labels, groups, done)
            done += 1
    return rows, labels, groups


def _label(core, start, pending, rows, labels, groups, deal):
    """Label a finished deal's positions by its points (the totals' change)."""
    final = [t - s for t, s in zip(core.totals, start)]
    n = len(final)
    share = core.rules.deck_points / n
    total = sum(final)
    value = [(n * p - total) / (n - 1) / share for p in final]
    for row, seat, now in pending:
        rows.append(row)
        labels.append(value[seat] - now)
        groups.append(deal)


def fit(rows, labels, ridge: float = 1e-3):
    """Least squares weights (a little ridge for the rarely set features)."""
    import numpy as np

    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    a = x.T @ x + ridge * len(y) * np.eye(x.shape[1])
    a[0, 0] -= ridge * len(y)                  # no penalty on the bias
    return np.linalg.solve(a, x.T @ y)


def mean_squared_error(weights, rows, labels) -> float:
    err = 0.0
    for row, label in zip(rows, labels):
        pred = sum(a * b for a, b in zip(weights, row))
        err += (pred - label) ** 2
    return err / max(1, len(labels))


def packed(weights) -> np.ndarray:
    """The fitted `weights` (the change still to come), rounded to six places, as a packed
    linear model of the deal's value: the points laid weigh one more."""
    w = np.round(np.asarray(weights, np.float64), 6)
    w[LAID_DIFF] += 1.0
    return mlp.pack([(w.reshape(-1, 1), np.zeros(1))])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="fit Snitch's learned value for search")
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None,
                        help="models folder (default: the shipped models)")
    args = parser.parse_args(argv)
    rows, labels, groups = generate(args.deals, args.seed)
    train = [i for i, g in enumerate(groups) if g % 5]
    test = [i for i, g in enumerate(groups) if not g % 5]
    weights = fit([rows[i] for i in train], [labels[i] for i in train])
    held_rows, held_labels = [rows[i] for i in test], [labels[i] for i in test]
    mean = sum(labels[i] for i in train) / len(train)
    constant = [mean] + [0.0] * (len(FEATURE_NAMES) - 1)
    print(f"{len(rows)} positions from {args.deals} deals; held-out mean squared error "
          f"{mean_squared_error(weights, held_rows, held_labels):.4f} (a constant: "
          f"{mean_squared_error(constant, held_rows, held_labels):.4f})")
    weights = fit(rows, labels)
    folder = Path(args.out) if args.out else \
        Path(str(resources.files("koloda.solvers.learned").joinpath("models")))
    digest = write_model(folder, NAME, "snitch", "value", FEATURES.name, {}, packed(weights),
                         {"from": f"python -m koloda.solvers.learned.snitch_fit --deals "
                                  f"{args.deals} --seed {args.seed}"})
    for name, w in zip(FEATURE_NAMES, weights):
        print(f"  {name:16} {w:+.4f}")
    print(f"written {NAME} to {folder} ({digest[:12]})")


if __name__ == "__main__":
    main()
