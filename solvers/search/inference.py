"""Reading the hidden cards from play: worlds weighted by how likely each makes the
opponents' moves.

A search that draws its worlds uniformly among those its player cannot tell apart ignores
what the opponents' moves say: in Snitch an opponent who discards a seven most likely
holds no other seven.  Here a world is a whole history the player cannot tell from the
game's (`Engine.resample_history`), replayed on an engine; at every decision an opponent
made in the deal in progress, a model of the opponents says how likely that move was in
that world, and the world's weight is the product.  The model is the game's heuristic,
trusted up to `noise`: it plays the heuristic's move with probability 1 - noise and any
legal move alike otherwise, so a world where an opponent did what the heuristic would not
have done loses weight without being ruled out (an opponent is not the heuristic).  Or it
is a learned policy (`opponents=<game>-policy-v<N>`, solvers/learned/policy.py), read from
the opponent's observation in that world: its probability of the move, mixed alike with
`noise` spread over the legal moves.  With
`recent` the model weighs only each opponent's last moves of the deal: a product of fewer
terms needs less tempering, and the moves just made speak of the cards still held.

The weights are tempered (`SPREAD`) so that they never rest on a handful of candidates.
The search then draws its worlds from `count` such candidates by weight (the Python tree)
or from `count` of them drawn by weight once (the compiled tree, which picks among its
pool uniformly).  Only what the player has seen goes in: the candidates are the player's
own resamples, and the weights read the moves every player saw.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random

import numpy as np

from koloda.games.kit.compiled import pooled_worlds
from koloda.games.kit.engine import Determinizer
from koloda.games.kit.params import Param
from koloda.games.kit.state import CoreView
from koloda.solvers.learned.policy import Policy, PolicyInput, load_policy
from koloda.solvers.registry import load_agent

INFER = Param("infer", int, 0, "worlds drawn by how likely each makes the opponents' moves "
              "in the deal so far under the game's heuristic as their model: this many "
              "candidates a move; 0: worlds drawn uniformly", low=0, high=2048)
NOISE = Param("noise", float, 0.2, "with infer: the chance the model gives an opponent's "
              "move other than the heuristic's, spread over the legal moves", low=0.001,
              high=1.0)
RECENT = Param("recent", int, 0, "with infer: weigh only each opponent's last this many "
               "moves of the deal; 0: every move", low=0, high=1000)
OPPONENTS = Param("opponents", str, "heuristic", "with infer: the model of the opponents' "
                  "moves: the game's heuristic, or a learned policy by name "
                  "(<game>-policy-v<N>, in `koloda models`)", max_length=40)


#: the weights are tempered (raised to a power of at most 1) until the worlds they leave
#: count at least this share of the candidates: a product over dozens of moves otherwise
#: puts nearly all the weight on one or two candidates, and the search would play as if
#: it knew the hands, which those few candidates rarely hold
SPREAD = 0.25


def _shares(logs: list[float], power: float) -> list[float]:
    top = max(logs)
    weights = [math.exp(power * (w - top)) for w in logs]
    total = sum(weights)
    return [w / total for w in weights]


def _effective(shares: list[float]) -> float:
    return 1.0 / sum(share * share for share in shares)


def _tempered(logs: list[float], least: float) -> float:
    """The largest power in (0, 1] whose weights leave at least `least` effective worlds
    (bisection: fewer effective worlds the higher the power)."""
    if _effective(_shares(logs, 1.0)) >= least:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        if _effective(_shares(logs, middle)) >= least:
            low = middle
        else:
            high = middle
    return low


class OpponentModel:
    """A model of the opponents, trusted up to `noise`, on each opponent's last `recent`
    moves (0: all): the game's heuristic, or the policy model `opponents` names."""

    def __init__(self, game, noise: float, recent: int = 0, opponents: str = "heuristic"):
        self.noise = noise
        self.recent = recent
        if opponents == "heuristic":
            self.heuristic, self.policy = load_agent(game, "heuristic"), None
        else:
            self.heuristic, self.policy = None, Policy(load_policy(game, opponents))
            self.input = PolicyInput(game)

    def log_likelihood(self, core, player: int, action: int, legal) -> float:
        """log P(`player` plays `action` at `core`), `legal` the moves open to them."""
        share = self.noise / len(legal)
        if self.policy is None:
            expected = self.heuristic.choose(CoreView(core), player)
            return math.log(share + (1.0 - self.noise if action == expected else 0.0))
        shares = self.policy.distribution(self.input.tensor(core, player),
                                          self.input.ids(core, legal))
        return math.log(share + (1.0 - self.noise) * shares[legal.index(action)])

    def log_weight(self, evidence: list[tuple[int, float]]) -> float:
        """A world's log weight from its (mover, log-likelihood) of each opponent move, in
        order: their sum, or with `recent` the sum of each mover's last `recent`."""
        if not self.recent:
            return sum(log for _, log in evidence)
        kept, total = {}, 0.0
        for mover, log in reversed(evidence):
            if kept.get(mover, 0) < self.recent:
                kept[mover] = kept.get(mover, 0) + 1
                total += log
        return total


class InferredWorlds(Determinizer):
    """`count` candidate worlds of `view` for `player` with their weights; `sample(rng)`
    draws one by weight (a copy the caller owns), `compiled(rng)` gives a pool for the
    compiled tree."""

    def __init__(self, view, player: int, model: OpponentModel, count: int,
                 rng: random.Random):
        self.player = player
        core = view.core
        evidence_from = core.deals_finished()
        fresh = view.get_game().new_initial_state().core
        self.worlds, logs = [], []
        for _ in range(count):
            world, evidence = fresh.copy(), []
            for action in core.resample_history(player, rng):
                mover = world.current_player()
                if mover >= 0 and mover != player and \
                        world.deals_finished() == evidence_from:
                    legal = world.legal_actions()
                    if len(legal) > 1:
                        evidence.append((mover, model.log_likelihood(world, mover, action,
                                                                     legal)))
                world.apply(action)
            self.worlds.append(world)
            logs.append(model.log_weight(evidence))
        self.log_weights = logs
        self.power = _tempered(logs, SPREAD * count)
        shares = _shares(logs, self.power)
        self.cumulative = list(itertools.accumulate(shares))
        #: the effective number of distinct worlds the weights leave (count when uniform)
        self.effective = _effective(shares)

    def _index(self, rng: random.Random) -> int:
        return min(bisect.bisect_right(self.cumulative, rng.random()), len(self.worlds) - 1)

    def sample(self, rng: random.Random):
        return self.worlds[self._index(rng)].copy()

    def compiled(self, rng: random.Random):
        """The compiled tree's worlds: as many drawn by weight, picked among uniformly."""
        states = [self.worlds[self._index(rng)].st for _ in self.worlds]
        return pooled_worlds(self.worlds[0], np.stack(states))
