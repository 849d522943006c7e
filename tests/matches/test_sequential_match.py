"""`koloda match`: paired deals fed to the SPRT in deal order, the run stopped where the
test decides, the results file and its resume shared with tournaments."""

import json

import pytest

from koloda.cli.main import main
from koloda.tournament.results import GameResult
from koloda.tournament.sequential import SequentialMatch, agent_seat
from koloda.tournament.sprt import SprtTest

TINY = "durak(ranks=4,suits=2,hand_size=3)"


def _match(tmp_path, *args, name="m"):
    return main(["match", *args, "--output", str(tmp_path), "--name", name, *(
        [] if "--jobs" in args else ["--jobs", "1"])])


def _results(tmp_path, name="m"):
    return [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]


def test_a_stronger_agent_is_accepted_and_the_run_stops_at_the_deciding_deal(tmp_path, capsys):
    assert _match(tmp_path, "heuristic", "random", "--game", TINY,
                  "--sprt", "elo0=0,elo1=100") == 0
    summary = json.loads((tmp_path / "m.json").read_text())
    sprt = summary["sprt"]
    assert sprt["decision"] == "H1" and sprt["llr"] >= sprt["upper"]
    lines = _results(tmp_path)
    assert len(lines) == 2 * sprt["decided_after_deals"] == summary["games"]
    assert [line["deal"] for line in lines] == [d for d in range(len(lines) // 2) for _ in (0, 1)]
    # the same decision from the games alone, counted again by hand
    watch = SequentialMatch(2, SprtTest(0, 100), max_units=10**6)
    decided = [watch.add(GameResult.from_line(line)) for line in lines]
    assert decided[-1] and not any(decided[:-2])
    assert watch.sprt.llr == pytest.approx(sprt["llr"], abs=1e-4)
    assert "H1 accepted" in capsys.readouterr().out


def test_a_rerun_plays_nothing_and_decides_as_before(tmp_path, capsys):
    args = ("heuristic", "random", "--game", TINY, "--sprt", "elo0=0,elo1=100")
    assert _match(tmp_path, *args) == 0
    first = (tmp_path / "m.jsonl").read_text(), (tmp_path / "m.json").read_text()
    capsys.readouterr()
    assert _match(tmp_path, *args) == 0
    assert ((tmp_path / "m.jsonl").read_text(), (tmp_path / "m.json").read_text()) == first
    assert "resuming" not in capsys.readouterr().out


def test_an_agent_against_itself_is_not_found_stronger(tmp_path):
    assert _match(tmp_path, "heuristic", "heuristic", "--game", TINY,
                  "--sprt", "elo0=0,elo1=50") == 0
    summary = json.loads((tmp_path / "m.json").read_text())
    assert summary["sprt"]["decision"] == "H0"
    assert summary["opponent"]["name"] == "heuristic (copy)"
    assert summary["opponent"]["spec"] == summary["agent"]["spec"] == "heuristic"


def test_without_a_test_it_plays_the_games_asked_and_more_games_go_on_from_there(tmp_path):
    assert _match(tmp_path, "random", "heuristic", "--game", TINY, "--games", "10") == 0
    assert len(_results(tmp_path)) == 10
    summary = json.loads((tmp_path / "m.json").read_text())
    assert "sprt" not in summary and summary["deals"] == 5
    assert summary["elo"]["low"] <= summary["elo"]["elo"] <= summary["elo"]["high"]
    assert _match(tmp_path, "random", "heuristic", "--game", TINY, "--games", "14") == 0
    assert len(_results(tmp_path)) == 14


def test_two_jobs_stop_at_the_same_deal_with_the_same_games(tmp_path):
    args = ("heuristic", "random", "--game", TINY, "--sprt", "elo0=0,elo1=100")
    assert _match(tmp_path / "one", *args) == 0
    assert _match(tmp_path / "two", *args, "--jobs", "2") == 0
    assert _results(tmp_path / "one") == _results(tmp_path / "two")


def test_three_players_count_a_deal_once_all_its_seats_are_played(tmp_path):
    game = "durak(players=3,ranks=4,suits=3,hand_size=3)"
    assert _match(tmp_path, "heuristic", "random", "--game", game,
                  "--sprt", "elo0=0,elo1=150") == 0
    summary = json.loads((tmp_path / "m.json").read_text())
    lines = _results(tmp_path)
    assert summary["sprt"]["decision"] is not None
    assert len(lines) == 3 * summary["sprt"]["decided_after_deals"]
    assert sorted(agent_seat(line["id"]) for line in lines[:3]) == [0, 1, 2]


@pytest.mark.parametrize("args, named", [
    (("--sprt", "elo0=5,elo1=5"), "elo1 must be greater than elo0"),
    (("--sprt", "alpha=0.7"), "alpha"),
    (("--sprt", "elo2=3"), "unknown field"),
    (("--games", "0"), "--games must be positive"),
    (("--seed", "-1"), "--seed must be 0 or more"),
    (("--jobs", "0"), "--jobs must be from"),
])
def test_a_bad_argument_is_one_error_line_before_any_game(tmp_path, capsys, args, named):
    assert _match(tmp_path, "heuristic", "random", "--game", TINY, *args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0]
    assert not list(tmp_path.iterdir())


def test_agents_named_from_a_config(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text('name = "c"\ngames = ["durak"]\nseed = 1\ngames_per_pairing = 2\n'
                      '[agents]\nstrong = "heuristic"\n'
                      'weak = "random"\n')
    assert _match(tmp_path, "strong", "weak", "--game", TINY, "--games", "4",
                  "--config", str(config)) == 0
    summary = json.loads((tmp_path / "m.json").read_text())
    assert (summary["agent"], summary["opponent"]) == (
        {"name": "strong", "spec": "heuristic"}, {"name": "weak", "spec": "random"})
    assert _match(tmp_path, "strong", "nobody", "--game", TINY, "--config", str(config)) == 2
    assert "has no agent 'nobody'" in capsys.readouterr().err


def test_the_running_score_is_written_every_ten_deals(tmp_path, capsys):
    assert _match(tmp_path, "heuristic", "random", "--game", TINY, "--games", "40") == 0
    running = [line for line in capsys.readouterr().err.splitlines() if "deals)" in line]
    assert [line.split(":")[0] for line in running] == ["20 games (10 deals)",
                                                         "40 games (20 deals)"]
    assert all("Elo" in line and "+" in line for line in running)


def test_a_time_control_binds_both_agents_and_a_bad_one_is_one_line(tmp_path, capsys):
    assert _match(tmp_path, "heuristic", "random", "--game", TINY, "--games", "2",
                  "--move-ms", "500") == 0
    assert {tuple(line["specs"]) for line in _results(tmp_path)} == {
        ("heuristic @ move_ms=500", "random @ move_ms=500"),
        ("random @ move_ms=500", "heuristic @ move_ms=500")}
    capsys.readouterr()
    assert _match(tmp_path / "x", "heuristic", "random", "--game", TINY,
                  "--clock", "soon") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "clock must read SECONDS+INCREMENT" in err[0]


def test_a_name_that_is_no_file_name_is_refused_before_any_game(tmp_path, capsys):
    assert _match(tmp_path, "heuristic", "random", "--game", TINY, name="../outside") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "must be letters, digits, - or _" in err[0]
    assert not list(tmp_path.iterdir()) and not (tmp_path.parent / "outside.jsonl").exists()
