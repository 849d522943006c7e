"""What a solve says holds in the game: the principal variation ends the game as stated
(the fastest line with lengths, a line that keeps the value without), known endings are
scored as the rules say, and the result record has its fixed form."""

import pytest

from koloda.games.parket import from_position
from koloda.games.parket.engine import DRAW
from koloda.solvers.parket import SolveAborted, random_position, solve

# Found by random play: black to move with no placement and no relocation.
STUCK = "Qd9h9c8cQcKhQs/JhTs6d7d6hAsJd/8h9d8dTh7h6s--/7c6cQhJc8sAc--/KcAhKdTc------ b m 0"
# Red holds one card, and it can be placed.
LAST_CARD = "6s--7cTh--TdJc/AhKd8s9dQdKhQh/8hQcJs7s--As6c/9sTs9h6hAcKc7h/QsJd8c7d6dAdJh r m 1"
# Black cannot place, three relocations have been made in a row: any relocation draws.
AT_THE_CAP = "--QsJdQh--9sTh/JhAsTcKsAd8h7c/--KcQdQc6sAh6d/6hTdJc9d7h8d7s/7dKhJsTs6cAc-- b m 3"


def _replay(position, pv, **params):
    state = from_position(position, **params)
    for text in pv:
        state.apply_action(state.string_to_action(text))
    return state


@pytest.mark.parametrize("empty,seed", [(e, s) for e in (3, 5, 7, 9) for s in range(4)])
def test_the_principal_variation_ends_the_game_as_stated(empty, seed):
    position = random_position(empty, seed)
    result = solve(position, lengths=True)
    assert len(result.pv) == result.moves_to_end
    start = from_position(position)
    mover = start.current_player()
    end = _replay(position, result.pv)
    assert end.is_terminal()
    expected = {"win": 1.0, "loss": -1.0, "draw": 0.0}[result.value]
    assert end.returns()[mover] == expected
    assert result.moves[0].value == result.value
    assert result.moves[0].moves_to_end == result.moves_to_end


@pytest.mark.parametrize("empty,seed", [(e, s) for e in (3, 5, 7, 9) for s in range(4)])
def test_without_lengths_the_line_keeps_the_value_to_the_end(empty, seed):
    position = random_position(empty, seed)
    result = solve(position)
    assert result.moves_to_end is None and not result.lengths
    assert all(m.moves_to_end is None for m in result.moves)
    mover = from_position(position).current_player()
    end = _replay(position, result.pv)
    assert end.is_terminal()
    assert end.returns()[mover] == {"win": 1.0, "loss": -1.0, "draw": 0.0}[result.value]
    assert result.pv[0] in {m.move for m in result.moves if m.value == result.value}


def test_every_legal_move_is_listed_best_first():
    position = random_position(8, 2)
    result = solve(position, lengths=True)
    state = from_position(position)
    player = state.current_player()
    names = {state.action_to_string(player, a) for a in state.legal_actions()}
    assert {m.move for m in result.moves} == names
    rank = {"win": 0, "draw": 1, "loss": 2}
    keys = [(rank[m.value], m.moves_to_end if m.value != "loss" else -m.moves_to_end)
            for m in result.moves]
    assert keys == sorted(keys)


def test_a_side_with_no_legal_move_has_lost_in_0():
    assert from_position(STUCK).is_terminal()
    for lengths in (False, True):
        result = solve(STUCK, lengths=lengths)
        assert (result.value, result.moves_to_end, result.moves, result.pv) == \
            ("loss", 0, [], [])


def test_placing_the_last_card_wins_in_1():
    assert solve(LAST_CARD).value == "win"
    result = solve(LAST_CARD, lengths=True)
    assert (result.value, result.moves_to_end) == ("win", 1)
    assert all(m.value == "win" and m.moves_to_end == 1 for m in result.moves)
    assert _replay(LAST_CARD, result.pv).returns()[0] == 1.0


def test_the_relocation_cap_draws():
    result = solve(AT_THE_CAP, lengths=True)
    assert (result.value, result.moves_to_end) == ("draw", 1)
    assert all(m.move.startswith("move ") and m.value == "draw" for m in result.moves)
    assert _replay(AT_THE_CAP, result.pv).core.result == DRAW
    finished = AT_THE_CAP.replace(" b m 3", " b m 4")
    assert solve(finished).to_json()["value"] == "draw"
    assert solve(finished).moves_to_end == 0
    # With a higher cap the same position goes on.
    assert solve(AT_THE_CAP, max_relocations=5, lengths=True).moves_to_end != 1 or \
        solve(AT_THE_CAP, max_relocations=5).value != "draw"


def test_the_json_form_has_the_fixed_keys():
    for lengths in (False, True):
        data = solve(random_position(5, 1), lengths=lengths).to_json()
        assert set(data) == {"position", "value", "moves_to_end", "moves", "pv", "nodes",
                             "seconds", "lengths"}
        assert all(set(m) == {"move", "value", "moves_to_end"} for m in data["moves"])
        assert data["value"] in ("win", "loss", "draw") and data["nodes"] > 0
        assert data["lengths"] is lengths
        assert (data["moves_to_end"] is None) is not lengths


@pytest.mark.parametrize("method", ["fast", "reference"])
def test_a_node_limit_stops_an_unfinished_solve(method):
    with pytest.raises(SolveAborted):
        solve(random_position(12, 0), method=method, node_limit=50)


def test_a_time_limit_stops_an_unfinished_solve():
    with pytest.raises(SolveAborted):
        solve(random_position(20, 0), time_limit=0.05)
