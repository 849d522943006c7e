"""`koloda play`'s arguments, checked, as the options of a game at the terminal
(koloda.play.table)."""

from __future__ import annotations

import math
from pathlib import Path

from koloda.play.table import PlayError, PlayOptions, play
from koloda.solvers.levels import COUNT as LEVEL_COUNT


def add_arguments(parser) -> None:
    parser.add_argument("game", help="game name or string, e.g. durak or "
                        "durak(ranks=6,suits=2,hand_size=3)")
    parser.add_argument("--params", default="", metavar="K=V,...",
                        help='game parameters, e.g. "ranks=6,suits=2"')
    parser.add_argument("--players", type=int, metavar="N", help="number of players")
    parser.add_argument("--vs", action="append", default=[], metavar="SPEC",
                        help="the agents' specs: once for every seat koloda plays, or once "
                        "per such seat in seat order (default: the game's opponent, as "
                        "koloda games lists it)")
    parser.add_argument("--level", type=int, metavar="N",
                        help="every seat koloda plays is level N, 1 (weakest) to 8 "
                        "(`koloda levels` lists them with their Elo); instead of --vs")
    parser.add_argument("--seed", type=int, metavar="S", help="random seed (default: fresh)")
    parser.add_argument("--seat", type=int, metavar="K",
                        help="your seat (default 0)")
    parser.add_argument("--record", metavar="FILE", help="where the game's record goes "
                        "(default koloda-GAME-SEED.json here, SEED the session id without --seed)")
    parser.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause after each move you did not make (default 0.6)")
    parser.add_argument("--hint", metavar="SPEC", help="the agent that answers hint "
                        "(default: the game's default opponent)")
    parser.add_argument("--watch", action="store_true",
                        help="agents play every seat; every hand is shown")
    parser.add_argument("--analysis", type=int, default=2000, metavar="MS",
                        help="Parket: at the end, the exact solver's verdict on every move "
                        "it reaches within MS ms a position (default 2000; 0: none)")


def run_command(args, game_string) -> int:
    """`koloda play`, its arguments checked; `game_string` joins name, --params and
    --players as every command does."""
    if not 0 <= args.delay < math.inf:
        raise PlayError(f"--delay must be 0 or more seconds, not {args.delay}")
    if args.seed is not None and args.seed < 0:
        raise PlayError(f"--seed must be 0 or more, not {args.seed}")
    if args.watch and args.seat is not None:
        raise PlayError("--watch seats agents everywhere; give no --seat with it")
    if args.hint is not None and args.watch:
        raise PlayError("--hint advises a person; give no --hint with --watch")
    if not 0 <= args.analysis <= 600_000:
        raise PlayError(f"--analysis must be from 0 (none) to 600000 ms a position, not "
                        f"{args.analysis}")
    agents = args.vs
    if args.level is not None:
        if args.vs:
            raise PlayError("--level chooses koloda's agents; give no --vs with it")
        if not 1 <= args.level <= LEVEL_COUNT:
            raise PlayError(f"--level must be 1 (weakest) to {LEVEL_COUNT}, not {args.level}")
        agents = [f"level(n={args.level})"]
    options = PlayOptions(game_string(args.game, args.params, args.players), agents,
                          None if args.watch else args.seat or 0, args.seed,
                          Path(args.record) if args.record else None, args.delay, args.hint,
                          args.analysis)
    return play(options)
