"""What `solve` takes and what it says when it stops: positions that are no position
text, limits that are no limits and a relocation cap beyond what finishes are refused
by name; a solve stopped by a limit names the limit and keeps only what it proved."""

import math

import pytest

from koloda import games, solvers
from koloda.games.errors import GameParameterError
from koloda.games.parket import PositionError, from_position
from koloda.solvers.parket import MAX_RELOCATIONS, REACH, SolveAborted, random_position, solve

ONE_EMPTY = random_position(1, 0)


@pytest.mark.parametrize("position", [None, 5, b"x", ["a"]])
def test_a_position_that_is_no_string_is_refused_as_such(position):
    with pytest.raises(PositionError, match="a position is a string in the notation "
                                            "<row1>/"):
        solve(position)


@pytest.mark.parametrize("position", ["", "   ", "\n\t"])
def test_a_blank_position_is_refused_not_read_as_the_start(position):
    # The game reads "" as its start position, which no solve finishes.
    with pytest.raises(PositionError, match="the position is empty; write one as <row1>"):
        solve(position, time_limit=5)


def test_a_relocation_count_of_thousands_of_digits_is_a_short_position_error():
    position = ONE_EMPTY.rsplit(" ", 1)[0] + " " + "1" * 5000
    with pytest.raises(PositionError) as caught:
        solve(position)
    message = str(caught.value)
    assert "relocations must be a number 0..4" in message and "5000 digits" in message
    assert len(message) < 200 and "1" * 30 not in message


def test_leading_zeros_keep_a_small_relocation_count_readable():
    position = ONE_EMPTY.rsplit(" ", 1)[0] + " 000000000"
    assert solve(position).value == solve(ONE_EMPTY).value


@pytest.mark.parametrize("limits, named", [
    ({"node_limit": -1}, "node_limit"), ({"node_limit": True}, "node_limit"),
    ({"node_limit": 2.5}, "node_limit"), ({"node_limit": "100"}, "node_limit"),
    ({"node_limit": 10**19}, "node_limit"),
    ({"time_limit": math.nan}, "time_limit"), ({"time_limit": math.inf}, "time_limit"),
    ({"time_limit": -1.0}, "time_limit"), ({"time_limit": "1"}, "time_limit"),
    ({"time_limit": True}, "time_limit"), ({"time_limit": 1e300}, "time_limit"),
])
def test_a_limit_that_is_no_count_is_refused_by_name(limits, named):
    with pytest.raises(GameParameterError, match=f"^{named} is a "):
        solve(ONE_EMPTY, **limits)


@pytest.mark.parametrize("cap", [0, MAX_RELOCATIONS + 1, 100, True, 4.0])
def test_a_relocation_cap_beyond_what_finishes_is_refused(cap):
    with pytest.raises(GameParameterError, match=f"max_relocations is from 1 to "
                                                 f"{MAX_RELOCATIONS} for the solver"):
        solve(ONE_EMPTY, max_relocations=cap, time_limit=5)


def test_the_largest_cap_still_solves_a_one_empty_cell_position():
    assert REACH == 16          # reports/parket-endgames.md: 16 cells: a median solve under 1 s
    result = solve(ONE_EMPTY, max_relocations=MAX_RELOCATIONS, time_limit=20)
    assert result.value in ("win", "draw", "loss")


@pytest.mark.parametrize("method", ["fast", "reference"])
def test_a_node_limit_stop_names_the_limit_and_how_far_it_got(method):
    with pytest.raises(SolveAborted) as caught:
        solve(random_position(12, 0), method=method, node_limit=50)
    stop = caught.value
    assert stop.limit == "node_limit" and stop.nodes > 50 and stop.seconds >= 0
    assert "stopped at its node_limit of 50 nodes, after 51 nodes in " in str(stop)
    assert "0 of 8 moves have a known value" in str(stop)
    assert stop.value is None and stop.moves_to_end is None
    state = from_position(random_position(12, 0))
    names = {state.action_to_string(state.current_player(), a)
             for a in state.legal_actions()}
    assert {m.move for m in stop.moves} == names


def test_a_time_limit_stop_names_the_limit():
    with pytest.raises(SolveAborted) as caught:
        solve(random_position(20, 0), time_limit=0.05)
    assert caught.value.limit == "time_limit"
    assert "stopped at its time_limit of 0.05 s, after " in str(caught.value)


def test_what_a_stopped_solve_reports_is_what_the_finished_solve_says():
    position = random_position(9, 1)
    full = solve(position, node_limit=10**12, lengths=True)   # one search, as below
    exact = {m.move: (m.value, m.moves_to_end) for m in full.moves}
    reported_value = reported_lengths = False
    for fraction in (0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 0.999):
        with pytest.raises(SolveAborted) as caught:
            solve(position, node_limit=int(full.nodes * fraction), lengths=True)
        stop = caught.value
        assert stop.value in (None, full.value)
        assert stop.moves_to_end in (None, full.moves_to_end)
        for move in stop.moves:
            value, length = exact[move.move]
            assert move.value in (None, value)
            assert move.moves_to_end in (None, length)
            assert move.moves_to_end is None or move.value is not None
        reported_value |= stop.value is not None
        reported_lengths |= any(m.moves_to_end is not None for m in stop.moves)
        data = stop.to_json()
        assert data["finished"] is False and data["stopped_by"] == "node_limit"
        assert len(data["moves"]) == len(full.moves)
    assert reported_value and reported_lengths


def test_the_solver_agent_searches_where_the_cap_is_beyond_the_solver():
    game = games.load_game(f"parket(max_relocations={MAX_RELOCATIONS + 1})")
    state = from_position(ONE_EMPTY, max_relocations=MAX_RELOCATIONS + 1)
    agent = solvers.load_agent(game, "solver(reach=35,sims=5)", seed=0)
    assert agent.step(state) in state.legal_actions()
    assert (agent.solved_moves, agent.searched_moves) == (0, 1)
