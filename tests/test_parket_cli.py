"""`koloda parket solve` and `koloda parket endgames`: the solver's results as the command
line prints and writes them, and bad input as one error line."""

import json
import re
import subprocess
import sys
import time

import pytest

from koloda.cli.main import main
from koloda.solvers.parket import MAX_RELOCATIONS, REACH, random_position, solve

#: far beyond the reach: a solve of a position this big takes minutes, so a stop at a
#: second or less is a stop whatever the solver's speed (within a factor of a hundred)
FAR = REACH + 8


@pytest.fixture(scope="module")
def position():
    return random_position(5, seed=3)


def test_solve_prints_the_board_value_every_move_and_the_line(capsys, position):
    assert main(["parket", "solve", position]) == 0
    out = capsys.readouterr().out
    result = solve(position)
    assert f"value: {result.value} for the side to move\n" in out
    for move in result.moves:
        assert any(line.split() == [*move.move.split(), move.value]
                   for line in out.splitlines())
    assert "a line that keeps the value: " + ", ".join(result.pv) in out
    assert "moves to end" not in out
    assert out.splitlines()[0].split() == list("abcdefg")


def test_solve_with_lengths_prints_every_moves_length_and_the_fastest_line(capsys, position):
    assert main(["parket", "solve", position, "--lengths"]) == 0
    out = capsys.readouterr().out
    result = solve(position, lengths=True)
    assert f"value: {result.value} in {result.moves_to_end} move(s)" in out
    for move in result.moves:
        assert any(line.split() == [*move.move.split(), move.value, str(move.moves_to_end)]
                   for line in out.splitlines())
    assert "principal variation: " + ", ".join(result.pv) in out


def test_solve_json_has_exactly_the_documented_keys(capsys, position):
    assert main(["parket", "solve", position, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {"value", "moves_to_end", "moves", "pv", "nodes", "seconds"} <= set(answer)
    assert answer["value"] in ("win", "loss", "draw")
    assert all(set(m) == {"move", "value", "moves_to_end"} for m in answer["moves"])
    assert answer["moves_to_end"] is None and answer["lengths"] is False
    assert main(["parket", "solve", position, "--json", "--lengths"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["moves_to_end"] == solve(position, lengths=True).moves_to_end


@pytest.mark.parametrize("argv, named", [
    (["parket", "solve", "nonsense"], "position"),
    (["parket", "solve", "--------------/--------------/--------------/--------------/"
      "-------------- r m 0"], "main"),
    (["parket", "solve", "x", "--max-relocations", "0"], "--max-relocations"),
    (["parket", "endgames", "--empty", "40"], "--empty"),
    (["parket", "endgames", "--empty", "4", "--count", "0"], "--count"),
    (["parket", "endgames", "--empty", "4", "--seconds", "nan"], "--seconds"),
    (["parket", "endgames", "--empty", "4", "--seconds", "-1"], "--seconds"),
    (["parket", "solve", "x", "--scheduler", "local", "--jobs", "0"], "--jobs"),
])
def test_bad_input_is_one_error_line(capfd, argv, named):
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and named in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_empty_position_is_refused_at_once():
    # The game reads "" as its start position, whose solve never ends.
    done = subprocess.run([sys.executable, "-m", "koloda", "parket", "solve", ""],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("koloda: error: the position is empty; write one as "
                                  "<row1>/<row2>/<row3>/<row4>/<row5> <r|b> <x|m> "
                                  "<relocations>, like the start position ")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, named", [
    (["parket", "solve", "   ", "--seconds", "5"],
     "the position is empty; write one as <row1>"),
    (["parket", "solve", "x", "--max-relocations", str(MAX_RELOCATIONS + 1)],
     f"--max-relocations must be from 1 to {MAX_RELOCATIONS}, "),
    (["parket", "solve", "x", "--max-relocations", "100"], "--max-relocations"),
    (["parket", "endgames", "--empty", "2", "--count", "0", "--max-relocations", "100"],
     "--max-relocations"),
    (["parket", "solve", "x", "--seconds", "0"], "--seconds must be a positive number"),
    (["parket", "solve", "x", "--seconds", "nan"], "--seconds must be a positive number"),
    (["parket", "solve", "x", "--seconds", "inf"], "--seconds must be a positive number"),
])
def test_bad_solver_input_is_one_error_line(capfd, argv, named):
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and named in err
    assert len(err.strip().splitlines()) == 1


def test_a_relocation_count_of_5000_digits_is_a_short_error(capfd, position):
    huge = position.rsplit(" ", 1)[0] + " " + "7" * 5000
    assert main(["parket", "solve", huge, "--seconds", "5"]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: position ") and "relocations must be" in err
    assert len(err) < 200 and "7" * 30 not in err


def test_the_largest_relocation_cap_solves(capsys):
    argv = ["parket", "solve", random_position(1, 0), "--max-relocations",
            str(MAX_RELOCATIONS), "--seconds", "20"]
    assert main(argv) == 0
    assert "a line that keeps the value: " in capsys.readouterr().out


def test_a_solve_beyond_the_reach_says_so_and_stops_at_seconds(capsys):
    far = random_position(FAR, 1)
    started = time.perf_counter()
    assert main(["parket", "solve", far, "--seconds", "1"]) == 0
    assert time.perf_counter() - started < 30
    captured = capsys.readouterr()
    assert captured.err == (f"solving: {FAR} empty cells, beyond the {REACH} this "
                            f"solves in seconds; stops at --seconds 1\n")
    out = captured.out.splitlines()
    assert out[0].split() == list("abcdefg")
    stopped = next(line for line in out if line.startswith("stopped at --seconds 1 "))
    assert "moves have a known value" in stopped
    assert any(line.startswith("value: ") for line in out)
    assert out[-1] == "principal variation: (not found before the stop)"


def test_a_stopped_solve_in_json_says_it_did_not_finish(capsys):
    far = random_position(FAR, 1)
    assert main(["parket", "solve", far, "--seconds", "1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["finished"] is False and answer["stopped_by"] == "time_limit"
    assert answer["pv"] == [] and answer["moves"]
    assert all(set(m) == {"move", "value", "moves_to_end"} for m in answer["moves"])


def test_a_solve_within_the_reach_says_nothing_on_stderr(capsys, position):
    assert main(["parket", "solve", position, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out)["finished"] is True


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
        assert solve(position).value == value and length == ""


def test_endgames_report_nodes_a_second_and_table_hits(capsys, tmp_path):
    argv = ["parket", "endgames", "--empty", "10", "--count", "3", "--output", str(tmp_path)]
    assert main(argv) == 0
    header, _, row = capsys.readouterr().out.splitlines()[:3]
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")]))
    assert int(cells["nodes/s a core"].replace(",", "")) > 0
    assert 0 < float(cells["table hits"].rstrip("%")) < 100
    rows = (tmp_path / "parket-endgames-empty-10.csv").read_text().splitlines()
    assert rows[0].endswith("table_probes,table_hits")
    for row in rows[1:]:
        probes, hits = map(int, row.split(",")[-2:])
        assert probes >= hits >= 0 and probes > 0


def test_endgames_with_a_store_read_what_an_earlier_run_proved(capsys, tmp_path):
    store = tmp_path / "solved.kps"
    runs = []
    for folder in ("first", "second"):
        argv = ["parket", "endgames", "--empty", "11", "--count", "3", "--store", str(store),
                "--output", str(tmp_path / folder)]
        assert main(argv) == 0
        rows = (tmp_path / folder / "parket-endgames-empty-11.csv").read_text().splitlines()
        runs.append([row.split(",") for row in rows[1:]])
    first, second = runs
    assert [r[:2] for r in first] == [r[:2] for r in second]         # positions, values
    assert sum(int(r[4]) for r in second) * 5 < sum(int(r[4]) for r in first)
    capsys.readouterr()
    (tmp_path / "foreign.kps").write_text("not a store")
    assert main(["parket", "endgames", "--empty", "4", "--count", "1", "--store",
                 str(tmp_path / "foreign.kps"), "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a koloda Parket store" in err and len(err.strip().splitlines()) == 1


def test_endgames_with_lengths_writes_each_positions_length(capsys, tmp_path):
    argv = ["parket", "endgames", "--empty", "4", "--count", "6", "--seed", "2",
            "--output", str(tmp_path), "--lengths"]
    assert main(argv) == 0
    assert not (tmp_path / "parket-endgames-empty-4.csv").exists()
    rows = (tmp_path / "parket-endgames-lengths-empty-4.csv").read_text().splitlines()
    for row in rows[1:]:
        position, value, length = row.split(",")[:3]
        solved = solve(position, lengths=True)
        assert (solved.value, solved.moves_to_end) == (value, int(length))


def test_endgames_counts_positions_stopped_at_seconds(capsys, tmp_path):
    argv = ["parket", "endgames", "--empty", str(REACH + 6), "--count", "3",
            "--output", str(tmp_path), "--seconds", "0.2"]
    assert main(argv) == 0
    header, _, row = capsys.readouterr().out.splitlines()[:3]
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")]))
    assert cells["stopped"] == "3" and cells["s (median)"] == "> 0.2"
    rows = (tmp_path / f"parket-endgames-empty-{REACH + 6}.csv").read_text().splitlines()
    assert [row.split(",")[1] for row in rows[1:]] == ["stopped"] * 3


def test_the_solver_bench_compares_with_minimax_and_the_reference(capsys, monkeypatch):
    """On 2 positions a row, not the bench's 10, and values on 11 empty cells, not 14,
    to keep the suite short."""
    from koloda.bench import solver
    from koloda.cli import bench

    monkeypatch.setattr(bench, "run_solver_bench",
                        lambda: solver.run_solver_bench(positions=2, values_empty=11))
    assert main(["bench", "parket", "--solver"]) == 0
    out = capsys.readouterr().out
    assert "vs minimax" in out and "vs reference" in out and "vs fast" in out


def test_the_solver_bench_is_for_parket(capfd):
    assert main(["bench", "durak", "--solver"]) == 2
    assert "--solver measures the Parket solver" in capfd.readouterr().err


def _record_file(tmp_path, game_string="parket", seed=11):
    """A random game's record to its end, as koloda play saves one."""
    import random

    from koloda import games
    from koloda.protocol.record import record_of, save_record
    state = games.load_game(game_string).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return save_record(record_of(state, game_string, players=["red", "black"]),
                       tmp_path / "game.json")


def test_analyse_prints_each_solved_move_and_the_moves_that_threw_a_value_away(
        capsys, tmp_path):
    path = _record_file(tmp_path)
    assert main(["parket", "analyse", str(path), "--seconds", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (f"analysing {path}: each position within 1 s, from the end "
                            f"back, at most 300 s in all\n")
    data = json.loads(captured.out)
    assert data["game"] == "parket" and data["players"] == ["red", "black"]
    first = data["first_solved"]
    assert first is not None and all(
        (m["before"] is None) == (m["number"] < first) for m in data["moves"])
    assert main(["parket", "analyse", str(path), "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    # A second run within a time limit may reach a move more or less far back on a busy
    # machine: its own first move is read from its text, and the moves both reached agree.
    reached = re.match(r"solved from move (\d+) on, the first position within 1 s; ", out)
    assert reached, out
    both = max(first, int(reached.group(1)))
    thrown = [m for m in data["moves"] if m["threw_away"] and m["number"] >= both]
    for move in thrown:
        who = f"p{move['player']} ({['red', 'black'][move['player']]})"
        assert (f"{who}, move {move['number']} ({move['move']}), turned a {move['before']} "
                f"into a {move['after']}; {', '.join(move['kept_by'])} kept it") in out
    if not thrown and both == int(reached.group(1)):
        assert "no move within reach threw a win or a draw away" in out


@pytest.mark.parametrize("content, named", [
    ("{", "not a koloda record"),
    ('{"record": 1, "game": "parket", "actions": ["p0 Zz a1"]}', "actions[0]"),
])
def test_analyse_refuses_a_bad_record_in_one_line(capfd, tmp_path, content, named):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["parket", "analyse", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and named in err
    assert len(err.strip().splitlines()) == 1


def test_analyse_takes_parket_records_only(capfd, tmp_path):
    path = _record_file(tmp_path, "durak(ranks=6,suits=2,hand_size=3)")
    assert main(["parket", "analyse", str(path)]) == 2
    err = capfd.readouterr().err
    assert "a record of durak; koloda parket analyse takes a Parket game's record" in err


@pytest.mark.parametrize("option", ["--seconds", "--budget"])
def test_analyse_refuses_a_limit_that_is_no_time(capfd, tmp_path, option):
    path = _record_file(tmp_path)
    assert main(["parket", "analyse", str(path), option, "nan"]) == 2
    assert f"{option} must be a positive number of seconds" in capfd.readouterr().err


def test_endgames_on_a_dask_cluster_give_the_results_of_one_machine(capsys, tmp_path):
    pytest.importorskip("distributed")
    common = ["parket", "endgames", "--empty", "6", "--count", "4", "--seed", "5"]
    assert main(common + ["--output", str(tmp_path / "here")]) == 0
    assert main(common + ["--output", str(tmp_path / "dask"), "--scheduler", "local",
                          "--jobs", "2"]) == 0
    capsys.readouterr()

    def values(folder):
        rows = (tmp_path / folder / "parket-endgames-empty-6.csv").read_text().splitlines()
        return [row.split(",")[:2] for row in rows]
    assert values("dask") == values("here")


def test_endgames_name_a_scheduler_that_does_not_answer(capfd, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from koloda.tournament import executor
    monkeypatch.setattr(executor, "SCHEDULER_TIMEOUT", 1)
    argv = ["parket", "endgames", "--empty", "4", "--count", "2", "--output",
            str(tmp_path), "--scheduler", "tcp://127.0.0.1:9"]
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert "the Dask scheduler tcp://127.0.0.1:9 did not answer within 1 s" in err
    assert len(err.strip().splitlines()) == 1


def test_a_solve_spread_on_a_dask_cluster_gives_the_values_of_one_machine(capsys):
    pytest.importorskip("distributed")
    position = random_position(8, 3)
    assert main(["parket", "solve", position, "--json", "--scheduler", "local"]) == 0
    answer = json.loads(capsys.readouterr().out)
    whole = solve(position)
    assert answer["value"] == whole.value and answer["finished"] is True
    assert sorted((m["move"], m["value"]) for m in answer["moves"]) == \
        sorted((m.move, m.value) for m in whole.moves)
    assert main(["parket", "solve", position, "--scheduler", "local", "--lengths"]) == 2


@pytest.mark.parametrize("call", [
    "analysis.run_solve(position, 'path', 4, 5.0, False, lengths=True)",
    "analysis._solve_one(position, 'path', 4, True, 5.0)"])
def test_seconds_count_the_search_not_compiling_the_kernels(call):
    """In a fresh process no kernel is loaded (on an empty numba cache, compiling them
    takes seconds): `solve` and each position of `endgames` start their clock, and
    their --seconds, only once every kernel is."""
    script = (
        "import koloda.solvers.parket as parket\n"
        "from koloda.analysis import parket as analysis\n"
        "from koloda.solvers.parket import kernel\n"
        "names = ['search', 'exact', 'draw_distance', 'draw_within']\n"
        "missing = {}\n"
        "real = parket.solve\n"
        "def solve(position, **params):\n"
        "    missing.setdefault(position, [n for n in names\n"
        "                                  if not getattr(kernel, n).signatures])\n"
        "    return real(position, **params)\n"
        "parket.solve = solve\n"
        "position = parket.random_position(6, 0)\n"
        f"{call}\n"
        "print(missing[position])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=300).stdout
    assert out.strip() == "[]"
