"""docs/agents.md stays true: its example exchange is what koloda sends in that game,
and it documents every reason and every message and field."""

import re

from koloda.solvers.agent import REASONS

from .conftest import ROOT
from .exchange import example_exchange

DOC = ROOT / "docs" / "agents.md"


def test_the_example_exchange_is_a_real_one():
    text = DOC.read_text()
    block = re.search(r"<!-- exchange -->\n(.*?)<!-- /exchange -->", text, re.S).group(1)
    shown = "\n".join(line[4:] for line in block.splitlines()) + "\n"
    assert shown == example_exchange()


def test_every_reason_message_and_field_is_documented():
    text = DOC.read_text()
    for reason in REASONS:
        assert f"| `{reason}` |" in text
    for word in ("hello", "new_game", "go", "game_over", "quit", "move", "seen_by",
                 "then", "view", "budget", "remaining_ms", "increment_ms", "start_ms",
                 "move_ms", "## Matches and SPRT"):
        assert word in text, word
