"""The levels' ladders: the configs in configs/ are the ones the levels make, and a finished
ladder's calibration is its tournament's Elo fit, gaps included; a stale or unfinished
ladder is refused with one clear error."""

import json
import statistics
from pathlib import Path

import pytest
from named_pipes import pipe, without_waiting_on

from koloda.cli.main import main
from koloda.solvers import levels
from koloda.tournament import levels as ladder
from koloda.tournament.config import ConfigError, load_config
from koloda.tournament.levels_report import write_levels_report
from koloda.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[2]
TINY = "durak(hand_size=3,ranks=4,suits=2)"
TINY_LEVELS = ("ismcts(sims=2,temperature=1.0)", "ismcts(sims=3,temperature=1.0)",
               "ismcts(sims=4)", "ismcts(sims=6)", "ismcts(sims=8)", "ismcts(sims=12)",
               "ismcts(sims=16)", "ismcts(sims=24)")


@pytest.mark.parametrize("game_name", list(levels.LEVELS))
def test_the_ladder_in_configs_is_the_one_the_levels_make(game_name):
    path = ROOT / ladder.config_path(game_name)
    assert path.read_text() == ladder.ladder_config(game_name)
    config = load_config(str(path))
    assert config.games == [levels.LADDER_GAMES[game_name]] and config.anchor == "heuristic"
    assert [config.agents[f"level{n}"] for n in range(1, 9)] == list(levels.LEVELS[game_name])
    size = ladder.ladder_sizes(game_name)
    games = {(m.agent, m.opponent): m.games for m in config.matches}
    assert config.seed == size.seed and len(games) == len(config.matches) == 23
    assert [games[f"level{n + 1}", f"level{n}"] for n in range(1, 8)] == [size.next] * 7
    assert [games[f"level{n + 2}", f"level{n}"] for n in range(1, 7)] == [size.skip] * 6
    assert [games[f"level{n}", "heuristic"] for n in range(1, 9)] == [size.anchor] * 8
    assert [games["heuristic", "random"], games["level1", "random"]] == [size.random] * 2


@pytest.mark.parametrize("game_name", list(levels.LEVELS))
def test_the_top_level_goal_plays_todays_top_level(game_name):
    config = load_config(str(ROOT / "configs" / f"top-{game_name}.toml"))
    assert config.agents["level8"] == levels.LEVELS[game_name][7]
    if "level7" in config.agents:
        assert config.agents["level7"] == levels.LEVELS[game_name][6]


@pytest.fixture
def tiny_ladder(tmp_path, monkeypatch):
    """Durak's levels as short searches on a miniature, four games a match."""
    monkeypatch.setitem(levels.LEVELS, "durak", TINY_LEVELS)
    monkeypatch.setitem(levels.LADDER_GAMES, "durak", TINY)
    monkeypatch.setitem(ladder.SIZES, "durak", ladder.LadderSizes(4, 4, 4, 4))
    text = ladder.ladder_config("durak").replace(
        'output = "reports"', f'output = "{tmp_path}"\nbootstrap = 50').replace("jobs = 2",
                                                                             "jobs = 1")
    path = tmp_path / "levels-durak.toml"
    path.write_text(text)
    return load_config(str(path))


def test_a_finished_ladder_calibrates_to_its_tournaments_fit(tiny_ladder, tmp_path,
                                                             monkeypatch):
    with pytest.raises(ConfigError, match="of the ladder's 92 games are not played yet"):
        ladder.calibrate(tiny_ladder)
    run_tournament(tiny_ladder, progress=False)
    calibration = ladder.calibrate(tiny_ladder)
    entry = calibration.entry
    assert calibration.game == "durak" and entry["games"] == 92 and entry["game"] == TINY
    rows = entry["levels"]
    assert [row["spec"] for row in rows] == list(TINY_LEVELS)
    assert entry["others"]["heuristic"]["elo"] == pytest.approx(0.0, abs=1e-9)
    for gap, lower, upper in zip(entry["gaps"], rows, rows[1:]):
        # the fit anchored at the lower level is the same fit, shifted
        assert gap["elo"] == pytest.approx(upper["elo"] - lower["elo"], abs=1e-6)
        assert gap["low"] <= gap["elo"] <= gap["high"]
    for row in rows:
        assert row["low"] <= row["elo"] <= row["high"]
    # the time per move is the median game's, read here from the timing file itself
    by_id = {json.loads(line)["id"]: json.loads(line)
             for line in Path(tiny_ladder.results_path).read_text().splitlines()}
    games = {}
    for line in Path(tiny_ladder.timing_path).read_text().splitlines():
        times = json.loads(line)
        for name, seconds, moves in zip(by_id[times["id"]]["seats"], times["seconds"],
                                        times["moves"]):
            if moves:                             # a seat that never had to choose
                games.setdefault(name, []).append(1000 * seconds / moves)
    for row in rows:
        ms = sorted(games[f"level{row['n']}"])
        assert 0 < len(ms) <= row["games"]
        assert row["ms_per_move"] == pytest.approx(statistics.median(ms))
        assert row["ms_per_move"] <= row["ms_per_move_p90"] <= ms[-1]

    other = tmp_path / "other.json"
    other.write_text(json.dumps({"parket": {"kept": True}}))
    ladder.write_calibration(calibration, other)         # one game's entry, the others kept
    written = json.loads(other.read_text())
    assert written["parket"] == {"kept": True} and written["durak"]["games"] == 92
    path = tmp_path / "levels.json"
    ladder.write_calibration(calibration, path)
    monkeypatch.setattr(levels, "CALIBRATION", path)
    levels._calibration.cache_clear()
    try:
        measured = levels.levels_of("durak")
        assert [level.elo for level in measured] == pytest.approx([row["elo"] for row in rows])
        report, chart = write_levels_report(tmp_path / "reports", path)[:2]
        text = report.read_text()
        assert f"Ladder `{tiny_ladder.path}` on `{TINY}`: 92 games." in text
        for spec in TINY_LEVELS:
            assert f"`{spec}`" in text
        assert chart.name == "levels-chart-durak.png" and chart.stat().st_size > 0
        assert "Not calibrated yet: `koloda tournament configs/levels-parket.toml`" in text
    finally:
        levels._calibration.cache_clear()


def test_a_ladder_of_other_specs_is_refused(tiny_ladder, monkeypatch, capfd):
    changed = list(TINY_LEVELS)
    changed[4] = "ismcts(sims=9)"
    monkeypatch.setitem(levels.LEVELS, "durak", tuple(changed))
    with pytest.raises(ConfigError, match="level5 is 'ismcts\\(sims=8\\)', but level 5 of "
                                          "durak is 'ismcts\\(sims=9\\)' now"):
        ladder.calibrate(tiny_ladder)
    assert main(["levels", "calibrate", tiny_ladder.path]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and err.count("\n") == 1


def test_koloda_levels_lists_every_game_and_refuses_an_unknown_one(capfd):
    assert main(["levels"]) == 0
    out = capfd.readouterr().out
    for game_name, specs in levels.LEVELS.items():
        assert f"{game_name} (Elo on {levels.LADDER_GAMES[game_name]}" in out
        for spec in specs:
            assert spec in out
    assert main(["levels", "show", "chess"]) == 2
    assert "no levels for 'chess'" in capfd.readouterr().err


def test_a_ladder_cut_short_is_refused(tiny_ladder, tmp_path):
    path = Path(tiny_ladder.path)
    text = path.read_text()
    first = text.index("games = 4", text.index("[[match]]"))
    cut = tmp_path / "cut.toml"
    cut.write_text(text[:first] + "games = 2" + text[first + len("games = 4"):])
    with pytest.raises(ConfigError, match="the match level2 against level1 plays 2 games; "
                                          "durak's ladder plays 4; write the ladder anew"):
        ladder.calibrate(load_config(str(cut)))
    reseeded = tmp_path / "reseeded.toml"
    reseeded.write_text(text.replace("seed = 2028", "seed = 7"))
    with pytest.raises(ConfigError, match="the seed of durak's ladder is 2028, not 7"):
        ladder.calibrate(load_config(str(reseeded)))


def test_calibrate_writes_where_it_says_never_into_the_installed_package(
        tiny_ladder, tmp_path, monkeypatch, capfd):
    installed = levels.CALIBRATION.read_bytes()
    monkeypatch.chdir(tmp_path)                       # not a koloda checkout
    assert main(["levels", "calibrate", tiny_ladder.path]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: calibrate writes levels.json: give --calibration "
                          "PATH") and err.count("\n") == 1
    run_tournament(tiny_ladder, progress=False)
    target = tmp_path / "mine" / "levels.json"
    target.parent.mkdir()
    assert main(["levels", "calibrate", tiny_ladder.path, "--calibration", str(target),
                 "--output", str(tmp_path / "reports")]) == 0
    out = capfd.readouterr().out
    assert json.loads(target.read_text())["durak"]["games"] == 92
    assert f"written: {target}" in out and "not measured" not in out
    assert levels.CALIBRATION.read_bytes() == installed
    assert ladder.checkout_calibration(ROOT) == ROOT / "solvers" / "levels.json"
    assert ladder.checkout_calibration(tmp_path) is None

    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not JSON\n")
    fifo = pipe(tmp_path / "pipe.json")
    for path, named in ((notes, "is not a levels.json (not JSON)"),
                        (fifo, "is not a regular file"),
                        (tmp_path / "mine", "is a folder"),
                        (tmp_path / "none" / "levels.json", "its folder does not exist")):
        assert without_waiting_on(fifo, lambda path=path: main([
            "levels", "calibrate", tiny_ladder.path, "--calibration", str(path),
            "--output", str(tmp_path / "reports")])) == 2, path
        err = capfd.readouterr().err
        assert err.startswith(f"koloda: error: calibration {path}") and named in err, err
        assert err.count("\n") == 1
    assert notes.read_text() == "my notes, not JSON\n"


def test_levels_show_reads_a_calibration_written_elsewhere(tmp_path, capfd):
    path = tmp_path / "levels.json"
    entry = json.loads(levels.CALIBRATION.read_text())["durak"]
    entry["levels"][0]["elo"] = -1234.0
    path.write_text(json.dumps({"durak": entry}))
    assert main(["levels", "show", "durak", "--calibration", str(path)]) == 0
    assert "-1234 [" in capfd.readouterr().out
    entry["levels"][0]["elo"] = "strong"
    path.write_text(json.dumps({"durak": entry}))
    for given, named in ((path, "is not a levels.json (an entry of another shape)"),
                         (tmp_path / "none.json", "does not exist")):
        assert main(["levels", "show", "durak", "--calibration", str(given)]) == 2
        err = capfd.readouterr().err
        assert err == f"koloda: error: calibration {given} {named}\n"
