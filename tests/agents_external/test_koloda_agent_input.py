"""`koloda agent` fed input that breaks the protocol answers one line on stderr and exits
with status 2: no traceback, no move, however the input is broken."""

import json
import subprocess

import pytest

from .conftest import KOLODA

NEW_GAME = json.dumps({"type": "new_game", "game": "durak", "seat": 0, "players": 2,
                       "seed": 1})
GO = {"type": "go", "events": [], "legal": ["take"], "budget": {"ms": 100}}


@pytest.mark.parametrize("lines, named", [
    (["this is not JSON"], "input line 1: it is not JSON (Expecting value: line 1 column 1 "
                           "(char 0))"),
    (["[" * 100_000 + "]" * 100_000], "input line 1: its JSON is nested too deeply"),
    (["[1, 2]"], "input line 1: a message is a JSON object, not list"),
    ([json.dumps(GO)], "input line 1: a go before any new_game"),
    ([NEW_GAME, json.dumps(dict(GO, legal=[]))],
     "input line 2: a go's legal must list one or more action strings"),
    ([NEW_GAME, json.dumps(dict(GO, legal="take"))], "input line 2: a go's legal must be a list"),
    ([NEW_GAME, json.dumps({"type": "go", "legal": ["take"]})],
     "input line 2: a go's events must be a list"),
    (["x" * (50 * 1024 * 1024)], "input line 1: it is longer than 1048576 bytes"),
])
def test_broken_input_is_one_line_and_status_2(lines, named):
    done = subprocess.run([*KOLODA, "agent", "random", "--game", "durak"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"koloda random: {named}"], done.stderr[-500:]
