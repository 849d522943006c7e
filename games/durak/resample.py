"""Resampling a Durak history from one player's information state, on the kit's card-log
resampler (games/kit/cardlog.py).

Durak's card log: deals and draws go face down to a seat, except the face-up trump (turned
up, later drawn by someone in view of all) and, when no stock is left after the deal, the
dealer's last card, shown to fix the trump suit.  Attacks, throw-ins and beats are played
in public; a `take` picks up every card on the table in public.

Durak's own constraint: in a single game the first attacker is decided by the dealt hands
(lowest trump), so deals that would change the first attacker are drawn again.

The result is a list of action ids that replays to a state with the same information
state for the player; the `Determinizer` builds the same worlds as engine positions
without replaying, for search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from koloda.games.durak import kernel
from koloda.games.durak.kernel import (
    EV_ATTACK,
    EV_BEAT,
    EV_DEAL,
    EV_DRAW,
    EV_PASS,
    EV_TAKE,
    EV_THROW,
    EV_TRUMP,
    EV_TRUMP_SHOWN,
)
from koloda.games.kit.cardlog import (
    DEALT,
    PLAYED,
    SHOWN,
    TAKEN,
    CardLogResampler,
    CardMove,
)
from koloda.games.kit.engine import Determinizer as _Determinizer

if TYPE_CHECKING:
    from koloda.games.durak.engine import DurakCore


def first_attacker(core: DurakCore, hands) -> int:
    """Who leads the first bout of `core`'s game with these hands (a bitmask per seat): the
    kernel's rule, which the resampler asks of dealt hands."""
    return int(kernel.lead_of_hands(np.asarray(hands, np.int64), 0, core.trump_suit, core.r))


def card_log(core: DurakCore) -> list[CardMove]:
    """Durak's event log as the moves of cards (see the module docstring)."""
    events = core.events
    trump = core.trump_card
    moves = []
    table = []
    for index, (kind, seat, card) in enumerate(events):
        if kind == EV_DEAL:
            shown = index + 1 < len(events) and events[index + 1][0] == EV_TRUMP_SHOWN
            moves.append(CardMove(SHOWN if shown else DEALT, seat, card, index))
        elif kind == EV_DRAW:
            moves.append(CardMove(TAKEN if card == trump else DEALT, seat, card, index))
        elif kind == EV_TRUMP:
            moves.append(CardMove(SHOWN, -1, card, index))
        elif kind == EV_ATTACK or kind == EV_THROW or kind == EV_BEAT:
            if kind == EV_ATTACK:
                table = []
            table.append(card)
            moves.append(CardMove(PLAYED, seat, card, index))
        elif kind == EV_TAKE:
            moves.extend(CardMove(TAKEN, seat, c, index) for c in table)
            table = []
    return moves


class DurakResampler:
    """The kit resampler for one (core, player), with the first-attacker rule."""

    def __init__(self, core: DurakCore, player: int):
        rules = core.rules
        self.core = core
        self.log = CardLogResampler(card_log(core), rules.deck.copies, player,
                                    accept=self._same_first_attacker)
        deals = [i for i, (kind, _, _) in enumerate(core.events) if kind == EV_DEAL]
        self._check_first = (rules.previous_fool < 0 and core.trump_card >= 0
                             and len(deals) == rules.num_players * rules.hand_size)
        if self._check_first:
            # The dealt hands: the cards the player saw, plus a hidden slot per other card.
            hidden = {move.event: slot for slot, move in enumerate(self.log.slots)}
            self._dealt = [0] * rules.num_players
            self._deal_slots = []
            for index in deals:
                _, seat, card = core.events[index]
                if index in hidden:
                    self._deal_slots.append((hidden[index], seat))
                else:
                    self._dealt[seat] |= 1 << card
            self._first = _first_attacker_of(core)

    def first_attacker_rule(self):
        """(dealt, deal_slots, first) of the accept rule, or None where it does not apply:
        the dealt cards the player saw per seat, (slot, seat) for each hidden deal, and
        the first attacker those hands must give (for the compiled determinizer)."""
        if not self._check_first:
            return None
        return self._dealt, self._deal_slots, self._first

    def _same_first_attacker(self, assigned) -> bool:
        if not self._check_first:
            return True
        hands = self._dealt[:]
        for slot, seat in self._deal_slots:
            hands[seat] |= 1 << assigned[slot]
        return first_attacker(self.core, hands) == self._first

    def history(self, rng) -> list[int]:
        """Action ids of one random consistent history."""
        assigned, _, _ = self.log.draw(rng)
        drawn = self.log.event_cards(assigned)
        rules = self.core.rules
        out = []
        for index, (kind, _, card) in enumerate(self.core.events):
            card = drawn.get(index, card)
            if kind == EV_ATTACK:
                out.append(rules.attack_base + card)
            elif kind == EV_THROW:
                out.append(rules.throw_base + card)
            elif kind == EV_BEAT:
                out.append(rules.beat_base + card)
            elif kind == EV_TAKE:
                out.append(rules.take_action)
            elif kind == EV_PASS:
                out.append(rules.pass_action)
            elif kind != EV_TRUMP_SHOWN:
                out.append(card)  # deal, draw, trump: chance outcomes are card ids
        return out


def resample_history(core: DurakCore, player: int, rng) -> list[int]:
    """Action ids of a random history `player` cannot tell from `core`'s."""
    return DurakResampler(core, player).history(rng)


class Determinizer(_Determinizer):
    """Many resamples of one position for one player, for search.

    `sample(rng)` returns an engine state at the current position with the hidden cards
    redrawn exactly as `resample_history` would, but without replaying the history.  Its
    event log is empty: search needs the position only.
    """

    def __init__(self, core: DurakCore, player: int):
        self._log = DurakResampler(core, player).log
        self._template = core.copy()
        self._template.events = []
        self._template._legal = None     # the hands change: legal actions cached on the
                                         # position would be the old hands'
        self._known = core.known
        trump = core.trump_card
        self._trump_in_stock = (1 << trump) if trump >= 0 and core.stock >> trump & 1 else 0

    def sample(self, rng) -> DurakCore:
        assigned, free, leftover = self._log.draw(rng)
        world = self._template.copy()
        for seat, slots in free.items():
            hand = self._known[seat]
            for slot in slots:
                hand |= 1 << assigned[slot]
            world.set_hand(seat, hand)
        stock = self._trump_in_stock
        for card in leftover:
            stock |= 1 << card
        world.set_stock(stock)
        return world


def _first_attacker_of(core: DurakCore) -> int:
    """Who led the first bout: the seat of the first attack event."""
    for kind, seat, _ in core.events:
        if kind == EV_ATTACK:
            return seat
    # No attack yet: the first attacker is already chosen, it is the player to move.
    return core.attacker
