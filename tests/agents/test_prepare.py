"""Preparing agents (solvers/prepare.py): it changes nothing an agent plays, it never
raises for an agent, it runs once per process, and the Parket solver keeps a caller's time
budget (its solves stop at the nodes the budget affords)."""

import pytest

from koloda import games, solvers
from koloda.games.parket.board import EMPTY
from koloda.solvers import prepare as preparing
from koloda.solvers.rehearsal import played_until
from koloda.tournament.match import play_game, seat_agents


def _moves(game, specs, seed):
    return play_game(game, seat_agents(game, specs, seed), seed).actions


@pytest.mark.parametrize("game_string, specs", [
    ("durak(hand_size=3,ranks=4,suits=2)", ["ismcts(sims=50)", "heuristic"]),
    ("snitch(target_score=100)", ["ismcts(sims=30,rollout=learned,prior=0.5)", "random",
                                  "heuristic"]),
    ("parket", ["solver(sims=20,reach=10)", "mcts(sims=20)"]),
])
def test_a_prepared_agent_plays_the_moves_an_unprepared_one_plays(game_string, specs,
                                                                  monkeypatch):
    monkeypatch.setattr(preparing, "_prepared", set())     # as in a fresh process
    game = games.load_game(game_string)
    before = _moves(game, specs, seed=11)
    for spec in specs:
        assert preparing.prepare(game, spec) > 0
        assert preparing.prepare(game, spec) == 0.0        # once per process
    assert _moves(game, specs, seed=11) == before


def test_preparing_never_raises_for_an_agent(monkeypatch):
    """A fault is the game's to record, as the agent's failure, where the agent plays."""
    monkeypatch.setattr(preparing, "_prepared", set())
    game = games.load_game("durak")

    def fails(self, view, player):
        raise RuntimeError("a bug in the agent")
    from koloda.solvers.random_agent import RandomAgent
    monkeypatch.setattr(RandomAgent, "choose", fails)
    assert preparing.prepare(game, "random") >= 0.0
    assert preparing.prepare(game, "nonesuch(x=1)") >= 0.0      # the registry refuses it


def _endgame(empty: int):
    game = games.load_game("parket")
    return game, played_until(game, lambda s: not s.is_chance_node()
                              and s.core.board.count(EMPTY) <= empty, seed=5)


def test_the_parket_solver_keeps_a_time_budget():
    game, state = _endgame(12)
    unhurried = solvers.load_agent(game, "solver(sims=20,reach=16)")
    unhurried.step(state)
    assert (unhurried.solved_moves, unhurried.searched_moves) == (1, 0)
    hurried = solvers.load_agent(game, "solver(sims=20,reach=16)")
    hurried.time_budget = {"ms": 1}        # 500 nodes: too few to solve 12 empty cells
    hurried.step(state)
    assert (hurried.solved_moves, hurried.searched_moves) == (0, 1)
    assert hurried.budget.seconds == 0     # the caller's budget held for that move only


def test_the_solver_is_prepared_for_its_endgames(monkeypatch):
    """The rehearsal's copy solves a small endgame, so the real agent's first solve loads
    nothing (its kernels are ready)."""
    solved = []
    monkeypatch.setattr(preparing, "_prepared", set())
    from koloda.solvers.parket import agent as solver_agent
    original = solver_agent.solve_state
    monkeypatch.setattr(solver_agent, "solve_state",
                        lambda core, **kw: solved.append(core.board.count(EMPTY))
                        or original(core, **kw))
    preparing.prepare(games.load_game("parket"), "solver(reach=3)")
    assert solver_agent.PREPARE_EMPTY in solved
