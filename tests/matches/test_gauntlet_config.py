"""Gauntlet configs: bad ones stop before any game with the field named; good ones run
through `koloda tournament` and `koloda strength` and write the match report."""

import csv
import json

import pytest

from koloda.cli.main import main
from koloda.tournament.config import ConfigError, config_from_dict, load_config
from koloda.tournament.schedule import build_schedule

TINY = "durak(ranks=4,suits=2,hand_size=3)"

GOOD = f"""
name = "tiny"
schedule = "gauntlet"
games = ["{TINY}"]
seed = 3
jobs = 1
output = "{{output}}"
bootstrap = 20

[agents]
heuristic = "heuristic"
random = "random"

[[match]]
game = "{TINY}"
agent = "heuristic"
opponent = "random"
games = 6
"""


def _write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return str(path)


THREE = {"game": "durak(players=3)", "agent": "heuristic", "opponent": "random"}


def _match(**fields):
    """The matches of `_data`, the first one changed by `fields`."""
    return [{"game": "durak", "agent": "heuristic", "opponent": "random"} | fields, THREE]


def _data(**changes):
    data = {"name": "g", "schedule": "gauntlet", "games": ["durak", "durak(players=3)"],
            "games_per_pairing": 4,
            "agents": {"heuristic": "heuristic", "random": "random"},
            "match": _match()}
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, field", [
    ({"schedule": "swiss"}, "schedule 'swiss'"),
    ({"match": _match(agent="alphazero")}, r"match\[0\].agent 'alphazero'"),
    ({"match": _match(opponent="nobody")}, r"match\[0\].opponent 'nobody'"),
    ({"match": _match(opponent="heuristic")}, r"match\[0\]: agent and opponent"),
    ({"match": _match(game="poker")}, r"match\[0\].game 'poker' is not one of games"),
    ({"match": _match(game="durak(players=4)")}, r"match\[0\].game"),
    ({"match": _match(games=0)}, r"match\[0\].games must be at least 1"),
    ({"match": _match(games="six")}, r"match\[0\].games must be int"),
    ({"match": _match(gmaes=6)}, r"unknown field 'match\[0\].gmaes'"),
    ({"match": [{"game": "durak", "agent": "heuristic"}]}, r"match\[0\].opponent"),
    ({"match": [{"agent": "heuristic", "opponent": "random"}]}, r"match\[0\].game"),
    ({"match": _match() + [_match(games=9)[0]]}, r"match\[2\] repeats match\[0\]"),
    ({"match": []}, "match is empty"),
    ({"match": ["heuristic vs random"]}, r"match\[0\] must be a table"),
    ({"agents": {"heuristic": "heuristic", "random": "ismcts(simz=3)"}}, "agents.random"),
    ({"games": ["durak", "durak(players=3)", "durak(players=9)"]}, r"games\[2\]: "),
    ({"games": ["durak", "durak(players=3)", "durak"]}, r"games\[2\] repeats"),
    ({"games": ["durak", "durak(players=4)", "durak(players=3)"]},
     r"games\[1\] 'durak\(players=4\)' is in no \[\[match\]\]"),
    ({"anchor": "nobody"}, "anchor"),
    ({"jobs": 0}, "jobs"),
    ({"sed": 3}, "unknown field 'sed'"),
])
def test_bad_gauntlet_configs_name_the_field(changes, field):
    with pytest.raises(ConfigError, match=field):
        config_from_dict(_data(**changes))


def test_games_per_match_default_and_required():
    config = config_from_dict(_data(match=[_match()[0], THREE | {"games": 9}]))
    assert [m.games for m in config.matches] == [4, 9]
    no_default = _data()
    del no_default["games_per_pairing"]
    with pytest.raises(ConfigError, match=r"missing field 'match\[0\].games'"):
        config_from_dict(no_default)
    with pytest.raises(ConfigError, match="missing field 'match'"):
        config_from_dict({k: v for k, v in _data().items() if k != "match"})


def test_games_and_the_match_game_may_be_left_out_when_clear():
    one_game = config_from_dict(_data(games=["durak(players=3)"],
                                      match=[{"agent": "heuristic", "opponent": "random"}]))
    assert one_game.matches[0].game == "durak(players=3)"
    from_matches = _data()
    del from_matches["games"]
    assert config_from_dict(from_matches).games == ["durak", "durak(players=3)"]
    bad = _data(match=_match(game="durak(players=9)"))
    del bad["games"]
    with pytest.raises(ConfigError, match=r"match\[0\].game: "):
        config_from_dict(bad)


def test_a_round_robin_has_no_matches_and_needs_games_per_pairing():
    with pytest.raises(ConfigError, match="schedule = \"gauntlet\""):
        config_from_dict(_data(schedule="round-robin"))
    with pytest.raises(ConfigError, match="missing field 'games_per_pairing'"):
        config_from_dict({"games": ["durak"], "agents": {"a": "random", "b": "random"}})


def test_an_agent_is_checked_in_the_games_it_plays_and_spares_in_every_game():
    # an agent in no match is still built, so a typo in a spare agent stops the run
    with pytest.raises(ConfigError, match="agents.spare"):
        config_from_dict(_data(agents={"heuristic": "heuristic", "random": "random",
                                       "spare": "random(sed=1)"}))


def test_the_shipped_gauntlet_keeps_the_old_matches_and_game_counts():
    config = load_config("configs/durak-agents.toml")
    assert config.schedule == "gauntlet" and config.seed == 2026
    played = [(m.game, config.agents[m.agent], config.agents[m.opponent], m.games)
              for m in config.matches]
    assert played == [
        ("durak", "heuristic", "random", 1000),
        ("durak", "pimc(sims=1000,worlds=20)", "heuristic", 200),
        ("durak", "ismcts(sims=1000)", "heuristic", 200),
        ("durak", "ismcts(sims=1000)", "pimc(sims=1000,worlds=20)", 200),
        ("durak(players=4)", "heuristic", "random", 1000),
        ("durak(players=4)", "pimc(sims=500,worlds=10)", "heuristic", 200),
        ("durak(players=4)", "ismcts(sims=500)", "heuristic", 200),
        ("durak(players=4)", "ismcts(sims=500)", "pimc(sims=500,worlds=10)", 200),
    ]
    assert len(build_schedule(config)) == 3200


def test_strength_command_writes_the_match_report(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["strength", _write(tmp_path, GOOD.format(output=out))]) == 0
    printed = capsys.readouterr().out
    assert "95% CI" in printed and "even" in printed and "Elo" in printed
    text = (out / "tiny.md").read_text()
    assert text.startswith("# Gauntlet: tiny\n") and "## Matches" in text
    with (out / "tiny.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["agent"], r["opponent"], r["games"]) for r in rows] == \
        [("heuristic", "random", "6")]
    summary = json.loads((out / "tiny.json").read_text())
    assert summary["schedule"] == "gauntlet" and summary["matches"][0]["games"] == 6
    lines = (out / "tiny.jsonl").read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["id"] == "0/heuristic-vs-random/0/0"


def test_tournament_command_runs_a_gauntlet_the_same_way(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert main(["strength", _write(one, GOOD.format(output=one))]) == 0
    assert main(["tournament", _write(two, GOOD.format(output=two))]) == 0
    assert (one / "tiny.jsonl").read_bytes() == (two / "tiny.jsonl").read_bytes()


def test_strength_command_rejects_a_bad_config_with_one_line(tmp_path, capfd):
    text = GOOD.format(output=tmp_path).replace('agent = "heuristic"', 'agent = "nobody"')
    assert main(["strength", _write(tmp_path, text)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and "match[0].agent" in err
    assert err.count("\n") == 1
    assert not list(tmp_path.glob("*.jsonl"))


def test_strength_command_runs_only_gauntlets(tmp_path, capfd):
    assert main(["strength", "configs/default.toml"]) == 2
    err = capfd.readouterr().err
    assert "round-robin" in err and "koloda tournament" in err


def test_the_readme_gauntlet_example_is_a_valid_config():
    import re
    import tomllib
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = re.search(r"```toml\n(.*?)```", readme, re.S)
    assert block, "the README lost its gauntlet example"
    config = config_from_dict(tomllib.loads(block.group(1)))
    assert config.schedule == "gauntlet" and len(build_schedule(config)) == 1000 + 200
