"""Strength configs: bad ones stop before any game with the field named; good ones report."""

import json

import pytest

from koloda.cli import main
from koloda.tournament.strength import ConfigError, load_config

GOOD = """
title = "tiny"
report = "{report}"
seed = 3
jobs = 1

[[match]]
game = "durak(ranks=4,suits=2,hand_size=3)"
agent = "heuristic"
opponent = "random"
games = 6
"""


def _write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("change, field", [
    (('agent = "heuristic"', 'agent = "alphazero"'), "match[0].agent"),
    (('agent = "heuristic"', 'agent = "ismcts(simz=3)"'), "match[0].agent"),
    (('game = "durak(ranks=4,suits=2,hand_size=3)"', 'game = "poker"'), "match[0].game"),
    (('game = "durak(ranks=4,suits=2,hand_size=3)"', 'game = "durak(ranks=40)"'), "match[0].game"),
    (("games = 6", "games = 0"), "match[0].games"),
    (("games = 6", 'games = "six"'), "match[0].games"),
    (("seed = 3", "sed = 3"), "'sed'"),
    (('opponent = "random"\n', ""), "opponent"),
])
def test_bad_configs_name_the_field(tmp_path, change, field):
    text = GOOD.format(report=tmp_path / "r.md").replace(*change)
    with pytest.raises(ConfigError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_config(_write(tmp_path, text))


def test_missing_and_malformed_files_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "nope.toml"))
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(_write(tmp_path, "title = "))


def test_strength_command_writes_markdown_and_json(tmp_path, capsys):
    report = tmp_path / "out" / "tiny.md"
    path = _write(tmp_path, GOOD.format(report=report))
    assert main(["strength", path]) == 0
    text = report.read_text()
    assert "# tiny" in text and "heuristic" in text and "95% CI" in text
    figures = json.loads(report.with_suffix(".json").read_text())
    assert figures[0]["games"] == 6 and figures[0]["agent"] == "heuristic"


def test_strength_command_rejects_a_bad_config_with_one_line(tmp_path, capfd):
    path = _write(tmp_path, GOOD.format(report=tmp_path / "r.md").replace("heuristic", "nobody"))
    assert main(["strength", path]) == 2
    err = capfd.readouterr().err
    assert err.startswith("koloda: error: ") and "match[0].agent" in err
    assert not (tmp_path / "r.md").exists()
