"""`koloda levels ...`: the levels and their measured Elo, a game's ladder config, and the
calibration read off a finished ladder (tournament/levels.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tabulate import tabulate

from koloda.games.errors import KolodaError
from koloda.solvers.levels import LADDER_GAMES, LEVELS, levels_of
from koloda.tournament.config import load_config
from koloda.tournament.levels import (
    calibrate,
    checkout_calibration,
    config_path,
    ladder_config,
    read_calibration,
    write_calibration,
)
from koloda.tournament.levels_report import write_levels_report


class LevelsUsageError(KolodaError):
    """A `koloda levels` argument is wrong."""


def add_parser(commands) -> None:
    levels = commands.add_parser("levels", help="the eight levels of each game with their "
                                 "measured Elo; ladder configs and their calibration")
    sub = levels.add_subparsers(dest="levels_command", metavar="COMMAND",
                                help="show (the default), config or calibrate",
                                parser_class=commands._parser_class)
    show = sub.add_parser("show", help="each level's spec, Elo, interval and time per move")
    show.add_argument("game", nargs="?", help="one game (default: all)")
    show.add_argument("--calibration", metavar="PATH",
                      help="a levels.json written by calibrate --calibration (default: "
                      "the installed one)")
    config = sub.add_parser("config", help="print a game's ladder config (the one in "
                            "configs/levels-GAME.toml)")
    config.add_argument("game")
    calibration = sub.add_parser("calibrate", help="read a finished ladder's games and "
                                 "write the levels' Elo (levels.json) and reports/levels.md")
    calibration.add_argument("config", help="the ladder, e.g. configs/levels-durak.toml")
    calibration.add_argument("--output", default="reports", metavar="DIR",
                             help="where levels.md and its charts go (default reports)")
    calibration.add_argument("--calibration", metavar="PATH",
                             help="the levels.json written (the game's entry replaced, the "
                             "others kept); default: the checkout's solvers/levels.json, "
                             "when run from a koloda checkout")


def run(args) -> None:
    command = args.levels_command or "show"
    if command == "config":
        print(ladder_config(_game_name(args.game)), end="")
    elif command == "calibrate":
        path = Path(args.calibration) if args.calibration else checkout_calibration()
        if path is None:
            raise LevelsUsageError(
                "calibrate writes levels.json: give --calibration PATH, or run it from a "
                "koloda checkout to update its solvers/levels.json (the installed "
                "package's copy would be lost at the next install)")
        read_calibration(path)                  # a wrong path is refused before the fit
        calibration = calibrate(load_config(args.config))
        write_calibration(calibration, path)
        written = write_levels_report(Path(args.output), path)
        print(show_levels([calibration.game], json.loads(path.read_text())))
        print("\nwritten: " + ", ".join(str(p) for p in [path, *written]))
    else:
        game = getattr(args, "game", None)
        names = [_game_name(game)] if game else list(LEVELS)
        given = getattr(args, "calibration", None)
        if not given:
            print(show_levels(names))
            return
        data = read_calibration(Path(given), missing_ok=False)
        try:
            shown = show_levels(names, data)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise LevelsUsageError(f"calibration {given} is not a levels.json (an entry of "
                                   f"another shape)") from None
        print(shown)


def _game_name(name: str) -> str:
    if name not in LEVELS:
        raise LevelsUsageError(f"no levels for {name!r}; levels exist for "
                               f"{', '.join(LEVELS)}")
    return name


def show_levels(game_names: list[str], data: dict | None = None) -> str:
    """The levels of each game, measured as the installed calibration (or `data`, one
    read from a levels.json) has them."""
    blocks = []
    for name in game_names:
        rows = [[level.n, level.spec, _elo(level), "" if level.ms_per_move is None
                 else f"{level.ms_per_move:.1f}"] for level in levels_of(name, data)]
        blocks.append(f"{name} (Elo on {LADDER_GAMES[name]}, heuristic = 0; ladder "
                      f"{config_path(name)})\n"
                      + tabulate(rows, headers=["level", "spec", "Elo [95%]", "ms/move"]))
    return "\n\n".join(blocks)


def _elo(level) -> str:
    if level.elo is None:
        return "not measured"
    low = "-inf" if level.low is None else f"{level.low:.0f}"
    high = "+inf" if level.high is None else f"{level.high:.0f}"
    return f"{level.elo:.0f} [{low}, {high}]"
