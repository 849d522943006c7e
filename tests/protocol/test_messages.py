"""The protocol's requests and errors, in process (no transport)."""

import json

import pytest

from koloda.protocol.handler import Limits
from koloda.protocol.record import replay

from .helpers import Server, play_between_sessions


def test_hello_lists_the_version_games_and_agents_with_their_parameters():
    hello = Server().ok(type="hello", id="h1")
    assert hello["id"] == "h1" and hello["protocol"] == 2
    games = {g["name"]: g for g in hello["games"]}
    assert {"durak", "platinum_fish", "snitch", "parket"} <= set(games)
    players = next(p for p in games["durak"]["parameters"] if p["name"] == "players")
    assert players["default"] == 2 and players["low"] == 2
    agents = {a["name"]: a for a in hello["agents"]}
    assert "durak" in agents["ismcts"]["games"] and "parket" in agents["mcts"]["games"]
    assert "durak" not in agents["mcts"]["games"]
    assert {"sims", "ms"} <= {p["name"] for p in agents["ismcts"]["params"]}
    json.dumps(hello)


def test_hello_names_each_games_opponent_and_strongest_agents_as_its_spec_does():
    from koloda import games as koloda_games
    hello = Server().ok(type="hello")
    for entry in hello["games"]:
        spec = koloda_games.GAMES[entry["name"]]
        assert entry["opponent"] == spec.opponent
        assert entry["strongest"] == dict(spec.strongest)
        assert set(entry["strongest"]) == {"quick", "full"}
    parket = next(g for g in hello["games"] if g["name"] == "parket")
    assert parket["opponent"] == "solver"


def test_new_deals_and_shows_only_the_seats_cards():
    reply = Server().ok(type="new", game="durak", seats=[0], seed=3)
    events = reply["events"]
    assert len(events) == 13 and events[-1]["action"].startswith("trump ")
    assert all(e["action"] == "deal ?" for e in events[:12] if 0 not in e["seen_by"])
    mine = [e["action"].split()[1] for e in events[:12] if 0 in e["seen_by"]]
    view = reply["view"]
    assert sorted(mine) == sorted(view["seats"][0]["hand"])
    assert reply["seed"] == 3 and reply["game"] == "durak"
    assert "stock" in view["seats"][0]["observation"]


def test_the_same_seed_deals_the_same_game():
    a = Server().ok(type="new", game="durak", seats=[0, 1], seed=9)
    b = Server().ok(type="new", game="durak", seats=[0, 1], seed=9)
    assert a["events"] == b["events"]


def test_a_whole_game_against_koloda_with_move_and_hint():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], seed=5)["session"]
    view = server.ok(type="state", session=session)["view"]
    while view["status"] != "over":
        kind = "hint" if view["to_move"] == 0 else "move"
        reply = server.ok(type=kind, session=session, agent="ismcts", sims=20, apply=True)
        assert reply["player"] == view["to_move"]
        if kind == "hint":                 # the app's own cards: the policy is shown
            assert reply["action"] in reply["policy"]
            assert sum(reply["policy"].values()) == pytest.approx(1.0, abs=0.01)
            assert reply["thinking_ms"] >= 0
        else:                              # koloda's seat: the move, nothing of its hand
            assert not {"policy", "policy_kind", "simulations", "thinking_ms"} & set(reply)
        view = reply["view"]
    assert sorted(view["returns"]) == [-1.0, 1.0] and view["winners"]
    record = view["record"]                   # the whole game, now that it is over
    assert (record["game"], record["seed"]) == ("durak", 5)
    _, replayed = replay(record)
    assert list(replayed.returns()) == view["returns"] == record["returns"]


def test_only_a_finished_game_koloda_dealt_has_a_record():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], seed=5)["session"]
    assert "record" not in server.ok(type="state", session=session)["view"]
    _, _, app_dealt = play_between_sessions(server, "durak", 5)
    view = server.ok(type="state", session=app_dealt[0])["view"]
    assert view["status"] == "over" and "record" not in view   # its hidden cards were guesses


def test_policy_is_visit_shares_for_search_and_one_hot_otherwise():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=2)["session"]
    kind = "hint"
    search = server.ok(type=kind, session=session, agent="ismcts", sims=200)
    assert search["policy_kind"] == "visits" and len(search["policy"]) > 1
    assert search["simulations"] == 200 and search["agent"] == "ismcts(sims=200)"
    rules = server.ok(type=kind, session=session, agent="heuristic")
    assert rules["policy_kind"] == "chosen" and rules["policy"] == {rules["action"]: 1.0}


def test_a_time_budget_alone_means_time_only():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=2)["session"]
    reply = server.ok(type="hint", session=session, agent="ismcts", ms=50)
    assert reply["agent"] == "ismcts(ms=50,sims=0)"
    assert 40 <= reply["thinking_ms"] < 1000


def test_move_and_hint_refuse_the_wrong_seat():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], seed=2)["session"]
    mover = server.ok(type="state", session=session)["view"]["to_move"]
    wrong = "move" if mover == 0 else "hint"
    reply = server.send(type=wrong, session=session, agent="random")
    assert reply["error"]["code"] == "out_of_turn"
    assert ("ask `hint`" if mover == 0 else "ask `move`") in reply["error"]["message"]


@pytest.mark.parametrize("text, code, words", [
    ("{nope", "bad_json", "not JSON"),
    ("[1, 2]", "bad_json", "one JSON object"),
    ('{"type": "hello", "x": NaN}', "bad_json", "NaN"),
    ('{"type": "shuffle"}', "unknown_request", "'shuffle'"),
    ('{"game": "durak"}', "unknown_request", "None"),
    ('{"type": "new"}', "bad_request", "'game'"),
    ('{"type": "new", "game": "durak", "sead": 1}', "bad_request", "'sead'"),
    ('{"type": "new", "game": "durak", "seats": [2]}', "bad_request", "seats"),
    ('{"type": "new", "game": "durak", "seed": -1}', "bad_request", "seed"),
    ('{"type": "new", "game": "durak", "dealer": "me"}', "bad_request", "dealer"),
    ('{"type": "new", "game": "duraq"}', "bad_game", "duraq"),
    ('{"type": "new", "game": "durak(players=9)"}', "bad_game", "players"),
    ('{"type": "state", "session": "abc"}', "unknown_session", "'abc'"),
    ('{"type": "observe", "session": "abc", "actions": "take"}', "unknown_session", "abc"),
])
def test_every_error_is_a_json_object_with_a_code_and_a_message(text, code, words):
    reply = Server().protocol.handle_text(text)
    assert reply["ok"] is False
    assert reply["error"]["code"] == code
    assert words in reply["error"]["message"]
    json.dumps(reply)


def test_action_errors_name_the_action():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=1)["session"]
    view = server.ok(type="state", session=session)["view"]
    mover = view["to_move"]
    malformed = server.send(type="observe", session=session, actions=["attack Zq"])
    assert malformed["error"]["code"] == "malformed_action"
    assert "Zq" in malformed["error"]["message"]
    other = server.send(type="observe", session=session, actions=[f"p{1 - mover} take"])
    assert other["error"]["code"] == "out_of_turn"
    assert f"not p{1 - mover}'s turn" in other["error"]["message"]
    illegal = server.send(type="observe", session=session, actions=["take"])
    assert illegal["error"]["code"] == "illegal_action" and "legal:" in illegal["error"]["message"]
    not_list = server.send(type="observe", session=session, actions="take")
    assert not_list["error"]["code"] == "bad_request"


def test_agent_errors_and_budgets_beyond_the_limits():
    server = Server(Limits(max_ms=500, max_sims=1000))
    session = server.ok(type="new", game="durak", seats=[0], seed=2)["session"]
    mover = server.ok(type="state", session=session)["view"]["to_move"]
    kind = "hint" if mover == 0 else "move"
    assert server.code(type=kind, session=session, agent="alphazero") == "bad_agent"
    assert server.code(type=kind, session=session, agent="ismcts(uct_c=-1)") == "bad_agent"
    assert server.code(type=kind, session=session, agent="ismcts", ms=501) == "limit"
    assert server.code(type=kind, session=session, agent="ismcts", sims=1001) == "limit"
    assert server.code(type=kind, session=session, agent="ismcts(sims=5000)") == "limit"
    assert server.code(type=kind, session=session, agent="ismcts", sims=-1) == "bad_request"
    assert server.ok(type=kind, session=session, agent="random")["ok"]


def test_requests_beyond_the_size_limit_are_refused():
    server = Server(Limits(max_request_bytes=300))
    reply = server.protocol.handle_text('{"type": "hello", "id": "' + "x" * 400 + '"}')
    assert reply["error"]["code"] == "too_large" and "300" in reply["error"]["message"]
    assert server.ok(type="hello")["ok"]


def test_sessions_are_capped_and_idle_ones_expire():
    now = [0.0]
    server = Server(Limits(max_sessions=2, idle_seconds=60), clock=lambda: now[0])
    first = server.ok(type="new", game="durak")["session"]
    server.ok(type="new", game="durak")
    assert server.code(type="new", game="durak") == "limit"
    server.ok(type="close", session=first)
    assert server.code(type="state", session=first) == "unknown_session"
    third = server.ok(type="new", game="durak")["session"]
    now[0] = 30.0
    server.ok(type="state", session=third)
    now[0] = 61.0                          # the second is idle for 61 s, the third for 31 s
    assert len(server.protocol.sessions) == 2
    server.ok(type="new", game="durak")
    assert server.ok(type="state", session=third)["ok"]
    now[0] = 200.0
    assert server.code(type="state", session=third) == "unknown_session"


def test_quit_is_for_stdio_only():
    assert Server().ok(type="quit")["ok"]
    assert Server(transport="http").code(type="quit") == "unsupported"


def test_state_since_returns_the_events_from_there():
    server = Server()
    reply = server.ok(type="new", game="durak", seats=[0], seed=3)
    view = server.ok(type="state", session=reply["session"], since=10)["view"]
    assert view["events"] == reply["events"][10:]
