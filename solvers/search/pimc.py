"""`pimc`: perfect-information Monte Carlo (determinised search).

Draw `worlds` positions consistent with the player's information state; in each, run
UCT with the hidden cards laid open (chance still sampled: the stock order stays
unknown); add up each root action's visits over the worlds and play the most visited.
PIMC is the classic strong baseline for card games, with the known flaw of assuming the
player will know the hidden cards later ("strategy fusion").
"""

from __future__ import annotations

from koloda.games.kit.params import Param
from koloda.solvers import budget
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register
from koloda.solvers.search.ismcts import (
    HORIZON,
    MIX,
    ROLLOUT,
    TREE,
    UCT_C,
    VALUE,
    check_leaf,
    leaf_for,
    search_for,
)
from koloda.solvers.search.move_choice import TEMPERATURE, chosen_move

MAX_WORLDS = 10_000


@register("pimc", "determinised UCT over sampled worlds, votes combined",
          params=budget.PARAMS + (Param("worlds", int, 20, "worlds sampled per move",
                                                low=1, high=MAX_WORLDS),
                                  UCT_C, ROLLOUT, VALUE, MIX, HORIZON, TREE, TEMPERATURE))
class PimcAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, ms=0, worlds=20, uct_c=0.7, rollout="random",
                 horizon="deal", tree="compiled", temperature=0.0, value="", mix=1.0):
        super().__init__(game, seed)
        self.temperature = temperature
        self.horizon = horizon
        self.budget = budget.Budget(sims, ms)
        self.worlds = worlds
        self.uct_c = uct_c
        self.rollout = rollout
        self.leaf = leaf_for(game, rollout, value, mix)
        self.game_name = game.get_type().short_name
        self.tree = tree
        self.last_worlds = 0

    check = classmethod(check_leaf)

    def choose(self, view, player: int) -> int:
        roots = min(self.worlds, self.budget.sims or self.worlds)   # worlds it can reach
        search = search_for(self, view, player, roots=roots)
        for count in self.budget.chunks(self.move_started, search.chunk):
            search.pimc(count)
        self.last_worlds = search.worlds_drawn
        votes = self.last_visits = search.root_visits()
        return chosen_move(votes, self.temperature, self.rng)
