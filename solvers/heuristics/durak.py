"""`heuristic` for Durak: the habits of a careful club player, as rules.

It reads only its own hand and what is public (table, trump, discards, hand sizes, cards
known to be in a hand), so it plays the same on any resample of its information state.

* A card's cost is its rank, plus the number of ranks if it is a trump: a low non-trump
  is cheap, every trump dearer than every non-trump.
* Attack: lead the cheapest card; a rank held twice or more counts one rank cheaper (the
  twin can be thrown in after) and wins ties.  Once the stock is empty, first lead a card nobody
  else can beat
  (all its beaters are gone or in my hand): the defender has to take it.
* Defend: beat with the cheapest card that beats.  While the stock is still large, take
  rather than spend a high trump (queen or better) on a bout of one or two cards.  With the
  stock empty, beat whenever possible: taking late loses games.
* Throw in: the cheapest matching non-trump below the queen while the stock lasts; once it
  is empty, any matching card, cheapest first (every card thrown is one fewer to shed),
  but trumps only when the defender is down to their last cards.
"""

from __future__ import annotations

from koloda.games.durak.engine import ATTACK, DEFEND, THROW
from koloda.games.kit.cards import cards_of
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register

HIGH_RANKS = 3          # queen, king, ace in any deck: the top three ranks
BIG_STOCK = 8           # "the stock is still large"
SMALL_BOUT = 2          # table cards a cheap take may cost


@register("heuristic", "rule-based club play (cheap attacks, save trumps, careful endgame)",
          game="durak")
class DurakHeuristic(Agent):
    def choose(self, view, player: int) -> int:
        core = view.core
        rules = core.rules
        hand = core.hands[player]
        if core.phase == ATTACK:
            return rules.attack_base + self._lead(core, player, hand)
        if core.phase == DEFEND:
            return self._defend(core, hand)
        if core.phase == THROW:
            return self._throw(core, hand)
        raise ValueError(f"heuristic asked to move in phase {core.phase}")

    # --- the three decisions ----------------------------------------------------

    def _lead(self, core, player: int, hand: int) -> int:
        cards = cards_of(hand)
        if not core.stock:
            safe = [c for c in cards if not self._beatable_by_others(core, player, c)]
            if safe:
                return min(safe, key=lambda c: self._cost(core, c))
        deck = core.rules.deck
        twins = {}
        for c in cards:
            twins[deck.rank(c)] = twins.get(deck.rank(c), 0) + 1
        return min(cards, key=lambda c: (self._cost(core, c) - (twins[deck.rank(c)] > 1),
                                          -twins[deck.rank(c)], c))

    def _defend(self, core, hand: int) -> int:
        rules = core.rules
        beaters = rules.beaters[core.trump_suit][core.open_card] & hand
        if not beaters:
            return rules.take_action
        best = min(cards_of(beaters), key=lambda c: (self._cost(core, c), c))
        stock = core.stock.bit_count()
        if (stock >= BIG_STOCK and self._is_trump(core, best) and self._is_high(core, best)
                and len(core.table) <= SMALL_BOUT):
            return rules.take_action
        return rules.beat_base + best

    def _throw(self, core, hand: int) -> int:
        rules = core.rules
        options = cards_of(hand & core.table_match)
        if core.stock:
            options = [c for c in options
                       if not self._is_trump(core, c) and not self._is_high(core, c)]
        else:
            defender_cards = core.hands[core.defender].bit_count()
            if defender_cards > 2:
                options = [c for c in options if not self._is_trump(core, c)]
        if not options:
            return rules.pass_action
        return rules.throw_base + min(options, key=lambda c: (self._cost(core, c), c))

    # --- card judgements (own hand and public information only) ------------------

    def _cost(self, core, card: int) -> int:
        deck = core.rules.deck
        return deck.rank(card) + (deck.num_ranks if self._is_trump(core, card) else 0)

    def _is_trump(self, core, card: int) -> bool:
        return card % core.rules.deck.num_suits == core.trump_suit

    def _is_high(self, core, card: int) -> bool:
        deck = core.rules.deck
        return deck.rank(card) >= deck.num_ranks - HIGH_RANKS

    def _beatable_by_others(self, core, player: int, card: int) -> bool:
        """Could any other player hold a card that beats `card`?"""
        gone = core.hands[player] | core.discard | core.table_mask
        return bool(core.rules.beaters[core.trump_suit][card] & ~gone)
