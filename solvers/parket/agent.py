"""`solver`: perfect play in Parket once a position is within reach, search before that.

A move is solved exactly (koloda.solvers.parket) when the board has at most `reach` empty
cells, the game's relocation cap is one the solver takes (MAX_RELOCATIONS) and the solve
finishes within `nodes` nodes.  The solve finds the value of every move (win, draw or
loss), not their lengths, which costs several times more and says nothing about how a
fallible opponent plays: the agent keeps the moves of the position's value and lets
`mcts` with `sims` simulations choose among them, the one it visits most.  So it never
gives a win or a draw away, and in a lost or drawn position it plays the move that search
finds hardest to answer.  Beyond reach, or past the node limit, it plays `mcts` itself,
whose leaves a learned value model values where `value` names one (learned/parket.py).
Node limits, not time limits, so a tournament replays move for move; under a clock
(a caller's time budget) a solve also stops at the nodes the budget affords.  `store`
names a store of solved positions (store.py) that its solves read and extend; a solve
that reads one may finish within the node limit where it would not have, so with a store
a game no longer replays move for move.
"""

from __future__ import annotations

from koloda.games.kit.params import Param
from koloda.games.parket.board import EMPTY
from koloda.solvers.agent import Agent
from koloda.solvers.parket import MAX_RELOCATIONS, SolveAborted, Store, solve_state
from koloda.solvers.registry import register
from koloda.solvers.rehearsal import played_until
from koloda.solvers.search.ismcts import MIX, VALUE, check_leaf
from koloda.solvers.search.mcts import MctsAgent

#: the solver's nodes a second on one core, taken low (reports/parket-endgames.md
#: measures about 4.5 million): a time budget's node limit
NODES_PER_SECOND = 1_000_000
#: empty cells of the endgame a copy of the agent solves before its first move
PREPARE_EMPTY = 5

PARAMS = (
    Param("reach", int, 16, "empty cells at most for a solve to be tried", low=0, high=35),
    Param("nodes", int, 2_000_000, "node limit of a solve; beyond it, search", low=1,
          high=10**10),
    Param("sims", int, 1000, "simulations of the search that chooses among the moves of "
          "the solved value, and of the search beyond reach", low=1, high=1_000_000),
    VALUE,
    MIX,
    Param("store", str, "", "a store of solved positions (a file's path) the solves read "
          "and extend; empty: none", max_length=200),
)


@register("solver", "exact play within reach of the solver (search choosing among the "
          "moves that keep the value), mcts before", params=PARAMS, game="parket")
class ParketSolverAgent(Agent):
    def __init__(self, game, seed=0, reach=16, nodes=2_000_000, sims=1000, value="",
                 mix=1.0, store=""):
        super().__init__(game, seed)
        self.reach, self.nodes = reach, nodes
        self.store = Store(store) if store else None
        self.search = MctsAgent(game, seed, sims=sims, value=value, mix=mix)
        self.solved_moves = self.searched_moves = 0

    @classmethod
    def check(cls, game, params: dict) -> None:
        """The value model loads and fits (check_leaf), and the store is one."""
        check_leaf(cls, game, params)
        if params.get("store"):
            Store(params["store"])

    @property
    def budget(self):
        """The search's budget: a time budget a caller gives the move holds it."""
        return self.search.budget

    def prepare_kernels(self) -> None:
        """Solve a position of a few empty cells: the solver's kernels, which a short
        rehearsal never reaches (the store's too: too small a position to write to it)."""
        if self.game.rules.max_relocations > MAX_RELOCATIONS:
            return
        state = played_until(self.game, lambda s: s.is_terminal() or (
            not s.is_chance_node() and s.core.board.count(EMPTY) <= PREPARE_EMPTY))
        if not state.is_terminal():
            try:
                solve_state(state.core, node_limit=self.nodes, store=self.store)
            except SolveAborted:
                pass

    def choose(self, view, player: int) -> int:
        keep = self._moves_keeping_the_value(view.core)
        if keep is not None and len(keep) == 1:
            return keep[0]
        self.search.move_started = self.move_started
        searched = self.search.choose(view, player)
        if keep is None:
            self.searched_moves += 1
            return searched
        visits = self.search.last_visits
        return max(sorted(keep), key=lambda action: visits.get(action, 0))

    def _node_limit(self) -> int:
        """`nodes`, and under a caller's time budget no more than the solver visits in
        half of it (its moves then search as well), so a clock is kept too."""
        seconds = self.budget.seconds
        if not seconds:
            return self.nodes
        return max(1, min(self.nodes, int(seconds * NODES_PER_SECOND / 2)))

    def _moves_keeping_the_value(self, core) -> list[int] | None:
        """The actions whose solved value is the position's, or None where no solve is
        tried or it stops at the node limit."""
        if core.rules.max_relocations > MAX_RELOCATIONS or core.board.count(EMPTY) > self.reach:
            return None
        try:
            result = solve_state(core, node_limit=self._node_limit(), store=self.store)
        except SolveAborted:
            return None
        self.solved_moves += 1
        return [move.action for move in result.moves if move.value == result.value]
