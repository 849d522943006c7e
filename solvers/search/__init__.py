"""Search agents: information-set MCTS and determinised (PIMC) search, on engine states."""

from koloda.solvers.search import ismcts, pimc  # noqa: F401  (register the agents)
