"""The levels' ladders: the config each game's ladder is played from, and the calibration
read off its finished games (solvers/levels.py holds the levels and their Elo).

A ladder is a gauntlet on the game's ladder string (`LADDER_GAMES`): each level against the
next (the most games: the gaps are what an app relies on) and the one after, the heuristic
against every level (the anchor, Elo 0), and `random` against the heuristic and level 1.
Its agents are the levels' specs written out, so results resume only while the specs are
the same (a changed level is a new agent, never mixed with the old one's games).

The calibration is each level's Elo with its 95% interval from the Bradley-Terry fit to all
of the ladder's games, and each gap between adjacent levels with its own interval (the
fit anchored at the lower level), with the time per move measured in the run: the median
game's and the 90th percentile game's.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path

from koloda.games.kit.files import UnreadableFile, read_regular
from koloda.solvers.levels import ANCHOR, CALIBRATION, COUNT, LADDER_GAMES, LEVELS
from koloda.tournament import ratings
from koloda.tournament.config import ConfigError, TournamentConfig
from koloda.tournament.runner import run_tournament
from koloda.tournament.summary import ms_per_move_by_game, summarize

#: the smallest gap between adjacent levels the ladder is built to show
MIN_GAP = 50


@dataclass(frozen=True)
class LadderSizes:
    """Games of each kind of ladder match, and the seed of its deals: fixed before the
    ladder runs (more games after a look at the result would bias the intervals)."""
    next: int = 200           # level n against level n + 1
    skip: int = 100           # level n against level n + 2
    anchor: int = 100         # the heuristic against every level
    random: int = 100         # random against the heuristic and against level 1
    seed: int = 2028


#: a game's own sizes where the default's intervals are too wide for its gaps.  Platinum
#: Fish's levels 2 to 4 span about 215 Elo, two gaps that 200 games a step measure only to
#: about +-35 (reports/experiments/platinum_fish-levels-fifth.md), so its adjacent matches are
#: twice as long, on deals of their own.  Snitch's eight levels share about 650 Elo, steps
#: of about 90 that 300 games a step measured to about +-25
#: (reports/experiments/snitch-levels-second.md): 500 a step measure them to about +-20
SIZES = {"platinum_fish": LadderSizes(next=400, seed=2030),
         "snitch": LadderSizes(next=500, seed=2035)}


def ladder_sizes(game_name: str) -> LadderSizes:
    return SIZES.get(game_name, LadderSizes())


def level_name(n: int) -> str:
    return f"level{n}"


def ladder_matches(game_name: str) -> list[tuple[str, str, int]]:
    """(agent, opponent, games) of every match of a game's ladder, the stronger side as
    the agent."""
    size = ladder_sizes(game_name)
    matches = [(level_name(n + 1), level_name(n), size.next) for n in range(1, COUNT)]
    matches += [(level_name(n + 2), level_name(n), size.skip) for n in range(1, COUNT - 1)]
    matches += [(level_name(n), ANCHOR, size.anchor) for n in range(1, COUNT + 1)]
    matches += [(ANCHOR, "random", size.random), (level_name(1), "random", size.random)]
    return matches


def config_path(game_name: str) -> str:
    return f"configs/levels-{game_name}.toml"


def ladder_config(game_name: str) -> str:
    """The TOML of a game's ladder (`koloda levels config GAME` prints it; the one in
    configs/ is this text, which the tests check)."""
    game = LADDER_GAMES[game_name]
    lines = [
        f"# The ladder of {game_name}'s levels (solvers/levels.py): each level against the",
        "# next and the one after, the heuristic (Elo 0) against every level, random against",
        "# the heuristic and level 1; paired deals, seats rotated; sizes fixed before it ran.",
        "# Written by `koloda levels config " + game_name + "`.  Run, then calibrate:",
        f"#     koloda tournament {config_path(game_name)}",
        f"#     koloda levels calibrate {config_path(game_name)}",
        f'name = "levels-{game_name}"',
        'schedule = "gauntlet"',
        f'games = ["{game}"]',
        f"seed = {ladder_sizes(game_name).seed}",
        "jobs = 2",
        f'anchor = "{ANCHOR}"',
        'output = "reports"',
        "",
        "[agents]",
        'random = "random"',
        f'{ANCHOR} = "{ANCHOR}"',
    ]
    lines += [f'{level_name(n)} = "{spec}"' for n, spec in enumerate(LEVELS[game_name], 1)]
    for agent, opponent, games in ladder_matches(game_name):
        lines += ["", "[[match]]", f'game = "{game}"', f'agent = "{agent}"',
                  f'opponent = "{opponent}"', f"games = {games}"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Calibration:
    game: str                     # the game's short name
    entry: dict                   # what levels.json holds for the game


def calibrate(config: TournamentConfig) -> Calibration:
    """The calibration of a finished ladder; ConfigError when the config is not a game's
    ladder of today's levels or its games are not all played."""
    game_name = _ladder_game(config)
    run = run_tournament(config, progress=False, stop_after=0)
    missing = len(run.tasks) - len(run.results)
    if missing:
        raise ConfigError(f"{config.path}: {missing} of the ladder's {len(run.tasks)} games are "
                          f"not played yet; run `koloda tournament {config.path}` first")
    game = config.games[0]
    summary = summarize(config, run, game)
    rows = {row.agent: row for row in summary.ratings}
    outcomes = [ratings.GameOutcome(seats=list(r.seats), returns=r.returns)
                for _, r in run.finished()]
    agents = config.agents_in(game)
    times = ms_per_move_by_game(run.tasks.of_game(0), run.timing, agents)
    levels = [{"n": n, "spec": LEVELS[game_name][n - 1], "elo": rows[level_name(n)].elo,
               "low": rows[level_name(n)].low, "high": rows[level_name(n)].high,
               **_time_per_move(times[level_name(n)]), "games": rows[level_name(n)].games}
              for n in range(1, COUNT + 1)]
    gaps = []
    for n in range(1, COUNT):
        elo, low, high = ratings.rating_intervals(outcomes, agents, anchor=level_name(n),
                                                  samples=config.bootstrap, seed=config.seed)
        upper = agents.index(level_name(n + 1))
        gaps.append({"from": n, "to": n + 1, "elo": float(elo[upper]),
                     "low": float(low[upper]), "high": float(high[upper])})
    others = {name: {"elo": rows[name].elo, "low": rows[name].low, "high": rows[name].high,
                     **_time_per_move(times[name])}
              for name in ("random", ANCHOR)}
    return Calibration(game_name, {
        "game": game, "anchor": ANCHOR, "config": config.path, "games": len(run.results),
        "levels": levels, "gaps": gaps, "others": others})


def _time_per_move(games: list[float]) -> dict:
    """The time per move an app can plan for: the median game's, and the 90th percentile
    game's (the mean would follow the few games a cold compile cache or a busy machine
    slowed)."""
    if not games:
        return {"ms_per_move": None, "ms_per_move_p90": None}
    ordered = sorted(games)
    return {"ms_per_move": statistics.median(ordered),
            "ms_per_move_p90": ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]}


def _ladder_game(config: TournamentConfig) -> str:
    """The game whose ladder `config` is, checked: its game string and agents are the
    ladder's, the levels' specs today's."""
    if len(config.games) != 1:
        raise ConfigError(f"{config.path}: a ladder plays one game, not {len(config.games)}")
    names = [name for name, game in LADDER_GAMES.items() if game == config.games[0]]
    if not names:
        raise ConfigError(f"{config.path}: {config.games[0]} is no ladder's game; the "
                          f"ladders play {', '.join(LADDER_GAMES.values())}")
    game_name = names[0]
    for n, spec in enumerate(LEVELS[game_name], 1):
        played = config.agents.get(level_name(n))
        if played != spec:
            raise ConfigError(f"{config.path}: {level_name(n)} is {played!r}, but level {n} "
                              f"of {game_name} is {spec!r} now; write the ladder anew with "
                              f"`koloda levels config {game_name}`")
    if config.anchor != ANCHOR:
        raise ConfigError(f"{config.path}: a ladder's anchor is {ANCHOR!r}")
    _check_ladder_matches(config, game_name)
    return game_name


def _check_ladder_matches(config: TournamentConfig, game_name: str) -> None:
    """ConfigError unless the config plays the game's documented ladder: its matches and
    their sizes, its seed, and random and the heuristic as themselves (a ladder cut short
    would calibrate on a few games; one of other sizes, on other intervals)."""
    anew = f"; write the ladder anew with `koloda levels config {game_name}`"
    for name in ("random", ANCHOR):
        if config.agents.get(name) != name:
            raise ConfigError(f"{config.path}: {name} is {config.agents.get(name)!r} in a "
                              f"ladder, not {name!r}{anew}")
    sizes = ladder_sizes(game_name)
    if config.seed != sizes.seed:
        raise ConfigError(f"{config.path}: the seed of {game_name}'s ladder is "
                          f"{sizes.seed}, not {config.seed}{anew}")
    wanted = {(agent, opponent): games for agent, opponent, games in ladder_matches(game_name)}
    played = {(m.agent, m.opponent): m.games for m in config.matches}
    for (agent, opponent), games in wanted.items():
        if played.get((agent, opponent)) != games:
            given = played.get((agent, opponent))
            what = "is missing" if given is None else f"plays {given} games"
            raise ConfigError(f"{config.path}: the match {agent} against {opponent} {what}; "
                              f"{game_name}'s ladder plays {games}{anew}")
    extra = sorted(set(played) - set(wanted))
    if extra or len(config.matches) != len(wanted):
        agent, opponent = extra[0] if extra else next(iter(played))
        raise ConfigError(f"{config.path}: the match {agent} against {opponent} is not one "
                          f"of {game_name}'s ladder{anew}")


def checkout_calibration(folder: Path | None = None) -> Path | None:
    """The levels.json of the koloda checkout `folder` (default: here) is in, where
    `koloda levels calibrate` writes by default; None outside a checkout (the installed
    package's copy would be lost at the next install, so it is never the default)."""
    folder = Path.cwd() if folder is None else folder
    pyproject = folder / "pyproject.toml"
    target = folder / "solvers" / "levels.json"
    try:
        named = 'name = "koloda"' in pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return target if named and target.is_file() else None


#: the largest levels.json read before it is rewritten (the shipped one is under 20 KiB)
MAX_CALIBRATION_BYTES = 1024 * 1024


def read_calibration(path: Path, missing_ok: bool = True) -> dict:
    """The levels.json at `path`, {} where there is none yet in an existing folder (with
    `missing_ok`); ConfigError for anything else (a folder, a pipe, a file that is not
    JSON), which calibrate checks before it fits, and never overwrites."""
    if not path.parent.is_dir():
        raise ConfigError(f"calibration {path}: its folder does not exist")
    try:
        data = json.loads(read_regular(path, MAX_CALIBRATION_BYTES).decode("utf-8"))
    except UnreadableFile as err:
        if str(err) == "does not exist" and missing_ok:
            return {}
        raise ConfigError(f"calibration {path} {err}") from None
    except (ValueError, RecursionError):             # not UTF-8, not JSON
        raise ConfigError(f"calibration {path} is not a levels.json (not JSON)") from None
    if not isinstance(data, dict):
        raise ConfigError(f"calibration {path} is not a levels.json (not a JSON object)")
    return data


def write_calibration(calibration: Calibration, path: Path = CALIBRATION) -> None:
    """Merge one game's calibration into levels.json (the others' entries are kept)."""
    data = read_calibration(path)
    data[calibration.game] = _finite(calibration.entry)
    try:
        path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    except OSError as err:
        raise ConfigError(f"calibration {path} cannot be written: "
                          f"{err.strerror or err}") from None


def _finite(value):
    """JSON has no infinity: an unbounded interval end is written as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value
