"""Parket's agents: the heuristic's documented habits (solvers/heuristics/parket.py), and
`mcts`, plain UCT on the exact position, beside OpenSpiel's MCTSBot."""

import random

import pytest
from parket_rules.helpers import load

from koloda import solvers
from koloda.solvers.errors import AgentSpecError

GAME = load()


def _states(games: int, seed: int):
    """Every decision state of `games` random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))


def _outcome(state, action):
    after = state.clone()
    after.apply_action(action)
    return after


def _wins_now(state, action) -> bool:
    after = _outcome(state, action)
    return after.is_terminal() and after.returns()[state.current_player()] > 0


def _loses_next(state, action) -> bool:
    """The opponent can place its last card (or leave us without a move) right after."""
    after = _outcome(state, action)
    if after.is_terminal():
        return False
    return any(_wins_now(after, reply) for reply in after.legal_actions())


@pytest.mark.parametrize("spec", ["heuristic", "mcts(sims=200)"])
def test_a_win_at_once_is_taken(spec):
    checked = 0
    for state in _states(30, seed=1):
        legal = state.legal_actions()
        if any(_wins_now(state, a) for a in legal) and len(legal) > 1:
            agent = solvers.load_agent(GAME, spec, seed=2)
            assert _wins_now(state, agent.step(state)), state.core.position()
            checked += 1
    assert checked >= 5


def test_the_heuristic_never_hands_the_opponent_the_win_when_it_can_help_it():
    checked = 0
    agent = solvers.load_agent(GAME, "heuristic")
    for state in _states(30, seed=2):
        legal = state.legal_actions()
        if any(_wins_now(state, a) for a in legal):
            continue
        losing = [a for a in legal if _loses_next(state, a)]
        if losing and len(losing) < len(legal):
            assert not _loses_next(state, agent.step(state)), state.core.position()
            checked += 1
    assert checked >= 5


def test_mcts_is_for_games_with_nothing_hidden():
    from koloda import games
    with pytest.raises(AgentSpecError, match="no version for durak"):
        solvers.load_agent(games.load_game("durak"), "mcts")


def test_mcts_and_openspiels_mcts_both_play_legal_moves_from_the_start():
    state = GAME.new_initial_state()
    for spec in ("mcts(sims=30)", "mcts_openspiel(sims=30)"):
        agent = solvers.load_agent(GAME, spec, seed=3)
        assert agent.step(state) in state.legal_actions()


def test_the_solver_agent_keeps_the_solved_value_within_reach_and_searches_beyond():
    from koloda.games.parket import from_position
    from koloda.solvers.parket import random_position, solve

    agent = solvers.load_agent(GAME, "solver(reach=8,sims=50)", seed=1)
    chosen_by_search = 0
    for seed in range(30):
        near = from_position(random_position(6, seed=seed))
        if len(near.legal_actions()) < 2:
            continue
        solved = solve(near.position())
        keep = {m.move for m in solved.moves if m.value == solved.value}
        move = near.action_to_string(near.current_player(), agent.step(near))
        assert move in keep, (near.position(), move, solved.value)
        if len(keep) > 1:
            # among the moves that keep the value, the one its search visits most
            visits = agent.search.last_visits
            ids = {near.string_to_action(m): m for m in keep}
            best = max(sorted(ids), key=lambda a: visits.get(a, 0))
            assert move == ids[best]
            chosen_by_search += 1
    assert chosen_by_search >= 3
    far = from_position(random_position(20, seed=4))
    solved_before = agent.solved_moves
    agent.step(far)
    assert (agent.solved_moves, agent.searched_moves) == (solved_before, 1)


def test_a_solve_beyond_the_node_limit_falls_back_to_search():
    from koloda.games.parket import from_position
    from koloda.solvers.parket import random_position

    state = from_position(random_position(10, seed=5))
    agent = solvers.load_agent(GAME, "solver(reach=12,nodes=10,sims=50)", seed=1)
    assert agent.step(state) in state.legal_actions()
    assert (agent.solved_moves, agent.searched_moves) == (0, 1)
