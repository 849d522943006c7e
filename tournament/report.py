"""Writing up a tournament of either schedule kind: terminal tables, and a folder holding
a Markdown report, the main table as CSV, the whole summary as JSON and a chart as PNG.

A round-robin's main table is the Elo ranking (`NAME.csv`), its chart the ratings with
their intervals.  A gauntlet's main table is its matches (`NAME.csv`), its chart the
match scores with their intervals and the even score; its Elo ranking, when the matches
connect its agents, goes to `NAME-elo.csv`.

Everything here reads a `tournament.summary.Summary` (see `write_reports`); nothing is
recomputed, so the report shows exactly the figures the tournament produced.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import math
import os
import re
from pathlib import Path

from tabulate import tabulate

from koloda.tournament.summary import Summary

RATING_HEADERS = ["rank", "agent", "Elo", "95% CI", "games", "score", "W/D/L", "ms/move"]
RATING_ALIGN = ["right", "left", "right", "right", "right", "right", "right", "right"]
MATCH_HEADERS = ["game", "players", "agent", "opponent", "games", "W/D/L", "score", "95% CI",
                 "even", "agent ms/move", "opp. ms/move", "errors"]
MATCH_ALIGN = ["left", "right", "left", "left"] + ["right"] * 8


# ---------------------------------------------------------------- cell formatting

def _missing(value) -> bool:
    """No figure to show: absent, or NaN (e.g. a score without any pairwise result)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _unbounded(value) -> bool:
    """An interval end the data cannot bound (tournament.ratings makes it infinite)."""
    return not _missing(value) and math.isinf(value)


def _elo(value: float) -> str:
    return "n/a" if _missing(value) else f"{value:.0f}"


def _interval(row, anchor: str | None) -> str:
    """The 95% interval as distances from the rating (+up/-down), BayesElo style: the
    reader sees the uncertainty directly, and the interval need not be symmetric.
    An end the data cannot bound is infinite and reads +inf or -inf; an anchor pinned
    to its rating says "anchor" rather than +0/-0."""
    if any(_missing(v) for v in (row.elo, row.low, row.high)):
        return "n/a"
    if row.agent == anchor and row.low == row.high:
        return "anchor"
    return f"+{row.high - row.elo:.0f}/-{row.elo - row.low:.0f}"


def _percent(fraction: float) -> str:
    return "n/a" if _missing(fraction) else f"{100 * fraction:.1f}%"


def _percent_range(low: float, high: float) -> str:
    if _missing(low) or _missing(high):
        return "n/a"
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _ms(value: float | None, games: int) -> str:
    """One decimal, two below 1 ms so fast agents do not all read 0.0; "unknown" when
    games were played but their timing is not known (the timing file was deleted)."""
    if value is None or _missing(value):
        return "unknown" if games else ""
    return f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def _games(row) -> str:
    """Games played; with the seats too when the agent held more than one seat in a game,
    since its W/D/L then counts every seat's result."""
    if row.seats is None or row.seats == row.games:
        return str(row.games)
    return f"{row.games} ({row.seats} seats)"


def _with_copies(summary: Summary) -> bool:
    return any(r.seats is not None and r.seats != r.games for r in summary.ratings)


def _wall_time(seconds: float) -> str:
    """Readable wall time: seconds for short runs, minutes or hours for long ones."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {sec} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _ranked(summary: Summary) -> list:
    return sorted(summary.ratings, key=lambda r: r.rank)


def _ranked_agents(summary: Summary) -> list[str]:
    """Agents best first, the order every crosstable uses; without ratings, [agents]
    order."""
    return [r.agent for r in _ranked(summary)] or list(summary.agents)


def _markdown_text(text: str) -> str:
    """`text` as Markdown shows it: a `|` would end a table cell, a backtick open code
    and `<`, `>`, `&` be read as HTML (an agent is named by whoever wrote the config),
    so they are escaped."""
    for raw, escaped in (("\\", "\\\\"), ("|", "\\|"), ("`", "\\`"), ("&", "&amp;"),
                         ("<", "&lt;"), (">", "&gt;")):
        text = text.replace(raw, escaped)
    return text


def _code(text: str, cell: bool = False) -> str:
    """`text` as a Markdown code span, which shows `<` and `&` as they are, its fence
    longer than any run of backticks inside; in a table `cell` a `|` is escaped, since
    it ends the cell even there."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    body = text.replace("|", "\\|") if cell else text
    return fence + pad + body + pad + fence


def _text_for(fmt: str):
    """How a table of format `fmt` writes a name: escaped in Markdown ("pipe")."""
    return _markdown_text if fmt == "pipe" else str


# ---------------------------------------------------------------- tables

def ratings_table(summary: Summary, fmt: str = "simple") -> str:
    """The ranking with each rating's uncertainty; `fmt` is a tabulate format
    ("simple" for the terminal, "pipe" for Markdown with aligned columns)."""
    text = _text_for(fmt)
    rows = [[r.rank, text(r.agent), _elo(r.elo), _interval(r, summary.anchor), _games(r),
             _percent(r.score), f"{r.wins}/{r.draws}/{r.losses}",
             _ms(r.ms_per_move, r.games)]
            for r in _ranked(summary)]
    return tabulate(rows, headers=RATING_HEADERS, tablefmt=fmt,
                    colalign=RATING_ALIGN, disable_numparse=True)


def match_table(summary: Summary, fmt: str = "simple") -> str:
    """A gauntlet's matches in config order: the agent's results against copies of the
    opponent, the score's 95% interval and the even score."""
    text = _text_for(fmt)
    rows = [[text(m.game), m.players, text(m.agent), text(m.opponent), m.games,
             f"{m.wins}/{m.draws}/{m.losses}", _percent(m.score),
             _percent_range(m.low, m.high), _percent(m.even),
             _ms(m.agent_ms_per_move, m.games), _ms(m.opponent_ms_per_move, m.games), m.errors]
            for m in summary.matches]
    return tabulate(rows, headers=MATCH_HEADERS, tablefmt=fmt,
                    colalign=MATCH_ALIGN, disable_numparse=True)


def _crosstable(summary: Summary, cell, fmt: str) -> str:
    """A square agent-by-agent table in rank order; `cell(row, col)` fills the off-diagonal
    cells and returns "-" when the pair has no figure (they never met)."""
    agents = _ranked_agents(summary)
    text = _text_for(fmt)
    rows = [[text(a)] + ["" if a == b else cell(a, b) for b in agents] for a in agents]
    return tabulate(rows, headers=[""] + [text(a) for a in agents], tablefmt=fmt,
                    colalign=["left"] + ["right"] * len(agents), disable_numparse=True)


def head_to_head_table(summary: Summary, fmt: str = "simple") -> str:
    """Score of the row agent against the column agent, with the games behind it."""
    results = summary.head_to_head

    def cell(a: str, b: str) -> str:
        r = results.get(a, {}).get(b)
        if r is None:
            return "-"
        return f"{_percent(r.score)} {r.wins}-{r.draws}-{r.losses}"

    return _crosstable(summary, cell, fmt)


def los_table(summary: Summary, fmt: str = "simple") -> str:
    """Likelihood that the row agent is stronger than the column agent, in percent."""
    los = summary.los

    def cell(a: str, b: str) -> str:
        value = los.get(a, {}).get(b)
        return "-" if value is None or _missing(value) else f"{100 * value:.1f}"

    return _crosstable(summary, cell, fmt)


def terminal_tables(summary: Summary) -> str:
    """What the command line prints for one game string: the ratings of a round-robin; the
    matches of a gauntlet, then its ratings (or why it has none)."""
    if summary.schedule != "gauntlet":
        return ratings_table(summary)
    parts = [match_table(summary)]
    parts.append(ratings_table(summary) if summary.ratings else summary.no_ratings or "")
    return "\n\n".join(p for p in parts if p)


# ---------------------------------------------------------------- Markdown

def _how_played(summary: Summary) -> str:
    """How many games, and whether this run played them or read them back."""
    total, now = summary.games_played, summary.games_played_now
    wall = _wall_time(summary.wall_seconds)
    if now == total:
        return f"{total} games played in {wall} of wall time."
    if not now:
        return (f"{total} games, read back from the results file (this run played none; "
                f"the thinking times are those measured when they were played).")
    return (f"{total} games: {now} played in {wall} of wall time, the others read back "
            f"from the results file.")


def _setup_lines(summary: Summary) -> list[str]:
    """What was played, so the report can be reproduced from it."""
    lines = [
        f"Config {_code(summary.config)}, seed {summary.seed}, {summary.jobs} jobs "
        f"({summary.backend} backend): {_how_played(summary)}", "",
        f"Game: {_code(summary.game)}.", "",
    ]
    agents = [[_markdown_text(f"{name} (anchor)" if name == summary.anchor else name),
               _code(spec, cell=True)]
              for name, spec in summary.agents.items()]
    lines += [tabulate(agents, headers=["agent", "spec"], tablefmt="pipe",
                       disable_numparse=True), ""]
    return lines


def _explanation(summary: Summary) -> str:
    """Two or three sentences so a reader new to Elo can read the tables."""
    anchor = summary.anchor
    pinned = next((r.elo for r in summary.ratings if r.agent == anchor), 0.0)
    scale = (f"Ratings are relative to {_markdown_text(anchor)}, fixed at {pinned:.0f}."
             if anchor else
             "No agent is anchored, so only differences between ratings mean anything.")
    gauntlet = summary.schedule == "gauntlet"
    los = ("" if gauntlet else ", and LOS is the likelihood that the row agent is truly "
           "stronger than the column agent")
    copies = (" Every game counts as pairwise results between the agent and each copy of "
              "its opponent." if gauntlet else "")
    if _with_copies(summary):
        copies += (" W/D/L counts every seat: an agent seated more than once in a game (its "
                   "games read like \"8 (16 seats)\") has one result per seat.")
    return (
        "Elo comes from a Bradley-Terry fit to the results of all games: a gap of 100 "
        "points means the stronger agent is expected to score about 64% against the "
        "weaker. The 95% interval (+up/-down) comes from refitting on bootstrap resamples "
        "of the games, or from the profile likelihood where the resamples cannot vary "
        f"(games that all ended alike){los}.{copies} {scale}"
    )


GAUNTLET_EXPLANATION = (
    "Each deal is played once per seat of the agent (seats swapped in two-player games, "
    "rotated in larger ones) with the same cards, copies of the opponent in the other "
    "seats. A game scores 1 when the agent is among the winners (in Durak: not the "
    "durak), 1/2 for a draw, 0 otherwise. The score is the mean over deals of each deal's "
    "mean score, and its 95% interval treats the deal as the unit (the Wilson interval over "
    "the deals when every deal scored alike). *even* is the score of "
    "an agent exactly as strong as its opponents in the same games: k/n when k of n "
    "players win, 1/2 for a draw (so 75% in four-player Durak, which has one loser). Time "
    "per move counts only the moves with more than one legal action."
)


def _error_lines(summary: Summary) -> list[str]:
    """Agent crashes, one line each; the section is left out when there were none."""
    if not summary.errors:
        return []
    lines = [f"## Agent errors ({len(summary.errors)})", ""]
    for e in summary.errors:
        message = " ".join(str(e.message).split())     # one line per error
        reason = f"{e.reason}: " if e.reason else ""
        lines.append(f"- game {_markdown_text(e.game)}, {_markdown_text(e.agent)} "
                     f"(seat {e.seat}): {reason}{_markdown_text(message)}")
    return lines + [""]


def _ratings_lines(summary: Summary) -> list[str]:
    return ["## Ratings", "", ratings_table(summary, "pipe"), ""]


def _round_robin_markdown(summary: Summary, chart_name: str) -> list[str]:
    lines = [f"# Tournament: {summary.name}", ""]
    lines += _setup_lines(summary)
    lines += _ratings_lines(summary)
    lines += ["## Head to head", "",
              "Score of the row agent against the column agent, then its wins-draws-losses.",
              "", head_to_head_table(summary, "pipe"), ""]
    lines += ["## Likelihood of superiority (%)", "", los_table(summary, "pipe"), ""]
    lines += ["## What the numbers mean", "", _explanation(summary), ""]
    lines += [f"![Elo ratings with 95% intervals]({chart_name})", ""]
    return lines


def _gauntlet_markdown(summary: Summary, chart_name: str) -> list[str]:
    lines = [f"# Gauntlet: {summary.name}", ""]
    lines += _setup_lines(summary)
    lines += ["## Matches", "", match_table(summary, "pipe"), "", GAUNTLET_EXPLANATION, ""]
    lines += [f"![Match scores with 95% intervals]({chart_name})", ""]
    if summary.ratings:
        lines += _ratings_lines(summary) + [_explanation(summary), ""]
    elif summary.no_ratings:
        why = summary.no_ratings[0].upper() + summary.no_ratings[1:]
        lines += ["## Ratings", "", _markdown_text(why) + ".", ""]
    return lines


def markdown(summary: Summary, chart_name: str) -> str:
    """The whole Markdown report; `chart_name` is the PNG's file name next to it."""
    if summary.schedule == "gauntlet":
        lines = _gauntlet_markdown(summary, chart_name)
    else:
        lines = _round_robin_markdown(summary, chart_name)
    lines += _error_lines(summary)
    return "\n".join(lines)


# ---------------------------------------------------------------- charts

def ratings_chart(summary: Summary):
    """Ratings as points with their 95% intervals, best at the top, anchor marked.
    Returns a matplotlib Figure built without pyplot, so no global state or display."""
    # Imported here: the terminal tables should not pay for loading matplotlib.
    from matplotlib.figure import Figure

    rows = [r for r in reversed(_ranked(summary)) if not _missing(r.elo)]  # best on top
    anchor = summary.anchor
    left, right = _chart_limits([v for r in rows for v in (r.elo, r.low, r.high)])
    ys = range(len(rows))

    fig = Figure(figsize=(7.5, 1.4 + 0.5 * len(rows)), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    for y, r in zip(ys, rows):
        low, high = _bar_ends(r.elo, r.low, r.high, left, right)
        ax.errorbar([r.elo], [y], xerr=[[r.elo - low], [high - r.elo]], fmt="o",
                    color="tab:blue", elinewidth=2, capsize=5, markersize=7)
        for end, edge, arrow in ((r.low, left, "<"), (r.high, right, ">")):
            if _unbounded(end):                 # unbounded: arrow at the chart's edge
                ax.plot([edge], [y], marker=arrow, color="tab:blue", markersize=8,
                        clip_on=False)
        ax.annotate(f"{r.elo:.0f}", (r.elo, y), xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=9,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
        if r.agent == anchor:
            ax.plot([r.elo], [y], marker="D", color="tab:red", markersize=8, zorder=3)
            ax.axvline(r.elo, color="tab:red", linestyle=":", linewidth=1)
    ax.set_yticks(list(ys), [f"{r.agent} (anchor)" if r.agent == anchor else r.agent
                             for r in rows], parse_math=False)   # `$` in a name is text
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(left, right)
    label = f"Elo (relative to {anchor})" if anchor else "Elo"
    if any(_unbounded(v) for r in rows for v in (r.low, r.high)):
        label += "; arrow: the data cannot bound that end of the interval"
    ax.set_xlabel(label, parse_math=False)
    ax.set_title(f"{summary.name}: Elo ratings with 95% intervals")
    ax.grid(axis="x", alpha=0.3)
    return fig


def match_chart(summary: Summary):
    """A gauntlet's match scores (%) with their 95% intervals, first match at the top,
    each with its even score marked."""
    from matplotlib.figure import Figure

    rows = [m for m in reversed(summary.matches) if not _missing(m.score)]
    ys = range(len(rows))
    fig = Figure(figsize=(7.5, 1.4 + 0.5 * len(rows)), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    for y, m in zip(ys, rows):
        score, low, high = (100 * v for v in (m.score, m.low, m.high))
        ax.errorbar([score], [y], xerr=[[score - low], [high - score]], fmt="o",
                    color="tab:blue", elinewidth=2, capsize=5, markersize=7,
                    label="score, 95% interval" if y == 0 else None)
        ax.plot([100 * m.even], [y], marker="|", linestyle="none", color="tab:red",
                markersize=16, markeredgewidth=2, label="even" if y == 0 else None)
        ax.annotate(f"{score:.1f}%", (score, y), xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=9,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
    ax.set_yticks(list(ys), [f"{m.agent} vs {m.opponent}" for m in rows], parse_math=False)
    ax.set_ylim(-0.6, max(len(rows), 1) - 0.4)
    ax.set_xlim(-2, 102)
    ax.set_xlabel("score of the agent (%)")
    ax.set_title(f"{summary.name}: match scores with 95% intervals")
    ax.grid(axis="x", alpha=0.3)
    if rows:
        ax.legend(loc="lower left", fontsize=8)
    return fig


def _chart_limits(values) -> tuple[float, float]:
    """The x range: every finite rating and interval end, with a margin for the labels."""
    finite = [v for v in values if not _missing(v) and math.isfinite(v)] or [0.0]
    lo, hi = min(finite), max(finite)
    pad = 0.08 * (hi - lo) if hi > lo else 50.0
    return lo - pad, hi + pad


def _bar_ends(elo, low, high, left: float, right: float) -> tuple[float, float]:
    """Where a rating's bar ends: infinite ends at the chart's edge, missing ones at the
    rating itself (no bar)."""
    def end(value, edge):
        if _missing(value):
            return elo
        return edge if _unbounded(value) else value
    low, high = end(low, left), end(high, right)
    return min(low, elo), max(high, elo)


# ---------------------------------------------------------------- files

def _write_csv(rows: list, path: Path) -> None:
    """One line per row (a dataclass) with every field, full precision."""
    fields = [f.name for f in dataclasses.fields(rows[0])] if rows else []
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(dataclasses.asdict(row) for row in rows)


def write_reports(summary: Summary, folder: str | Path) -> list[Path]:
    """Write `<name>.md`, `.csv`, `.json` and `.png` into `folder` (created if needed),
    and for a gauntlet with ratings `<name>-elo.csv`, replacing any earlier files of the
    same name; returns the paths written.  Each file is written whole or not at all, so
    an interrupted run leaves the earlier report, never half of a new one."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = summary.name
    md, table, data, chart, elo = report_paths(folder, stem)
    written = [md, table]
    gauntlet = summary.schedule == "gauntlet"
    figure = (match_chart if gauntlet else ratings_chart)(summary)
    with _whole(chart) as temporary:
        figure.savefig(temporary, format="png")
    with _whole(md) as temporary:
        temporary.write_text(markdown(summary, chart.name))
    with _whole(table) as temporary:
        _write_csv(summary.matches if gauntlet else summary.ratings, temporary)
    if gauntlet and summary.ratings:
        with _whole(elo) as temporary:
            _write_csv(summary.ratings, temporary)
        written.append(elo)
    elif elo.exists():
        elo.unlink()                        # from an earlier run that had ratings
    with _whole(data) as temporary:
        temporary.write_text(json.dumps(summary_json(summary), indent=1, allow_nan=False)
                             + "\n")
    return written + [data, chart]


def report_paths(folder: Path, stem: str) -> list[Path]:
    """The files of one report: `.md`, `.csv`, `.json`, `.png` and `-elo.csv`."""
    return [folder / f"{stem}.{ext}" for ext in ("md", "csv", "json", "png")] + \
        [folder / f"{stem}-elo.csv"]


def temporary_path(path: Path) -> Path:
    """Where `path` is written before it replaces the file of that name."""
    return path.with_name(path.name + ".tmp")


@contextlib.contextmanager
def _whole(path: Path):
    """A temporary path beside `path` that replaces it when the block ends normally."""
    temporary = temporary_path(path)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def summary_json(summary: Summary) -> dict:
    """The summary as JSON data: every field, nested rows as objects, and no infinities
    or NaN (JSON has none): an unbounded interval end or a missing figure is null."""
    return _strict_json(dataclasses.asdict(summary))


def _strict_json(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(v) for v in value]
    return value


# --- a sequential match (koloda match) ----------------------------------------------------

def match_summary(config, watch, command: str | None = None) -> dict:
    """What a sequential match found: the agents, the games and deals, the score, the Elo
    with its 95% interval and, with a test, the test, its LLR and its decision."""
    (match,) = config.matches
    s = watch.scores
    estimate = watch.sprt.elo()
    out = {"name": config.name, "game": match.game, "seed": config.seed,
           "agent": {"name": match.agent, "spec": config.spec(match.agent, match.game)},
           "opponent": {"name": match.opponent,
                        "spec": config.spec(match.opponent, match.game)},
           "games": s.games, "deals": watch.units, "max_deals": watch.max_units,
           "wins": s.wins, "draws": s.draws, "losses": s.losses,
           "failures": dict(sorted(s.errors.items())),
           "elo": None if estimate is None else {"elo": round(estimate.elo, 2),
                                                  "low": round(estimate.low, 2),
                                                  "high": round(estimate.high, 2)}}
    if command:
        out["command"] = command
    if watch.testing:
        sprt = watch.sprt
        out["sprt"] = {"test": str(sprt.test), "llr": round(sprt.llr, 4),
                       "lower": round(sprt.lower, 4), "upper": round(sprt.upper, 4),
                       "decision": sprt.decision, "decided_after_deals": sprt.decided_at}
    return out


def match_markdown(summary: dict) -> str:
    agent, opponent = summary["agent"], summary["opponent"]
    lines = [f"# {summary['name']}: `{agent['spec']}` against `{opponent['spec']}` on "
             f"`{summary['game']}`", "",
             f"Paired deals (every deal once per seat of the agent), seed {summary['seed']}; "
             f"at most {summary['max_deals']} deals."
             + (f" Command: `{summary['command']}`." if summary.get("command") else ""), "",
             "| games | deals | agent +/=/- | Elo of the agent (95% interval) |",
             "|---:|---:|---|---|"]
    elo = summary["elo"]
    shown = "-" if elo is None else f"{elo['elo']:+.1f} [{elo['low']:+.1f}, {elo['high']:+.1f}]"
    lines.append(f"| {summary['games']} | {summary['deals']} | +{summary['wins']} "
                 f"={summary['draws']} -{summary['losses']} | {shown} |")
    if summary["failures"]:
        lines += ["", "Games lost to an agent's failure: " + ", ".join(
            f"{reason} {count}" for reason, count in summary["failures"].items()) + "."]
    sprt = summary.get("sprt")
    if sprt:
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[sprt["decision"]]
        after = (f" after {sprt['decided_after_deals']} deals" if sprt["decision"] else
                 " when the deals ran out")
        lines += ["", f"SPRT {sprt['test']} (logistic Elo, GSPRT over deal units): "
                      f"LLR {sprt['llr']:+.2f} in [{sprt['lower']:+.2f}, {sprt['upper']:+.2f}]: "
                      f"**{verdict}**{after}."]
    return "\n".join(lines) + "\n"


def write_match_report(config, watch, command: str | None = None) -> list[Path]:
    """`<name>.md` and `<name>.json` of a sequential match, each written whole."""
    folder = Path(config.output)
    folder.mkdir(parents=True, exist_ok=True)
    summary = match_summary(config, watch, command)
    md, json_path = folder / f"{config.name}.md", folder / f"{config.name}.json"
    with _whole(md) as temporary:
        temporary.write_text(match_markdown(summary))
    with _whole(json_path) as temporary:
        temporary.write_text(json.dumps(summary, indent=1, allow_nan=False) + "\n")
    return [md, json_path]
