"""A whole game analysed (solvers/parket/game.py): every verdict is what a solve of its
position says, the analysis starts at the first position within its time per position and
goes on to the end, and its limits and inputs are checked."""

import random

import pytest

from koloda import games
from koloda.games.errors import ActionError, GameParameterError
from koloda.games.parket.board import EMPTY
from koloda.solvers.parket import solve_state
from koloda.solvers.parket.game import analyse_line


def random_game(seed: int):
    """The initial state and the actions of a random game to its end."""
    game = games.load_game("parket")
    state = game.new_initial_state()
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return game.new_initial_state(), actions


@pytest.fixture(scope="module")
def analysed():
    start, actions = random_game(11)
    return start, actions, analyse_line(start, actions, seconds=2, budget=120)


def test_every_verdict_is_the_solve_of_its_position(analysed):
    start, actions, analysis = analysed
    assert analysis.first_solved is not None and analysis.first_solved < len(actions) - 5
    state = start.clone()
    for verdict, action in zip(analysis.verdicts, actions):
        assert verdict.player == state.current_player()
        assert verdict.move == state.action_to_string(verdict.player, action)
        if verdict.number >= analysis.first_solved:
            solved = solve_state(state)
            played = next(m for m in solved.moves if m.action == action)
            assert (verdict.before, verdict.after) == (solved.value, played.value)
            kept = [m.move for m in solved.moves if m.value == solved.value]
            assert verdict.kept_by == (tuple(kept) if played.value != solved.value else ())
            if state.core.board.count(EMPTY) <= 12:      # lengths cost more above
                length = solve_state(state, lengths=True).moves_to_end
                assert verdict.moves_to_end == (None if solved.value == "draw" else length)
            assert (verdict.threw_away is not None) == (played.value != solved.value)
        else:
            assert verdict.before is verdict.after is None
        state.apply_action(action)


def test_the_verdicts_of_one_line_fit_together(analysed):
    _, _, analysis = analysed
    solved = [v for v in analysis.verdicts if v.before is not None]
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    for move, reply in zip(solved, solved[1:]):
        assert reply.before == flip[move.after]      # what a move keeps, the next faces
    assert [v.number for v in solved] == list(range(analysis.first_solved,
                                                    len(analysis.verdicts) + 1))


def test_the_analysis_starts_at_the_first_position_within_its_time(analysed):
    start, actions, analysis = analysed
    quick = analyse_line(start, actions, seconds=0.05, budget=60)
    assert quick.first_solved is None or quick.first_solved >= analysis.first_solved
    def values(verdicts):        # a forced line's length may miss the quick deadline
        return [(v.number, v.before, v.after, v.kept_by) for v in verdicts
                if v.before is not None and v.number >= (quick.first_solved or 10**6)]
    assert values(quick.verdicts) == values(analysis.verdicts)


def test_a_budget_ends_the_walk_back(analysed):
    start, actions, _ = analysed
    short = analyse_line(start, actions, seconds=5, budget=0.001)
    assert short.first_solved is None or short.first_solved >= len(actions) - 2


def test_the_json_form_names_every_move(analysed):
    _, actions, analysis = analysed
    data = analysis.to_json()
    assert len(data["moves"]) == len(actions) and data["first_solved"] == analysis.first_solved
    assert set(data["moves"][0]) == {"number", "player", "move", "before", "after",
                                     "kept_by", "moves_to_end", "threw_away"}


def test_the_start_state_is_left_as_it_was(analysed):
    start, actions, _ = analysed
    before = start.history()
    analyse_line(start, actions, seconds=0.05, budget=1)
    assert start.history() == before


@pytest.mark.parametrize("limits", [dict(seconds=0), dict(seconds=float("nan")),
                                    dict(budget=-1), dict(seconds=True)])
def test_bad_limits_are_refused_by_name(limits):
    start, actions = random_game(1)
    with pytest.raises(GameParameterError, match=f"^{next(iter(limits))} is a positive"):
        analyse_line(start, actions, **limits)


def test_an_action_not_legal_is_named_with_its_move():
    start, actions = random_game(2)
    with pytest.raises(ActionError, match="^move 3: action 9999 is not legal"):
        analyse_line(start, actions[:2] + [9999], seconds=0.1, budget=1)
    with pytest.raises(ActionError, match=f"^move {len(actions) + 1}: "):
        analyse_line(start, actions + actions[:1], seconds=0.1, budget=1)


def test_a_second_analysis_reads_the_first_from_a_store(tmp_path):
    """The second analysis of a game reads what the first proved."""
    start, actions = random_game(11)
    store = tmp_path / "games.kps"
    cut = len(actions) - 18                    # the last 18 moves: every position in reach
    start_state = start.clone()
    for action in actions[:cut]:
        start_state.apply_action(action)
    first = analyse_line(start_state, actions[cut:], seconds=30, budget=120, store=store)
    second = analyse_line(start_state, actions[cut:], seconds=30, budget=120, store=store)
    assert first.first_solved == second.first_solved == 1
    assert [v.to_json() for v in first.verdicts] == [v.to_json() for v in second.verdicts]
    assert second.nodes * 5 < first.nodes
