"""Snitch's rollout playout (solvers/playouts/snitch.py) plays the heuristic agent's rules of
thumb (solvers/heuristics/snitch.py), one set of them: every move is RULES_OF_THUMB's, so a
set without a wild is always laid, a wild is kept for a rich set, naturals are discarded
before wilds, and `pass` comes only when there is nothing to lay."""

import random

from koloda.games.snitch.engine import SETS, TURN, SnitchCore
from koloda.solvers.heuristics.snitch import RULES_OF_THUMB
from koloda.solvers.playouts.snitch import heuristic_playout
from snitch_rules.helpers import load


class Recording(SnitchCore):
    __slots__ = ()
    seen: list = []

    def apply(self, action):
        if self.phase in (TURN, SETS):
            Recording.seen.append((self.copy(), list(self.legal_actions()), action))
        super().apply(action)


def _no_wild(rules, position, action) -> bool:
    """Whether the set `action` lays is a natural pair (from hand or with the top discard)."""
    if action < rules.pick_base:
        return (action - rules.set_base) % 3 == 0
    if action < rules.extend_base:
        return action - rules.pick_base < rules.two and position.discard[-1] < rules.two
    return False


def test_the_heuristic_playout_plays_the_rules_of_thumb_and_keeps_wilds():
    rules = load(players=4, target_score=0).rules
    Recording.seen = []
    for seed in range(10):
        world = Recording(rules)
        heuristic_playout(world, random.Random(seed).random)
        assert world.is_terminal()
    sets = range(rules.set_base, rules.stop_action)
    kept_a_wild = 0
    for position, legal, action in Recording.seen:
        assert action == RULES_OF_THUMB.action(position, position.player)
        without_wilds = [a for a in legal if a in sets and _no_wild(rules, position, a)]
        if without_wilds:
            assert action in sets
        elif any(a in sets for a in legal):
            kept_a_wild += action not in sets
        elif position.phase == SETS:
            assert action == rules.stop_action
        elif position.reserve_size:
            naturals = [a for a in legal if a < rules.two]
            assert action in (naturals or legal)
        else:
            assert action == rules.pass_action
    assert len(Recording.seen) > 200 and kept_a_wild > 0
