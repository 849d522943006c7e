"""reports/levels.md: every calibrated game's ladder as a table and a chart, from
levels.json (tournament/levels.py writes it)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from tabulate import tabulate

from koloda.solvers.levels import ANCHOR, CALIBRATION, LEVELS, calibration_of
from koloda.tournament.levels import MIN_GAP, config_path


def write_levels_report(folder: Path, calibration: Path = CALIBRATION) -> list[Path]:
    """reports/levels.md and one chart per calibrated game; the paths written."""
    data = json.loads(calibration.read_text()) if calibration.exists() else {}
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    lines = ["# Levels: opponents an app can tune", "",
             "`level(n=1..8)` plays a fixed spec per game, with a budget of simulations, so "
             "its strength does not depend on the machine (its time per move does: the "
             "figures below are this run's: the median game's milliseconds a move, and the "
             "90th percentile game's). `level(elo=E)` picks the level whose Elo is "
             f"nearest E. Elo is relative to `{ANCHOR}` (0), from a Bradley-Terry fit to all "
             "of a ladder's games (paired deals, seats rotated), with 95% bootstrap "
             "intervals; each gap is the upper level's Elo with the fit anchored at the "
             f"lower one. The ladders are built to show gaps of at least {MIN_GAP} Elo.", ""]
    for game_name in LEVELS:
        entry = calibration_of(game_name, data)
        lines += [f"## {game_name}", ""]
        if entry is None:
            lines += [f"Not calibrated yet: `koloda tournament {config_path(game_name)}`, "
                      f"then `koloda levels calibrate {config_path(game_name)}`.", ""]
            continue
        stale = [row["n"] for row in entry["levels"]
                 if row["spec"] != LEVELS[game_name][row["n"] - 1]]
        lines += [f"Ladder `{entry['config']}` on `{entry['game']}`: {entry['games']} games.", ""]
        lines += [_table(entry), ""]
        if stale:
            lines += [f"Levels {', '.join(map(str, stale))} have changed since: their rows are "
                      f"not used until the ladder is played again.", ""]
        short = [g for g in entry["gaps"] if g["low"] is None or g["low"] < MIN_GAP]
        lines += [_gap_verdict(short), ""]
        # levels-<game>.png is the ladder tournament's own Elo chart
        chart = folder / f"levels-chart-{game_name}.png"
        _chart(game_name, entry).savefig(chart)
        written.append(chart)
        lines += [f"![{game_name}: Elo of each level]({chart.name})", ""]
    path = folder / "levels.md"
    path.write_text("\n".join(lines))
    return [path] + written


def _table(entry: dict) -> str:
    gaps = {g["to"]: g for g in entry["gaps"]}
    rows = []
    for name in ("random", ANCHOR):
        other = entry["others"][name]
        rows.append([name, f"`{name}`", _elo(other), "", _ms(other), ""])
    for row in entry["levels"]:
        gap = gaps.get(row["n"])
        rows.append([row["n"], f"`{row['spec']}`", _elo(row), _elo(gap) if gap else "",
                     _ms(row), row["games"]])
    return tabulate(rows, headers=["level", "spec", "Elo [95%]", "gap to the level below",
                                   "ms/move (median game; 90th pct)", "games"],
                    tablefmt="github")


def _elo(row: dict) -> str:
    low = "-inf" if row["low"] is None else f"{row['low']:.0f}"
    high = "+inf" if row["high"] is None else f"{row['high']:.0f}"
    return f"{row['elo']:.0f} [{low}, {high}]"


def _ms(row: dict) -> str:
    median, p90 = row["ms_per_move"], row.get("ms_per_move_p90")
    if median is None:
        return ""
    return f"{median:.1f}" if p90 is None else f"{median:.1f}; {p90:.1f}"


def _gap_verdict(short: list[dict]) -> str:
    if not short:
        return f"Every gap's interval lies above {MIN_GAP} Elo."
    named = ", ".join(f"{g['from']}-{g['to']}" for g in short)
    return f"Gaps whose interval reaches below {MIN_GAP} Elo: {named}."


def _chart(game_name: str, entry: dict):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 4), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    xs = [row["n"] for row in entry["levels"]]
    elos = [row["elo"] for row in entry["levels"]]
    below = [row["elo"] - (row["low"] if row["low"] is not None else row["elo"])
             for row in entry["levels"]]
    above = [(row["high"] if row["high"] is not None else row["elo"]) - row["elo"]
             for row in entry["levels"]]
    ax.errorbar(xs, elos, yerr=[below, above], fmt="o-", color="tab:blue", capsize=4,
                label="level, 95% interval")
    for name, style in (("random", "tab:gray"), (ANCHOR, "tab:red")):
        elo = entry["others"][name]["elo"]
        if elo is not None and math.isfinite(elo):
            ax.axhline(elo, color=style, linestyle=":", linewidth=1, label=name)
    ax.set_xticks(xs)
    ax.set_xlabel("level")
    ax.set_ylabel(f"Elo ({ANCHOR} = 0)")
    ax.set_title(f"{game_name}: the levels' Elo on {entry['game']}", parse_math=False)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    return fig
