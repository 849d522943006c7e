"""Snitch's rollout playout: every seat plays the heuristic agent's rules of thumb.

The rules are the heuristic agent's own (`RULES_OF_THUMB`, solvers/heuristics/snitch.py:
lay the richest set worth laying, keep wilds for rich sets until the deal is ending,
discard the natural the next player is least likely to pick up), so the agent and search
play one set of them.  They choose every move; only the draws are left to chance.
`rollout=heuristic` plays them to the end; `rollout=learned` (the value model `snitch-v1`)
plays them to the searcher's next turn and reads its learned value there
(solvers/learned/snitch.py), and its model is fitted on the same play
(solvers/learned/snitch_fit.py).
"""

from __future__ import annotations

from koloda.games.snitch.engine import OVER, SETS, TURN
from koloda.solvers.heuristics.snitch import RULES_OF_THUMB


def heuristic_step(core, random) -> None:
    """One step of heuristic play: the mover's move by the rules of thumb, or the draw
    chance deals (by `random`)."""
    phase = core.phase
    if phase == TURN or phase == SETS:
        core.apply(RULES_OF_THUMB.action(core, core.player))
    else:
        core.random_step(random())          # a draw by its probabilities


def heuristic_playout(core, random) -> None:
    """Play the Snitch engine `core` to the end by the rules of thumb, chance by
    `random`."""
    while core.phase != OVER:
        heuristic_step(core, random)
