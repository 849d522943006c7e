"""`analyse`: a finished Parket game's verdicts from the exact solver, within the server's
limits; refused before the end (it would advise both sides), for other games, and beyond
the limits."""

import random

from koloda.protocol.handler import Limits
from koloda.solvers.parket.game import analyse_line

from .helpers import Server


def _finished_parket(server: Server, seed: int = 3) -> str:
    """A session of parket played at random to its end, through `observe`."""
    reply = server.ok(type="new", game="parket", seats=[0, 1])
    session, view = reply["session"], reply["view"]
    rng = random.Random(seed)
    while view["status"] != "over":
        view = server.ok(type="observe", session=session,
                         actions=[rng.choice(view["legal"])])["view"]
    return session


def test_a_finished_game_is_analysed_as_the_solver_analyses_it():
    server = Server(Limits(max_analysis_ms=2000, max_analysis_total_ms=60_000))
    session = _finished_parket(server)
    analysis = server.ok(type="analyse", session=session, ms=2000)["analysis"]
    state = server.protocol.sessions[session].state
    assert len(analysis["moves"]) == len(state.history())
    expected = analyse_line(state.get_game().new_initial_state(), state.history(), 2, 60)
    first = max(analysis["first_solved"], expected.first_solved)
    assert [(m["before"], m["after"], m["kept_by"]) for m in analysis["moves"][first - 1:]] == \
        [(v.before, v.after, list(v.kept_by)) for v in expected.verdicts[first - 1:]]


def test_a_game_not_over_is_not_analysed():
    server = Server()
    session = server.ok(type="new", game="parket", seats=[0])["session"]
    reply = server.send(type="analyse", session=session)
    assert reply["error"]["code"] == "out_of_turn"
    assert "is not over" in reply["error"]["message"]


def test_only_parket_is_analysed():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0])["session"]
    assert server.code(type="analyse", session=session) == "unsupported"


def test_the_time_per_position_is_the_servers_to_bound():
    server = Server(Limits(max_analysis_ms=50))
    session = _finished_parket(server)
    reply = server.send(type="analyse", session=session, ms=51)
    assert reply["error"]["code"] == "limit" and "limit of 50" in reply["error"]["message"]
    assert server.code(type="analyse", session=session, ms=-1) == "bad_request"
    analysis = server.ok(type="analyse", session=session)["analysis"]
    assert analysis["seconds_per_position"] == 0.05


def test_hello_lists_analyse_and_its_limits():
    hello = Server().ok(type="hello")
    assert "analyse" in hello["requests"]
    assert hello["limits"]["max_analysis_ms"] == Limits().max_analysis_ms
    assert hello["limits"]["max_analysis_total_ms"] == Limits().max_analysis_total_ms
