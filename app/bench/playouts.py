"""Random-playout speed of a game beside two OpenSpiel games measured in the same run, and,
for a game whose rules are compiled (`games/<game>/kernel.py`), its engine's playouts in
Python against the kernel's.

Absolute rates depend on the machine; the ratios to OpenSpiel's C++ `go_fish` and Python
`python_block_dominoes` do much less, so they are what to compare across machines and commits.
"""

import importlib
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
    `seconds`, after one playout that compiles (or loads) what the game runs. Each figure
    runs at least once, whatever the budget."""
    rng = random.Random(seed)
    random_playout(game.new_initial_state(), random.Random(-1))   # compiles or loads
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
    return (f"ours: {ours.game}\n\n" + tabulate(rows, headers=headers, floatfmt=floatfmt)
            + "\n\n" + wrapper_line(results))


def wrapper_line(results: list[Figures]) -> str:
    """The figure OpenSpiel users feel: transitions/s through the pyspiel wrapper (what
    OpenSpiel's own Python algorithms call: apply_action, legal_actions, chance_outcomes),
    as a multiple of OpenSpiel's Python game `python_block_dominoes`, measured in this run."""
    ours = results[0]
    dominoes = next(f for f in results if f.game.startswith("python_block_dominoes"))
    return (f"pyspiel wrapper: {ours.transitions_per_s / dominoes.transitions_per_s:.2f}x "
            f"python_block_dominoes' transitions/s ({ours.transitions_per_s:,.0f} against "
            f"{dominoes.transitions_per_s:,.0f}, this run)")


@dataclass
class EngineFigures:
    """Random playouts per second from the start of a game, by its engine in Python and
    by its compiled kernel (the same rules, tests/durak_engine/test_kernel.py)."""

    game: str
    python_games_per_s: float
    compiled_games_per_s: float

    @property
    def speed_up(self) -> float:
        return self.compiled_games_per_s / self.python_games_per_s


def kernel_of(game: pyspiel.Game):
    """The game's compiled kernel module, None where its rules are not compiled yet."""
    try:
        return importlib.import_module(f"koloda.games.{game.get_type().short_name}.kernel")
    except ModuleNotFoundError:
        return None


def measure_engines(game: pyspiel.Game, seconds: float, seed: int = 0) -> EngineFigures | None:
    """Playouts from the initial position for `seconds` each: the engine's own
    `random_playout` on copies, then the kernel's, in batches of games (after one batch
    that compiles or loads it); None without a kernel."""
    import numpy as np
    kernel = kernel_of(game)
    if kernel is None:
        return None
    start_core = game.new_initial_state().core
    rng = random.Random(seed)
    python_games, started = 0, time.perf_counter()
    while (python_time := time.perf_counter() - started) < seconds or not python_games:
        start_core.copy().random_playout(rng.random)
        python_games += 1
    rules = kernel.rules_arrays(start_core.rules)
    state = kernel.new_state(rules)
    batch = 1000
    fools = np.zeros(batch, np.int64)
    kernel.random_playouts(state, rules, seed, 1, fools)        # compile or load
    compiled_games, started = 0, time.perf_counter()
    while (compiled_time := time.perf_counter() - started) < seconds or not compiled_games:
        kernel.random_playouts(state, rules, seed + compiled_games, batch, fools)
        compiled_games += batch
    return EngineFigures(str(game), python_games / python_time, compiled_games / compiled_time)


def format_engines(figures: EngineFigures) -> str:
    return (f"engine playouts from the start of {figures.game}: "
            f"{figures.python_games_per_s:,.0f} games/s in Python, "
            f"{figures.compiled_games_per_s:,.0f} compiled ({figures.speed_up:.1f}x)")
