"""`koloda bench GAME`: its arguments checked, then the benchmark they name (app/bench/):
random playouts, search agents, time budgets, the agent protocol or the Parket solver."""

from __future__ import annotations

import math

from koloda import games
from koloda.bench.external import format_external_bench, run_external_bench
from koloda.bench.playouts import format_bench, format_engines, measure_engines, run_bench
from koloda.bench.search import (
    format_budget_bench,
    format_search_bench,
    run_budget_bench,
    run_search_bench,
)
from koloda.bench.solver import format_solver_bench, run_solver_bench
from koloda.games.errors import KolodaError


class BenchUsageError(KolodaError):
    """A `koloda bench` argument that cannot be used."""


def run(args, game_string) -> None:
    """`game_string` joins name and --params as every command does."""
    if not 0 < args.seconds < math.inf:
        raise BenchUsageError(f"--seconds must be a positive number of seconds, not "
                              f"{args.seconds}")
    game = games.load_game(game_string(args.game, args.params))
    if args.budget is not None:
        if args.budget < 1 or args.positions < 1:
            raise BenchUsageError("--budget and --positions must be positive")
        print(f"time budgets: {args.budget} ms per move on {args.positions} positions "
              f"of {game}\n")
        print(format_budget_bench(run_budget_bench(game, args.budget, args.positions)))
        return
    if args.external:
        if args.games < 1:
            raise BenchUsageError("--games must be positive")
        print(f"agent protocol: each move of a random agent, in process and as a "
              f"program, against in-process random, {args.games} games of {game}\n")
        print(format_external_bench(run_external_bench(game, args.games)))
        return
    if args.solver:
        if game.get_type().short_name != "parket":
            raise BenchUsageError("--solver measures the Parket solver: koloda bench "
                                  "parket --solver")
        print(format_solver_bench(run_solver_bench()))
        return
    if args.search:
        if args.sims < 1 or args.positions < 1:
            raise BenchUsageError("--sims and --positions must be positive")
        print(f"search agents, {args.sims} simulations per move on {args.positions} "
              f"mid-game positions of {game}\n")
        print(format_search_bench(run_search_bench(game, args.sims, args.positions)))
        return
    print(f"random playouts, {args.seconds:g} s per game per figure\n")
    print(format_bench(run_bench(game, args.seconds)))
    engines = measure_engines(game, args.seconds)
    if engines is not None:
        print("\n" + format_engines(engines))
