"""Platinum Fish's rollout playout: match when the discard allows, else mostly throw.

Take the discard for a match; else mostly throw the dice (a throw matches more often than
a draw, and a miss keeps the card where a missed draw feeds the discard); choose or ask a
rank held, else the rank the stock has most of, or ask the next player for one it holds.
"""

from __future__ import annotations

from koloda.games.kit.cards import cards_of, nth_card
from koloda.games.platinum_fish.engine import ASK, CHOOSE, OVER, PLAY

DRAW_SHARE = 0.1     # of the turns without a match to take, the share that draws


def heuristic_playout(core, random) -> None:
    """Play the Platinum Fish engine `core` to the end by the rules above, chance by
    `random`."""
    rules = core.rules
    while True:
        phase = core.phase
        if phase == PLAY:
            hand = core.hands[core.player]
            if core.discard and hand >> core.discard[-1] & 1:
                action = rules.take_action
            else:
                action = rules.draw_action if random() < DRAW_SHARE else rules.roll_action
        elif phase == CHOOSE:
            options = core.offer & core.stock_ranks()
            held = options & core.hands[core.player]
            if held:
                rank = (held & -held).bit_length() - 1
            else:
                rank = max(cards_of(options), key=core.stock.__getitem__)
            action = rules.choose_base + rank
        elif phase == ASK:
            offer = core.offer
            held = offer & core.hands[core.player]
            if not held:
                held = offer & core.hands[(core.player + 1) % rules.num_players] or offer
            action = rules.ask_base + nth_card(held, int(random() * held.bit_count()))
        elif phase == OVER:
            return
        else:
            core.random_chance(random)
            continue
        core.apply(action)
