"""Resampling a Platinum Fish history from one player's information state, on the kit's
card-log resampler (games/kit/cardlog.py).

What is hidden is only the dealt hands (and so what the stock still holds); everything after
the deal happens in view of all.  The card log: dealt cards go face down to their seat; the
pairs laid after the deal, a hand card matched, a card given on an ask are played from a
hand; the first discard, every card drawn and every card chosen after a throw are shown;
a chosen or given card that makes no match is taken into the hand in public.

Platinum Fish's own knowledge, which the resampler respects:
* a hand never holds two cards of a rank (pairs are laid at once): hands are distinct;
* a seat did not hold a rank when its drawn card of that rank went to the discard, when a
  chosen or given card of that rank stayed in its hand, after it matched that rank, when it
  was passed over on an ask for that rank (it sits between the asker and the giver), or
  when nobody gave;
* a throw of the dice that led to an ask (or to nothing) shows the stock held none of the
  offered ranks, so it still holds none: every other copy of them is in a hand; a throw
  that led to a choice shows which offered ranks the stock held (at least one copy, still
  there unless one was drawn or chosen since) and which it did not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koloda.games.kit.cardlog import (
    DEALT,
    PLAYED,
    SHOWN,
    TAKEN,
    CardLogResampler,
    CardMove,
)
from koloda.games.kit.engine import Determinizer as _Determinizer
from koloda.games.kit.engine import ReplayDeterminizer
from koloda.games.platinum_fish.kernel import (
    DEAL,
    EV_ASK,
    EV_AVAILABLE,
    EV_CHOOSE,
    EV_DEAL,
    EV_DICE,
    EV_DRAW,
    EV_GIVE,
    EV_HAND,
    EV_LAY,
    EV_MATCH,
    EV_NOBODY,
    EV_NONE_AVAILABLE,
    EV_NOTHING,
    EV_ROLL,
    EV_STOCK,
    EV_TAKE,
    EV_TO_DISCARD,
    EV_TO_HAND,
    EV_TURN,
    HAND,
)

if TYPE_CHECKING:
    from koloda.games.platinum_fish.engine import PlatinumFishCore


def card_log(core: PlatinumFishCore):
    """(card moves, forbidden (seat, rank, event) facts, ranks the stock lacks, ranks it
    holds)."""
    n = core.rules.num_players
    offers = core.rules.offers
    moves, forbidden, lacks = [], [], set()
    holds = {}      # rank -> still known to be in the stock (no copy left it in public since)
    asker, offer = -1, 0
    for index, (kind, seat, value) in enumerate(core.events):
        if kind == EV_DEAL:
            moves.append(CardMove(DEALT, seat, value, index))
        elif kind == EV_LAY:
            moves.append(CardMove(PLAYED, seat, value, index))
            moves.append(CardMove(PLAYED, seat, value, index))
        elif kind in (EV_TURN, EV_STOCK, EV_CHOOSE):
            moves.append(CardMove(SHOWN, -1, value, index))
            holds[value] = False
        elif kind == EV_MATCH:
            moves.append(CardMove(PLAYED, seat, value, index))
            forbidden.append((seat, value, index))
        elif kind == EV_GIVE:
            moves.append(CardMove(PLAYED, seat, value, index))
            passed = (asker + 1) % n
            while passed != seat:
                forbidden.append((passed, value, index))
                passed = (passed + 1) % n
        elif kind == EV_TO_HAND:
            moves.append(CardMove(TAKEN, seat, value, index))
            forbidden.append((seat, value, index))
        elif kind == EV_TO_DISCARD:
            forbidden.append((seat, value, index))
        elif kind == EV_NOBODY:
            forbidden.extend((other, value, index) for other in range(n) if other != seat)
        elif kind == EV_DICE:
            offer = offers[value]
        elif kind == EV_ASK:
            asker = seat
        elif kind == EV_NONE_AVAILABLE or kind == EV_NOTHING:
            lacks.update(_ranks(offer))
        elif kind == EV_AVAILABLE:
            lacks.update(_ranks(offer & ~value))
            holds.update((rank, True) for rank in _ranks(value))
    return moves, forbidden, lacks, [rank for rank, held in holds.items() if held]


def _ranks(mask: int):
    return [rank for rank in range(mask.bit_length()) if mask >> rank & 1]


def _resampler(core: PlatinumFishCore, player: int) -> CardLogResampler:
    moves, forbidden, lacks, holds = card_log(core)
    return CardLogResampler(moves, core.rules.deck.copies, player, forbidden=forbidden,
                            distinct=True, stock_lacks=lacks, stock_holds=holds)


def resample_history(core: PlatinumFishCore, player: int, rng) -> list[int]:
    """Action ids of a random history `player` cannot tell from `core`'s."""
    log = _resampler(core, player)
    assigned, _, _ = log.draw(rng)
    drawn = log.event_cards(assigned)
    rules = core.rules
    out = []
    for index, (kind, _, value) in enumerate(core.events):
        if kind == EV_DEAL:
            out.append(drawn.get(index, value))
        elif kind in (EV_HAND, EV_TURN, EV_STOCK, EV_DICE):
            out.append(value)
        elif kind == EV_TAKE:
            out.append(rules.take_action)
        elif kind == EV_DRAW:
            out.append(rules.draw_action)
        elif kind == EV_ROLL:
            out.append(rules.roll_action)
        elif kind == EV_CHOOSE:
            out.append(rules.choose_base + value)
        elif kind == EV_ASK:
            out.append(rules.ask_base + value)
    return out


class Determinizer(_Determinizer):
    """Many resamples of one position for one player, for search: engine positions with
    the other hands and the stock redrawn as `resample_history` would, without replaying.
    (During the deal, when pairs are still to be laid, it replays.)"""

    def __init__(self, core: PlatinumFishCore, player: int):
        if core.phase in (HAND, DEAL):
            self._replay = ReplayDeterminizer(core, player)
            return
        self._replay = None
        self._log = _resampler(core, player)
        self._template = core.copy()
        self._template.events = []
        self._template._legal = None     # the hands change: legal actions cached on the
                                         # position would be the old hands'
        self._known = core.known
        self._num_ranks = core.rules.num_ranks

    def sample(self, rng) -> PlatinumFishCore:
        if self._replay is not None:
            return self._replay.sample(rng)
        assigned, free, leftover = self._log.draw(rng)
        world = self._template.copy()
        for seat, slots in free.items():
            hand = self._known[seat]
            for slot in slots:
                hand |= 1 << assigned[slot]
            world.set_hand(seat, hand)
        stock = [0] * self._num_ranks
        for rank in leftover:
            stock[rank] += 1
        world.set_stock(stock)
        return world

