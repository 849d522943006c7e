"""Resampling hidden cards from a card log, shared by the card games.

A game turns its event log into a *card log*: where every card went, in order, as one of

* `DEALT`    a card dealt or drawn face down to `seat` (only that seat sees it);
* `SHOWN`    a chance card everybody sees, to `seat` (then known in that hand) or, with
             seat -1, to a public place (a turned-up trump, a first discard);
* `PLAYED`   `seat` puts a card from hand where everybody sees it;
* `TAKEN`    `seat` takes a card everybody has seen into hand (a pick-up, a gift);
* `REVEALED` `seat` shows a card that stays in hand.

From the log and the viewer's seat, `CardLogResampler` knows which slots are hidden from
the viewer (other seats' `DEALT` cards), which cards must have come out of them (a card
an opponent played or revealed without it being known in their hand must have reached them
face down before), and which cards nobody has placed yet.  `draw(rng)` fills the hidden
slots: each forced card into a random earlier slot of its seat (earliest play first, which
always succeeds), the rest of the unplaced cards over the remaining slots, and what is left
over stays in the stock.

A game adds its own constraints:

* `forbidden`: (seat, card, event) — the seat held no such card at that event (it drew one
  and threw it away, it was asked and did not give), so no slot of that seat dealt before
  the event and still in hand holds that card (forced cards, which left the hand in view
  of all, are placed as the log says);
* `distinct`: a hand never holds two of a kind (its pairs are laid at once), so the slots
  still in a hand hold distinct cards, none of them a card known to be in that hand;
* `stock_lacks`: cards the stock is known to hold none of, so every unplaced copy of them
  is in a slot still in hand;
* `stock_holds`: cards the stock is known to hold at least one of;
* `accept(assigned) -> bool`: anything else (Durak: the first attacker follows from the
  dealt hands); draws it rejects are drawn again.

Without the first three the unplaced cards are shuffled over the slots; with them each
slot draws in turn from the cards it may hold.  Decks with several copies of a card work the
same way: cards are kinds, counted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

DEALT, SHOWN, PLAYED, TAKEN, REVEALED = range(5)

_MAX_TRIES = 20000


@dataclass(frozen=True)
class CardMove:
    """One card's move: a flow above, the seat (-1 for none), the card kind, and the index
    of the game event it belongs to (so a game can map slots back to its history)."""

    flow: int
    seat: int
    card: int
    event: int


class ResamplingError(RuntimeError):
    """No draw satisfied the game's constraints (a bug in the game's card log)."""

    def __init__(self, message: str = "no consistent deal found for the hidden cards"):
        super().__init__(message)


class CardLogResampler:
    """What is fixed for one (card log, viewer): hidden slots, forced cards, the pool.

    After construction:
    * `slots`: the hidden `CardMove`s in log order (a slot id is an index into it);
    * `slots_by_seat`: seat -> its slot ids, seats in order of their first hidden slot;
    * `known`: seat -> {card: copies} everybody knows to be in that hand now;
    * `pool`: the card kinds (with repeats) that no public event placed, ascending.
    """

    def __init__(self, moves, copies, viewer: int, accept=None, forbidden=(),
                 distinct: bool = False, stock_lacks=(), stock_holds=()):
        self.accept = accept
        self.distinct = distinct
        self.stock_lacks = sorted(set(stock_lacks))
        self.stock_holds = sorted(set(stock_holds))
        unplaced = list(copies)          # copies of each kind not yet placed
        known: dict[int, dict[int, int]] = {}
        slots: list[CardMove] = []
        slots_by_seat: dict[int, list[int]] = {}
        forced = []                      # (event of the play, seat, card)
        for move in moves:
            flow, seat, card = move.flow, move.seat, move.card
            if flow == DEALT:
                if seat == viewer:
                    unplaced[card] -= 1
                else:
                    slots_by_seat.setdefault(seat, []).append(len(slots))
                    slots.append(move)
            elif flow == SHOWN:
                unplaced[card] -= 1
                if seat >= 0:
                    _add(known, seat, card)
            elif flow == TAKEN:
                _add(known, seat, card)
            elif flow == PLAYED or flow == REVEALED:
                hand = known.get(seat)
                if hand and hand.get(card):
                    if flow == PLAYED:
                        _remove(known, seat, card)
                    continue
                if seat != viewer:
                    forced.append((move.event, seat, card))
                    unplaced[card] -= 1
                if flow == REVEALED:
                    _add(known, seat, card)
            else:
                raise ValueError(f"unknown card flow {flow}")
        if min(unplaced, default=0) < 0:
            raise ValueError("the card log places more copies of a card than the deck has")
        self.slots = slots
        self.slots_by_seat = slots_by_seat
        self.known = known
        self.forced = forced
        self.unplaced = unplaced
        self.pool = [card for card, n in enumerate(unplaced) for _ in range(n)]
        # What each slot may not hold: cards its seat was seen not to hold after its deal.
        self.slot_forbidden: list[set[int]] = [set() for _ in slots]
        for seat, card, event in forbidden:
            for i in slots_by_seat.get(seat, ()):
                if slots[i].event < event:
                    self.slot_forbidden[i].add(card)
        self.constrained = bool(distinct or self.stock_lacks or self.stock_holds
                                or any(self.slot_forbidden))

    def draw(self, rng: random.Random):
        """(a card per slot, seat -> slot ids still in hand, the cards left in the stock)."""
        slots = self.slots
        for _ in range(_MAX_TRIES):
            assigned = [-1] * len(slots)
            free = {seat: list(ids) for seat, ids in self.slots_by_seat.items()}
            for event, seat, card in self.forced:
                earlier = [i for i in free[seat] if slots[i].event < event]
                pick = earlier[rng.randrange(len(earlier))]
                free[seat].remove(pick)
                assigned[pick] = card
            rest = [i for ids in free.values() for i in ids]
            if self.constrained:
                leftover = self._fill(rest, assigned, rng)
            else:
                pool = self.pool[:]
                rng.shuffle(pool)
                for i, card in zip(rest, pool):
                    assigned[i] = card
                leftover = pool[len(rest):]
            if leftover is not None and (self.accept is None or self.accept(assigned)):
                return assigned, free, leftover
        raise ResamplingError()

    def _fill(self, rest, assigned, rng):
        """Fill the slots still in hand under the game's constraints; the cards left for the
        stock, or None when this attempt ran into a dead end."""
        counts = list(self.unplaced)
        for card in self.stock_holds:              # one copy of these stays in the stock
            if not counts[card]:
                return None
            counts[card] -= 1
        held = {seat: set(hand) for seat, hand in self.known.items()} if self.distinct else {}
        slots = self.slots
        open_slots = list(rest)
        rng.shuffle(open_slots)

        def allowed(i, card):
            return (card not in self.slot_forbidden[i]
                    and not (self.distinct and card in held.setdefault(slots[i].seat, set())))

        def place(i, card):
            assigned[i] = card
            counts[card] -= 1
            if self.distinct:
                held.setdefault(slots[i].seat, set()).add(card)

        for card in self.stock_lacks:              # every copy of these is in a hand
            for _ in range(counts[card]):
                options = [i for i in open_slots if assigned[i] < 0 and allowed(i, card)]
                if not options:
                    return None
                place(options[rng.randrange(len(options))], card)
        lacking = set(self.stock_lacks)
        for i in open_slots:
            if assigned[i] >= 0:
                continue
            weights = [0 if card in lacking or not n or not allowed(i, card) else n
                       for card, n in enumerate(counts)]
            total = sum(weights)
            if not total:
                return None
            pick = rng.randrange(total)
            for card, weight in enumerate(weights):  # noqa: B007  (read after the loop)
                if pick < weight:
                    break
                pick -= weight
            place(i, card)
        for card in self.stock_holds:
            counts[card] += 1
        return [card for card, n in enumerate(counts) for _ in range(n)]

    def event_cards(self, assigned) -> dict[int, int]:
        """The drawn card of each hidden slot, by the index of its game event."""
        return {move.event: card for move, card in zip(self.slots, assigned)}


def _add(known: dict, seat: int, card: int) -> None:
    hand = known.setdefault(seat, {})
    hand[card] = hand.get(card, 0) + 1


def _remove(known: dict, seat: int, card: int) -> None:
    hand = known[seat]
    hand[card] -= 1
    if not hand[card]:
        del hand[card]
