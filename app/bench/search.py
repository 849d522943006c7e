"""Search speed: simulations per second of the search agents on the same mid-game states.

Each of our searches is measured twice, compiled (whole simulations inside the game's
numba kernel, the default) and on the Python tree (`tree=python`), beside OpenSpiel's
Python `ISMCTSBot` (`ismcts_openspiel`), with the same number of simulations per move on
the same positions, in one run (in games with nothing hidden, `mcts` beside OpenSpiel's
Python `MCTSBot`).  Every agent makes one move before the clock starts, so the first
compilation (cached on disk after it) is not counted.  In games of several deals ours
stops its simulations at the end of the deal (`horizon=deal`) and OpenSpiel's plays to
the end of the game, so there `ismcts(horizon=game)`, which plays as far, is measured
too: that is the like-for-like ratio.  A game's own rollout policies are measured too:
`rollout=heuristic` on the Python tree only (solvers/search/evaluators.py), and each value
model fitted for the game (`value=`, solvers/learned/models.py) both ways: Snitch's
`rollout=learned` is its model `snitch-v1`, measured as `value=snitch-v1`.
"""

import time
from dataclasses import dataclass

from tabulate import tabulate

from koloda import solvers
from koloda.games.kit.engine import Engine
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.learned.models import value_models_for
from koloda.solvers.search.evaluators import evaluator_for
from koloda.solvers.search.mcts import PERFECT_INFORMATION

SEARCHES = ("ismcts", "pimc")
PYTHON_TREE = "tree=python"


@dataclass
class SearchFigures:
    spec: str
    simulations_per_s: float
    ms_per_move: float


def run_search_bench(game, sims: int = 500, positions: int = 20, seed: int = 0):
    states = midgame_states(game, positions, seed)
    figures = []
    for spec in _specs(states[0], sims):
        agent = solvers.load_agent(game, spec, seed=seed)
        agent.step(states[0])                       # compiled before the clock starts
        start = time.perf_counter()
        for state in states:
            agent.step(state)
        seconds = time.perf_counter() - start
        figures.append(SearchFigures(agent.spec, sims * len(states) / seconds,
                                     1000 * seconds / len(states)))
    return figures


def _specs(state, sims: int) -> list[str]:
    if state.get_game().get_type().information == PERFECT_INFORMATION:
        searches, reference = ["mcts"], "mcts_openspiel"
    else:
        searches, reference = list(SEARCHES), "ismcts_openspiel"
        core = getattr(state, "core", None)
        if core is not None and type(core).end_at_deal is not Engine.end_at_deal:
            searches.insert(1, "ismcts(horizon=game)")
    specs = []
    for search in searches:
        name, _, params = search.partition("(")
        params = params.rstrip(")")
        both = [p for p in (params, f"sims={sims}") if p]
        specs.append(f"{name}({','.join(both + [PYTHON_TREE])})")
        specs.append(f"{name}({','.join(both)})")
    short_name = state.get_game().get_type().short_name
    search = searches[0]                              # ismcts, or mcts with nothing hidden
    for rollout, leaf in evaluator_for(short_name).leaves.items():
        if leaf.kernel is not None:
            specs.append(f"{search}(rollout={rollout},sims={sims},{PYTHON_TREE})")
        specs.append(f"{search}(rollout={rollout},sims={sims})")
    for model in value_models_for(state.get_game()):
        specs.append(f"{search}(sims={sims},value={model},{PYTHON_TREE})")
        specs.append(f"{search}(sims={sims},value={model})")
    return specs + [f"{reference}(sims={sims})"]


def _python_twin(figures, figure):
    """The same search on the Python tree, measured in the same run (None for itself)."""
    if PYTHON_TREE in figure.spec or "openspiel" in figure.spec:
        return None
    for other in figures:
        if PYTHON_TREE in other.spec and _without_tree(other.spec) == figure.spec:
            return other
    return None


def _without_tree(spec: str) -> str:
    return spec.replace("," + PYTHON_TREE, "").replace(PYTHON_TREE + ",", "")


def format_search_bench(figures) -> str:
    reference = next(f for f in figures if "openspiel" in f.spec)
    rows = []
    for f in figures:
        twin = _python_twin(figures, f)
        rows.append([f.spec, f"{f.simulations_per_s:,.0f}", f"{f.ms_per_move:,.1f}",
                     "" if twin is None else f"{f.simulations_per_s / twin.simulations_per_s:.1f}",
                     f"{f.simulations_per_s / reference.simulations_per_s:.2f}"])
    return tabulate(rows, headers=["agent", "simulations/s", "ms/move", "x python tree",
                                   f"x {reference.spec.split('(')[0]}"],
                    tablefmt="simple", disable_numparse=True)


# --- time budgets ---------------------------------------------------------------------

BUDGET_SPECS = ("ismcts(ms={ms},sims=0)", "pimc(ms={ms},sims=0)",
                "pimc(ms={ms},sims=0,worlds=2000)")


@dataclass
class BudgetFigures:
    spec: str
    ms: int
    overshoot_ms: list[float]     # wall time of each move minus the budget, sorted

    def percentile(self, q: float) -> float:
        values = self.overshoot_ms
        return values[min(len(values) - 1, int(q * len(values)))]


def run_budget_bench(game, ms: int = 200, positions: int = 50, seed: int = 0):
    """Each search agent with a time budget of `ms` on the same positions (from the first
    decision on, where playouts are longest): how far past the budget each move ends."""
    states = midgame_states(game, positions, seed, min_history=0, chance=0.1)
    figures = []
    for template in BUDGET_SPECS:
        agent = solvers.load_agent(game, template.format(ms=ms), seed=seed)
        overshoot = []
        for state in states:
            start = time.perf_counter()
            agent.step(state)
            overshoot.append(1000 * (time.perf_counter() - start) - ms)
        figures.append(BudgetFigures(agent.spec, ms, sorted(overshoot)))
    return figures


def format_budget_bench(figures) -> str:
    rows = [[f.spec, len(f.overshoot_ms), f"{f.percentile(0.5):+.1f}",
             f"{f.percentile(0.99):+.1f}", f"{f.overshoot_ms[-1]:+.1f}"] for f in figures]
    return tabulate(rows, headers=["agent", "moves", "p50 ms over", "p99 ms over", "max"],
                    tablefmt="simple", disable_numparse=True)
