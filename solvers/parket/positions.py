"""Random positions for tests, benchmarks and endgame sets: random play from the start
until the main phase has exactly the wanted number of empty cells."""

from __future__ import annotations

import random

from koloda.games.errors import GameParameterError
from koloda.games.parket.board import EMPTY, NUM_CELLS
from koloda.games.parket.engine import ParketCore
from koloda.games.parket.rules import ParketRules

MAX_EMPTY = NUM_CELLS - 8          # the cross filled: 27 empty cells
MAX_ATTEMPTS = 10_000


def random_position(empty: int, seed: int, corner_order: str = "path",
                    max_relocations: int = 4) -> str:
    """A position reached by random play, in the main phase, with exactly `empty` empty
    cells and the game still going (games that end earlier are replayed with the next
    seed of the sequence)."""
    if not 1 <= empty <= MAX_EMPTY:
        raise GameParameterError(f"a main-phase position has 1..{MAX_EMPTY} empty cells, "
                                 f"not {empty}")
    rules = ParketRules({"corner_order": corner_order, "max_relocations": max_relocations})
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"parket-endgame:{seed}:{attempt}")
        core = ParketCore(rules)
        while not core.is_terminal():
            holes = sum(1 for card in core.board if card == EMPTY)
            if core.main and holes == empty:
                return core.position()
            if holes < empty:
                break
            core.apply(rng.choice(core.legal_actions()))
    raise RuntimeError(f"no random game reached {empty} empty cells in {MAX_ATTEMPTS} tries")
