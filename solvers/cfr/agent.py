"""`cfr(policy=FILE)`: plays a trained policy, sampling its action probabilities.

The file must have been trained for the very game string being played (AgentSpecError
otherwise).  An information state the policy does not hold (a policy trained on another
tree cannot be loaded, so this is a sampling solver's unvisited state or an empty file)
is played uniformly at random over the legal actions; `fallbacks` counts those moves.
"""

from __future__ import annotations

import os
from functools import lru_cache

from koloda.games.kit.params import Param
from koloda.solvers.agent import Agent
from koloda.solvers.cfr import policy_file
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.registry import register


@register("cfr", "plays a policy trained by `koloda cfr train` (uniform where it has none)",
          params=(Param("policy", str, "", "the policy file (.json.gz) to play"),))
class CfrAgent(Agent):
    def __init__(self, game, seed=0, policy=""):
        super().__init__(game, seed)
        self.data = _policy(policy, game)
        self.table = self.data.policy
        self.decisions = 0      # moves asked of the agent (forced moves excluded)
        self.fallbacks = 0      # of them, played uniformly: the policy lacked the state

    def action_distribution(self, view, player: int) -> list[tuple[int, float]]:
        """The policy at the information state of `view`, uniform where it has none."""
        legal = view.legal_actions(player)
        probs = [(a, p) for a, p in self.table.get(view.information_state_string(player), ())
                 if a in legal and p > 0]
        if not probs:
            self.fallbacks += 1
            return [(a, 1.0 / len(legal)) for a in legal]
        return probs

    def choose(self, view, player: int) -> int:
        self.decisions += 1
        probs = self.action_distribution(view, player)
        total = sum(p for _, p in probs)
        pick = self.rng.random() * total
        for action, p in probs:
            pick -= p
            if pick < 0:
                return action
        return probs[-1][0]

    @classmethod
    def check(cls, game, params: dict) -> None:
        """AgentSpecError unless the policy file reads and is for `game`, as building the
        agent would find, through the same cache of files read in this process."""
        _policy(params.get("policy", ""), game)


def _policy(policy: str, game) -> policy_file.PolicyFile:
    """The policy file named for `game`, or AgentSpecError saying what is wrong with it."""
    if not policy:
        raise AgentSpecError("cfr needs a policy file: cfr(policy=FILE), trained with "
                             "koloda cfr train")
    try:
        return _load(policy, game)
    except policy_file.PolicyFileError as err:
        raise AgentSpecError(f"cfr(policy={policy}): {err}") from None


def _load(path: str, game) -> policy_file.PolicyFile:
    """A policy file, read once per process while it is unchanged (a tournament builds a
    fresh agent for every game)."""
    try:
        stat = os.stat(path)
    except OSError:
        return policy_file.load(path, game)          # says what is wrong with the path
    data = _read(os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    if data.game != policy_file.game_string_of(game):
        return policy_file.load(path, game)          # refuses it, naming both games
    return data


@lru_cache(maxsize=8)
def _read(path: str, mtime_ns: int, size: int) -> policy_file.PolicyFile:
    return policy_file.load(path)
