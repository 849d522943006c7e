"""A rerun resumes only the tournament its config describes: changed configs are refused
with what changed named, more games are added, ids never collide, and a schedule of a
billion games costs nothing until they are played."""

import json
import re
import tracemalloc

import pytest

from koloda.cli.main import main
from koloda.tournament.config import ConfigError, config_from_dict
from koloda.tournament.runner import run_tournament
from koloda.tournament.schedule import build_schedule
from koloda.tournament.summary import summarize

TINY = "durak(hand_size=3,ranks=4,suits=2)"
SMALL = "durak(hand_size=4,ranks=6)"


def _data(tmp_path, **changes):
    data = {"name": "r", "games": [TINY], "games_per_pairing": 2, "seed": 7,
            "output": str(tmp_path), "bootstrap": 20,
            "agents": {"random": "random", "heuristic": "heuristic"}}
    data.update(changes)
    return data


def _config(tmp_path, **changes):
    return config_from_dict(_data(tmp_path, **changes))


def _ids(path):
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


@pytest.mark.parametrize("changes, named", [
    ({"seed": 8}, "was dealt from seed"),
    ({"agents": {"random": "random", "heuristic": "random"}},
     "was played by heuristic = 'heuristic', and the config has heuristic = 'random'"),
    ({"games": [SMALL]}, f"was played in {TINY}, and the config has {SMALL} there"),
])
def test_a_changed_config_is_refused_with_what_changed(tmp_path, changes, named):
    run_tournament(_config(tmp_path), progress=False)
    before = (tmp_path / "r.jsonl").read_bytes()
    with pytest.raises(ConfigError, match=re.escape(named)):
        run_tournament(_config(tmp_path, **changes), progress=False)
    assert (tmp_path / "r.jsonl").read_bytes() == before


def test_reordered_games_are_refused(tmp_path):
    run_tournament(_config(tmp_path, games=[TINY, SMALL]), progress=False)
    with pytest.raises(ConfigError, match=r"games changed or reordered"):
        run_tournament(_config(tmp_path, games=[SMALL, TINY]), progress=False)


def test_the_command_names_the_change_in_one_line(tmp_path, capfd):
    path = tmp_path / "c.toml"
    text = (f'name = "r"\ngames = ["{TINY}"]\ngames_per_pairing = 2\nseed = {{seed}}\n'
            f'output = "{tmp_path}"\nbootstrap = 20\n'
            '[agents]\nrandom = "random"\nheuristic = "heuristic"\n')
    path.write_text(text.format(seed=7))
    assert main(["tournament", str(path)]) == 0
    capfd.readouterr()
    path.write_text(text.format(seed=8))
    assert main(["tournament", str(path)]) == 2
    err = capfd.readouterr().err.splitlines()[-1]
    assert err.startswith("koloda: error: ") and "seed" in err and "move the file away" in err


def test_a_match_with_other_agents_or_specs_is_refused(tmp_path):
    def gauntlet(opponent="random", spec="random"):
        return config_from_dict({
            "name": "g", "schedule": "gauntlet", "games": [TINY], "seed": 3,
            "output": str(tmp_path), "bootstrap": 20,
            "agents": {"heuristic": "heuristic", "random": spec, "other": "random"},
            "match": [{"agent": "heuristic", "opponent": opponent, "games": 4}]})

    run_tournament(gauntlet(), progress=False)
    with pytest.raises(ConfigError, match="does not schedule"):
        run_tournament(gauntlet(opponent="other"), progress=False)
    with pytest.raises(ConfigError, match="random = 'random', and the config has random"):
        run_tournament(gauntlet(spec="random(seed=1)"), progress=False)


def test_more_games_per_pairing_add_games_and_fewer_are_refused(tmp_path):
    run_tournament(_config(tmp_path, games_per_pairing=2), progress=False)
    first = (tmp_path / "r.jsonl").read_text().splitlines()
    run = run_tournament(_config(tmp_path, games_per_pairing=4), progress=False)
    assert len(run.played) == 2
    assert set(first) <= set((tmp_path / "r.jsonl").read_text().splitlines())
    with pytest.raises(ConfigError, match="does not schedule"):
        run_tournament(_config(tmp_path, games_per_pairing=2), progress=False)


def test_ids_are_unambiguous_whatever_the_names(tmp_path):
    agents = {"x-y": "random", "z": "random", "x": "heuristic", "y-z": "heuristic",
              "a/b": "random", "a%2Db": "random"}
    config = _config(tmp_path, agents=agents, games_per_pairing=2)
    schedule = build_schedule(config)
    ids = [task.id for task in schedule]
    assert len(ids) == len(set(ids)) == 15 * 2
    assert all(schedule.find(task.id) == task for task in schedule)
    run = run_tournament(config, progress=False)
    summary = summarize(config, run, TINY)
    assert summary.games_played == len(ids)
    for a in agents:
        for b in agents:
            if a != b:
                pair = summary.head_to_head[a][b]
                assert pair.wins + pair.draws + pair.losses == 2, (a, b)


def test_spellings_of_one_game_are_one_game(tmp_path):
    with pytest.raises(ConfigError, match=re.escape(
            "games[1] 'durak()' repeats games[0] 'durak': both are durak")):
        _config(tmp_path, games=["durak", "durak()"])
    with pytest.raises(ConfigError, match=r"games\[1\] 'durak\(players=2\)' repeats"):
        _config(tmp_path, games=["durak", "durak(players=2)"])
    # the results name the game in its normal form, so spellings give identical files
    run_tournament(_config(tmp_path / "a", games=["durak(ranks=4,suits=2,hand_size=3)"]),
                   progress=False)
    run_tournament(_config(tmp_path / "b"), progress=False)
    assert (tmp_path / "a" / "r.jsonl").read_bytes() == (tmp_path / "b" / "r.jsonl").read_bytes()


def test_a_large_schedule_takes_no_memory(tmp_path):
    config = _config(tmp_path, games_per_pairing=200_000)
    tracemalloc.start()
    try:
        schedule = build_schedule(config)
        assert len(schedule) == 200_000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_a_billion_games_are_scheduled_and_played_lazily(tmp_path):
    config = _config(tmp_path, games_per_pairing=10**9,
                     agents={"a": "random", "b": "random", "c": "heuristic"})
    schedule = build_schedule(config)
    assert len(schedule) == 3 * 10**9
    last = schedule.find(f"0/b-c/{10**9 // 2 - 1}/1")
    assert last is not None and last.seats == ("c", "b")
    assert schedule.find(f"0/b-c/{10**9 // 2}/0") is None
    tracemalloc.start()
    try:
        run = run_tournament(config, progress=False, stop_after=3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(run.played) == 3 and len(_ids(config.results_path)) == 3
    assert peak < 5_000_000
