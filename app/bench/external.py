"""What a move costs through koloda's agent protocol (docs/agents.md): random moves of a
program against in-process random moves, on the same deals, beside the in-process random
agent itself, each move timed from asking to the answer (p50 and p99).

The programs: the Python example bot (docs/examples/random_bot.py, on koloda's helper),
the Node.js one (docs/examples/random_bot.js, when `node` is on PATH) and `koloda agent
random` (koloda's own agent, which also tracks the game as its seat was told it).  Each
is started once and kept for every game (solvers/external/process.py), so the figures
are the exchange of a move: building the events, legal actions and view, two pipe
writes and reads, JSON both ways, and the program's own work.  Every move is counted,
forced ones too (an external agent is asked for those as well).
"""

from __future__ import annotations

import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

from koloda import solvers
from koloda.solvers.external import external_spec, load_external
from koloda.solvers.external.process import close_idle
from koloda.tournament.match import play_game
from koloda.tournament.seeds import derive_seed


def examples_folder() -> Path:
    """docs/examples of the source tree koloda runs from, else of the current folder (an
    installed koloda run in a checkout of the repository): the example bots are not
    installed."""
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        if (root / "docs" / "examples").is_dir():
            return root / "docs" / "examples"
    return Path.cwd() / "docs" / "examples"


@dataclass
class ExchangeFigures:
    agent: str
    move_ms: list[float]        # every move's time, sorted
    games: int
    errors: int

    def percentile(self, q: float) -> float:
        if not self.move_ms:
            return float("nan")
        return self.move_ms[min(len(self.move_ms) - 1, int(q * len(self.move_ms)))]


def programs() -> list[tuple[str, str]]:
    """(name, external spec) of the programs this machine can run."""
    python = sys.executable
    found = []
    examples = examples_folder()
    if (examples / "random_bot.py").is_file():
        found.append(("random_bot.py (helper)", _spec([python, examples / "random_bot.py"])))
    node = shutil.which("node")
    if node and (examples / "random_bot.js").is_file():
        found.append(("random_bot.js (node)", _spec([node, examples / "random_bot.js"])))
    found.append(("koloda agent random", _spec([python, "-m", "koloda", "agent", "random"])))
    return found


def run_external_bench(game, games: int = 40, seed: int = 0) -> list[ExchangeFigures]:
    """The in-process random agent, then each program, against in-process random."""
    figures = [_measure(game, "random (in process)", lambda s: solvers.load_agent(
        game, "random", seed=s), games, seed)]
    for name, spec in programs():
        figures.append(_measure(game, name, lambda s, spec=spec: load_external(
            game, spec, seed=s), games, seed))
    close_idle()
    return figures


def _measure(game, name: str, build, games: int, seed: int) -> ExchangeFigures:
    times: list[float] = []
    errors = 0
    for index in range(games):
        deal = derive_seed(seed, "external-bench", index // 2)
        seat = index % game.num_players()
        seeds = [derive_seed(deal, s) for s in range(game.num_players())]
        agents = [solvers.load_agent(game, "random", seed=s) for s in seeds]
        agent = agents[seat] = build(seeds[seat])
        step = agent.step

        def timed(state, step=step):
            start = time.perf_counter()
            try:
                return step(state)
            finally:
                times.append((time.perf_counter() - start) * 1000.0)
        agent.step = timed
        errors += play_game(game, agents, deal).error is not None
    return ExchangeFigures(name, sorted(times), games, errors)


def format_external_bench(figures) -> str:
    rows = [[f.agent, len(f.move_ms), f"{f.percentile(0.5):.3f}", f"{f.percentile(0.99):.3f}",
             f.errors] for f in figures]
    return tabulate(rows, headers=["agent", "moves", "p50 ms/move", "p99 ms/move",
                                   "failed games"], tablefmt="simple", disable_numparse=True)


def _spec(argv) -> str:
    return external_spec([str(a) for a in argv])
