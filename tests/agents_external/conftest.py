"""Shared pieces of the external-agent tests: the test bots, tiny configs, and the end of
every process a test started."""

import shutil
import sys
import uuid
from pathlib import Path

import pytest

from koloda.solvers.external.process import pool
from koloda.tournament.config import config_from_dict

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PY_BOT = HERE / "bots" / "bad_bot.py"
JS_BOT = HERE / "bots" / "bad_bot.js"
EXAMPLES = ROOT / "docs" / "examples"
NODE = shutil.which("node")
#: a game small enough for dozens of games a second, with a few moves for each seat
TINY = "durak(ranks=6,hand_size=4)"
#: `koloda agent` in this interpreter (the console script may not be on PATH)
KOLODA = [sys.executable, "-m", "koloda"]

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
needs_proc = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(),
                                reason="finds processes in /proc (Linux)")


def bot(language: str, mode: str, *args: str) -> list[str]:
    """The command line of the test bot in `language` ("python" or "node")."""
    if language == "node":
        return [NODE, str(JS_BOT), mode, *args]
    return [sys.executable, str(PY_BOT), mode, *args]


def marker() -> str:
    """An argument no other process has, to find a test's processes by."""
    return f"koloda-test-{uuid.uuid4().hex}"


def processes_with(text: str) -> list[int]:
    """The ids of this machine's live processes whose command line holds `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if text.encode() in cmdline and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Process `pid` runs (it exists and is not a zombie waiting to be reaped)."""
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def tiny_config(tmp_path, agents, name="x", **changes):
    data = {"name": name, "games": [TINY], "games_per_pairing": 2, "seed": 11, "jobs": 1,
            "output": str(tmp_path), "bootstrap": 20, "agents": agents}
    data.update(changes)
    return config_from_dict(data)


@pytest.fixture(autouse=True)
def _stop_processes():
    """Every agent process this test started (in this process) ends with it."""
    yield
    pool().close_all()
