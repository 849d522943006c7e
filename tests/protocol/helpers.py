"""Driving the protocol in process: requests as dicts, moves thought inline."""

from koloda.protocol.handler import Limits, PendingMove, Protocol


class Server:
    def __init__(self, limits: Limits = Limits(), transport: str = "stdio", clock=None):
        kwargs = {"clock": clock} if clock else {}
        self.protocol = Protocol(limits, transport=transport, **kwargs)

    def send(self, **message) -> dict:
        reply = self.protocol.handle(message)
        if isinstance(reply, PendingMove):
            reply = reply.answer_here()
        return reply

    def ok(self, **message) -> dict:
        reply = self.send(**message)
        assert reply["ok"], reply
        return reply

    def code(self, **message) -> str:
        reply = self.send(**message)
        assert not reply["ok"], reply
        return reply["error"]["code"]


def seen_by(events, seat, then: bool = False):
    """The table's events as `seat` is told them: outcomes it did not see as unknown,
    decisions with their player; with `then`, each with what followed it in public."""
    out = []
    for event in events:
        if event["player"] is None:
            seen = seat in event["seen_by"]
            action = event["action"] if seen else event["action"].split()[0] + " ?"
        else:
            action = f"p{event['player']} {event['action']}"
        out.append({"action": action, "then": event.get("then", [])} if then else action)
    return out


def play_between_sessions(server: Server, game: str, seed: int, agent: str = "random",
                          max_moves: int = 3000, then: bool = False):
    """A whole game: a table session (every seat, koloda deals) and one player session per
    seat (the app deals, unknown outcomes as `?`), each seat's moves from `hint` in its
    own session.  After every move each player session's observation and view must be
    the table's of that seat.  Returns (moves, returns, player session ids)."""
    table = server.ok(type="new", game=game, seats=list(range(players(game))), seed=seed)
    n = len(table["seats"])
    sessions = []
    for seat in range(n):
        player = server.ok(type="new", game=game, seats=[seat], dealer="app",
                           seed=seed * 10 + seat)
        server.ok(type="observe", session=player["session"],
                  actions=seen_by(table["events"], seat, then))
        sessions.append(player["session"])
    view, moves = table["view"], 0
    while view["status"] != "over":
        seat = view["to_move"]
        hint = server.ok(type="hint", session=sessions[seat], agent=agent)
        played = server.ok(type="observe", session=table["session"],
                           actions=[f"p{seat} {hint['action']}"])
        view = played["view"]
        for other in range(n):
            seen = server.ok(type="observe", session=sessions[other],
                             actions=seen_by(played["events"], other, then))["view"]
            truth = view["seats"][other]
            assert seen["seats"][0]["observation"] == truth["observation"], (moves, other)
            assert seen["seats"][0]["view"] == truth["view"], (moves, other)
            assert seen["status"] == view["status"]
        moves += 1
        assert moves < max_moves
    return moves, view["returns"], sessions


def players(game: str) -> int:
    from koloda import games
    return games.load_game(game).num_players()
