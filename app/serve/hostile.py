"""Hostile requests for the soak (`python -m koloda.serve.soak`): each sends what a broken
or malicious client would and checks the one answer the protocol documents for it, so the
soak shows the server holding its boundary under load.

A probe is `probe(client, raw, rng) -> problem or None`: `client` is a protocol client,
`raw(method, path, headers, body)` sends one HTTP request exactly as given and answers
(status, JSON reply or None).
"""

from __future__ import annotations

import http.client
import json
import random
import socket
from urllib.parse import urlsplit

JSON = {"Content-Type": "application/json"}
#: an app-dealt Durak deal after which p0 attacked, so p1 is to defend whatever p1 holds:
#: a `hint` for p0 is refused at once (it once redrew guesses for seconds first)
ATTACKED_DEAL = ["deal Ah", "deal ?", "deal Kh", "deal ?", "deal Qh", "deal ?", "deal Jh",
                 "deal ?", "deal Th", "deal ?", "deal 9h", "deal ?", "trump 7s", "p0 attack Ah"]


class Raw:
    """One HTTP request per call, on its own connection, with exactly the given headers."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80

    def __call__(self, method: str, path: str = "/", headers: dict | None = None,
                 body: bytes | None = None) -> tuple[int, dict | None]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.putrequest(method, path, skip_host="Host" in (headers or {}),
                                  skip_accept_encoding=True)
            for key, value in (headers or {}).items():
                connection.putheader(key, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        try:
            return response.status, json.loads(data)
        except ValueError:
            return response.status, None

    def disconnect_mid_body(self) -> None:
        """Headers that promise a body, a piece of it, and the connection closed."""
        with socket.create_connection((self.host, self.port), timeout=10) as sock:
            sock.sendall(f"POST / HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: "
                         f"application/json\r\nContent-Length: 1000\r\n\r\n"
                         f'{{"type": "hel'.encode())


def error_code(reply) -> str | None:
    """The code of an error reply (None for a reply that is no error, or none at all)."""
    return ((reply or {}).get("error") or {}).get("code")


def expect(name: str, reply, code: str, status: int | None = None, got: int | None = None,
           absent: tuple[str, ...] = ()) -> str | None:
    """None when `reply` is the error `code` (with HTTP `status`) and shows none of
    `absent`; else the problem, for the soak's failures."""
    if error_code(reply) != code or (status is not None and got != status):
        return f"{name}: expected {code} ({status}), got {got} {reply}"
    message = json.dumps(reply)
    for text in absent:
        if text in message:
            return f"{name}: the reply shows {text!r}: {reply}"
    return None


def _durak_session(client) -> tuple[str | None, dict]:
    reply = client.send({"type": "new", "game": "durak", "seats": [0, 1]})
    return reply.get("session"), reply


def named_policy_paths(client, raw, rng):
    session, reply = _durak_session(client)
    path = rng.choice(["/etc/passwd", "/dev/stdin", "../../etc/passwd", "/proc/self/environ"])
    answer = client.send({"type": "hint", "session": session, "agent": f"cfr(policy={path})"})
    client.send({"type": "close", "session": session})
    return expect("policy path", answer, "bad_agent", absent=("root:", "PATH="))


def work_beyond_limits(client, raw, rng):
    agent, game = rng.choice([("pimc(worlds=5000)", "durak"),
                              ("ismcts(sims=" + "9" * 4400 + ")", "durak"),
                              ("solver(reach=35,nodes=10000000000)", "parket"),
                              ("ismcts(rollout=learned,depth=50)", "snitch")])
    players = 3 if game == "snitch" else 2
    opened = client.send({"type": "new", "game": game, "seats": list(range(players))})
    answer = client.send({"type": "hint", "session": opened.get("session"), "agent": agent,
                          "ms": rng.choice([100, 5_000_000])})
    client.send({"type": "close", "session": opened.get("session")})
    expected = "bad_agent" if "9999" in agent else "limit"
    return expect(f"work {agent[:30]}", answer, expected)


def bad_game(client, raw, rng):
    game, code = rng.choice([("durak(max_moves=99999999999)", "bad_game"),
                             ("parket(position=x)", "bad_game"),
                             ("durak(hand_size=99,players=6,ranks=13)", "bad_game"),
                             ("durak(previous_fool=5)", "bad_game"),
                             ('parket(position="\ud800")', "bad_game"),
                             ("parket(max_relocations=100)", "limit")])
    return expect(f"game {game}", client.send({"type": "new", "game": game}), code)


def bad_actions(client, raw, rng):
    session, _ = _durak_session(client)
    actions, code = rng.choice([([{"action": 5}], "bad_request"),
                                (["p\u00b9 attack Ks"], "malformed_action"),
                                (["attack " + "K" * 3000], "malformed_action")])
    answer = client.send({"type": "observe", "session": session, "actions": actions})
    client.send({"type": "close", "session": session})
    return expect("actions", answer, code)


def bad_ids(client, raw, rng):
    body, code = rng.choice([(b'{"type": "hello", "id": 1e400}', "bad_json"),
                             (b'{"type": "hello", "id": "\\ud800"}', "bad_request")])
    status, reply = raw("POST", "/", JSON, body)
    return expect(f"id {body!r}", reply, code, 400, status)


def foreign_pages(client, raw, rng):
    headers, code, status = rng.choice([
        ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, "forbidden", 403),
        ({"Host": "evil.example", **JSON}, "forbidden", 403),
        ({"Content-Type": "text/plain"}, "bad_content_type", 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, "bad_content_type", 415)])
    got, reply = raw("POST", "/", headers, b'{"type": "hello"}')
    return expect(f"headers {headers}", reply, code, status, got)


def static_page_elsewhere(client, raw, rng):
    status, _ = raw("GET", "/static/index.html")
    return None if status == 404 else f"/static/index.html answered {status}"


def disconnect(client, raw, rng):
    raw.disconnect_mid_body()
    return None


def hint_out_of_turn(client, raw, rng):
    opened = client.send({"type": "new", "game": "durak", "seats": [0], "dealer": "app"})
    session = opened.get("session")
    client.send({"type": "observe", "session": session, "actions": ATTACKED_DEAL})
    answer = client.send({"type": "hint", "session": session, "agent": "random"})
    client.send({"type": "close", "session": session})
    return expect("hint out of turn", answer, "out_of_turn")


#: probe -> its weight among the hostile requests
PROBES = {named_policy_paths: 3, work_beyond_limits: 3, bad_game: 3, bad_actions: 3, bad_ids: 2,
          foreign_pages: 4, static_page_elsewhere: 1, disconnect: 1, hint_out_of_turn: 1}


def pick(rng: random.Random):
    return rng.choices(list(PROBES), weights=list(PROBES.values()))[0]
