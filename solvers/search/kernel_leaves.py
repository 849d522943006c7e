"""What the compiled search (compiled_tree.py) plays in place of random playouts, in the
games that offer it as kernel functions: the heuristic's move as the prior's hint, and the
learned value of a leaf.  The same functions the Python search calls through the engine
(solvers/heuristics, solvers/learned), so both trees search one game."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from koloda.solvers.heuristics.snitch import rules_of_thumb
from koloda.solvers.learned import snitch as snitch_value


@dataclass(frozen=True)
class KernelLeaves:
    """One game's kernel functions for search beyond random playouts."""

    hint: object          # (st, r, legal) -> the heuristic's move for the player to move
    leaf: object          # (st, r, x, player, turns, weights, legal, out) -> (x, valued)
    weights: object       # () -> the learned model's weights, a float64 array
    modules: tuple        # the modules they compile from (the search's cache digest)


KERNEL_LEAVES = {
    "snitch": KernelLeaves(rules_of_thumb, snitch_value.truncated_leaf,
                           lambda: snitch_value.load_model().weights,
                           (sys.modules[rules_of_thumb.__module__], snitch_value)),
}
