"""`mypy` finds nothing in the kit, the tournament and the protocol ([tool.mypy] in
pyproject.toml).  It reads the source in the layout it installs as (`app` is `koloda`,
`games` is `koloda.games`, ...), copied to a temporary folder, so an editable install
and a regular one are checked alike."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = {"app": "koloda", "games": "koloda/games", "solvers": "koloda/solvers",
          "tournament": "koloda/tournament"}
CHECKED = ("koloda.games.kit", "koloda.tournament", "koloda.protocol")


def test_mypy_finds_nothing_in_the_kit_the_tournament_and_the_protocol(tmp_path):
    for folder, target in LAYOUT.items():
        shutil.copytree(ROOT / folder, tmp_path / target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    packages = [arg for name in CHECKED for arg in ("-p", name)]
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                           str(ROOT / "pyproject.toml"), "--cache-dir",
                           str(tmp_path / ".mypy_cache"), *packages],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
