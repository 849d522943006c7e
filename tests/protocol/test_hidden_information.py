"""No reply shows what the session's seats cannot see: one session replayed in two deals
that differ only in cards its seat never sees gives the same replies, but for the moves
koloda actually played for the other seats."""

import pytest

from koloda.protocol.record import split_seat

from .helpers import Server
from .twins import twins

#: the games with hidden cards, each with a deal whose common part is long enough
HIDDEN_CARD_GAMES = [("durak", 3), ("durak(players=3)", 4), ("platinum_fish", 2),
                     ("snitch(target_score=0)", 1)]
SEED = 11
MOVE_FIELDS = ("action", "events", "view")     # what the move played shows, by design


def session_replies(game: str, actions: list[str], seat: int) -> list[dict]:
    """Every reply of one app-dealt session of `seat` told `actions` one at a time (each
    outcome as it is, so koloda holds every hand): a `hint` before each of the seat's
    decisions, and before each other decision a `move` for that seat (in a copy of the
    session, since a move is played, so the game goes on as it went), then the whole
    `state`."""
    server = Server()
    replies = []

    def opened():
        reply = server.ok(type="new", game=game, seats=[seat], dealer="app", seed=SEED)
        replies.append(reply)
        return reply["session"]

    session = opened()
    for index, text in enumerate(actions):
        player, _ = split_seat(text)
        if player == seat:
            replies.append(server.send(type="hint", session=session, agent="ismcts", sims=40))
        elif player is not None:
            probe = opened()
            if index:
                replies.append(server.send(type="observe", session=probe,
                                           actions=actions[:index]))
            move = server.send(type="move", session=probe, agent="ismcts", sims=40)
            replies.append(move)
            server.ok(type="close", session=probe)
        replies.append(server.send(type="observe", session=session, actions=[text]))
    replies.append(server.send(type="state", session=session, since=0))
    for reply in replies:
        reply.pop("session", None)
    return replies


def moves_only(reply: dict) -> dict:
    return {k: v for k, v in reply.items() if k not in MOVE_FIELDS}


@pytest.mark.slow
@pytest.mark.parametrize("game, seed", HIDDEN_CARD_GAMES)
def test_two_deals_that_differ_in_unseen_cards_get_the_same_replies(game, seed):
    pair = twins(game, seed)
    first = session_replies(game, pair.first, pair.seat)
    second = session_replies(game, pair.second, pair.seat)
    assert len(first) == len(second)
    moves = 0
    for index, (a, b) in enumerate(zip(first, second)):
        if a.get("type") == "move" and "events" in a:    # the move played: its own fields
            moves += 1
            assert moves_only(a) == moves_only(b), index
            continue
        # a hint's thinking time is measured, so it varies run to run; its agent works
        # from the seat's information state alone, so nothing else may differ
        assert ("thinking_ms" in a) == ("thinking_ms" in b), index
        a.pop("thinking_ms", None), b.pop("thinking_ms", None)
        assert a == b, (index, a, b)
    assert moves >= 3
    assert any(r.get("type") == "hint" and r.get("policy") for r in first)


def test_a_move_shows_the_move_and_nothing_of_the_hand_a_hint_shows_its_policy():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], seed=5)["session"]
    view = server.ok(type="state", session=session)["view"]
    kinds = set()
    while view["status"] != "over" and len(kinds) < 2:
        kind = "hint" if view["to_move"] == 0 else "move"
        reply = server.ok(type=kind, session=session, agent="ismcts", ms=30, apply=True)
        if kind == "move":
            assert set(reply) == {"type", "ok", "player", "action", "agent", "events", "view"}
        elif len(reply["policy"]) > 1:
            assert reply["policy_kind"] == "visits" and reply["simulations"] > 0
            kinds.add("hint")
        kinds.add(kind)
        view = reply["view"]
    assert kinds == {"hint", "move"}


def test_a_move_is_played_once_answered_so_asking_again_shows_no_more():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[1], seed=2)
    assert session["view"]["to_move"] == 0
    refused = server.send(type="move", session=session["session"], agent="ismcts",
                          apply=False)
    assert refused["error"]["code"] == "bad_request" and "hint" in refused["error"]["message"]
    played = server.ok(type="move", session=session["session"], agent="random")
    assert played["events"][0] == {"player": 0, "action": played["action"]}
    assert played["view"]["event_count"] == session["view"]["event_count"] + len(
        played["events"])
    again = server.send(type="move", session=session["session"], agent="heuristic", sims=9)
    assert again["error"]["code"] == "out_of_turn"          # p1, the session's seat, moves


def test_a_seed_the_server_draws_is_kept_until_the_game_is_over():
    server = Server()
    opened = server.ok(type="new", game="durak(ranks=6,suits=2,hand_size=3)", seats=[0])
    assert "seed" not in opened
    session, view = opened["session"], opened["view"]
    while view["status"] != "over":
        kind = "hint" if view["to_move"] == 0 else "move"
        view = server.ok(type=kind, session=session, agent="random", apply=True)["view"]
        assert "seed" not in view or view["status"] == "over"
    assert isinstance(view["record"]["seed"], int)
    given = server.ok(type="new", game="durak", seats=[0], seed=77)
    assert given["seed"] == 77                       # the app's own seed: it knows it


def test_outcomes_the_app_gave_for_unseen_cards_are_not_echoed():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0], dealer="app", seed=1)["session"]
    reply = server.ok(type="observe", session=session, actions=["deal 6c", "deal 7c"])
    assert [e["action"] for e in reply["events"]] == ["deal 6c", "deal ?"]
