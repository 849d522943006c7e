"""Random-playout speed of a game beside two OpenSpiel games measured in the same run.

Absolute rates depend on the machine; the ratios to OpenSpiel's C++ `go_fish` and Python
`python_block_dominoes` do much less, so they are what to compare across machines and commits.
"""

import random
import time
from dataclasses import dataclass

import open_spiel.python.games  # noqa: F401  (registers python_block_dominoes)
import pyspiel
from tabulate import tabulate

from koloda.games.kit.random_play import choose, random_playout

REFERENCES = {"python_block_dominoes": "dominoes", "go_fish": "go_fish"}  # name: short name
SAMPLE_GAMES = 20  # random playouts whose states make up the clone() sample
SAMPLE_STATES = 200


@dataclass
class Figures:
    """Rates for one game; a transition is any applied action, chance included."""

    game: str
    games_per_s: float
    transitions_per_s: float
    clones_per_s: float

    @property
    def transitions_per_game(self) -> float:
        return self.transitions_per_s / self.games_per_s


def measure(game: pyspiel.Game, seconds: float, seed: int = 0) -> Figures:
    """Random playouts for `seconds`, then clone() over a sample of mid-game states for
    `seconds`. Each figure runs at least once, whatever the budget."""
    rng = random.Random(seed)
    games = transitions = 0
    start = time.perf_counter()
    while True:
        transitions += random_playout(game.new_initial_state(), rng)
        games += 1
        if (play_time := time.perf_counter() - start) >= seconds:
            break

    sample = clone_sample(game, rng)
    clones = 0
    start = time.perf_counter()
    while True:
        for state in sample:
            state.clone()
        clones += len(sample)
        if (clone_time := time.perf_counter() - start) >= seconds:
            break

    return Figures(str(game), games / play_time, transitions / play_time, clones / clone_time)


def clone_sample(game: pyspiel.Game, rng: random.Random) -> list[pyspiel.State]:
    """SAMPLE_STATES states drawn from every non-terminal position of a few random games."""
    pool = []
    for _ in range(SAMPLE_GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            pool.append(state.clone())
            state.apply_action(choose(state, rng))
    return rng.sample(pool, min(SAMPLE_STATES, len(pool)))


def run_bench(game: pyspiel.Game, seconds: float = 3.0) -> list[Figures]:
    """Figures for `game`, then for each reference game, all measured now."""
    return [measure(g, seconds) for g in [game, *map(pyspiel.load_game, REFERENCES)]]


def format_bench(results: list[Figures]) -> str:
    """A table of the figures with the ratios of the first game to each reference."""
    ours, refs = results[0], results[1:]
    rows = []
    for label, attr in [("games/s", "games_per_s"), ("transitions/s", "transitions_per_s"),
                        ("clone()/s", "clones_per_s")]:
        values = [getattr(f, attr) for f in results]
        rows.append([label, *values, *(values[0] / v for v in values[1:])])
    rows.append(["transitions/game", *(f.transitions_per_game for f in results)])
    names = [REFERENCES.get(base, base) for base in (f.game.split("(")[0] for f in results)]
    headers = ["", *names, *(f"ours/{name}" for name in names[1:])]
    floatfmt = ["", *[",.0f"] * len(results), *[".2f"] * len(refs)]
    return f"ours: {ours.game}\n\n" + tabulate(rows, headers=headers, floatfmt=floatfmt)
