"""`ismcts`: single-observer information-set MCTS on engine states (see tree.py), and
`ismcts_openspiel`: OpenSpiel's own Python `ISMCTSBot`, kept as the reference.

Ours draws a fresh world for every simulation from the game's fast determinizer and grows
one tree keyed by what the searching player observes.  OpenSpiel's resamples a full
pyspiel state per simulation and keys nodes by information-state strings; it is slower
and, on Durak, keys opponents' nodes by their (resampled) private hands.
"""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from koloda.games.kit.params import Param
from koloda.games.kit.state import KitState
from koloda.solvers import budget
from koloda.solvers.agent import Agent
from koloda.solvers.learned.policy import load_policy
from koloda.solvers.registry import register
from koloda.solvers.search.compiled_tree import CompiledSearch
from koloda.solvers.search.evaluators import ROLLOUTS, Leaf, PolicyHint, evaluator_for
from koloda.solvers.search.inference import (
    INFER,
    NOISE,
    OPPONENTS,
    RECENT,
    InferredWorlds,
    OpponentModel,
)
from koloda.solvers.search.move_choice import TEMPERATURE, chosen_move
from koloda.solvers.search.tree import TreeSearch
from koloda.solvers.search.worlds import compiled_worlds_for, determinizer_for

UCT_C = Param("uct_c", float, 0.7, "exploration constant of UCB1", low=0.0, high=100.0)
ROLLOUT = Param("rollout", str, "random", "playout policy that values new leaves",
                choices=ROLLOUTS)
VALUE = Param("value", str, "", "a learned value model by name (<game>-v<N>, in "
              "`koloda models`): each new leaf's world valued by it, no playout; "
              "empty: the leaf `rollout` names", max_length=40)
MIX = Param("mix", float, 1.0, "with value=: the model's weight in a leaf's value, the "
            "rest a random playout's result from the same world (AlphaGo's mix); 1 = the "
            "model alone", low=0.0, high=1.0)
DEPTH = Param("depth", int, 1, "with rollout=learned: the searcher's turns played to by "
              "rules of thumb before the game's learned value is read", low=1, high=100)
HORIZON = Param("horizon", str, "deal",
                "how far a simulation looks in a game of several deals: to the end of the "
                "deal in progress, valued by the game's score difference there, or to the "
                "end of the game", choices=("deal", "game"))
TREE = Param("tree", str, "compiled",
             "where the search runs: compiled, whole simulations inside the game's numba "
             "kernel (random playouts, and Snitch's learned leaves and prior; other rollouts "
             "and priors run on the Python tree), or python",
             choices=("compiled", "python"))
PRIOR = Param("prior", float, 0.0, "weight of the game's heuristic move as a prior in the "
              "tree: tried first, and a bonus prior/(1+visits) in selection (progressive "
              "bias); 0 = none; compiled in Snitch, elsewhere on the Python tree", low=0.0,
              high=100.0)
GUIDE = Param("guide", str, "heuristic", "with prior: whose move the prior favours: the "
              "game's heuristic's at every decision, or a learned policy's best for the "
              "searcher at the root (<game>-policy-v<N>, in `koloda models`)", max_length=40)


def world_for_search(world, horizon: str):
    """`world` (an engine or `CompiledWorlds`), told to end with its deal when the search
    looks no further."""
    if horizon == "deal":
        world.end_at_deal()
    return world


def inferred_worlds_for(agent, view, player: int):
    """With `infer`, the worlds of `view` weighted by the opponents' moves
    (solvers/search/inference.py); else None (worlds drawn uniformly)."""
    if not getattr(agent, "infer", 0) or not isinstance(view, KitState) or \
            view.core.perfect_information:
        return None
    return InferredWorlds(view, player, agent.model, agent.infer, agent.rng)


def leaf_for(game, rollout: str, value: str = "", mix: float = 1.0) -> Leaf:
    """The leaf a search agent's spec asks for: the model `value` names (mixed with a
    playout below `mix` 1), else the one `rollout` names (or the nearest the game has).
    AgentSpecError for a model that is not this game's value model."""
    evaluator = evaluator_for(game.get_type().short_name)
    if value:
        return evaluator.model_leaf(value, game, mix)
    if mix < 1.0:
        raise ValueError("mix weighs a value model: name one with value=")
    return evaluator.leaf(rollout, game)


def check_leaf(cls, game, params: dict) -> None:
    """A search kind's `check` (solvers/registry.py check_spec): the models its `value`
    and `opponents` name load and fit the game, as building the agent would find."""
    leaf_for(game, params.get("rollout", "random"), params.get("value", ""),
             params.get("mix", 1.0))
    for key in ("opponents", "guide"):
        if params.get(key, "heuristic") != "heuristic":
            load_policy(game, params[key])


def search_for(agent, view, player: int, roots: int = 1, inferred=None):
    """The search an agent runs at `view`: compiled where the game's kernel draws its
    worlds and the leaf and the hint it asks for have kernel forms (evaluators.py) and
    the agent does not ask for the Python tree; else on the Python tree (tree.py) over
    engines.  `inferred`: the agent's inferred worlds, which it then draws from.  A
    learned policy's guide is asked once, for the move its prior favours at the root."""
    evaluator = evaluator_for(agent.game_name)
    leaf = agent.leaf
    prior = getattr(agent, "prior", 0.0)
    turns = getattr(agent, "depth", 1)
    guide = getattr(agent, "guide_policy", None) if prior else None
    root_hint = guide(view.core) if guide is not None else -1
    hint = evaluator.hint if prior and guide is None else None
    if agent.tree == "compiled" and leaf.kernel is not None and \
            (hint is None or hint.kernel is not None):
        worlds = inferred.compiled(agent.rng) if inferred else \
            compiled_worlds_for(view, player)
        if worlds is not None:
            return CompiledSearch(world_for_search(worlds, agent.horizon), player,
                                  agent.uct_c, agent.rng.getrandbits(64), roots=roots,
                                  leaf=leaf, hint=hint, prior=prior, turns=turns,
                                  root_hint=root_hint)
    return TreeSearch(inferred or determinizer_for(view, player), player, agent.uct_c,
                      agent.rng, roots=roots, rollout=leaf.on_engines(player, turns),
                      hint=agent.hint if hint is not None else None, prior=prior,
                      end_at_deal=agent.horizon == "deal", root_hint=root_hint)


@register("ismcts", "information-set MCTS (single observer), random playouts",
          params=budget.PARAMS + (UCT_C, ROLLOUT, VALUE, MIX, HORIZON, DEPTH, TREE,
                                  TEMPERATURE, INFER, NOISE, RECENT, OPPONENTS, PRIOR,
                                  GUIDE))
class IsmctsAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, ms=0, uct_c=0.7, rollout="random",
                 horizon="deal", depth=1, tree="compiled", temperature=0.0, infer=0,
                 noise=0.2, recent=0, prior=0.0, value="", mix=1.0, opponents="heuristic",
                 guide="heuristic"):
        super().__init__(game, seed)
        self.game_name = game.get_type().short_name
        self.prior = prior
        self.guide = guide
        guided = bool(prior) and guide != "heuristic"
        self.guide_policy = PolicyHint(game, guide) if guided else None
        self.hint = evaluator_for(self.game_name).hint.python(game) if prior and not guided \
            else None
        self.temperature = temperature
        self.infer = infer
        self.model = OpponentModel(game, noise, recent, opponents) if infer else None
        self.budget = budget.Budget(sims, ms)
        self.uct_c = uct_c
        self.rollout = rollout
        self.leaf = leaf_for(game, rollout, value, mix)
        self.depth = depth
        self.horizon = horizon
        self.tree = tree
        self.last_simulations = 0

    check = classmethod(check_leaf)

    def choose(self, view, player: int) -> int:
        inferred = inferred_worlds_for(self, view, player)
        search = search_for(self, view, player, inferred=inferred)
        for count in self.budget.chunks(self.move_started, search.chunk):
            search.ismcts(count)
        self.last_simulations = search.simulations
        visits = self.last_visits = search.root_visits()
        return chosen_move(visits, self.temperature, self.rng)


@register("ismcts_openspiel", "OpenSpiel's Python ISMCTSBot with random rollouts (reference)",
          params=(Param("sims", int, 1000, "simulations per move", low=1,
                        high=budget.MAX_SIMS), UCT_C))
class OpenSpielIsmctsAgent(Agent):
    def __init__(self, game, seed=0, sims=1000, uct_c=0.7):
        super().__init__(game, seed)
        random_state = np.random.RandomState(seed)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        self.bot = os_ismcts.ISMCTSBot(
            game, evaluator, uct_c, sims,
            max_world_samples=os_ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=random_state)
        self.bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, self.rng.random))

    def choose(self, view, player: int) -> int:
        return self.bot.step(view)
