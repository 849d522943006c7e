"""`koloda match A B --game G`: one agent against another on paired deals, stopped by a
sequential test (`--sprt`) or after `--games`, with the tournament's results file, resume
and lock (tournament.main.run_sequential)."""

from __future__ import annotations

import re
import shlex
import sys

from koloda import games
from koloda.games.errors import KolodaError
from koloda.tournament import config as tournament_config
from koloda.tournament.main import run_sequential
from koloda.tournament.sprt import parse_sprt

#: the most games a match plays without --games: with a test, far beyond what it needs
#: at elo1 - elo0 = 10 (about 9,000 deals at its 95th percentile); without one, a quick look
GAMES_WITH_TEST = 100_000
GAMES_WITHOUT_TEST = 200


class MatchUsageError(KolodaError):
    """A `koloda match` argument that cannot be used."""


def add_arguments(parser) -> None:
    parser.add_argument("agent", help="the agent measured: a spec, e.g. ismcts(sims=1000), "
                        "or with --config the name of one of its agents")
    parser.add_argument("opponent", help="the agent it plays against, in every other seat")
    parser.add_argument("--game", required=True, metavar="GAME",
                        help="game string, e.g. durak or snitch(target_score=0)")
    parser.add_argument("--games", type=int, metavar="N",
                        help=f"the most games to play (default {GAMES_WITH_TEST:,} with "
                        f"--sprt, else {GAMES_WITHOUT_TEST})")
    parser.add_argument("--sprt", nargs="?", const="", metavar="elo0=0,elo1=10,...",
                        help="stop when a sequential probability ratio test decides "
                        "between elo0 and elo1 (logistic Elo, default elo0=0,elo1=10,"
                        "alpha=0.05,beta=0.05)")
    clock = parser.add_mutually_exclusive_group()
    clock.add_argument("--move-ms", type=int, metavar="MS", help="a time per move for both "
                       "agents; a move past it (and a margin) loses the game")
    clock.add_argument("--clock", metavar="S+I", help="a game clock for both agents: "
                       "seconds per game plus seconds added a move, e.g. 60+0.5")
    parser.add_argument("--config", metavar="TOML", help="take the agents by name from "
                        "this tournament config")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the deals' seed (default 1)")
    parser.add_argument("--shared-deals", action="store_true",
                        help="deal from the seed and the game alone, so that every match "
                        "with this seed plays the same cards whoever plays: two agents' "
                        "matches against one opponent then pair deal by deal (koloda "
                        "compare); without it the deals depend on the agents' specs too")
    parser.add_argument("--output", default="reports", metavar="DIR",
                        help="where the results file and the report go (default reports)")
    parser.add_argument("--name", metavar="NAME", help="the results file's and report's "
                        "name (default match-GAME-AGENT-vs-OPPONENT)")
    parser.add_argument("--jobs", type=int, default=2, metavar="J", help="parallel games")


def run(args) -> None:
    test = parse_sprt(args.sprt) if args.sprt is not None else None
    config = match_config(args, test is not None)
    print(f"{config.name}: {config.spec(args.agent, args.game)} against "
          f"{config.spec(_opponent_name(args), args.game)} on {args.game}"
          + (f", SPRT {test}" if test else "") + f"; results in {config.results_path}",
          flush=True)
    try:
        watch, written = run_sequential(config, test, jobs=args.jobs, echo=sys.stderr,
                                        command=command_line(args.argv))
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"the games finished so far are kept in "
                                f"{config.results_path}; run the same command again to "
                                f"go on") from None
    print(watch.line())
    if test is not None:
        verdict = {"H1": "H1 accepted: the agent is stronger by about elo1 or more",
                   "H0": "H0 accepted: the agent is not stronger by elo1",
                   None: "undecided: the games ran out first (raise --games)"}
        print(verdict[watch.decision] + (f", after {watch.sprt.decided_at} deals"
                                         if watch.decision else ""))
    print("written: " + ", ".join(str(p) for p in written))


def command_line(argv: list[str]) -> str:
    """The command (its arguments `argv`) as a shell would take it again, for the report."""
    return "koloda " + " ".join(shlex.quote(word) for word in argv)


def match_config(args, testing: bool):
    """The one-match gauntlet config of the arguments; errors name the argument."""
    if args.games is not None and args.games < 1:
        raise MatchUsageError(f"--games must be positive, not {args.games}")
    if args.seed < 0:
        raise MatchUsageError(f"--seed must be 0 or more, not {args.seed}")
    game = games.normalize_game_string(args.game)
    agents = _agents(args)
    agent, opponent = args.agent, _opponent_name(args)
    most = args.games or (GAMES_WITH_TEST if testing else GAMES_WITHOUT_TEST)
    name = args.name or _file_name(f"match-{game}-{agent}-vs-{opponent}")
    time_control = ({"move_ms": args.move_ms} if args.move_ms is not None else
                    {"clock": args.clock} if args.clock is not None else {})
    return tournament_config.one_match_config(
        name, game, agents, agent, opponent, most, args.seed, args.jobs, args.output,
        "shared" if args.shared_deals else "per-match", time_control, "koloda match")


def _agents(args) -> dict:
    """Display name -> spec (or per-game table): the config's, or the two specs given."""
    if args.config:
        config = tournament_config.load_config(args.config)
        known = config.agents
        for name in (args.agent, args.opponent):
            if name not in known:
                raise MatchUsageError(f"{args.config} has no agent {name!r}; its agents are "
                                      f"{', '.join(known)}")
        return {args.agent: known[args.agent], _opponent_name(args): known[args.opponent]}
    return {args.agent: args.agent, _opponent_name(args): args.opponent}


def _opponent_name(args) -> str:
    """The opponent's display name: its spec, marked when it is the agent's own."""
    if args.opponent == args.agent:
        return f"{args.opponent} (copy)"
    return args.opponent


def _file_name(text: str) -> str:
    """`text` as a config name: letters, digits, - and _, at most 120 characters."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_")[:120]
