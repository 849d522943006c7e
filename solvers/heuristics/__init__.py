"""Hand-written strategies, one module per game, all registered as `heuristic`."""

from koloda.solvers.heuristics import durak, parket, platinum_fish, snitch  # noqa: F401
