"""`mcts`: UCT on the exact position, for games where nothing is hidden (Parket), and
`mcts_openspiel`: OpenSpiel's Python `MCTSBot`, kept as the reference.

Ours grows the same tree as `ismcts` (tree.py) over copies of the one true position: with
nothing hidden there are no worlds to sample, and the single-observer tree is a plain UCT
tree.  Playouts run on the engine (its fast path), so it is many times OpenSpiel's speed.
"""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import mcts as os_mcts

from koloda.games.kit.params import Param
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register
from koloda.solvers.search import budget
from koloda.solvers.search.ismcts import ROLLOUT, UCT_C
from koloda.solvers.search.rollout import ROLLOUTS
from koloda.solvers.search.tree import Tree

PERFECT_INFORMATION_GAMES = ("parket",)


def _register_for_each(name: str, summary: str, params):
    """Register the class for every game with nothing hidden (and no other)."""
    def wrap(cls):
        for game in PERFECT_INFORMATION_GAMES:
            register(name, summary, params=params, game=game)(cls)
        return cls
    return wrap


@_register_for_each("mcts", "UCT on the exact position (games with nothing hidden)",
                    params=budget.PARAMS + (UCT_C, ROLLOUT))
class MctsAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, ms=0, uct_c=0.7, rollout="random"):
        super().__init__(game, seed)
        self.budget = budget.Budget(sims, ms)
        self.uct_c = uct_c
        self.rollout = ROLLOUTS[rollout]
        self.last_simulations = 0

    def choose(self, view, player: int) -> int:
        position = view.core
        tree = Tree(player, self.uct_c, self.rng, sees_all_chance=True, rollout=self.rollout)
        for _ in self.budget.run(self.move_started):
            tree.simulate(position.copy())
        self.last_simulations = tree.simulations
        visits = self.last_visits = tree.root_visits()
        return max(sorted(visits), key=visits.__getitem__)


@_register_for_each("mcts_openspiel", "OpenSpiel's Python MCTSBot, random rollouts "
                    "(reference)", params=(Param("sims", int, 1000, "simulations per move",
                                                 low=1), UCT_C))
class OpenSpielMctsAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, uct_c=0.7):
        super().__init__(game, seed)
        random_state = np.random.RandomState(seed)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        self.bot = os_mcts.MCTSBot(game, uct_c, sims, evaluator, random_state=random_state,
                                   solve=False)

    def choose(self, view, player: int) -> int:
        return self.bot.step(view)
