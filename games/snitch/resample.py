"""Resampling a Snitch history from one player's information state, on the kit's card-log
resampler (games/kit/cardlog.py), one deal at a time (each deal is a fresh shuffle).

Snitch's card log: dealt and drawn cards go face down to their seat; discards and the cards
of sets and extensions are played in view of all (a discard set takes the top discard,
which everybody saw).  Nothing else is known about a hand: laying is never compulsory and a
pass tells nothing, so the kit's forced cards and shuffle are all the game needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koloda.games.kit.cardlog import DEALT, PLAYED, CardLogResampler, CardMove
from koloda.games.kit.engine import Determinizer as _Determinizer
from koloda.games.snitch.kernel import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_EXTEND,
    EV_NEW_DEAL,
    EV_PASS,
    EV_PICK,
    EV_SET,
    EV_STOP,
)

if TYPE_CHECKING:
    from koloda.games.snitch.engine import SnitchCore


def deal_logs(core: SnitchCore) -> list[list[CardMove]]:
    """The card log of each deal so far, in order (the last is the deal in play)."""
    logs = [[]]
    for index, (kind, seat, card, other) in enumerate(core.events):
        moves = logs[-1]
        if kind == EV_DEAL or kind == EV_DRAW:
            moves.append(CardMove(DEALT, seat, card, index))
        elif kind == EV_DISCARD or kind == EV_PICK:
            moves.append(CardMove(PLAYED, seat, card, index))
        elif kind == EV_SET or kind == EV_EXTEND:
            moves.append(CardMove(PLAYED, seat, card, index))
            moves.append(CardMove(PLAYED, seat, other, index))
        elif kind == EV_NEW_DEAL:
            logs.append([])
    return logs


def resample_history(core: SnitchCore, player: int, rng) -> list[int]:
    """Action ids of a random history `player` cannot tell from `core`'s."""
    copies = core.rules.deck.copies
    drawn = {}
    # The deal in play first, so the Determinizer's worlds are these histories' positions.
    for moves in reversed(deal_logs(core)):
        log = CardLogResampler(moves, copies, player)
        assigned, _, _ = log.draw(rng)
        drawn.update(log.event_cards(assigned))
    rules = core.rules
    out = []
    for index, (kind, _, card, other) in enumerate(core.events):
        if kind == EV_DEAL or kind == EV_DRAW:
            out.append(drawn.get(index, card))
        elif kind == EV_DISCARD:
            out.append(rules.discard_base + card)
        elif kind == EV_SET:
            which = 0 if other == card else (1 if other == rules.two else 2)
            out.append(rules.set_base + 3 * card + which)
        elif kind == EV_PICK:
            out.append(rules.pick_base + card)
        elif kind == EV_EXTEND:
            out.append(rules.extend_base + 2 * card + (0 if other == rules.two else 1))
        elif kind == EV_STOP:
            out.append(rules.stop_action)
        elif kind == EV_PASS:
            out.append(rules.pass_action)
    return out


class Determinizer(_Determinizer):
    """Many resamples of the deal in play for one player, for search: engine positions with
    the other hands and the reserve redrawn as `resample_history` would, without replaying."""

    def __init__(self, core: SnitchCore, player: int):
        self._log = CardLogResampler(deal_logs(core)[-1], core.rules.deck.copies, player)
        self._template = core.copy()
        self._template.events = []
        self._template._legal = None     # the hands change: legal actions cached on the
                                         # position would be the old hands'
        self._kinds = core.rules.num_kinds

    def sample(self, rng) -> SnitchCore:
        assigned, free, leftover = self._log.draw(rng)
        world = self._template.copy()
        for seat, slots in free.items():
            hand = [0] * self._kinds
            for slot in slots:
                hand[assigned[slot]] += 1
            world.set_hand(seat, hand)
        reserve = [0] * self._kinds
        for card in leftover:
            reserve[card] += 1
        world.set_reserve(reserve)
        return world
