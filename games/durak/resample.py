"""Resampling a Durak history from one player's information state.

The player saw their own cards and every public event; the cards that went to other
players face down are unknown.  A resample keeps every event and every card the player
saw, and redraws the hidden cards so that the history stays legal:

* a card an opponent played that was not publicly known to be in their hand must have
  reached them face down before they played it: it is placed in one of their earlier
  hidden deals or draws (chosen at random, earliest play first, which always succeeds);
* the remaining unseen cards are shuffled over the remaining hidden slots and the stock;
* in a single game the first attacker is decided by the dealt hands (lowest trump), so
  deals that would change the first attacker are redrawn.

The result is a list of action ids that replays to a state with the same information
state for the player.
"""

from __future__ import annotations

import random

from koloda.games.durak.engine import (
    EV_ATTACK, EV_BEAT, EV_DEAL, EV_DRAW, EV_TAKE, EV_THROW, EV_TRUMP_SHOWN, DurakCore,
    first_attacker,
)

_MAX_TRIES = 20000


def resample_history(core: DurakCore, player: int, sampler) -> list[int]:
    """Action ids of a random history `player` cannot tell from `core`'s."""
    rng = random.Random(int(sampler() * (1 << 53)))
    return _Resampler(core, player).sample(rng)


class Determinizer:
    """Many resamples of one position for one player, for search.

    `sample(rng)` returns an engine state at the current position with the hidden cards
    redrawn exactly as `resample_history` would, but without replaying the history.  Its
    event log is empty: search needs the position only.
    """

    def __init__(self, core: DurakCore, player: int):
        self._resampler = _Resampler(core, player)
        self._template = core.copy()
        self._template.events = []
        self._known = core.known
        trump = core.trump_card
        self._trump_in_stock = (1 << trump) if trump >= 0 and core.stock >> trump & 1 else 0

    def sample(self, rng: random.Random) -> DurakCore:
        cards, free, leftover = self._resampler.draw(rng)
        world = self._template.copy()
        hands = world.hands
        for seat, indices in free.items():
            hand = self._known[seat]
            for index in indices:
                hand |= 1 << cards[index]
            hands[seat] = hand
        stock = self._trump_in_stock
        for card in leftover:
            stock |= 1 << card
        world.stock = stock
        return world


class _Resampler:
    """What is fixed for one (state, player): hidden slots, forced cards, the pool."""

    def __init__(self, core: DurakCore, player: int):
        rules = core.rules
        self.core = core
        self.rules = rules
        events = core.events
        seen = 0            # cards this player saw arrive face down in their own hand
        played = 0          # cards that were ever on the table
        known = [0] * rules.num_players
        table = 0
        slots = {}          # opponent -> indices of their hidden deal/draw events
        forced = []         # (event index of the play, seat, card) needing an earlier slot
        trump = core.trump_card
        for index, (kind, seat, card) in enumerate(events):
            if kind == EV_DEAL or kind == EV_DRAW:
                if seat == player:
                    seen |= 1 << card
                elif not (kind == EV_DRAW and card == trump):
                    slots.setdefault(seat, []).append(index)
                if kind == EV_DRAW and card == trump:
                    known[seat] |= 1 << card
            elif kind == EV_TRUMP_SHOWN:
                known[seat] |= 1 << card
                if seat != player:
                    # The dealer's last card was shown: that slot is not hidden.
                    slots[seat].remove(index - 1)
            elif kind == EV_TAKE:
                known[seat] |= table
                table = 0
            elif kind == EV_ATTACK or kind == EV_THROW or kind == EV_BEAT:
                bit = 1 << card
                if kind == EV_ATTACK:
                    table = 0
                table |= bit
                played |= bit
                if known[seat] & bit:
                    known[seat] ^= bit
                elif seat != player:
                    forced.append((index, seat, card))
        public = played | ((1 << trump) if trump >= 0 else 0)
        self.slots = slots
        self.forced = forced
        self.pool = [c for c in range(rules.num_cards) if not (seen | public) >> c & 1]
        self.deal_len = sum(1 for kind, _, _ in events if kind == EV_DEAL)
        self.check_first = (rules.previous_fool < 0 and trump >= 0
                            and self.deal_len == rules.num_players * rules.hand_size)

    def sample(self, rng: random.Random) -> list[int]:
        """Action ids of one random consistent history."""
        cards, _, _ = self.draw(rng)
        return self._actions(cards)

    def draw(self, rng: random.Random):
        """(card per event, hidden slots still in hand by seat, cards left in the stock)."""
        events = self.core.events
        for _ in range(_MAX_TRIES):
            cards = [card for _, _, card in events]
            free = {seat: list(indices) for seat, indices in self.slots.items()}
            for index, seat, card in self.forced:
                earlier = [i for i in free[seat] if i < index]
                pick = earlier[rng.randrange(len(earlier))]
                free[seat].remove(pick)
                cards[pick] = card
            rest = [i for indices in free.values() for i in indices]
            pool = self.pool[:]
            rng.shuffle(pool)
            for i, card in zip(rest, pool):
                cards[i] = card
            if not self.check_first or self._same_first_attacker(cards):
                return cards, free, pool[len(rest):]
        raise RuntimeError("durak resampling found no consistent deal")  # pragma: no cover

    def _same_first_attacker(self, cards) -> bool:
        rules = self.rules
        hands = [0] * rules.num_players
        for index in range(self.deal_len):
            hands[self.core.events[index][1]] |= 1 << cards[index]
        true_first = _first_attacker_of(self.core)
        return first_attacker(rules, hands, self.core.trump_suit) == true_first

    def _actions(self, cards) -> list[int]:
        rules = self.rules
        out = []
        for (kind, _, _), card in zip(self.core.events, cards):
            if kind == EV_ATTACK:
                out.append(rules.attack_base + card)
            elif kind == EV_THROW:
                out.append(rules.throw_base + card)
            elif kind == EV_BEAT:
                out.append(rules.beat_base + card)
            elif kind == EV_TAKE:
                out.append(rules.take_action)
            elif kind == EV_TRUMP_SHOWN:
                continue
            elif kind in (EV_DEAL, EV_DRAW) or card >= 0:
                out.append(card)  # deal, draw, trump: chance outcomes are card ids
            else:
                out.append(rules.pass_action)
        return out


def _first_attacker_of(core: DurakCore) -> int:
    """Who led the first bout: the seat of the first attack event."""
    for kind, seat, _ in core.events:
        if kind == EV_ATTACK:
            return seat
    # No attack yet: the first attacker is already chosen, it is the player to move.
    return core.attacker
