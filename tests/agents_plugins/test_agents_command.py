"""`koloda agents`: every kind a spec can name, as a table and as JSON."""

import json
import re
import tomllib
from pathlib import Path

from koloda import solvers
from koloda.cli.main import main


def test_agents_lists_every_kind_with_its_parameters_and_source(capsys):
    assert main(["agents"]) == 0
    table = capsys.readouterr().out
    header = table.splitlines()[0].split()
    assert header == ["agent", "plays", "parameters", "from", "summary"]
    rows = {line.split()[0]: line for line in table.splitlines()[2:] if line[:1].strip()}
    for kind in solvers.agent_kinds():
        assert kind.name in rows
    assert "sims=1000" in rows["ismcts"] and "koloda" in rows["ismcts"]
    assert rows["mcts"].split()[1] == "parket"
    assert "seed=0" in table                             # said once, below the table


def test_agents_json_is_what_hello_lists_plus_the_source(capsys):
    from koloda.protocol import Client, Limits
    assert main(["agents", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    hello = Client.in_process(Limits()).hello()["agents"]
    assert [{k: v for k, v in a.items() if k != "source"} for a in listing["agents"]] == [
        {k: a[k] for k in ("name", "games", "params", "summary")} for a in hello]
    assert {a["source"] for a in listing["agents"]} == {"koloda"}
    assert listing["skipped"] == []


def test_the_worked_example_in_the_docs_is_the_test_plugin():
    """docs/api.md shows tests/agents_plugins/plugin_pkg as it is: its pyproject.toml and
    its module (after the docstring), so the example is the one the tests install."""
    here = Path(__file__).resolve().parent / "plugin_pkg"
    section = (here.parents[2] / "docs/api.md").read_text().split(
        "## Agents from other packages\n", 1)[1].split("\n## ", 1)[0]
    blocks = ["\n".join(line[4:] for line in block.splitlines())
              for block in re.findall(r"\n\n((?:    .*\n|\n)+)", section)]
    pyproject = next(b for b in blocks if "[project]" in b)
    assert tomllib.loads(pyproject) == tomllib.loads((here / "pyproject.toml").read_text())
    module = (here / "koloda_test_plugin/__init__.py").read_text()
    code = module.split('"""', 2)[2].strip()
    assert any(b.strip() == code for b in blocks), "the docs' module differs from the plugin's"
