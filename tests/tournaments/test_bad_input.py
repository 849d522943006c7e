"""Tournaments under bad input: each mistake gets one `koloda: error:` line naming it (exit
status 2; Ctrl-C: how to resume, exit status 130) before any game is played, and nothing
is left half-made."""

import fcntl
import gc
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from named_pipes import pipe, without_waiting_on

from koloda.cli.main import build_parser, main
from koloda.tournament import executor
from koloda.tournament import main as tournament_main
from koloda.tournament.config import ConfigError, config_from_dict
from koloda.tournament.results import ResultsError
from koloda.tournament.runner import run_tournament

TINY = "durak(hand_size=3,ranks=4,suits=2)"


def _write_config(tmp_path, output=None, extra="", name="t"):
    path = tmp_path / f"{name}.toml"
    path.write_text(_write_config_text(output or tmp_path / "out", extra, name))
    return str(path)


def _write_config_text(output, extra="", name="t"):
    return (f'name = "{name}"\ngames = ["{TINY}"]\ngames_per_pairing = 4\n'
            f'seed = 5\nbootstrap = 20\noutput = "{output}"\n'
            f'{extra}\n[agents]\nrandom = "random"\nheuristic = "heuristic"\n')


def _one_error_line(capfd, *named):
    captured = capfd.readouterr()
    assert captured.err.startswith("koloda: error: "), captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    for text in named:
        assert text in captured.err, captured.err
    return captured.err


# ---------------------------------------------------------------- the output

def test_a_second_tournament_on_the_same_output_is_refused(tmp_path, capfd):
    config = _write_config(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    with (out / "t.lock").open("a") as held:             # as a running tournament holds it
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main(["tournament", config]) == 2
        _one_error_line(capfd, "another tournament is writing", "t.jsonl")
        assert not (out / "t.jsonl").exists()
    assert main(["tournament", config]) == 0
    assert (out / "t.jsonl").exists() and not (out / "t.lock").exists()


def test_the_lock_is_held_from_the_first_game_to_the_last_report(tmp_path, monkeypatch):
    config = config_from_dict({"name": "t", "games": [TINY], "games_per_pairing": 2,
                               "output": str(tmp_path), "bootstrap": 20,
                               "agents": {"random": "random", "heuristic": "heuristic"}})
    seen = []

    def write_reports(summary, folder):
        with (tmp_path / "t.lock").open("a") as other:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        seen.append(summary.game)
        return []

    monkeypatch.setattr(tournament_main.report, "write_reports", write_reports)
    tournament_main.run_and_report(config, progress=False)
    assert seen == [TINY] and not (tmp_path / "t.lock").exists()


@pytest.mark.parametrize("output, named", [
    ("README.md", "is a file"),
    ("README.md/reports", "cannot be made: Not a directory"),
    ("/sys/koloda-reports", "cannot be made"),
])
def test_an_output_that_cannot_hold_reports_is_refused(tmp_path, capfd, output, named):
    (tmp_path / "README.md").write_text("not a folder\n")
    target = output if output.startswith("/") else str(tmp_path / output)
    assert main(["tournament", _write_config(tmp_path, output=target)]) == 2
    _one_error_line(capfd, named)
    assert (tmp_path / "README.md").read_text() == "not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "t.toml"]


@pytest.mark.parametrize("folder", ["t.md", "t.png", "t.json.tmp", "t.jsonl.tmp"])
def test_a_folder_where_a_report_goes_is_refused_before_any_game(tmp_path, capfd, folder):
    (tmp_path / "out" / folder).mkdir(parents=True)
    assert main(["tournament", _write_config(tmp_path)]) == 2
    _one_error_line(capfd, f"{tmp_path / 'out' / folder} is a folder, where the tournament "
                           f"writes a file; move it away")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [folder]


def test_an_output_with_a_nul_is_one_line(tmp_path, capfd):
    config = tmp_path / "t.toml"
    config.write_text(_write_config_text(output="a\\u0000b"))
    assert main(["tournament", str(config)]) == 2
    _one_error_line(capfd, "output 'a\\x00b' holds a NUL character")


def test_an_output_under_home_is_expanded_as_a_shell_does(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "t.toml"
    config.write_text(_write_config_text(output="~/reports"))
    assert main(["tournament", str(config)]) == 0
    assert (tmp_path / "home" / "reports" / "t.md").is_file()
    assert not (tmp_path / "~").exists()
    assert str(tmp_path / "home" / "reports" / "t.md") in capfd.readouterr().out


def test_a_folder_where_the_results_go_is_refused(tmp_path, capfd):
    (tmp_path / "out" / "t.jsonl").mkdir(parents=True)
    assert main(["tournament", _write_config(tmp_path)]) == 2
    _one_error_line(capfd, "t.jsonl is not a file")


@pytest.mark.parametrize("command", ["tournament", "strength", "bench-tournament"])
def test_a_folder_for_a_config_is_refused(capfd, tmp_path, command):
    assert main([command, str(tmp_path)]) == 2
    _one_error_line(capfd, "is a folder")


@pytest.mark.parametrize("argv", [["tournament"], ["match", "random", "random", "--game",
                                                   "durak", "--config"],
                                  ["levels", "calibrate"]])
def test_configs_are_read_from_regular_files_of_a_bounded_size(capfd, tmp_path, argv):
    fifo = pipe(tmp_path / "pipe.toml")
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * (2 * 1024 * 1024) + "\n")
    for path, named in (("/dev/zero", "is not a regular file"),
                        (str(fifo), "is not a regular file"),
                        (str(huge), "is larger than 1 MiB")):
        assert without_waiting_on(fifo, lambda path=path: main([*argv, path])) == 2, path
        _one_error_line(capfd, f"config {path} {named}")


def test_an_unreadable_config_is_refused(capfd, tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b"\xff\xfe binary")
    assert main(["tournament", str(path)]) == 2
    _one_error_line(capfd, "not UTF-8")


# ---------------------------------------------------------------- values that fail later

@pytest.mark.parametrize("changes, named", [
    ({"seed": -5}, "seed must be at least 0, not -5"),
    ({"bootstrap": 10**9}, "bootstrap must be at most 100,000"),
    ({"jobs": 100_000}, "jobs must be at most 256"),
    ({"scheduler": "tcp://localhost:8786"}, "scheduler is for backend = \"dask\""),
])
def test_values_that_would_fail_after_play_are_refused_before(tmp_path, changes, named):
    data = {"name": "t", "games": [TINY], "games_per_pairing": 2, "output": str(tmp_path),
            "agents": {"random": "random", "heuristic": "heuristic"}} | changes
    with pytest.raises(ConfigError, match=named):
        config_from_dict(data)


def test_numbers_too_large_anywhere_in_a_config_are_one_short_line(tmp_path, capfd):
    digits = "9" * 4400
    cases = [  # (the fields before [agents], a third agent, what the error says)
        ('games = ["durak(max_moves=99999999999)"]', "", "games[0]: durak parameter "
         "max_moves must be 1..100000, not 99999999999"),
        (f'games = ["durak(max_moves={digits})"]', "", "games[0]: game string"),
        ('games = ["durak(max_moves=1e400)"]', "", "games[0]: game string"),
        (f'games = ["{TINY}"]', f"ismcts(sims={digits})", "agents.spare: agent spec"),
        (f'games = ["{TINY}"]\nseed = {digits}', "", "has a number of more than 4300 digits"),
        (f'games = ["{TINY}"]\njobs = {digits[:4000]}', "", "jobs must be at most 256, not "
         "9,999,999,999,999,99..."),
        (f'games = ["{TINY}"]\nbootstrap = {digits[:400]}', "", "bootstrap must be at most"),
    ]
    for i, (fields, spare, named) in enumerate(cases):
        path = tmp_path / f"c{i}.toml"
        path.write_text(f'name = "c{i}"\n{fields}\ngames_per_pairing = 2\n'
                        f'output = "{tmp_path / "out"}"\n[agents]\nrandom = "random"\n'
                        f'heuristic = "heuristic"\n' + (f'spare = "{spare}"\n' if spare else ""))
        assert main(["tournament", str(path)]) == 2, fields[:60]
        err = _one_error_line(capfd, f"c{i}.toml", named)
        assert len(err) < 300, err[:300]
    assert not (tmp_path / "out").exists()


def test_jobs_on_the_command_line_are_bounded_too(tmp_path, capfd):
    assert main(["tournament", _write_config(tmp_path), "--jobs", "5000"]) == 2
    _one_error_line(capfd, "--jobs must be from 1 to 256")


# ---------------------------------------------------------------- corrupt files

@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The two files of a finished tiny tournament (played once for all these tests)."""
    out = tmp_path_factory.mktemp("finished")
    run_tournament(_tiny(out), progress=False)
    return (out / "t.jsonl").read_bytes(), (out / "t.timing.jsonl").read_bytes()


def _played(tmp_path, finished):
    """tmp_path/out holding the finished tournament."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "t.jsonl").write_bytes(finished[0])
    (out / "t.timing.jsonl").write_bytes(finished[1])
    return out


def _tiny(output):
    return config_from_dict({"name": "t", "games": [TINY], "games_per_pairing": 4,
                             "seed": 5, "output": str(output), "bootstrap": 20,
                             "agents": {"random": "random", "heuristic": "heuristic"}})


@pytest.mark.parametrize("file", ["t.jsonl", "t.timing.jsonl"])
@pytest.mark.parametrize("bad, named", [
    ('{"id": "0/random-heur\n', "line 2: is not JSON"),                   # cut
    ("garbage\n", "line 2: is not JSON"),
    ("\n", "line 2: is blank"),
    ('{"game": "durak"}\n', "line 2: has no field 'id'"),
    ("[1, 2]\n", "line 2: is not a JSON object"),
    ('{"id": 7}\n', "line 2: field 'id' is not a string"),
    ('{"id": ' + "9" * 5000 + "}\n", "line 2: has a number of more than 4300 digits"),
    ("[" * 100_000 + "]" * 100_000 + "\n", "line 2: is JSON nested too deeply"),
])
def test_a_corrupt_line_is_named_with_how_to_recover(tmp_path, finished, file, bad, named):
    out = _played(tmp_path, finished)
    lines = (out / file).read_text().splitlines(keepends=True)
    (out / file).write_text(lines[0] + bad + "".join(lines[1:]))
    with pytest.raises(ResultsError, match=named) as error:
        run_tournament(_tiny(out), progress=False)
    assert str(out / file) in str(error.value) and "delete it" in str(error.value)


def _first_line_edited(out, file, change):
    """`change(line)` applied to the first line of `file` (a string value "1e400" is
    written as that number, which JSON reads as infinite)."""
    lines = (out / file).read_text().splitlines(keepends=True)
    line = json.loads(lines[0])
    change(line)
    text = json.dumps(line).replace('"1e400"', "1e400")
    (out / file).write_text(text + "\n" + "".join(lines[1:]))


def _set(key, value):
    return lambda line: line.__setitem__(key, value)


@pytest.mark.parametrize("change, named", [
    (_set("returns", [1.0]), "has 1 returns for the 2 players"),
    (_set("returns", [5.0, 5.0]), "has returns [5.0, 5.0], outside its game's -1 to 1"),
    (_set("returns", [math.nan, -1.0]), "has returns [nan, -1.0], not all finite numbers"),
    (_set("returns", ["1e400", -1.0]), "has returns [inf, -1.0], not all finite numbers"),
    (_set("returns", ["1", -1.0]), "not all finite numbers"),
    (_set("returns", [0.5, 0.5]), "summing to 1; its game's returns sum to 0"),
    (lambda line: line["returns"].reverse(), "and its actions give"),
    (lambda line: line["actions"].__setitem__(0, 99), "has actions[0] = 99, not legal "
     "where it stands"),
    (lambda line: line["actions"].__setitem__(0, True), "has actions[0] = True, not legal"),
    (lambda line: line["actions"].pop(), "and its game is not over after them"),
    (lambda line: line["actions"].append(0), "has actions past the end of its game"),
    (_set("error", {"seat": 0, "agent": "random", "message": "x"}), "says seat 0 failed, "
     "and its actions do not stop where that seat is to move"),
    (_set("error", {"seat": 5, "agent": "random", "message": "x"}), "names seat 5 in its "
     "error, not a seat of its game"),
])
def test_a_result_its_game_could_not_have_given_is_named(tmp_path, finished, change, named):
    out = _played(tmp_path, finished)
    _first_line_edited(out, "t.jsonl", change)
    with pytest.raises(ResultsError, match=re.escape(named)) as error:
        run_tournament(_tiny(out), progress=False)
    assert f"{out / 't.jsonl'}, line 1: " in str(error.value)
    assert "delete it (its game is played again)" in str(error.value)


@pytest.mark.parametrize("seconds, named", [
    ([0.5], "gives 1 times and 2 move counts for a game of 2 seats"),
    ([-1.0, 0.5], "has seconds [-1.0, 0.5], not all finite numbers from 0 up"),
    ([math.nan, 0.5], "has seconds [nan, 0.5], not all finite numbers from 0 up"),
])
def test_a_timing_line_that_fits_no_game_is_named(tmp_path, finished, seconds, named):
    out = _played(tmp_path, finished)
    _first_line_edited(out, "t.timing.jsonl", _set("seconds", seconds))
    with pytest.raises(ResultsError, match=re.escape(f"t.timing.jsonl, line 1: {named}")):
        run_tournament(_tiny(out), progress=False)


def test_a_corrupt_line_stops_the_command_with_one_line(tmp_path, finished, capfd):
    out = _played(tmp_path, finished)
    with (out / "t.jsonl").open("a") as handle:
        handle.write("not json\n")
    assert main(["tournament", _write_config(tmp_path, output=out)]) == 2
    _one_error_line(capfd, "t.jsonl, line 5: is not JSON", "delete it")


def test_a_game_given_twice_differently_is_refused_a_torn_last_line_not(tmp_path, finished):
    out = _played(tmp_path, finished)
    first = (out / "t.jsonl").read_text().splitlines()[0]
    with (out / "t.jsonl").open("a") as handle:
        handle.write(first.replace('"returns":[', '"returns":[0.5,') + "\n")
    with pytest.raises(ResultsError, match="line 5: gives game 0/random-heuristic/0/0 "
                                           "again, otherwise than line 1"):
        run_tournament(_tiny(out), progress=False)
    (out / "t.jsonl").write_bytes(finished[0] + b'{"id": "0/random-he')
    run = run_tournament(_tiny(out), progress=False)
    assert len(run.played) == 0 and (out / "t.jsonl").read_bytes() == finished[0]


def test_results_of_an_older_koloda_are_named_as_such(tmp_path, finished):
    out = _played(tmp_path, finished)
    text = (out / "t.jsonl").read_text()
    (out / "t.jsonl").write_text(text.replace('"specs":["random","heuristic"],', "")
                                 .replace('"specs":["heuristic","random"],', ""))
    with pytest.raises(ResultsError, match="written by an older koloda"):
        run_tournament(_tiny(out), progress=False)


def test_a_deleted_timing_file_makes_the_time_unknown_not_zero(tmp_path, finished, capsys):
    out = _played(tmp_path, finished)
    (out / "t.timing.jsonl").unlink()
    config = _write_config(tmp_path, output=out)
    assert main(["tournament", config]) == 0
    table = capsys.readouterr().out
    assert table.count("unknown") == 2 and "0.00" not in table
    summary = tournament_main.run_and_report(_tiny(out), progress=False)[0][0]
    assert [row.ms_per_move for row in summary.ratings] == [None, None]


# ---------------------------------------------------------------- Dask and Ctrl-C

def test_a_dask_scheduler_that_does_not_answer_is_one_line(tmp_path, capfd, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(executor, "SCHEDULER_TIMEOUT", 1)
    out = tmp_path / "out"
    config = _write_config(tmp_path, output=out,
                           extra='backend = "dask"\nscheduler = "tcp://127.0.0.1:9"')
    assert main(["tournament", config]) == 2
    _one_error_line(capfd, "the Dask scheduler tcp://127.0.0.1:9 did not answer within 1 s")
    assert not out.exists()                              # no empty results files


@pytest.fixture
def servers():
    """Servers on 127.0.0.1 that are not Dask schedulers: a web server (it waits for a
    request), a listener that never speaks, and one that greets with a banner."""
    import http.server
    import socket
    import threading
    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    silent = socket.create_server(("127.0.0.1", 0))
    banner = socket.create_server(("127.0.0.1", 0))

    def greet():
        while True:
            try:
                connection, _ = banner.accept()
            except OSError:
                return
            connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
            connection.close()
    threading.Thread(target=web.serve_forever, daemon=True).start()
    threading.Thread(target=greet, daemon=True).start()
    yield {"web": web.server_address[1], "silent": silent.getsockname()[1],
           "banner": banner.getsockname()[1]}
    web.shutdown()
    web.server_close()
    silent.close()
    banner.close()


def test_an_address_that_is_no_dask_scheduler_is_one_line(tmp_path, capfd, monkeypatch,
                                                           servers):
    pytest.importorskip("distributed")
    monkeypatch.setattr(executor, "GREETING_SECONDS", 0.5)
    cases = [
        (f"tcp://127.0.0.1:{servers['web']}", "did not greet within 0.5 s"),
        (f"127.0.0.1:{servers['silent']}", "did not greet within 0.5 s"),
        (f"tcp://127.0.0.1:{servers['banner']}", "greets as no Dask scheduler does"),
        ("tls://127.0.0.1:8786", "is a tls:// address; koloda reaches Dask schedulers over "
                                 "tcp://"),
        ("ucx://127.0.0.1:8786", "is a ucx:// address"),
        ("tcp://127.0.0.1", "is not an address of the form tcp://HOST:PORT"),
    ]
    for address, message in cases:
        out = tmp_path / "out"
        config = _write_config(tmp_path, output=out,
                               extra=f'backend = "dask"\nscheduler = "{address}"')
        assert main(["tournament", config]) == 2, address
        _one_error_line(capfd, f"the Dask scheduler {address} {message}")
        assert not out.exists()


def test_ctrl_c_says_how_to_resume(tmp_path, capfd, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_main, "run_and_report", interrupted)
    config = _write_config(tmp_path)
    assert main(["tournament", config]) == 130
    err = capfd.readouterr().err
    assert err == (f"koloda: interrupted; the games finished so far are kept in "
                   f"{tmp_path / 'out' / 't.jsonl'}; run `koloda tournament {config}` again "
                   f"to play the rest\n")


def test_ctrl_c_between_two_results_leaves_no_warning_behind(tmp_path, monkeypatch):
    """Ctrl-C while the runner writes a result: joblib's stream of results, left open, would
    warn of "tasks executed but not used" when collected, after the run's last line."""
    from koloda.tournament import results

    def interrupted(self, line):
        raise KeyboardInterrupt

    monkeypatch.setattr(results.Appender, "write", interrupted)
    config = config_from_dict({"name": "t", "games": [TINY], "games_per_pairing": 6,
                               "output": str(tmp_path), "bootstrap": 20, "jobs": 2,
                               "agents": {"random": "random", "heuristic": "heuristic"}})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(KeyboardInterrupt):
            run_tournament(config, progress=False)
        gc.collect()
    assert [str(w.message) for w in caught] == []


def _children(pid: int) -> list[int]:
    """The live child processes of `pid` (Linux /proc)."""
    tasks = Path(f"/proc/{pid}/task")
    return [int(child) for task in tasks.iterdir()
            for child in (task / "children").read_text().split()]


def _signal_mask(pid: int, field: str) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines()
                    if line.startswith(f"{field}:")).split()[1], 16)


def _ignores_sigint(pid: int) -> bool:
    return bool(_signal_mask(pid, "SigIgn") & (1 << (signal.SIGINT - 1)))


def _catches_sigint(pid: int) -> bool:
    """Ctrl-C would reach Python's handler now (not inside the moment the runner ignores
    it while its workers start)."""
    return bool(_signal_mask(pid, "SigCgt") & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_ctrl_c_on_a_real_run_leaves_whole_lines_and_resumes(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(f'name = "c"\ngames = ["{TINY}"]\ngames_per_pairing = 100\nseed = 3\n'
                    f'jobs = 2\noutput = "{tmp_path}"\nbootstrap = 20\n[agents]\n'
                    f'random = "random"\nheuristic = "heuristic"\nismcts = "ismcts(sims=200)"\n')
    command = [sys.executable, "-m", "koloda", "tournament", str(path)]
    process = subprocess.Popen(command, cwd=tmp_path, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    results = tmp_path / "c.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if results.exists() and len(results.read_text().splitlines()) >= 2:
            break
        time.sleep(0.05)
    workers = _children(process.pid)
    assert workers and all(_ignores_sigint(pid) for pid in workers)   # even while starting
    while not _catches_sigint(process.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("koloda: interrupted; the games finished so far")
    assert results.read_text().endswith("\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl", "c.timing.jsonl",
                                                          "c.toml"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and len(results.read_text().splitlines()) == 300


# ---------------------------------------------------------------- bench-tournament

def test_bench_tournament_runs_the_config_that_says_it_is_its_default():
    default = build_parser().parse_args(["bench-tournament"]).config
    assert default == "configs/parallel-bench.toml"
    first_line = Path(default).read_text().splitlines()[0]
    assert "default of koloda bench-tournament" in first_line
