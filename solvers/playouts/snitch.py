"""Snitch's rollout playout: cheaper than the heuristic agent's judgement, and varied.

Lay a set whenever one can be laid (any of them, at random), else discard a natural at
random (a wild only when nothing else is left), and pass only when there is nothing to
lay.  `rollout=learned` plays the heuristic agent's own moves instead
(solvers/learned/snitch.py), to the searcher's next turn only.
"""

from __future__ import annotations

from koloda.games.kit.chance import draw_from_counts
from koloda.games.snitch.engine import OVER, SETS, TURN


def heuristic_playout(core, random) -> None:
    """Play the Snitch engine `core` to the end by the rules above, chance by `random`."""
    rules = core.rules
    set_base, stop, two = rules.set_base, rules.stop_action, rules.two
    while True:
        phase = core.phase
        if phase == TURN or phase == SETS:
            legal = core.legal_actions()
            sets = [a for a in legal if set_base <= a < stop]
            if sets:
                action = sets[int(random() * len(sets))]
            elif phase == SETS:
                action = stop
            elif core.reserve_size:
                discards = [a for a in legal if a < two] or [a for a in legal
                                                             if a < set_base]
                action = discards[int(random() * len(discards))]
            else:
                action = rules.pass_action
            core.apply(action)
        elif phase == OVER:
            return
        else:
            core.apply(draw_from_counts(core.reserve, core.reserve_size, random))
