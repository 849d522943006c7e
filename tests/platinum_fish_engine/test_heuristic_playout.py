"""The compiled rollout playout (solvers/playouts/platinum_fish.py) decides as its rules
written plainly, plays only legal moves to the end, and logs the game it played."""

import random

import pytest

from koloda import games
from koloda.games.kit.cards import cards_of, nth_card
from koloda.games.platinum_fish.engine import (
    ASK,
    CHOOSE,
    EV_ASK,
    EV_CHOOSE,
    EV_DEAL,
    EV_DICE,
    EV_DRAW,
    EV_HAND,
    EV_ROLL,
    EV_STOCK,
    EV_TAKE,
    EV_TURN,
    PLAY,
)
from koloda.games.platinum_fish.reference import Reference
from koloda.solvers.playouts.platinum_fish import DRAW_SHARE, heuristic_action, heuristic_playout

RULE_SETS = ["platinum_fish", "platinum_fish(players=4)", "platinum_fish(players=6,copies=4)",
             "platinum_fish(copies=4,players=3,ranks=6)"]


def _plain_action(core, u):
    """The playout's rules written plainly, `u` the random number a draw or an ask uses."""
    rules = core.rules
    hand = core.hands[core.player]
    if core.phase == PLAY:
        if core.discard and hand >> core.discard[-1] & 1:
            return rules.take_action
        return rules.draw_action if u < DRAW_SHARE else rules.roll_action
    if core.phase == CHOOSE:
        options = core.offer & core.stock_ranks()
        held = options & hand
        rank = (held & -held).bit_length() - 1 if held else max(cards_of(options),
                                                                 key=core.stock.__getitem__)
        return rules.choose_base + rank
    held = core.offer & hand
    if not held:
        held = core.offer & core.hands[(core.player + 1) % rules.num_players] or core.offer
    return rules.ask_base + nth_card(held, int(u * held.bit_count()))


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_each_decision_is_the_plain_rules_one(game_string):
    game = games.load_game(game_string)
    phases = set()
    for seed in range(30):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        while not core.is_terminal():
            if core.is_chance():
                outcomes = core.chance_outcomes()
                core.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            u = rng.random()
            action = heuristic_action(core.st, core.r, u)
            assert action == _plain_action(core, u) and action in core.legal_actions()
            phases.add(core.phase)
            legal = core.legal_actions()
            core.apply(legal[rng.randrange(len(legal))])
    assert phases == {PLAY, CHOOSE, ASK}


def _actions_of(events, rules):
    """The actions a log records, in order."""
    by_kind = {EV_TAKE: lambda v: rules.take_action, EV_DRAW: lambda v: rules.draw_action,
               EV_ROLL: lambda v: rules.roll_action,
               EV_CHOOSE: lambda v: rules.choose_base + v, EV_ASK: lambda v: rules.ask_base + v}
    for kind in (EV_HAND, EV_DEAL, EV_TURN, EV_STOCK, EV_DICE):
        by_kind[kind] = lambda v: v
    return [by_kind[kind](value) for kind, _, value in events if kind in by_kind]


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_playout_plays_legal_moves_to_the_end_and_logs_them(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    for seed in range(10):
        core = game.new_initial_state().core
        heuristic_playout(core, random.Random(seed).random)
        assert core.is_terminal()
        plain = Reference(rules)
        for action in _actions_of(core.events, rules):
            if plain.is_chance():
                assert action in [outcome for outcome, _ in plain.chance_outcomes()]
            else:
                assert action in plain.legal_actions()
            plain.apply(action)
        assert plain.events == core.events and plain.is_terminal()
        assert plain.matches == core.matches and plain.hands == core.hands
