"""`solve_state`: the solver on an engine position, the entry point `solve(text)` reads
into.  It agrees with `solve` on the same position under the same rules, whatever led to
the state and whichever seat holds which colour; each move carries its action id; the
state is left as it was; and only a parket state (or its ParketCore) is taken."""

import pytest

from koloda import games
from koloda.games.errors import ArgumentError, GameParameterError
from koloda.games.parket import from_position
from koloda.solvers.parket import MAX_RELOCATIONS, SolveAborted, random_position, solve, solve_state

STUCK = "Qd9h9c8cQcKhQs/JhTs6d7d6hAsJd/8h9d8dTh7h6s--/7c6cQhJc8sAc--/KcAhKdTc------ b m 0"
AT_THE_CAP = "--QsJdQh--9sTh/JhAsTcKsAd8h7c/--KcQdQc6sAh6d/6hTdJc9d7h8d7s/7dKhJsTs6cAc-- b m 3"


def _same(a, b):
    """Everything a solve decides, nodes included (the same search on the same input)."""
    return ((a.position, a.value, a.moves_to_end, a.pv, a.nodes,
             [(m.move, m.value, m.moves_to_end, m.action) for m in a.moves]) ==
            (b.position, b.value, b.moves_to_end, b.pv, b.nodes,
             [(m.move, m.value, m.moves_to_end, m.action) for m in b.moves]))


@pytest.mark.parametrize("method", ["fast", "reference"])
@pytest.mark.parametrize("empty,seed", [(e, s) for e in (1, 3, 5, 7, 9) for s in range(2)])
def test_solve_state_agrees_with_solve_on_the_same_position(method, empty, seed):
    position = random_position(empty, seed)
    state = from_position(position)
    assert _same(solve_state(state, method=method), solve(position, method=method))


@pytest.mark.parametrize("empty,seed", [(1, 0), (2, 1), (3, 2), (4, 3)])
def test_solve_state_agrees_with_solve_under_the_states_own_rules(empty, seed):
    position = random_position(empty, seed, corner_order="any", max_relocations=2)
    state = from_position(position, corner_order="any", max_relocations=2)
    expected = solve(position, corner_order="any", max_relocations=2, method="minimax")
    assert _same(solve_state(state, method="minimax"), expected)
    fast = solve_state(state)
    assert (fast.value, fast.moves_to_end) == (expected.value, expected.moves_to_end)
    assert sorted((m.move, m.value, m.moves_to_end) for m in fast.moves) == \
        sorted((m.move, m.value, m.moves_to_end) for m in expected.moves)


def test_a_state_and_its_core_solve_alike_and_are_left_as_they_were():
    state = from_position(random_position(6, 3))
    state.apply_action(state.legal_actions()[0])        # a state reached by play
    before = (state.position(), state.history(), state.legal_actions())
    by_state, by_core = solve_state(state), solve_state(state.core)
    assert _same(by_state, by_core) and _same(by_state, solve(state.position()))
    assert (state.position(), state.history(), state.legal_actions()) == before


def test_every_move_carries_its_action_id_in_the_state():
    state = from_position(random_position(8, 2))
    player = state.current_player()
    result = solve_state(state)
    assert sorted(m.action for m in result.moves) == state.legal_actions()
    assert all(state.action_to_string(player, m.action) == m.move for m in result.moves)
    assert [m.action for m in solve(state.position()).moves] == \
        [m.action for m in result.moves]


def test_colours_are_the_solvers_whichever_seat_holds_them():
    position = random_position(5, 4)
    black_first = from_position(position, first_color="black")
    assert black_first.current_player() != from_position(position).current_player()
    result = solve_state(black_first)
    assert _same(result, solve(position))


@pytest.mark.parametrize("position,value", [(STUCK, "loss"),
                                            (AT_THE_CAP.replace(" 3", " 4"), "draw")])
def test_a_finished_state_is_valued_in_0(position, value):
    result = solve_state(from_position(position))
    assert (result.value, result.moves_to_end, result.moves, result.pv) == (value, 0, [], [])


def test_the_relocation_cap_is_the_states():
    state = from_position(AT_THE_CAP, max_relocations=5)
    assert _same(solve_state(state), solve(AT_THE_CAP, max_relocations=5))


def test_a_stopped_solve_keeps_the_action_ids_of_its_moves():
    state = from_position(random_position(12, 0))
    with pytest.raises(SolveAborted) as caught:
        solve_state(state, node_limit=50)
    assert caught.value.limit == "node_limit"
    assert sorted(m.action for m in caught.value.moves) == state.legal_actions()


@pytest.mark.parametrize("thing", [None, "a position", 5,
                                   games.load_game("durak").new_initial_state()])
def test_only_a_parket_state_is_taken(thing):
    with pytest.raises(ArgumentError, match="a parket solve takes a state of parket"):
        solve_state(thing)


def test_bad_parameters_and_caps_are_refused_by_name():
    state = from_position(random_position(3, 0))
    with pytest.raises(GameParameterError, match="^method is one of"):
        solve_state(state, method="magic")
    with pytest.raises(GameParameterError, match="^node_limit is a "):
        solve_state(state, node_limit=-1)
    beyond = from_position(random_position(1, 0), max_relocations=MAX_RELOCATIONS + 1)
    with pytest.raises(GameParameterError, match="max_relocations is from 1 to"):
        solve_state(beyond)
