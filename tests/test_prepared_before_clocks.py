"""On an empty numba cache (a fresh install, a new machine, CI) no clock pays for
compiling: a clocked tournament loses no game on time, a server's first move after it
says `ready` keeps its budget, and `koloda warm` compiles ahead and says where.

Each test runs koloda in a process of its own with `NUMBA_CACHE_DIR` an empty folder, so
its first search compiles as on a fresh machine (several seconds where a move has 100 ms).
"""

import json
import subprocess
import sys
import time

import pytest

from koloda.protocol.client import Client
from koloda.solvers.clock import deadline_ms

SMALL_DURAK = "durak(hand_size=3,ranks=4,suits=2)"
MOVE_MS = 100
#: the tournament's clock: far below the seconds a compile takes, and far above the stalls
#: of a loaded 2-core machine, where a 2 ms move once took 181 ms on a 100 ms clock
TOURNAMENT_MOVE_MS = 1000
#: plays each game with its level 8 and heuristic on a short clock in a fresh process, and
#: prints every numba function that was compiled or loaded after the seats were prepared
NOTHING_COMPILED_LATER = """
import gc
from numba.core.dispatcher import Dispatcher
from koloda import games
from koloda.tournament.match import play_game
from koloda.tournament.seating import load_seat_agent, prepare_seats

def compiled():
    return {d: len(d.overloads) for d in gc.get_objects() if isinstance(d, Dispatcher)}

for name in ("durak", "platinum_fish", "snitch", "parket"):
    game = games.load_game(name)
    specs = ["level(n=8) @ move_ms=10", "heuristic @ move_ms=10", "random"]
    specs = specs[:game.num_players()]
    prepare_seats(game, specs)
    before = compiled()
    for seed in range(2):
        seats = specs[seed:] + specs[:seed]
        play_game(game, [load_seat_agent(game, spec, seed) for spec in seats], seed, specs=seats)
    for dispatcher, overloads in compiled().items():
        if before.get(dispatcher, 0) != overloads:
            print(name, dispatcher.py_func.__module__, dispatcher.py_func.__qualname__)
"""


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    folder = tmp_path / "numba-cache"
    folder.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(folder))
    return folder


def koloda(*args, cwd, timeout=600):
    return subprocess.run([sys.executable, "-m", "koloda", *args], cwd=cwd, timeout=timeout,
                          capture_output=True, text=True)


def test_a_clocked_tournament_on_an_empty_cache_loses_no_game_on_time(empty_cache, tmp_path):
    agent = f"{sys.executable} -m koloda agent ismcts --game {SMALL_DURAK}"
    (tmp_path / "clocked.toml").write_text(f"""
name = "clocked"
games = ["{SMALL_DURAK}"]
seed = 1
games_per_pairing = 4
jobs = 2
output = "out"
move_ms = {TOURNAMENT_MOVE_MS}

[agents]
ismcts = "ismcts"
random = "random"
program = 'external(command="{agent}",start_ms=300000)'
""")
    done = koloda("tournament", "clocked.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in (tmp_path / "out" / "clocked.jsonl").open()]
    assert len(games) == 12
    assert [g["error"] for g in games if g.get("error")] == []
    assert "preparing the kernels:" in done.stderr     # it compiled, before any clock
    timing = [json.loads(line) for line in (tmp_path / "out" / "clocked.timing.jsonl").open()]
    assert sum(sum(t["moves"]) for t in timing) > 0


def test_nothing_is_compiled_after_the_seats_are_prepared():
    """The precise form of the test above, free of timing: after `prepare_seats`, games
    with each game's level 8 and heuristic compile nothing and load nothing from the cache
    (on any cache: a load before a move is as late as a compile)."""
    done = subprocess.run([sys.executable, "-c", NOTHING_COMPILED_LATER], timeout=600,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_the_first_move_after_ready_keeps_its_budget(empty_cache, tmp_path):
    """The server prepares Durak alone (`--prepare`), as it prepares every game by
    default, to keep the test short."""
    with Client.subprocess([sys.executable, "-m", "koloda", "serve", "--prepare",
                            "durak"]) as server:
        first = server.hello()
        assert first["ready"] is False            # compiling in the background, answering
        deadline = time.monotonic() + 600
        while not server.hello()["ready"]:
            assert time.monotonic() < deadline, "the server never got ready"
            time.sleep(0.5)
        table = server.new(SMALL_DURAK, seats=[0, 1], seed=3)
        session = table["session"]
        while server.state(session)["view"]["to_move"] is None:   # a deal still to come
            time.sleep(0.01)
        asked = time.perf_counter()
        hint = server.hint(session, "ismcts", ms=MOVE_MS)
        took_ms = (time.perf_counter() - asked) * 1000
    assert hint["thinking_ms"] <= deadline_ms({"ms": MOVE_MS})
    assert took_ms <= 10 * MOVE_MS       # not the seconds a compile takes


def test_warm_compiles_ahead_and_says_where(empty_cache, tmp_path):
    done = koloda("warm", "platinum_fish", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "platinum_fish" in done.stdout and str(empty_cache) in done.stdout
    assert list(empty_cache.rglob("*.nbi")), "nothing was cached"
    wrong = koloda("warm", "chess", cwd=tmp_path)
    assert wrong.returncode == 2
    assert wrong.stderr.strip().splitlines() == [
        "koloda: error: no game 'chess'; the games are durak, parket, platinum_fish, snitch"]


def test_prepare_names_games_only(tmp_path):
    done = koloda("serve", "--prepare", "durak", "--prepare", "chess", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "koloda: error: --prepare 'chess': no such game; the games are durak, parket, "
        "platinum_fish, snitch"]
