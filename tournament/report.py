"""Writing up a finished tournament: terminal tables, and a folder holding a Markdown
report, the ratings as CSV, the whole summary as JSON and a chart of the ratings as PNG.

Everything here reads the tournament's `summary` dict (see `write_reports`); nothing is
recomputed, so the report shows exactly the figures the tournament produced.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from tabulate import tabulate

RATING_HEADERS = ["rank", "agent", "Elo", "95% CI", "games", "score", "W/D/L", "ms/move"]
RATING_ALIGN = ["right", "left", "right", "right", "right", "right", "right", "right"]


# ---------------------------------------------------------------- cell formatting

def _missing(value) -> bool:
    """No figure to show: absent, or NaN (e.g. a score without any pairwise result)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _unbounded(value) -> bool:
    """An interval end the data cannot bound (tournament.ratings makes it infinite)."""
    return not _missing(value) and math.isinf(value)


def _elo(value: float) -> str:
    return "n/a" if _missing(value) else f"{value:.0f}"


def _interval(row: dict, anchor: str | None) -> str:
    """The 95% interval as distances from the rating (+up/-down), BayesElo style: the
    reader sees the uncertainty directly, and the interval need not be symmetric.
    An end the data cannot bound is infinite and reads +inf or -inf; an anchor pinned
    to its rating says "anchor" rather than +0/-0."""
    if any(_missing(row[k]) for k in ("elo", "low", "high")):
        return "n/a"
    if row["agent"] == anchor and row["low"] == row["high"]:
        return "anchor"
    return f"+{row['high'] - row['elo']:.0f}/-{row['elo'] - row['low']:.0f}"


def _percent(fraction: float) -> str:
    return "n/a" if _missing(fraction) else f"{100 * fraction:.1f}%"


def _ms(value: float | None) -> str:
    """One decimal, two below 1 ms so fast agents do not all read 0.0."""
    if _missing(value):
        return ""
    return f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def _wall_time(seconds: float) -> str:
    """Readable wall time: seconds for short runs, minutes or hours for long ones."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {sec} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _ranked_agents(summary: dict) -> list[str]:
    """Agents best first, the order every table and the chart use."""
    return [row["agent"] for row in sorted(summary["ratings"], key=lambda r: r["rank"])]


# ---------------------------------------------------------------- tables

def ratings_table(summary: dict, fmt: str = "simple") -> str:
    """The ranking with each rating's uncertainty; `fmt` is a tabulate format
    ("simple" for the terminal, "pipe" for Markdown with aligned columns)."""
    anchor = summary.get("anchor")
    rows = [[r["rank"], r["agent"], _elo(r["elo"]), _interval(r, anchor), r["games"],
             _percent(r["score"]), f"{r['wins']}/{r['draws']}/{r['losses']}",
             _ms(r.get("ms_per_move"))]
            for r in sorted(summary["ratings"], key=lambda r: r["rank"])]
    return tabulate(rows, headers=RATING_HEADERS, tablefmt=fmt,
                    colalign=RATING_ALIGN, disable_numparse=True)


def _crosstable(summary: dict, cell, fmt: str) -> str:
    """A square agent-by-agent table in rank order; `cell(row, col)` fills the off-diagonal
    cells and returns "-" when the pair has no figure (they never met)."""
    agents = _ranked_agents(summary)
    rows = [[a] + ["" if a == b else cell(a, b) for b in agents] for a in agents]
    return tabulate(rows, headers=[""] + agents, tablefmt=fmt,
                    colalign=["left"] + ["right"] * len(agents), disable_numparse=True)


def head_to_head_table(summary: dict, fmt: str = "simple") -> str:
    """Score of the row agent against the column agent, with the games behind it."""
    results = summary["head_to_head"]

    def cell(a: str, b: str) -> str:
        r = results.get(a, {}).get(b)
        if r is None:
            return "-"
        return f"{_percent(r['score'])} {r['wins']}-{r['draws']}-{r['losses']}"

    return _crosstable(summary, cell, fmt)


def los_table(summary: dict, fmt: str = "simple") -> str:
    """Likelihood that the row agent is stronger than the column agent, in percent."""
    los = summary["los"]

    def cell(a: str, b: str) -> str:
        value = los.get(a, {}).get(b)
        return "-" if _missing(value) else f"{100 * value:.1f}"

    return _crosstable(summary, cell, fmt)


# ---------------------------------------------------------------- Markdown

def _setup_lines(summary: dict) -> list[str]:
    """What was played, so the report can be reproduced from it."""
    games = ", ".join(f"`{g}`" for g in summary["games"])
    lines = [
        f"Config `{summary['config']}`, seed {summary['seed']}, {summary['jobs']} jobs "
        f"({summary['backend']} backend): {summary['games_played']} games played in "
        f"{_wall_time(summary['wall_seconds'])} of wall time.", "",
        f"Games: {games}.", "",
    ]
    agents = [[f"{name} (anchor)" if name == summary.get("anchor") else name, f"`{spec}`"]
              for name, spec in summary["agents"].items()]
    lines += [tabulate(agents, headers=["agent", "spec"], tablefmt="pipe",
                       disable_numparse=True), ""]
    return lines


def _explanation(summary: dict) -> str:
    """Two or three sentences so a reader new to Elo can read the tables."""
    anchor = summary.get("anchor")
    pinned = next((r["elo"] for r in summary["ratings"] if r["agent"] == anchor), 0.0)
    scale = (f"Ratings are relative to {anchor}, fixed at {pinned:.0f}." if anchor else
             "No agent is anchored, so only differences between ratings mean anything.")
    return (
        "Elo comes from a Bradley-Terry fit to the results of all games: a gap of 100 "
        "points means the stronger agent is expected to score about 64% against the "
        "weaker. The 95% interval (+up/-down) comes from refitting on bootstrap resamples "
        "of the games, and LOS is the likelihood that the row agent is truly stronger "
        f"than the column agent. {scale}"
    )


def _error_lines(summary: dict) -> list[str]:
    """Agent crashes, one line each; the section is left out when there were none."""
    errors = summary.get("errors") or []
    if not errors:
        return []
    lines = [f"## Agent errors ({len(errors)})", ""]
    for e in errors:
        message = " ".join(str(e["message"]).split())     # one line per error
        lines.append(f"- game {e['game']}, {e['agent']} (seat {e['seat']}): {message}")
    return lines + [""]


def markdown(summary: dict, chart_name: str) -> str:
    """The whole Markdown report; `chart_name` is the PNG's file name next to it."""
    lines = [f"# Tournament: {summary['name']}", ""]
    lines += _setup_lines(summary)
    lines += ["## Ratings", "", ratings_table(summary, "pipe"), ""]
    lines += ["## Head to head", "",
              "Score of the row agent against the column agent, then its wins-draws-losses.",
              "", head_to_head_table(summary, "pipe"), ""]
    lines += ["## Likelihood of superiority (%)", "", los_table(summary, "pipe"), ""]
    lines += ["## What the numbers mean", "", _explanation(summary), ""]
    lines += [f"![Elo ratings with 95% intervals]({chart_name})", ""]
    lines += _error_lines(summary)
    return "\n".join(lines)


# ---------------------------------------------------------------- chart

def ratings_chart(summary: dict):
    """Ratings as points with their 95% intervals, best at the top, anchor marked.
    Returns a matplotlib Figure built without pyplot, so no global state or display."""
    # Imported here: the terminal tables should not pay for loading matplotlib.
    from matplotlib.figure import Figure

    rows = sorted(summary["ratings"], key=lambda r: r["rank"], reverse=True)  # best on top
    rows = [r for r in rows if not _missing(r["elo"])]
    anchor = summary.get("anchor")
    left, right = _chart_limits(rows)
    ys = range(len(rows))

    fig = Figure(figsize=(7.5, 1.4 + 0.5 * len(rows)), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    for y, r in zip(ys, rows):
        low, high = _bar_ends(r, left, right)
        ax.errorbar([r["elo"]], [y], xerr=[[r["elo"] - low], [high - r["elo"]]], fmt="o",
                    color="tab:blue", elinewidth=2, capsize=5, markersize=7)
        for end, edge, arrow in ((r["low"], left, "<"), (r["high"], right, ">")):
            if _unbounded(end):                 # unbounded: arrow at the chart's edge
                ax.plot([edge], [y], marker=arrow, color="tab:blue", markersize=8,
                        clip_on=False)
        ax.annotate(f"{r['elo']:.0f}", (r["elo"], y), xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=9,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
        if r["agent"] == anchor:
            ax.plot([r["elo"]], [y], marker="D", color="tab:red", markersize=8, zorder=3)
            ax.axvline(r["elo"], color="tab:red", linestyle=":", linewidth=1)
    ax.set_yticks(list(ys), [f"{r['agent']} (anchor)" if r["agent"] == anchor
                             else r["agent"] for r in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(left, right)
    label = f"Elo (relative to {anchor})" if anchor else "Elo"
    if any(_unbounded(r[k]) for r in rows for k in ("low", "high")):
        label += "; arrow: the data cannot bound that end of the interval"
    ax.set_xlabel(label)
    ax.set_title(f"{summary['name']}: Elo ratings with 95% intervals")
    ax.grid(axis="x", alpha=0.3)
    return fig


def _chart_limits(rows: list[dict]) -> tuple[float, float]:
    """The x range: every finite rating and interval end, with a margin for the labels."""
    finite = [r[k] for r in rows for k in ("elo", "low", "high")
              if not _missing(r[k]) and math.isfinite(r[k])] or [0.0]
    lo, hi = min(finite), max(finite)
    pad = 0.08 * (hi - lo) if hi > lo else 50.0
    return lo - pad, hi + pad


def _bar_ends(row: dict, left: float, right: float) -> tuple[float, float]:
    """Where a rating's bar ends: infinite ends at the chart's edge, missing ones at the
    rating itself (no bar)."""
    def end(value, edge):
        if _missing(value):
            return row["elo"]
        return edge if _unbounded(value) else value
    low, high = end(row["low"], left), end(row["high"], right)
    return min(low, row["elo"]), max(high, row["elo"])


# ---------------------------------------------------------------- files

def _write_csv(summary: dict, path: Path) -> None:
    """One line per agent with every field of its rating row, full precision."""
    fields = list(dict.fromkeys(key for row in summary["ratings"] for key in row))
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(summary["ratings"])


def write_reports(summary: dict, folder: str | Path) -> list[Path]:
    """Write `<name>.md`, `.csv`, `.json` and `.png` into `folder` (created if needed),
    replacing any earlier files of the same name; returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = summary["name"]
    md, table, data, chart = (folder / f"{stem}.{ext}" for ext in ("md", "csv", "json", "png"))
    ratings_chart(summary).savefig(chart)
    md.write_text(markdown(summary, chart.name))
    _write_csv(summary, table)
    data.write_text(json.dumps(_strict_json(summary), indent=1, allow_nan=False) + "\n")
    return [md, table, data, chart]


def _strict_json(value):
    """JSON has no infinities or NaN: an unbounded interval end or a missing score is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(v) for v in value]
    return value
