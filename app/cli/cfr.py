"""`koloda cfr ...`: training, exploitability and curves on the miniatures."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

from koloda import games
from koloda.games.errors import KolodaError
from koloda.games.kit.params import SHOWN_VALUE, cut
from koloda.solvers import load_agent
from koloda.solvers.cfr import policy_file
from koloda.solvers.cfr.agent_policy import agent_exploitability
from koloda.solvers.cfr.curve import draw_curves
from koloda.solvers.cfr.efg import efg_tree
from koloda.solvers.cfr.presets import PRESETS, resolve
from koloda.solvers.cfr.training import ALGOS, describe_point, train

DEFAULT_FOLDER = Path("reports/cfr")
MAX_SEED = 2**31 - 1      # the largest seed OpenSpiel's C++ MCCFR solvers take (an int)


class CfrUsageError(KolodaError):
    """A `koloda cfr` option is wrong."""


def add_parser(commands) -> None:
    """The `cfr` subcommand and its own subcommands, on the main parser's subparsers."""
    cfr = commands.add_parser("cfr", help="CFR and MCCFR on the miniatures, exploitability "
                              "of agents")
    sub = cfr.add_subparsers(dest="cfr_command", required=True, metavar="COMMAND",
                             help="presets, train, exploitability or curves",
                             parser_class=commands._parser_class)

    sub.add_parser("presets", help="the miniature game strings and their sizes")

    train_cmd = sub.add_parser("train", help="train an average policy, checkpointed to a "
                               "file, exploitability printed as it goes")
    train_cmd.add_argument("game", help="a game string or a preset name (koloda cfr presets)")
    train_cmd.add_argument("--algo", choices=ALGOS, default="cfr+")
    train_cmd.add_argument("--iterations", type=int, required=True, metavar="N")
    train_cmd.add_argument("--seconds", type=float, metavar="T",
                           help="stop after T seconds of training (measurements excluded)")
    train_cmd.add_argument("--seed", type=int, default=0, metavar="S",
                           help="seed of the sampling solvers (default 0)")
    train_cmd.add_argument("--measurements", type=int, default=20, metavar="K",
                           help="exploitability measurements, log-spaced (default 20)")
    train_cmd.add_argument("--out", metavar="FILE", help="policy file (default "
                           f"{DEFAULT_FOLDER}/NAME-ALGO.json.gz)")
    train_cmd.add_argument("--curve", metavar="PNG", help="convergence chart (default: the "
                           "policy file's name with .png)")

    expl = sub.add_parser("exploitability", help="exploitability of agents' policies, "
                          "each information state asked once")
    expl.add_argument("game", help="a game string or a preset name")
    expl.add_argument("--agent", action="append", required=True, metavar="SPEC",
                      help="an agent spec; repeat for several")
    expl.add_argument("--seed", type=int, default=1, metavar="S",
                      help="seed of the agents that set none (default 1)")

    curves = sub.add_parser("curves", help="one convergence chart from several policy files")
    curves.add_argument("png", help="the chart to write")
    curves.add_argument("files", nargs="+", help="policy files (their curves are stored)")


def run(args) -> None:
    command = args.cfr_command
    if command == "presets":
        print(format_presets())
    elif command == "train":
        run_train(args)
    elif command == "exploitability":
        run_exploitability(args)
    elif command == "curves":
        runs = [(f"{d.algo} ({d.iterations} it.)", d.curve)
                for d in (policy_file.load(f) for f in args.files)]
        games_seen = {policy_file.load(f).game for f in args.files}
        draw_curves(runs, _writable(args.png), " / ".join(sorted(games_seen)))
        print(f"written: {args.png}")


def format_presets() -> str:
    lines = []
    for p in PRESETS.values():
        lines.append(f"{p.name:20} {p.game}\n{'':20} {p.histories:,} histories, "
                     f"{p.infosets:,} information states, for {p.use}: {p.note}")
    return "\n".join(lines)


def run_train(args) -> None:
    if args.iterations < 1:
        raise CfrUsageError(f"--iterations must be positive, not {args.iterations}")
    if args.seconds is not None and not 0 < args.seconds < math.inf:
        raise CfrUsageError(f"--seconds must be a positive number, not {args.seconds}")
    if args.measurements < 1:
        raise CfrUsageError(f"--measurements must be positive, not {args.measurements}")
    if not 0 <= args.seed <= MAX_SEED:
        raise CfrUsageError(f"--seed must be from 0 to {MAX_SEED:,} (OpenSpiel's solvers "
                            f"take a 32-bit signed seed), not "
                            f"{cut(str(args.seed), SHOWN_VALUE)}")
    game = games.load_game(resolve(args.game))
    name = _file_stem(args.game)
    out = _writable(args.out or DEFAULT_FOLDER / f"{name}-{args.algo}.json.gz")
    curve = _writable(args.curve or str(out).removesuffix(".json.gz") + ".png")
    print(f"{args.algo} on {policy_file.game_string_of(game)}: up to {args.iterations} "
          f"iterations" + (f" or {args.seconds:g} s" if args.seconds else ""), flush=True)
    started = time.perf_counter()
    data = train(game, args.algo, args.iterations, args.seconds, args.seed,
                 args.measurements, out=out,
                 on_point=lambda p: print(describe_point(args.algo, p, args.iterations),
                                          flush=True))
    draw_curves([(args.algo, data.curve)], curve, f"{args.algo} on {data.game}")
    print(f"{data.iterations} iterations in {data.seconds:.1f} s of training "
          f"({data.cpu_seconds:.1f} s cpu; {time.perf_counter() - started:.1f} s with "
          f"copying the tree and the measurements); "
          f"exploitability {data.exploitability:.5f}")
    print(f"written: {out}, {curve}")


def run_exploitability(args) -> None:
    """Every spec is built and the tree copied before the table starts, so a bad agent
    or a game too large is one error line, not a table cut short."""
    game = games.load_game(resolve(args.game))
    agents = [(spec, load_agent(game, spec, seed=args.seed)) for spec in args.agent]
    efg_tree(game)                          # checks the tree's size; kept for every agent
    print(f"exploitability (NashConv / {game.num_players()}) on "
          f"{policy_file.game_string_of(game)}\n")
    print("| agent | exploitability | seconds asking |")
    print("|---|---:|---:|")
    for spec, agent in agents:
        value, seconds = agent_exploitability(game, agent)
        extra = ""
        if hasattr(agent, "fallbacks"):
            extra = f" (uniform at {agent.fallbacks} states it lacked)"
        print(f"| `{spec}`{extra} | {value:.4f} | {seconds:.0f} |", flush=True)


def _file_stem(game: str) -> str:
    """A preset's name, or the game string made safe for a file name."""
    if game in PRESETS:
        return game
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", games.normalize_game_string(game)).strip("_")


def _writable(path) -> Path:
    path = Path(path)
    if path.is_dir():
        raise CfrUsageError(f"{path} is a folder; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CfrUsageError(f"cannot write {path}: {err.strerror}") from None
    return path
