"""Snitch's rollout playout (solvers/playouts/snitch.py) plays the heuristic agent's rules of
thumb (solvers/heuristics/snitch.py), one set of them: every move is RULES_OF_THUMB's, so a
set without a wild is always laid, a wild is kept for a rich set, naturals are discarded
before wilds, and `pass` comes only when there is nothing to lay.  The rules are a compiled
function on the kernel state, move for move the plain reference (reference_heuristic.py)."""

import random

from snitch_rules.helpers import load

from koloda.games.kit.chance import draw_from_counts
from koloda.games.snitch.engine import SETS, TURN, SnitchCore
from koloda.games.snitch.game import SnitchGame
from koloda.solvers.heuristics.snitch import RULES_OF_THUMB
from koloda.solvers.playouts.snitch import heuristic_playout

from .reference_heuristic import REFERENCE_RULES


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


def test_the_compiled_rules_of_thumb_are_the_references_move_for_move():
    """In positions of several rule sets, a fifth of them reached by random moves off the
    heuristic's path."""
    checked = 0
    for params in ({"players": 3}, {"players": 4, "target_score": 0},
                   {"players": 6, "target_score": 300},
                   {"ranks": 6, "copies": 4, "hand_size": 4, "max_sets_per_turn": 1},
                   {"ranks": 3, "copies": 4, "hand_size": 2, "players": 4,
                    "target_score": 200}):
        game = SnitchGame(params)
        rng = random.Random(len(params))
        for _ in range(4):
            core = game.initial_engine(SnitchCore)
            while not core.is_terminal():
                if core.phase in (TURN, SETS):
                    action = RULES_OF_THUMB.action(core, core.player)
                    assert action == REFERENCE_RULES.action(core, core.player)
                    checked += 1
                    legal = core.legal_actions()
                    core.apply(action if rng.random() < 0.8 else rng.choice(legal))
                else:
                    core.apply(draw_from_counts(core.reserve, core.reserve_size, rng.random))
    assert checked > 3000
