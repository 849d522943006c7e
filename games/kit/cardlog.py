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
always succeeds), the rest of the unplaced cards shuffled over the remaining slots, and what
is left over stays in the stock.  A game adds its own constraints (Durak: the first
attacker follows from the dealt hands) as `accept(assigned) -> bool`; draws it rejects
are drawn again.

Decks with several copies of a card work the same way: cards are kinds, counted.
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


class CardLogResampler:
    """What is fixed for one (card log, viewer): hidden slots, forced cards, the pool.

    After construction:
    * `slots`: the hidden `CardMove`s in log order (a slot id is an index into it);
    * `slots_by_seat`: seat -> its slot ids, seats in order of their first hidden slot;
    * `known`: seat -> {card: copies} everybody knows to be in that hand now;
    * `pool`: the card kinds (with repeats) that no public event placed, ascending.
    """

    def __init__(self, moves, copies, viewer: int, accept=None):
        self.accept = accept
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
        self.pool = [card for card, n in enumerate(unplaced) for _ in range(n)]

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
            pool = self.pool[:]
            rng.shuffle(pool)
            for i, card in zip(rest, pool):
                assigned[i] = card
            if self.accept is None or self.accept(assigned):
                return assigned, free, pool[len(rest):]
        raise ResamplingError("no consistent deal found for the hidden cards")

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
