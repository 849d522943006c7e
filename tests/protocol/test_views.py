"""Views are data (DESIGN.md): every seat of a protocol view carries the game's `view` of
what it sees, the `hand` and `table` of older clients come from it, and nothing in the
app (the terminal, the page, the Parket CLI) reads an observation or position string."""

import json
import re
from pathlib import Path

import pytest

from .helpers import Server

APP = Path(__file__).resolve().parents[2] / "app"

#: what reading a game's strings looks like, in Python and in the page's JavaScript
TELLTALES = {
    "splits on the observation's ' | '": re.compile(r"""split\(\s*(["'])\s*\|\s*\1"""),
    "reads a seat's observation string": re.compile(
        r"""\.observation\b|\[\s*["']observation["']\s*\]"""),
    "splits a position string": re.compile(r"""\bposition\w*(\(\))?\s*\.split\b"""),
}


def telltales(text: str) -> list[str]:
    return [why for why, pattern in TELLTALES.items() if pattern.search(text)]


def test_the_telltales_know_the_idioms_they_look_for():
    for idiom in ('observation.split(" | ")', 'seats[0]["observation"].split(" | ")',
                  "parseObservation(S.view.seats[0].observation)",
                  "rows = position.split()[0].split('/')"):
        assert telltales(idiom), idiom
    for fine in ('entry = {"observation": state.observation_string(seat)}',
                 'action.split(" ")', "seen.board.forEach(draw)"):
        assert not telltales(fine), fine


def test_nothing_in_the_app_reads_an_observation_or_position_string():
    sources = sorted(APP.rglob("*.py")) + sorted(APP.rglob("*.js"))
    assert any(path.name == "app.js" for path in sources)
    found = [f"{path.relative_to(APP.parent)}:{number}: {why}: {line.strip()}"
             for path in sources
             for number, line in enumerate(path.read_text().splitlines(), 1)
             for why in telltales(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game, seats", [
    ("durak(players=3)", [1]), ("platinum_fish", [0]), ("snitch(target_score=0)", [0, 2]),
    ("parket", [1])])
def test_every_seat_of_a_view_carries_the_games_view(game, seats):
    server = Server()
    new = server.ok(type="new", game=game, seats=seats, seed=4)
    session = server.protocol.sessions[new["session"]]
    view = new["view"]
    while True:
        for entry in view["seats"]:
            seen = entry["view"]
            assert seen == session.state.seat_view(entry["seat"])
            assert json.loads(json.dumps(seen)) == seen
            assert entry["hand"] == seen["hand"] and seen["seat"] == entry["seat"]
            assert entry["observation"] == session.state.observation_string(entry["seat"])
            assert ("table" in entry) == game.startswith("durak")
            if "table" in entry:
                pairs = [f"{pair['attack']}/{pair['defence'] or '-'}" for pair in seen["table"]]
                assert entry["table"] == (" ".join(pairs) or "-")
        if view["status"] == "over":
            break
        kind = "hint" if view["to_move"] in seats else "move"
        view = server.ok(type=kind, session=new["session"], agent="random",
                         apply=True)["view"]
