"""Search agents: information-set MCTS and determinised (PIMC) search, on engine states,
and plain UCT where nothing is hidden."""

from koloda.solvers.search import ismcts, mcts, pimc  # noqa: F401  (register the agents)
