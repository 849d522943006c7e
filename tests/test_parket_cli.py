"""`koloda parket solve` and `koloda parket endgames`: the solver's results as the command
line prints and writes them, and bad input as one error line."""

import json

import pytest

from koloda.cli import main
from koloda.solvers.parket import random_position, solve


@pytest.fixture(scope="module")
def position():
    return random_position(5, seed=3)


def test_solve_prints_the_board_value_every_move_and_the_line(capsys, position):
    assert main(["parket", "solve", position]) == 0
    out = capsys.readouterr().out
    result = solve(position)
    assert f"value: {result.value} in {result.moves_to_end} move(s)" in out
    for move in result.moves:
        assert move.move in out
    assert "principal variation: " + ", ".join(result.pv) in out
    assert out.splitlines()[0].split() == list("abcdefg")


def test_solve_json_has_exactly_the_documented_keys(capsys, position):
    assert main(["parket", "solve", position, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {"value", "moves_to_end", "moves", "pv", "nodes", "seconds"} <= set(answer)
    assert answer["value"] in ("win", "loss", "draw")
    assert all(set(m) == {"move", "value", "moves_to_end"} for m in answer["moves"])
    assert answer["moves_to_end"] == solve(position).moves_to_end


@pytest.mark.parametrize("argv, named", [
    (["parket", "solve", "nonsense"], "position"),
    (["parket", "solve", "--------------/--------------/--------------/--------------/"
      "-------------- r m 0"], "main"),
    (["parket", "solve", "x", "--max-relocations", "0"], "--max-relocations"),
    (["parket", "endgames", "--empty", "40"], "--empty"),
    (["parket", "endgames", "--empty", "4", "--count", "0"], "--count"),
])
def test_bad_input_is_one_error_line(capfd, argv, named):
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and named in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_endgames_solves_positions_and_writes_the_table(capsys, tmp_path):
    argv = ["parket", "endgames", "--empty", "4", "--count", "6", "--seed", "2",
            "--output", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    header, _, row = out.splitlines()[:3]
    assert header.split("|")[1].strip() == "empty" and row.split("|")[1].strip() == "4"
    table = (tmp_path / "parket-endgames-empty-4.md").read_text()
    rows = (tmp_path / "parket-endgames-empty-4.csv").read_text().splitlines()
    assert "win" in table and len(rows) == 1 + 6
    for row in rows[1:]:
        position, value, length = row.split(",")[:3]
        assert solve(position).value == value and solve(position).moves_to_end == int(length)


def test_the_solver_bench_compares_with_minimax_and_the_reference(capsys):
    assert main(["bench", "parket", "--solver"]) == 0
    out = capsys.readouterr().out
    assert "vs minimax" in out and "vs reference" in out


def test_the_solver_bench_is_for_parket(capfd):
    assert main(["bench", "durak", "--solver"]) == 2
    assert "--solver measures the Parket solver" in capfd.readouterr().err
