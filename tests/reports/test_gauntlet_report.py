"""Gauntlet reports: the match table with its interval and even score in every format,
the Elo table where the matches connect the agents, and strict JSON."""

import csv
import dataclasses
import json
import math

import matplotlib.image
import pytest

from koloda.tournament.ratings import wilson_interval
from koloda.tournament.report import (
    markdown,
    match_table,
    ratings_table,
    summary_json,
    terminal_tables,
    write_reports,
)
from koloda.tournament.summary import MatchRow

from .test_report import PNG_SIGNATURE, _body_rows, make_summary


def _match(agent, opponent, wins, draws, losses, low, high, even, ms, opp_ms, errors=0):
    games = wins + draws + losses
    return MatchRow(game="durak(players=4)", players=4, agent=agent, opponent=opponent,
                    games=games, deals=games // 4, wins=wins, draws=draws, losses=losses,
                    score=(wins + draws / 2) / games, low=low, high=high, even=even,
                    agent_ms_per_move=ms, opponent_ms_per_move=opp_ms, errors=errors)


def make_gauntlet(ratings=True, name="agents--durak-players-4"):
    summary = make_summary(name=name)
    summary.schedule = "gauntlet"
    summary.game = "durak(players=4)"
    summary.config = "configs/durak-agents.toml"
    summary.games_played = summary.games_scheduled = 1200
    summary.matches = [
        _match("heuristic", "random", 991, 2, 7, 0.987, 0.997, 0.7494, 0.21, 0.3),
        _match("ismcts", "heuristic", 180, 6, 14, 0.879, 0.951, 0.7425, 125.0, 0.2, 1),
    ]
    if not ratings:
        summary.ratings = []
        summary.no_ratings = ("no Elo table: the matches do not connect all agents "
                              "(heuristic, random | ismcts, pimc), so their ratings would "
                              "have no common scale")
    return summary


@pytest.mark.parametrize("fmt", ["simple", "pipe"])
def test_match_table_has_every_column_of_every_match(fmt):
    header, rows = _body_rows(match_table(make_gauntlet(), fmt))
    text = " ".join(header)
    for column in ("game", "players", "agent", "opponent", "games", "W/D/L", "score",
                   "95% CI", "even", "agent ms/move", "opp. ms/move", "errors"):
        assert column in text, column
    if fmt == "pipe":
        assert rows == [
            ["durak(players=4)", "4", "heuristic", "random", "1000", "991/2/7", "99.2%",
             "98.7-99.7%", "74.9%", "0.21", "0.30", "0"],
            ["durak(players=4)", "4", "ismcts", "heuristic", "200", "180/6/14", "91.5%",
             "87.9-95.1%", "74.2%", "125.0", "0.20", "1"],
        ]


def test_a_match_without_games_reads_n_a():
    summary = make_gauntlet()
    summary.matches[1] = dataclasses.replace(
        summary.matches[1], games=0, deals=0, wins=0, draws=0, losses=0, score=math.nan,
        low=math.nan, high=math.nan, even=math.nan, agent_ms_per_move=None,
        opponent_ms_per_move=None)
    _, rows = _body_rows(match_table(summary, "pipe"))
    assert rows[1][4:] == ["0", "0/0/0", "n/a", "n/a", "n/a", "", "", "1"]
    back = summary_json(summary)
    assert back["matches"][1]["score"] is None and back["matches"][1]["even"] is None
    json.dumps(back, allow_nan=False)


def test_terminal_shows_matches_then_ratings_or_why_there_are_none():
    text = terminal_tables(make_gauntlet())
    assert text.index("opponent") < text.index("Elo")
    assert match_table(make_gauntlet()) in text and ratings_table(make_gauntlet()) in text
    apart = terminal_tables(make_gauntlet(ratings=False))
    assert "Elo" not in apart.splitlines()[0] and "do not connect all agents" in apart
    assert "rank" not in apart


def test_round_robin_terminal_is_the_ratings_table():
    assert terminal_tables(make_summary()) == ratings_table(make_summary())


def test_markdown_has_the_matches_their_meaning_and_the_ratings():
    summary = make_gauntlet()
    text = markdown(summary, "x.png")
    assert text.startswith("# Gauntlet: agents--durak-players-4\n")
    assert match_table(summary, "pipe") in text and ratings_table(summary, "pipe") in text
    assert text.index("## Matches") < text.index("## Ratings")
    for fact in ("`configs/durak-agents.toml`", "1200 games", "Game: `durak(players=4)`",
                 "deal as the unit", "*even*", "Bradley-Terry", "![Match scores"):
        assert fact in text, fact
    assert "Likelihood of superiority" not in text and "LOS" not in text
    assert "No Elo table" not in text


def test_markdown_without_ratings_says_why():
    text = markdown(make_gauntlet(ratings=False), "x.png")
    assert "No Elo table: the matches do not connect all agents" in text
    assert "| rank" not in text


def test_gauntlet_files_match_csv_elo_csv_json_and_chart(tmp_path):
    summary = make_gauntlet()
    paths = write_reports(summary, tmp_path)
    stem = summary.name
    assert [p.name for p in paths] == [f"{stem}.md", f"{stem}.csv", f"{stem}-elo.csv",
                                       f"{stem}.json", f"{stem}.png"]
    with (tmp_path / f"{stem}.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [f.name for f in dataclasses.fields(MatchRow)] == list(rows[0])
    assert [(r["agent"], r["opponent"], int(r["games"]), float(r["even"])) for r in rows] == \
        [("heuristic", "random", 1000, 0.7494), ("ismcts", "heuristic", 200, 0.7425)]
    with (tmp_path / f"{stem}-elo.csv").open(newline="") as f:
        assert [r["agent"] for r in csv.DictReader(f)] == ["ismcts", "heuristic", "random"]
    back = json.loads((tmp_path / f"{stem}.json").read_text())
    assert back == dataclasses.asdict(summary)
    png = tmp_path / f"{stem}.png"
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert matplotlib.image.imread(png).shape[1] >= 600


def test_without_ratings_no_elo_csv_and_an_old_one_is_removed(tmp_path):
    write_reports(make_gauntlet(), tmp_path)
    paths = write_reports(make_gauntlet(ratings=False), tmp_path)
    assert sorted(tmp_path.iterdir()) == sorted(paths)
    assert not any(p.name.endswith("-elo.csv") for p in paths)
    back = json.loads(paths[-2].read_text())
    assert back["ratings"] == [] and back["no_ratings"].startswith("no Elo table")


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_a_wilson_interval_holds_its_share(share):
    for n in (1, 7, 100, 150, 1000):
        low, high = wilson_interval(share, n)
        assert 0.0 <= low <= share <= high <= 1.0


def test_a_match_won_every_game_is_charted(tmp_path):
    """Floating point put the Wilson upper bound of a share of 1 below 1, and the chart
    refused the negative error bar."""
    summary = make_gauntlet()
    low, high = wilson_interval(1.0, 100)
    summary.matches[0] = _match("heuristic", "random", 300, 0, 0, low, high, 1 / 3, 0.2, 0.3)
    paths = write_reports(summary, tmp_path)
    assert high == 1.0 and paths[-1].read_bytes()[:8] == PNG_SIGNATURE
