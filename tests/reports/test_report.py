"""Reports of both schedule kinds: the tables show every agent in rank order (and every
gauntlet match) with its figures, and the report folder holds Markdown, CSV, JSON and PNG
files that read back to the summary."""

import copy
import csv
import dataclasses
import json
import math

import matplotlib.image
import pytest

from koloda.tournament.ratings import PairRecord, RatingRow
from koloda.tournament.report import head_to_head_table, los_table, ratings_table, write_reports
from koloda.tournament.summary import ErrorRow, Summary

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _rating(rank, agent, elo, low, high, wins, draws, losses, ms):
    games = wins + draws + losses
    return RatingRow(rank=rank, agent=agent, elo=elo, low=low, high=high, games=games,
                     score=round((wins + draws / 2) / games, 4), wins=wins, draws=draws,
                     losses=losses, ms_per_move=ms, seats=games)


def _pair(wins, draws, losses, score):
    return PairRecord(wins=wins, draws=draws, losses=losses, score=score)


def make_summary(errors=None, name="default"):
    """A three-agent round-robin summary shaped like tournament.summary's."""
    return Summary(
        name=name, schedule="round-robin", game="durak", config="configs/default.toml",
        seed=1, jobs=2, backend="loky",
        agents={"random": "random", "ismcts": "ismcts(sims=300)", "heuristic": "heuristic"},
        anchor="random", games_played=240, games_scheduled=240, games_played_now=240,
        wall_seconds=123.4,
        ratings=[
            _rating(1, "ismcts", 312.0, 250.1, 377.9, 80, 2, 78, 95.25),
            _rating(2, "heuristic", 141.6, 90.4, 198.0, 85, 0, 75, 0.04),
            _rating(3, "random", 0.0, 0.0, 0.0, 73, 2, 85, 0.01),
        ],
        head_to_head={
            "ismcts": {"heuristic": _pair(41, 2, 37, 0.525), "random": _pair(39, 0, 1, 0.975)},
            "heuristic": {"ismcts": _pair(37, 2, 41, 0.475), "random": _pair(48, 0, 32, 0.6)},
            "random": {"ismcts": _pair(1, 0, 39, 0.025), "heuristic": _pair(32, 0, 48, 0.4)},
        },
        los={"ismcts": {"heuristic": 0.9993, "random": 1.0},
             "heuristic": {"ismcts": 0.0007, "random": 0.9999},
             "random": {"ismcts": 0.0, "heuristic": 0.0001}},
        errors=list(errors or []),
    )


ERRORS = [ErrorRow(game="0/heuristic-ismcts/8/1", agent="heuristic", seat=1,
                   message="RuntimeError: boom"),
          ErrorRow(game="0/ismcts-random/45/0", agent="ismcts", seat=0,
                   message="ValueError: bad\nmove")]


def _body_rows(table):
    """The data lines of a tabulate table ("simple" or "pipe"), split into cells."""
    lines = [line for line in table.splitlines()
             if line.strip() and not set(line) <= set("-|: ")]
    sep = "|" if lines[0].startswith("|") else None
    rows = [[c.strip() for c in (line.strip("|").split("|") if sep else line.split())]
            for line in lines]
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports") / "out"      # does not exist yet
    summary = make_summary(errors=ERRORS)
    return summary, folder, write_reports(summary, folder)


# ---------------------------------------------------------------- tables

@pytest.mark.parametrize("fmt", ["simple", "pipe"])
def test_ratings_table_lists_agents_best_first_with_their_figures(fmt):
    summary = make_summary()
    summary.ratings.reverse()                      # the table orders by rank, not input
    header, rows = _body_rows(ratings_table(summary, fmt))
    assert "Elo" in " ".join(header) and "ms/move" in " ".join(header)
    assert [r[:8] for r in rows] == [
        ["1", "ismcts", "312", "+66/-62", "160", "50.6%", "80/2/78", "95.2"],
        ["2", "heuristic", "142", "+56/-51", "160", "53.1%", "85/0/75", "0.04"],
        ["3", "random", "0", "anchor", "160", "46.2%", "73/2/85", "0.01"],
    ]


def test_head_to_head_table_is_square_in_rank_order_with_blank_diagonal():
    table = head_to_head_table(make_summary(), "pipe")
    header, rows = _body_rows(table)
    assert header == ["", "ismcts", "heuristic", "random"]
    assert rows == [
        ["ismcts", "", "52.5% 41-2-37", "97.5% 39-0-1"],
        ["heuristic", "47.5% 37-2-41", "", "60.0% 48-0-32"],
        ["random", "2.5% 1-0-39", "40.0% 32-0-48", ""],
    ]


def test_pairs_that_never_met_show_a_dash():
    summary = make_summary()
    del summary.head_to_head["ismcts"]["random"]
    del summary.los["random"]["ismcts"]
    assert _body_rows(head_to_head_table(summary, "pipe"))[1][0][3] == "-"
    assert _body_rows(los_table(summary, "pipe"))[1][2][1] == "-"


def test_los_table_in_percent_with_blank_diagonal():
    header, rows = _body_rows(los_table(make_summary(), "pipe"))
    assert header == ["", "ismcts", "heuristic", "random"]
    assert rows == [["ismcts", "", "99.9", "100.0"],
                    ["heuristic", "0.1", "", "100.0"],
                    ["random", "0.0", "0.0", ""]]


def test_terminal_tables_are_plain_text():
    for table in (ratings_table, head_to_head_table, los_table):
        text = table(make_summary())
        assert "|" not in text and "ismcts" in text


# ---------------------------------------------------------------- files

def test_write_reports_returns_the_four_files(written):
    summary, folder, paths = written
    assert [p.name for p in paths] == ["default.md", "default.csv", "default.json",
                                       "default.png"]
    assert all(p.parent == folder and p.is_file() for p in paths)
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in paths)


def test_csv_reads_back_to_the_ratings(written):
    summary, folder, _ = written
    with (folder / "default.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    types = {k: type(v) for k, v in dataclasses.asdict(summary.ratings[0]).items()}
    assert list(rows[0]) == [f.name for f in dataclasses.fields(RatingRow)] == list(types)
    assert [RatingRow(**{k: types[k](v) for k, v in row.items()}) for row in rows] == \
        summary.ratings


def test_json_reads_back_to_the_summary(written):
    summary, folder, _ = written
    back = json.loads((folder / "default.json").read_text())
    assert back == dataclasses.asdict(summary)
    assert back["ratings"][0]["agent"] == "ismcts" and back["head_to_head"]["ismcts"][
        "random"] == {"wins": 39, "draws": 0, "losses": 1, "score": 0.975}


def test_png_is_a_real_image_of_plausible_size(written):
    _, folder, _ = written
    path = folder / "default.png"
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    height, width, channels = matplotlib.image.imread(path).shape
    assert 600 <= width <= 2000 and 200 <= height <= 1500 and channels in (3, 4)


def test_markdown_has_setup_tables_explanation_and_chart(written):
    summary, folder, _ = written
    text = (folder / "default.md").read_text()
    assert text.startswith("# Tournament: default\n")
    for fact in ("`configs/default.toml`", "seed 1", "2 jobs", "loky", "240 games",
                 "2 min 3 s", "`durak`", "`ismcts(sims=300)`", "random (anchor)"):
        assert fact in text, fact
    for table in (ratings_table, head_to_head_table, los_table):
        assert table(summary, "pipe") in text
    assert "Bradley-Terry" in text and "bootstrap" in text
    assert "relative to random, fixed at 0" in text
    assert "![Elo ratings with 95% intervals](default.png)" in text


def test_markdown_lists_agent_errors_one_line_each(written):
    _, folder, _ = written
    text = (folder / "default.md").read_text()
    assert "## Agent errors (2)" in text
    assert "- game 0/heuristic-ismcts/8/1, heuristic (seat 1): RuntimeError: boom" in text
    assert "- game 0/ismcts-random/45/0, ismcts (seat 0): ValueError: bad move" in text


def test_no_errors_no_error_section(tmp_path):
    write_reports(make_summary(errors=[]), tmp_path)
    assert "error" not in (tmp_path / "default.md").read_text().lower()


def test_writing_twice_replaces_the_first_report(tmp_path):
    write_reports(make_summary(errors=ERRORS), tmp_path)
    second = make_summary()
    second.ratings = second.ratings[:2]
    second.games_played = 99
    paths = write_reports(second, tmp_path)
    assert sorted(tmp_path.iterdir()) == sorted(paths)
    text = (tmp_path / "default.md").read_text()
    assert "Agent errors" not in text and "99 games" in text
    with (tmp_path / "default.csv").open(newline="") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["ismcts", "heuristic"]
    assert json.loads((tmp_path / "default.json").read_text()) == dataclasses.asdict(second)


def test_write_reports_leaves_the_summary_untouched(tmp_path):
    summary = make_summary(errors=ERRORS)
    before = copy.deepcopy(summary)
    write_reports(summary, tmp_path)
    assert summary == before


def test_no_anchor_says_only_differences_count(tmp_path):
    summary = make_summary()
    summary.anchor = None
    write_reports(summary, tmp_path)
    text = (tmp_path / "default.md").read_text()
    assert "(anchor)" not in text and "only differences" in text
    assert "| random    |     0 |    +0/-0 |" in text        # a real interval, not "anchor"


def _unbounded_summary():
    """ismcts never lost (no upper bound), random never scored (no lower bound), and an
    agent without pairwise results (NaN score and interval), as tournament.ratings gives."""
    summary = make_summary()
    summary.ratings[0] = dataclasses.replace(summary.ratings[0], elo=1600.0, high=math.inf)
    summary.ratings[2] = dataclasses.replace(summary.ratings[2], low=-math.inf, high=12.5)
    summary.ratings.append(dataclasses.replace(
        _rating(4, "idle", 0.0, 0.0, 0.0, 1, 0, 0, None),
        low=math.nan, high=math.nan, score=math.nan))
    summary.anchor = None
    return summary


def test_unbounded_and_missing_figures_read_as_such():
    _, rows = _body_rows(ratings_table(_unbounded_summary(), "pipe"))
    assert [r[2:4] for r in rows] == [["1600", "+inf/-1350"], ["142", "+56/-51"],
                                      ["0", "+12/-inf"], ["0", "n/a"]]
    assert rows[3][5] == "n/a" and rows[3][7] == "unknown"      # games but no timing


def test_unbounded_intervals_still_chart_and_round_trip(tmp_path):
    summary = _unbounded_summary()
    write_reports(summary, tmp_path)
    assert matplotlib.image.imread(tmp_path / "default.png").shape[1] >= 600
    with (tmp_path / "default.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert float(rows[0]["high"]) == float("inf") and float(rows[2]["low"]) == float("-inf")
    text = (tmp_path / "default.json").read_text()
    assert "Infinity" not in text and "NaN" not in text      # strict JSON for every reader
    back = json.loads(text)
    assert back["ratings"][0]["high"] is None                # unbounded: null


def test_an_agent_in_two_seats_shows_every_seat_and_says_so():
    """Four-player Durak with three agents: random fills two seats; one copy won and the
    other was the durak in every game, so it read 8/0/0 when counted by its best seat."""
    from koloda.tournament.report import markdown

    summary = make_summary()
    summary.ratings[2] = dataclasses.replace(summary.ratings[2], games=8, seats=16, wins=8,
                                             draws=0, losses=8)
    _, rows = _body_rows(ratings_table(summary, "pipe"))
    assert rows[2][4:7] == ["8 (16 seats)", "46.2%", "8/0/8"]
    assert "W/D/L counts every seat" in markdown(summary, "x.png")
    assert "W/D/L counts every seat" not in markdown(make_summary(), "x.png")


def test_the_report_says_whether_its_games_were_played_or_read_back():
    import dataclasses

    from koloda.tournament.report import markdown
    summary = make_summary()
    assert "240 games played in 2 min 3 s of wall time." in markdown(summary, "c.png")
    read_back = dataclasses.replace(summary, games_played_now=0, wall_seconds=0.1)
    text = markdown(read_back, "c.png")
    assert "240 games, read back from the results file (this run played none" in text
    assert "0.1 s" not in text
    part = markdown(dataclasses.replace(summary, games_played_now=40), "c.png")
    assert "240 games: 40 played in 2 min 3 s of wall time, the others read back" in part


def _renamed(summary, names: dict):
    """`summary` with its agents renamed (as a config may name them)."""
    for row in summary.ratings:
        row.agent = names[row.agent]
    summary.head_to_head = {names[a]: {names[b]: r for b, r in row.items()}
                            for a, row in summary.head_to_head.items()}
    summary.los = {names[a]: {names[b]: v for b, v in row.items()}
                   for a, row in summary.los.items()}
    summary.agents = {names[a]: spec for a, spec in summary.agents.items()}
    summary.anchor = names[summary.anchor]
    return summary


def test_names_that_markdown_would_read_are_escaped_and_the_chart_is_drawn(tmp_path):
    summary = _renamed(make_summary(errors=[ErrorRow(game="0/x", agent="a|b", seat=0,
                                                     message="<b>bold</b> & more")]),
                       {"ismcts": "is|mcts", "heuristic": "<b>h</b>", "random": "r $\\x$"})
    summary.agents["is|mcts"] = "ismcts(sims=300)|<x>"
    write_reports(summary, tmp_path)
    text = (tmp_path / "default.md").read_text()
    tables = [line for line in text.splitlines() if line.startswith("|")]
    columns = {line.replace("\\|", "").count("|") for line in tables}
    assert columns == {3, 9, 5}                    # agents/spec, ratings, 4-column crosstables
    assert "| is\\|mcts " in text and "&lt;b&gt;h&lt;/b&gt;" in text and "<b>" not in text
    assert "`ismcts(sims=300)\\|<x>`" in text
    assert "- game 0/x, a\\|b (seat 0): &lt;b&gt;bold&lt;/b&gt; &amp; more" in text
    assert matplotlib.image.imread(tmp_path / "default.png").shape[1] >= 600
    assert "is|mcts" in ratings_table(summary)     # the terminal shows names as they are
