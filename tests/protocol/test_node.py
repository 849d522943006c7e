"""A Node.js client (tests/protocol/node/) plays a whole game of Durak between two koloda
sessions, over `koloda serve` as its child process and over HTTP, and checks the errors.

Node is needed: .ci/run installs it and sets KOLODA_REQUIRE_NODE=1, so there a missing
`node` fails these tests instead of skipping them."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "node" / "play_durak.js"
NODE = shutil.which("node")

if NODE is None and os.environ.get("KOLODA_REQUIRE_NODE") != "1":
    pytest.skip("node is not installed (.ci/run installs it)", allow_module_level=True)


def _play(*args) -> dict:
    assert NODE is not None, "node is required (KOLODA_REQUIRE_NODE=1) but not installed"
    done = subprocess.run([NODE, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["moves"] > 10 and sorted(result["returns"]) == [-1, 1]
    assert result["codes"] == ["bad_json", "unknown_request", "unknown_session",
                               "malformed_action", "out_of_turn", "illegal_action"]
    return result


def test_node_plays_durak_over_stdio():
    _play("stdio", sys.executable, "-m", "koloda", "serve")


def test_node_plays_durak_over_http(http_url):
    _play("http", http_url)
