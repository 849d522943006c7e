"""The `koloda` command: parses arguments and hands them to the modules that do the work."""

import argparse
import os
import random
import sys
from pathlib import Path

import koloda
from koloda import games  # registers the koloda games with pyspiel
from koloda.bench.parallel import format_parallel_bench, run_parallel_bench
from koloda.cli import agents as agents_command
from koloda.cli import bench as bench_command
from koloda.cli import cfr as cfr_cli
from koloda.cli import learn as learn_command
from koloda.cli import levels as levels_cli
from koloda.cli import match as match_command
from koloda.cli import models as models_command
from koloda.cli import play as play_command
from koloda.cli import serve as serve_command
from koloda.cli import warm as warm_command
from koloda.cli.catalog import format_catalog
from koloda.games.errors import GameParameterError, KolodaError
from koloda.games.kit.params import format_call, parse_call
from koloda.play.show import show_game, show_record
from koloda.protocol.record import load_record
from koloda.tournament import config as tournament_config
from koloda.tournament import main as tournament_main
from koloda.tournament import report as tournament_report
from koloda.tournament.compare import compare, format_comparison, read_match
from koloda.tournament.executor import Terminated


class UsageError(KolodaError):
    """The command line itself is wrong (bad option, malformed --params)."""


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM, tournament.executor.Terminated); the message says how to pick
    up where the command stopped, if it can."""


class _Parser(argparse.ArgumentParser):
    """Reports errors as one line through `main`, instead of usage text and sys.exit."""

    def error(self, message):
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="koloda", description="Card games, agents and tournaments on OpenSpiel.")
    parser.add_argument("--version", action="version", version=f"koloda {koloda.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("games", help="list the games and their parameters")
    agents = commands.add_parser("agents", help="list the agent kinds a spec can name: "
                                 "koloda's and those installed packages add")
    agents.add_argument("--json", action="store_true", help="print one JSON object")

    show = commands.add_parser("show", help="play one game between random players and print "
                               "it, or replay a recorded game (--record FILE)")
    show.add_argument("game", nargs="?", help="game string, e.g. durak or durak(players=3); "
                      "not with --record")
    show.add_argument("--params", default="", metavar="K=V,...",
                      help='game parameters, e.g. "ranks=6,suits=2"')
    show.add_argument("--record", metavar="FILE", help="a game record, as koloda play saves it")
    show.add_argument("--players", type=int, metavar="N", help="number of players")
    show.add_argument("--seed", type=int, metavar="S", help="random seed (default: a fresh one)")

    bench = commands.add_parser("bench", help="random-playout speed beside OpenSpiel games")
    _game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=3.0, metavar="T",
                       help="time per game per figure (default 3)")
    bench.add_argument("--search", action="store_true",
                       help="measure search agents (simulations/s) instead of random playouts")
    bench.add_argument("--sims", type=int, default=500, metavar="N",
                       help="with --search: simulations per move (default 500)")
    bench.add_argument("--positions", type=int, default=20, metavar="K",
                       help="with --search or --budget: positions searched (default 20)")
    bench.add_argument("--budget", type=int, metavar="MS",
                       help="how far past a time budget of MS ms per move each search agent "
                            "ends its moves (p50, p99)")
    bench.add_argument("--solver", action="store_true",
                       help="parket: the exact solver against plain minimax and the "
                            "pure-Python reference solver, on the same positions")
    bench.add_argument("--external", action="store_true",
                       help="what a move costs through the agent protocol (docs/agents.md): "
                            "external random programs against in-process random, p50/p99")
    bench.add_argument("--games", type=int, default=40, metavar="N",
                       help="with --external: games per agent (default 40)")

    tour = commands.add_parser("tournament", help="round-robin or gauntlet from a config: "
                               "Elo with error bars, match scores, reports under reports/")
    tour.add_argument("config", nargs="?", default="configs/default.toml",
                      help="TOML file (default: configs/default.toml)")
    tour.add_argument("--jobs", type=int, metavar="J", help="parallel games (default: config)")

    parallel = commands.add_parser("bench-tournament", help="wall time of one tournament with "
                                   "1 job, J loky jobs and a local Dask cluster")
    parallel.add_argument("config", nargs="?", default="configs/parallel-bench.toml",
                          help="TOML file (default: configs/parallel-bench.toml)")
    parallel.add_argument("--jobs", type=int, default=2, metavar="J")
    parallel.add_argument("--no-dask", action="store_true", help="skip the Dask run")

    strength = commands.add_parser(
        "strength", help="run a gauntlet config (schedule = \"gauntlet\": one agent against "
        "copies of another, per match) like `koloda tournament` and write its report")
    strength.add_argument("config", help="TOML file, e.g. configs/durak-agents.toml")
    strength.add_argument("--jobs", type=int, metavar="J", help="parallel games (default: config)")

    match_command.add_arguments(commands.add_parser(
        "match", help="one agent against another on paired deals until a sequential test "
        "(--sprt) decides, or for --games games"))

    compare = commands.add_parser(
        "compare", help="two agents' matches against one opponent, compared deal by deal "
        "(play both with koloda match --shared-deals and the same --seed)")
    compare.add_argument("first", help="results file of one match, e.g. reports/a.jsonl")
    compare.add_argument("second", help="results file of the other match")

    play_command.add_arguments(commands.add_parser(
        "play", help="play a game in the terminal against koloda's agents, or watch them "
        "play (--watch)"))

    serve_command.add_arguments(commands.add_parser(
        "serve", help="speak the koloda protocol (docs/protocol.md) on stdin/stdout, or HTTP"))

    agent = commands.add_parser(
        "agent", help="play one of koloda's agents as a program of the agent protocol "
        "(docs/agents.md) on stdin/stdout, for koloda's or another tournament runner")
    agent.add_argument("spec", help="agent spec, e.g. heuristic or ismcts(sims=500)")
    agent.add_argument("--game", metavar="GAME", help="the one game it plays (its spec "
                       "is checked at start); default: whatever new_game names")
    agent.add_argument("--name", help="the name it gives in hello (default: koloda SPEC)")

    parket = commands.add_parser("parket", help="Parket positions solved exactly")
    parket_commands = parket.add_subparsers(dest="parket_command", required=True,
                                            parser_class=_Parser)
    solve = parket_commands.add_parser(
        "solve", help="the value of a position, every move's value and the best line")
    solve.add_argument("position", help='position string, e.g. "<row1>/.../<row5> r m 0"')
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--seconds", type=float, default=60.0, metavar="S",
                       help="stop after S seconds with the moves solved by then (default 60)")
    solve.add_argument("--lengths", action="store_true",
                       help="also the plies to the end of the position and of every move, "
                            "and the fastest line (several times the work)")
    solve.add_argument("--scheduler", metavar="ADDRESS",
                       help="spread the solve over a Dask cluster (tcp://host:port, or "
                            "local for --jobs workers here): values only, each unit within "
                            "--seconds")
    solve.add_argument("--split", type=int, default=2, choices=(1, 2),
                       help="with --scheduler: the units are the positions 1 or 2 plies "
                            "down (default 2)")
    solve.add_argument("--jobs", type=int, default=2, metavar="J",
                       help="with --scheduler local: workers (default 2)")
    _store_argument(solve)
    _parket_rule_arguments(solve)
    analyse = parket_commands.add_parser(
        "analyse", help="a game's record (as koloda play saves it): every move's value "
                        "before and after, and the moves that threw a win or a draw away")
    analyse.add_argument("record", help="a game record, as koloda play and the protocol "
                                        "write them")
    analyse.add_argument("--seconds", type=float, default=5.0, metavar="S",
                         help="time per position at most: the analysis starts at the first "
                              "position solved within it (default 5)")
    analyse.add_argument("--budget", type=float, default=300.0, metavar="S",
                         help="time of the whole analysis at most (default 300)")
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    _store_argument(analyse)
    endgames = parket_commands.add_parser(
        "endgames", help="solve positions of random games at N empty cells; a table of "
                         "what the side to move can force")
    endgames.add_argument("--empty", type=int, required=True, metavar="N",
                          help="empty cells of each position")
    endgames.add_argument("--count", type=int, default=20, metavar="K",
                          help="positions (default 20)")
    endgames.add_argument("--seed", type=int, default=0, metavar="S")
    endgames.add_argument("--jobs", type=int, default=1, metavar="J")
    endgames.add_argument("--output", default="reports", metavar="DIR",
                          help="where the table and the positions go (default reports)")
    endgames.add_argument("--lengths", action="store_true",
                          help="also each position's plies to the end (several times the work)")
    endgames.add_argument("--scheduler", metavar="ADDRESS",
                          help="solve the positions on a Dask cluster: tcp://host:port, or "
                               "local to start one here of --jobs workers (needs "
                               "koloda[dask])")
    endgames.add_argument("--seconds", type=float, default=0.0, metavar="S",
                          help="stop each position after S seconds, counted as stopped "
                               "(default: no limit)")
    _store_argument(endgames)
    _parket_rule_arguments(endgames)

    learn_command.add_arguments(commands.add_parser(
        "learn", help="learn a value model for a game's search from self-play, or a "
                      "policy from a teacher's moves, resumably"))
    models_command.add_arguments(commands.add_parser(
        "models", help="the learned models a spec can name, with their digests"))
    warm_command.add_arguments(commands.add_parser(
        "warm", help="compile ahead what the games and their agents run (for images and "
        "CI), and say where numba caches it"))

    cfr_cli.add_parser(commands)
    levels_cli.add_parser(commands)
    return parser


def _store_argument(parser):
    parser.add_argument("--store", metavar="FILE",
                        help="a store of solved positions to read and extend (created if "
                             "missing; docs/parket-store.md)")


def _parket_rule_arguments(parser):
    parser.add_argument("--corner-order", default="path", choices=("path", "any"))
    parser.add_argument("--max-relocations", type=int, default=4, metavar="R")


def _game_arguments(parser):
    parser.add_argument("game", help="game name, e.g. durak")
    parser.add_argument("--params", default="", metavar="K=V,...",
                        help='game parameters, e.g. "ranks=6,suits=2"')


def game_string(name: str, params: str, players: int | None = None) -> str:
    """`durak`, "ranks=6", 3 -> `durak(players=3,ranks=6)`, the form load_game reads;
    `--params` is read by the game-string grammar itself."""
    if params.strip() and "(" in name:
        raise UsageError(f"{name!r} already has parameters; use either them or --params")
    text = f"{name}({params})" if params.strip() else name
    base, values = parse_call(text, "game string", GameParameterError)
    if players is not None:
        if "players" in values:
            raise UsageError("give the number of players with --players or in --params, not both")
        values["players"] = players
    return format_call(base, values)


def run(args) -> None:
    if args.command == "games":
        print(format_catalog(games.catalog()))
    elif args.command == "agents":
        print(agents_command.run(args.json))
    elif args.command == "show" and args.record is not None:
        if args.game is not None or args.params or args.players or args.seed is not None:
            raise UsageError("--record replays the recorded game: give no game, --params, "
                             "--players or --seed with it")
        print(show_record(load_record(args.record), args.record))
    elif args.command == "show":
        if args.game is None:
            raise UsageError("show needs a game (koloda show durak) or --record FILE")
        if args.seed is not None and args.seed < 0:
            raise UsageError(f"--seed must be 0 or more, not {args.seed}")
        game = games.load_game(game_string(args.game, args.params, args.players))
        seed = random.randrange(2**31) if args.seed is None else args.seed
        print(show_game(game, seed))
    elif args.command == "bench":
        bench_command.run(args, game_string)
    elif args.command == "match":
        _check_jobs(args.jobs)
        match_command.run(args)
    elif args.command == "compare":
        print(format_comparison(compare(read_match(args.first), read_match(args.second))))
    elif args.command == "play":
        play_command.run_command(args, game_string)
    elif args.command == "serve":
        serve_command.run(args)
    elif args.command == "agent":
        from koloda.bot.koloda_agent import run_agent
        status = run_agent(args.spec, args.game, args.name)
        if status:                  # input that broke the protocol, said on stderr
            raise SystemExit(status)
    elif args.command in ("tournament", "strength"):
        run_tournament_command(args)
    elif args.command == "parket":
        run_parket_command(args)
    elif args.command == "cfr":
        cfr_cli.run(args)
    elif args.command == "levels":
        levels_cli.run(args)
    elif args.command == "learn":
        learn_command.run(args)
    elif args.command == "models":
        models_command.run(args)
    elif args.command == "warm":
        warm_command.run(args)
    elif args.command == "bench-tournament":
        _check_jobs(args.jobs)
        config = tournament_config.load_config(args.config)
        print(f"tournament {config.name}: {config.path}, the same games in every run\n")
        print(format_parallel_bench(run_parallel_bench(config, args.jobs, not args.no_dask)))


def run_parket_command(args) -> None:
    from koloda.analysis import parket as parket_cli
    from koloda.solvers.parket.limits import MAX_RELOCATIONS, MAX_TIME_LIMIT
    if args.parket_command == "analyse":
        from koloda.analysis.parket_game import run_analyse
        for option, value in (("--seconds", args.seconds), ("--budget", args.budget)):
            if not 0 < value <= MAX_TIME_LIMIT:
                raise UsageError(f"{option} must be a positive number of seconds (at most "
                                 f"{MAX_TIME_LIMIT:.0e}), not {value}")
        print(run_analyse(args.record, args.seconds, args.budget, args.json,
                          store=args.store))
        return
    if not 1 <= args.max_relocations <= MAX_RELOCATIONS:
        raise UsageError(f"--max-relocations must be from 1 to {MAX_RELOCATIONS}, the most "
                         f"the solver finishes with, not {args.max_relocations}")
    if args.parket_command == "solve":
        if not 0 < args.seconds <= MAX_TIME_LIMIT:
            raise UsageError(f"--seconds must be a positive number of seconds (at most "
                             f"{MAX_TIME_LIMIT:.0e}), not {args.seconds}")
        if args.scheduler:
            if args.store:
                raise UsageError("--store is for a solve on one machine; a solve spread "
                                 "with --scheduler shares no table")
            if args.lengths:
                raise UsageError("--lengths is for a solve on one machine; a solve spread "
                                 "with --scheduler gives values")
            _check_jobs(args.jobs)
            print(parket_cli.run_spread(args.position, args.corner_order,
                                        args.max_relocations, args.seconds, args.json,
                                        args.scheduler, args.split, args.jobs))
            return
        print(parket_cli.run_solve(args.position, args.corner_order, args.max_relocations,
                                   args.seconds, args.json, lengths=args.lengths,
                                   store=args.store))
        return
    if not 1 <= args.empty <= 27:
        raise UsageError(f"--empty must be from 1 to 27 (the cells left after the cross), "
                         f"not {args.empty}")
    if args.count < 1 or args.seed < 0:
        raise UsageError("--count must be positive and --seed 0 or more")
    if not 0 <= args.seconds <= MAX_TIME_LIMIT:
        raise UsageError(f"--seconds must be a number of seconds from 0 (no limit) to "
                         f"{MAX_TIME_LIMIT:.0e}, not {args.seconds}")
    _check_jobs(args.jobs)
    try:
        solved = parket_cli.solve_endgames(args.empty, args.count, args.seed, args.jobs,
                                           args.corner_order, args.max_relocations,
                                           lengths=args.lengths, seconds=args.seconds,
                                           scheduler=args.scheduler, store=args.store)
    except KeyboardInterrupt:
        raise Interrupted("nothing was written") from None
    summary = parket_cli.endgame_summary(args.empty, solved, args.seconds)
    print(parket_cli.format_endgames(summary))
    paths = parket_cli.write_endgames(summary, solved, Path(args.output))
    print("\nwritten: " + ", ".join(str(p) for p in paths))


def run_tournament_command(args) -> None:
    """`koloda tournament` runs any config; `koloda strength` the same way, gauntlets only."""
    config = tournament_config.load_config(args.config)
    if args.command == "strength" and config.schedule != "gauntlet":
        raise UsageError(f"{args.config} is a {config.schedule} config; koloda strength runs "
                         f"gauntlets (schedule = \"gauntlet\"), koloda tournament runs both")
    if args.jobs is not None:
        _check_jobs(args.jobs)
    try:
        written = tournament_main.run_and_report(config, jobs=args.jobs)
    except KeyboardInterrupt:
        raise Interrupted(f"the games finished so far are kept in {config.results_path}; "
                          f"run `koloda {args.command} {args.config}` again to play the "
                          f"rest") from None
    for summary, paths in written:
        print(f"\n{summary.game}: {summary.games_played} games\n")
        print(tournament_report.terminal_tables(summary))
        print("\nwritten: " + ", ".join(str(p) for p in paths))


def _check_jobs(jobs: int) -> None:
    least, most = tournament_config.LIMITS["jobs"]
    if not least <= jobs <= most:
        raise UsageError(f"--jobs must be from {least} to {most}, not {jobs}")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code (2 for a user error, 130
    after Ctrl-C and 143 after a SIGTERM that stopped parallel work, as shells report a
    process ended by SIGINT or SIGTERM)."""
    try:
        args = build_parser().parse_args(argv)
        args.argv = sys.argv[1:] if argv is None else list(argv)    # for reports to show
        run(args)
    except KolodaError as exc:
        print(f"koloda: error: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Interrupted) as exc:
        terminated = isinstance(exc, Terminated) or isinstance(exc.__context__, Terminated)
        fresh_line = "\n" if sys.stderr.isatty() else ""     # after the ^C and a progress bar
        print(f"{fresh_line}koloda: {'terminated' if terminated else 'interrupted'}"
              f"{'; ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 143 if terminated else 130
    except BrokenPipeError:  # `koloda show durak | head`: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
