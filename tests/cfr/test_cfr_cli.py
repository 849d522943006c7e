"""`koloda cfr`: training writes a policy and a chart; errors are one line, status 2."""

import pytest

from koloda.cli.main import main
from koloda.solvers.cfr import policy_file

TINY = "durak(hand_size=1,ranks=2,suits=2)"


def test_train_prints_progress_and_writes_the_policy_and_the_curve(tmp_path, capsys):
    out = tmp_path / "tiny.json.gz"
    assert main(["cfr", "train", TINY, "--algo", "cfr+", "--iterations", "10",
                 "--measurements", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "iteration  1/10" in printed and "iteration 10/10" in printed
    assert printed.count("exploitability") >= 4
    assert policy_file.load(out).iterations == 10
    assert (tmp_path / "tiny.png").stat().st_size > 1000


def test_exploitability_prints_a_row_per_agent(capsys):
    assert main(["cfr", "exploitability", TINY, "--agent", "random",
                 "--agent", "heuristic"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == ["random", "heuristic"]


@pytest.mark.parametrize("argv, named", [
    (["cfr", "train", "no_such_game", "--iterations", "1"], "no_such_game"),
    (["cfr", "train", TINY, "--iterations", "0"], "--iterations"),
    (["cfr", "train", TINY, "--algo", "cfr++", "--iterations", "1"], "cfr++"),
    (["cfr", "train", TINY], "--iterations"),
    (["cfr", "train", TINY, "--iterations", "1", "--seconds", "-1"], "--seconds"),
    (["cfr", "exploitability", TINY, "--agent", "cfr(policy=missing.json.gz)"], "missing"),
    (["cfr", "exploitability", TINY, "--agent", "alphazero"], "alphazero"),
    (["cfr", "curves", "out.png", "missing.json.gz"], "missing"),
    (["cfr"], "COMMAND"),
])
def test_errors_are_one_line_with_status_2(argv, named, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: error: ") and err.count("\n") == 1
    assert named in err


def test_presets_lists_every_miniature_with_its_size(capsys):
    assert main(["cfr", "presets"]) == 0
    out = capsys.readouterr().out
    for name in ("durak-open", "durak-mini", "durak-mccfr", "platinum_fish-mini",
                 "platinum_fish-mccfr"):
        assert name in out
    assert "durak(hand_size=2,ranks=3,suits=2)" in out and "292,160 information" in out


def test_a_bad_agent_is_refused_before_the_table_starts(capsys):
    assert main(["cfr", "exploitability", TINY, "--agent", "random",
                 "--agent", "alphazero"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "alphazero" in captured.err


def test_a_seed_beyond_what_the_solvers_take_is_one_line(tmp_path, capsys):
    assert main(["cfr", "train", TINY, "--algo", "mccfr-os", "--iterations", "1",
                 "--seed", str(2**31), "--out", str(tmp_path / "p.json.gz")]) == 2
    err = capsys.readouterr().err
    assert err == ("koloda: error: --seed must be from 0 to 2,147,483,647 (OpenSpiel's "
                   "solvers take a 32-bit signed seed), not 2147483648\n")
    assert not (tmp_path / "p.json.gz").exists()


def test_a_full_game_is_refused_at_once(tmp_path, capsys):
    assert main(["cfr", "train", "durak", "--algo", "cfr", "--iterations", "1",
                 "--out", str(tmp_path / "p.json.gz")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: error: durak(") and err.count("\n") == 1
    assert "far more than 5,000,000 histories" in err
