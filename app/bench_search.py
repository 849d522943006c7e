"""Search speed: simulations per second of the search agents on the same mid-game states.

Our `ismcts` is measured beside OpenSpiel's Python `ISMCTSBot` (`ismcts_openspiel`),
with the same number of simulations per move on the same positions, in one run.
"""

import time
from dataclasses import dataclass

from tabulate import tabulate

from koloda import solvers
from koloda.playout import midgame_states

SPECS = ("ismcts", "ismcts_openspiel", "pimc")
REFERENCE = "ismcts_openspiel"


@dataclass
class SearchFigures:
    spec: str
    simulations_per_s: float
    ms_per_move: float


def run_search_bench(game, sims: int = 500, positions: int = 20, seed: int = 0):
    states = midgame_states(game, positions, seed)
    figures = []
    for name in SPECS:
        agent = solvers.load_agent(game, f"{name}(sims={sims})", seed=seed)
        start = time.perf_counter()
        for state in states:
            agent.step(state)
        seconds = time.perf_counter() - start
        figures.append(SearchFigures(agent.spec, sims * len(states) / seconds,
                                     1000 * seconds / len(states)))
    return figures


def format_search_bench(figures) -> str:
    reference = next(f for f in figures if f.spec.startswith(REFERENCE))
    rows = [[f.spec, f"{f.simulations_per_s:,.0f}", f"{f.ms_per_move:,.1f}",
             f"{f.simulations_per_s / reference.simulations_per_s:.2f}"] for f in figures]
    return tabulate(rows, headers=["agent", "simulations/s", "ms/move",
                                   f"ratio to {REFERENCE}"], tablefmt="simple")
