"""Equilibrium play on the miniatures: CFR and MCCFR training on OpenSpiel's solvers,
policy files, the `cfr` agent that plays them, and the exploitability of any agent.

    koloda cfr train "durak(hand_size=2,ranks=5,suits=1)" --algo cfr+ --iterations 1000

See docs/api.md ("Equilibrium play on the miniatures").
"""

from koloda.solvers.cfr import agent  # noqa: F401  (registers the `cfr` agent)
from koloda.solvers.cfr.presets import PRESETS, Preset

__all__ = ["PRESETS", "Preset"]
