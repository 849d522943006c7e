"""`solver`: perfect play in Parket once a position is within reach, search before that.

A move is solved exactly (koloda.solvers.parket) when the board has at most `reach` empty
cells, the game's relocation cap is one the solver takes (MAX_RELOCATIONS) and the solve
finishes within `nodes` nodes; the agent then plays the solver's best move (the fastest
win, else a draw, else the slowest loss), handing the solver the state's own engine
(nothing is written out and read back).  Otherwise it plays `mcts` with `sims`
simulations.  Node limits, not time limits, so a tournament replays move for
move.
"""

from __future__ import annotations

from koloda.games.kit.params import Param
from koloda.games.parket.board import EMPTY
from koloda.solvers.agent import Agent
from koloda.solvers.parket import MAX_RELOCATIONS, SolveAborted, solve_state
from koloda.solvers.registry import register
from koloda.solvers.search.mcts import MctsAgent

PARAMS = (
    Param("reach", int, 12, "empty cells at most for a solve to be tried", low=0, high=35),
    Param("nodes", int, 2_000_000, "node limit of a solve; beyond it, search", low=1,
          high=10**10),
    Param("sims", int, 1000, "simulations of the mcts fallback", low=1, high=1_000_000),
)


@register("solver", "exact play within reach of the solver, mcts before", params=PARAMS,
          game="parket")
class ParketSolverAgent(Agent):
    def __init__(self, game, seed=0, reach=12, nodes=2_000_000, sims=1000):
        super().__init__(game, seed)
        self.reach, self.nodes = reach, nodes
        self.fallback = MctsAgent(game, seed, sims=sims)
        self.solved_moves = self.searched_moves = 0

    def choose(self, view, player: int) -> int:
        core = view.core
        solvable = core.rules.max_relocations <= MAX_RELOCATIONS
        if solvable and core.board.count(EMPTY) <= self.reach:
            try:
                result = solve_state(core, node_limit=self.nodes, lengths=True)
            except SolveAborted:
                pass
            else:
                self.solved_moves += 1
                return result.moves[0].action
        self.searched_moves += 1
        self.fallback.move_started = self.move_started
        return self.fallback.choose(view, player)
