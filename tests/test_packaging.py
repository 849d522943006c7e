"""koloda installs under one namespace: `koloda.games`, `koloda.solvers`, `koloda.tournament`.

These run a fresh interpreter outside the repository, so they see what `pip install` put
into the environment (in CI a non-editable install), not the source folders.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, cwd) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def test_the_namespace_imports_and_no_top_level_folder_is_installed(tmp_path):
    out = _python(
        "import importlib.util as u, koloda.games, koloda.solvers, koloda.tournament, "
        "koloda.cli.main; print(*[u.find_spec(n) is None for n in ('games', 'solvers', "
        "'tournament', 'app')])", cwd=tmp_path)
    assert out == "True True True True"


def test_importing_the_games_registers_them_with_openspiel(tmp_path):
    out = _python("import pyspiel, koloda.games; "
                  "print(pyspiel.load_game('durak(players=3)').num_players())", cwd=tmp_path)
    assert out == "3"


def test_every_package_folder_is_listed_in_pyproject():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {name: ROOT / path for name, path in setup["package-dir"].items()}
    found = set()
    for name, folder in folders.items():
        for init in folder.rglob("__init__.py"):
            relative = init.parent.relative_to(folder).parts
            found.add(".".join((name, *relative)))
    assert found == set(setup["packages"])


def test_the_changelog_opens_with_the_version_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    headings = [line for line in (ROOT / "CHANGELOG.md").read_text().splitlines()
                if line.startswith("## ")]
    assert headings and headings[0].split()[1] == declared, (headings[:1], declared)
