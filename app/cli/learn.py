"""`koloda learn GAME`: learn a value model for GAME's search from self-play, generation by
generation, for as long as asked; resumable from its folder (tournament/learn.py).  With
`--policy`, a policy from a teacher's moves instead (tournament/learn_policy.py)."""

from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path

from koloda import games
from koloda.games.errors import KolodaError
from koloda.solvers.learned import models
from koloda.tournament.learn import (
    Generation,
    Learning,
    Settings,
    ship,
    write_progress_report,
)
from koloda.tournament.learn_policy import PolicyLearning, policy_settings


class LearnUsageError(KolodaError):
    """`koloda learn` was given an argument it cannot use."""


def add_arguments(parser) -> None:
    parser.add_argument("game", help="the game string, e.g. durak")
    parser.add_argument("--hours", type=float, default=1.0,
                        help="stop starting generations after this long (default 1)")
    parser.add_argument("--generations", type=int, default=0,
                        help="stop after this many generations in all (default: no limit)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the deals and the fits")
    parser.add_argument("--sims", type=int, default=300,
                        help="simulations per move in self-play and scoring (default 300)")
    parser.add_argument("--games", type=int, default=None,
                        help="self-play games per generation (default 2000; a policy's 400)")
    parser.add_argument("--hidden", type=int, nargs="*", default=None, metavar="WIDTH",
                        help="the hidden layers' widths (default: a value model none, "
                             "linear; a policy one of 128)")
    parser.add_argument("--alpha", type=float, default=None,
                        help="the L2 penalty (default: a value model's 10, a policy's 1e-4)")
    parser.add_argument("--td", type=float, default=None, metavar="LAMBDA",
                        help="a value model's targets: TD(LAMBDA) returns, below 1 "
                             "(default 1: each game's return)")
    parser.add_argument("--policy", action="store_true",
                        help="learn a policy from a teacher's moves, not a value model")
    parser.add_argument("--teacher", default=None,
                        help="with --policy: the agent whose moves are learnt (default: "
                             "the game's level 7)")
    parser.add_argument("--against", default=None,
                        help="with --policy: the yardstick each generation is scored "
                             "against (default: the game's level 6)")
    parser.add_argument("--search", default=None, metavar="SPEC",
                        help="a value model's search: self-play and scoring value its "
                             "leaves by the last model, and it plays as it is as the "
                             "yardstick (default: ismcts(sims=SIMS), random playouts)")
    parser.add_argument("--score-games", type=int, default=200,
                        help="games of each generation's scoring gauntlet (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--ship", type=int, nargs=2, metavar=("GENERATION", "VERSION"),
                        help="copy a generation's model into koloda's shipped models as "
                             "<game>-v<VERSION> (a source checkout), and stop")
    parser.add_argument("--folder", default=None,
                        help="where the run keeps its games, models and progress "
                             "(default reports/learned/<game>)")


def run(args) -> None:
    for name in ("hours", "seed", "sims", "games", "score_games", "jobs", "generations",
                 "alpha"):
        value = getattr(args, name)
        if value is None:
            continue
        if name == "alpha" and value == 0:
            continue
        if not (isinstance(value, int | float) and math.isfinite(value)) or value < 0 or \
                (value == 0 and name not in ("seed", "generations")):
            raise LearnUsageError(f"--{name.replace('_', '-')} must be positive, not {value}")
    if args.td is not None and not 0.0 <= args.td <= 1.0:
        raise LearnUsageError(f"--td is a lambda from 0 to 1, not {args.td}")
    game = games.normalize_game_string(args.game)
    short = games.parse_game_string(game)[0]
    folder = Path(args.folder or Path("reports") / "learned" / short /
                  ("policy" if args.policy else ""))
    learning = _learning(args, game, folder)
    if args.ship:
        generation, version = args.ship
        shipped = Path(models.__file__).parent / models.FOLDER
        digest = ship(learning, generation, version, shipped)
        name = f"{short}-{'policy-' if args.policy else ''}v{version}"
        print(f"shipped generation {generation} as {name} ({digest[:12]}) in {shipped}")
        return
    done = len(learning.generations)
    print(f"learning {game} in {folder}: {done} generations there", flush=True)
    spent, limit = 0.0, args.hours * 3600
    while spent < limit and (not args.generations or done < args.generations):
        generation = learning.step()
        done += 1
        spent += generation.seconds
        print(format_generation(generation, learning.yardstick_spec()), flush=True)
        write_progress_report(learning, command_line(sys.argv[1:]))
    sys.stdout.flush()


def _learning(args, game: str, folder: Path) -> Learning:
    """The run the arguments ask for: a value model's, or with --policy a policy's."""
    if args.hidden is not None and any(width < 1 or width > 4096 for width in args.hidden):
        raise LearnUsageError("--hidden widths must be from 1 to 4096")
    if not args.policy:
        if args.teacher is not None or args.against is not None:
            raise LearnUsageError("--teacher and --against go with --policy")
        shape = {k: v for k, v in (("hidden", args.hidden), ("alpha", args.alpha),
                                   ("td", args.td), ("search", args.search))
                 if v is not None}
        return Learning(Settings(game, seed=args.seed, sims=args.sims,
                                 games=args.games or 2000, score_games=args.score_games,
                                 jobs=args.jobs, **shape), folder)
    settings = policy_settings(game, seed=args.seed, games=args.games,
                               score_games=args.score_games, jobs=args.jobs,
                               teacher=args.teacher, against=args.against,
                               hidden=args.hidden, alpha=args.alpha)
    if args.td is not None or args.search is not None:
        raise LearnUsageError("--td and --search go with a value model, not --policy")
    if not settings.teacher or not settings.against:
        raise LearnUsageError(f"{game} has no levels: give --teacher and --against")
    return PolicyLearning(settings, folder)


def command_line(argv: list[str]) -> str:
    return "koloda " + " ".join(shlex.quote(word) for word in argv)


def format_generation(g: Generation, yardstick: str) -> str:
    """One line a generation: its losses, its scores against the last generation and the
    yardstick (`yardstick`'s spec), and a policy's agreement with its teacher."""
    score = "" if g.score is None or g.number == 1 else \
        f", {100 * g.score:.1f}% [{100 * g.low:.1f}-{100 * g.high:.1f}] against the last"
    if g.playouts is not None:
        score += (f", {100 * g.playouts:.1f}% [{100 * g.playouts_low:.1f}-"
                  f"{100 * g.playouts_high:.1f}] against {yardstick}")
    agreement = "" if g.agreement is None else \
        f", the teacher's move {100 * g.agreement:.1f}% of the time"
    baseline = "the mean" if g.agreement is None else "the teacher's move frequencies"
    return (f"generation {g.number}: {g.model} ({g.digest[:12]}), {g.positions} positions, "
            f"loss {g.train_loss:.4f} train / {g.test_loss:.4f} test "
            f"({baseline} alone {g.baseline_loss:.4f}){agreement}{score}, {g.seconds:.0f} s")
