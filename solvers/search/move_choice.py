"""The move a search plays from its root's visit counts.

At temperature 0, the most visited move (ties to the lowest action id).  Above 0, a move
drawn among the searched ones with probability proportional to visits^(1/temperature),
as AlphaZero draws its opening moves: 1 plays each move as often as the search visited
it, higher flattens the choice, lower sharpens it.  A weak level is made this way, with a
small budget: it still plays what its search found plausible, never a uniformly random
move, and a move the search never visited is never played.
"""

from __future__ import annotations

import random

from koloda.games.kit.params import Param

TEMPERATURE = Param("temperature", float, 0.0,
                    "0 plays the most visited move; above 0 a move drawn with probability "
                    "proportional to visits^(1/temperature)", low=0.0, high=10.0)


def chosen_move(visits: dict[int, int], temperature: float, rng: random.Random) -> int:
    """The action to play given each root action's visits.  At temperature 0 `rng` is not
    read, so a search's random stream (and its games) do not depend on the choice."""
    actions = sorted(visits)
    most = max(visits.values())
    if temperature == 0 or most <= 0:
        return max(actions, key=visits.__getitem__)
    # Relative to the most visited, so no power overflows however sharp the choice.
    weights = [(visits[a] / most) ** (1.0 / temperature) for a in actions]
    return rng.choices(actions, weights)[0]
