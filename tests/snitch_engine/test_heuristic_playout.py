"""Snitch's rollout rules of thumb (solvers/playouts/snitch.py): lay a set whenever one
can be laid, discard naturals before wilds, pass only with nothing to lay."""

import random

from koloda.games.snitch.engine import SETS, TURN, SnitchCore
from koloda.solvers.playouts.snitch import heuristic_playout
from snitch_rules.helpers import load


class Recording(SnitchCore):
    __slots__ = ()
    seen: list = []

    def apply(self, action):
        if self.phase in (TURN, SETS):
            Recording.seen.append((self.phase, list(self.legal_actions()), action,
                                   self.reserve_size))
        super().apply(action)


def test_the_heuristic_playout_lays_sets_first_and_keeps_wilds():
    rules = load(players=4, target_score=0).rules
    Recording.seen = []
    for seed in range(10):
        world = Recording(rules)
        heuristic_playout(world, random.Random(seed).random)
        assert world.is_terminal()
    sets = range(rules.set_base, rules.stop_action)
    for phase, legal, action, reserve in Recording.seen:
        if any(a in sets for a in legal):
            assert action in sets
        elif phase == SETS:
            assert action == rules.stop_action
        elif reserve:
            naturals = [a for a in legal if a < rules.two]
            assert action in (naturals or legal)
        else:
            assert action == rules.pass_action
    assert len(Recording.seen) > 200
