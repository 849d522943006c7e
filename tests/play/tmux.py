"""A terminal for the tests: a program run in a tmux pane on a private tmux server, keys
typed into it, its screen read back.

tmux is needed: .ci/run installs it and sets KOLODA_REQUIRE_TMUX=1, so there a missing
`tmux` fails the tests that use it instead of skipping them."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
KOLODA = str(Path(sys.executable).parent / "koloda")   # the console script of this venv
EXITED = "[exited "


def require_tmux() -> str:
    if TMUX is None:
        if os.environ.get("KOLODA_REQUIRE_TMUX") == "1":
            pytest.fail("tmux is required (KOLODA_REQUIRE_TMUX=1) but not installed")
        pytest.skip("tmux is not installed (.ci/run installs it)")
    return TMUX


class Pane:
    """One program in a 120 x 50 pane; when it ends the pane shows `[exited CODE]`."""

    def __init__(self, command: list[str], cwd: Path, width: int = 120, height: int = 50):
        tmux = require_tmux()
        self.base = [tmux, "-u", "-L", f"koloda-test-{uuid.uuid4().hex[:12]}"]
        conf = cwd / "tmux.conf"
        conf.write_text("set -g history-limit 50000\n")
        script = f"{shlex.join(command)}; echo '{EXITED}'$?']'; sleep 600"
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("NO_COLOR", None)
        env.pop("TMUX", None)
        subprocess.run(self.base + ["-f", str(conf), "new-session", "-d", "-s", "play",
                                    "-x", str(width), "-y", str(height), "-c", str(cwd),
                                    "bash", "-c", script], check=True, env=env, timeout=30)

    def screen(self, colours: bool = False) -> str:
        """Everything the pane has shown, its history included, wrapped lines joined."""
        flags = ["-p", "-J", "-S", "-"] + (["-e"] if colours else [])
        return subprocess.run(self.base + ["capture-pane", "-t", "play"] + flags,
                              capture_output=True, text=True, check=True, timeout=30).stdout

    def visible(self) -> str:
        """What the pane shows now (no history)."""
        return subprocess.run(self.base + ["capture-pane", "-t", "play", "-p"],
                              capture_output=True, text=True, check=True, timeout=30).stdout

    def type(self, text: str) -> None:
        subprocess.run(self.base + ["send-keys", "-t", "play", "-l", text], check=True,
                       timeout=30)
        subprocess.run(self.base + ["send-keys", "-t", "play", "Enter"], check=True,
                       timeout=30)

    def key(self, name: str) -> None:
        subprocess.run(self.base + ["send-keys", "-t", "play", name], check=True, timeout=30)

    def wait_for(self, ready, timeout: float = 60.0) -> str:
        """The screen once `ready(screen)` holds; fails with the screen after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"the screen did not get there in {timeout:g} s:\n{screen[-3000:]}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(self.base + ["kill-server"], capture_output=True, timeout=30)
