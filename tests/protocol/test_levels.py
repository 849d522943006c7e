"""Levels over the protocol: `hello` lists every game's levels as the levels module has
them, a client plays one as the agent `level(n=...)`, and a level is held to the server's
limits by the spec it plays."""

import json

from koloda.protocol.handler import Limits
from koloda.solvers import levels

from .helpers import Server


def test_hello_lists_each_games_levels_with_their_measurement(tmp_path, monkeypatch):
    rows = [{"n": n, "spec": spec, "elo": 100.0 * n - 450, "low": 100.0 * n - 480,
             "high": 100.0 * n - 420, "ms_per_move": 2.5 * n}
            for n, spec in enumerate(levels.LEVELS["durak"], 1)]
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({"durak": {"game": levels.LADDER_GAMES["durak"], "levels": rows}}))
    monkeypatch.setattr(levels, "CALIBRATION", path)
    levels._calibration.cache_clear()
    try:
        hello = Server().ok(type="hello")
    finally:
        levels._calibration.cache_clear()
    games = {g["name"]: g for g in hello["games"]}
    for name, specs in levels.LEVELS.items():
        assert [e["spec"] for e in games[name]["levels"]] == list(specs)
        assert [e["level"] for e in games[name]["levels"]] == list(range(1, 9))
        assert games[name]["levels_game"] == levels.LADDER_GAMES[name]
    third = games["durak"]["levels"][2]
    assert (third["elo"], third["low"], third["high"], third["ms_per_move"]) == (-150, -180,
                                                                                 -120, 7.5)
    assert games["parket"]["levels"][0]["elo"] is None
    json.dumps(hello)


def test_a_client_plays_a_level():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=4)["session"]
    hint = server.ok(type="hint", session=session, agent="level(n=2)")
    view = server.ok(type="new", game="durak", seats=[0, 1], seed=4)["view"]
    assert hint["action"] in view["legal"], (hint, view)
    assert hint["agent"] == "level(n=2)" and levels.LEVELS["durak"][1].startswith(
        f"ismcts(sims={hint['simulations']},")


def test_a_level_beyond_the_servers_limits_is_refused_naming_what_it_plays():
    server = Server(Limits(max_sims=5000))
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=4)["session"]
    reply = server.send(type="hint", session=session, agent="level(n=8)")
    assert reply["error"]["code"] == "limit", reply
    message = reply["error"]["message"]
    assert message.startswith(f"level(n=8) plays {levels.LEVELS['durak'][7]}: sims=22000 is "
                              f"beyond this server's limit of 5000")
    assert server.ok(type="hint", session=session, agent="level(n=5)")
