"""`mcts`: UCT on the exact position, for games where nothing is hidden (Parket), and
`mcts_openspiel`: OpenSpiel's Python `MCTSBot`, kept as the reference.  Both are
registered for the games whose `GameType` says perfect information, whatever their names.

Ours is `ismcts` itself (ismcts.py): with nothing hidden the game's determinizer gives
copies of the one true position, and the single-observer tree is a plain UCT tree.
Playouts run on the engine, so it is faster than OpenSpiel's bot on the same engine.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

from koloda.games.kit.params import Param
from koloda.solvers import budget
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register
from koloda.solvers.search.ismcts import (
    MIX,
    ROLLOUT,
    TREE,
    UCT_C,
    VALUE,
    IsmctsAgent,
)
from koloda.solvers.search.move_choice import TEMPERATURE

PERFECT_INFORMATION = pyspiel.GameType.Information.PERFECT_INFORMATION


@register("mcts", "UCT on the exact position (games with nothing hidden)",
          params=budget.PARAMS + (UCT_C, ROLLOUT, VALUE, MIX, TREE, TEMPERATURE),
          game=PERFECT_INFORMATION)
class MctsAgent(IsmctsAgent):
    """`ismcts` where nothing is hidden: its worlds are copies of the one position and its
    tree is a plain UCT tree, so the same code serves; only the name and the parameters
    (no deal horizon: these games are one deal) differ."""

    def __init__(self, game, seed=0, sims=1000, ms=0, uct_c=0.7, rollout="random",
                 value="", mix=1.0, tree="compiled", temperature=0.0):
        super().__init__(game, seed, sims=sims, ms=ms, uct_c=uct_c, rollout=rollout,
                         value=value, mix=mix, tree=tree, temperature=temperature)


@register("mcts_openspiel", "OpenSpiel's Python MCTSBot, random rollouts (reference)",
          params=(Param("sims", int, 1000, "simulations per move", low=1,
                        high=budget.MAX_SIMS), UCT_C), game=PERFECT_INFORMATION)
class OpenSpielMctsAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, uct_c=0.7):
        super().__init__(game, seed)
        random_state = np.random.RandomState(seed)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        self.bot = os_mcts.MCTSBot(game, uct_c, sims, evaluator, random_state=random_state,
                                   solve=False)

    def choose(self, view, player: int) -> int:
        return self.bot.step(view)
