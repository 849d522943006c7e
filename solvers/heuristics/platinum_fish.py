"""`heuristic` for Platinum Fish: count the cards, then take the surest match.

It reads only its own hand and what is public (matches laid, the discard pile, cards known
to be in a hand because they were given or chosen in view of all, hand and stock sizes),
so it plays the same on any resample of its information state.

* Unseen copies of a rank: its copies less those laid, in the discard pile, known in
  another hand, or in mine.  Each unseen copy is in the stock with probability
  stock / (stock + the other hands' unknown cards), as if spread at random.
* Turn: take the discard whenever it matches (a sure match and another turn).  Otherwise
  compare the chance of a match by drawing (an unseen copy of a rank I hold on top of the
  stock) with the chance by throwing the dice, summed over the 21 throws: a throw matches
  when the stock holds an offered rank I hold (I choose it), or when the stock holds no
  offered rank at all and some unseen copy of an offered rank I hold is in another hand
  (I ask, and the first holder clockwise must give).  Roll when that is at least as likely;
  a throw that misses still adds a card to my hand, where a missed draw feeds the discard.
* Choose (after a throw): a rank I hold, making a match; otherwise the rank with the most
  unseen copies left, the likeliest to be matched later.
* Ask: a rank I hold, known to be in another hand if one is (a sure match), else the one with
  the most unseen copies; holding none, a rank known to be in another hand, else the one
  with the most unseen copies.
"""

from __future__ import annotations

from koloda.games.kit.cards import cards_of
from koloda.games.platinum_fish.engine import ASK, CHOOSE, PLAY
from koloda.games.platinum_fish.rules import DICE_PROBABILITIES
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register


@register("heuristic", "card counting: sure matches first, then draw or roll by the odds",
          game="platinum_fish")
class PlatinumFishHeuristic(Agent):
    def choose(self, view, player: int) -> int:
        core = view.core
        rules = core.rules
        unseen = unseen_copies(core, player)
        hand = core.hands[player]
        if core.phase == PLAY:
            if rules.take_action in core.legal_actions():
                return rules.take_action
            if roll_match_chance(core, unseen, hand) >= draw_match_chance(unseen, hand):
                return rules.roll_action
            return rules.draw_action
        if core.phase == CHOOSE:
            options = cards_of(core.offer & core.stock_ranks())
            return rules.choose_base + _best(options, hand, unseen, 0)
        if core.phase == ASK:
            others_known = 0
            for seat, known in enumerate(core.known):
                if seat != player:
                    others_known |= known
            return rules.ask_base + _best(cards_of(core.offer), hand, unseen, others_known)
        raise ValueError(f"heuristic asked to move in phase {core.phase}")


def _best(options, hand: int, unseen, sure: int) -> int:
    """The option I hold (a match) first, then one known elsewhere, then most unseen."""
    return max(options, key=lambda r: (hand >> r & 1, sure >> r & 1, unseen[r], -r))


def unseen_copies(core, player: int) -> list[int]:
    """Copies of each rank that `player` has not seen: in the stock or a hidden hand."""
    rules = core.rules
    unseen = [rules.copies] * rules.num_ranks
    for ranks in core.laid:
        for rank in ranks:
            unseen[rank] -= 2
    for rank in core.discard:
        unseen[rank] -= 1
    for seat, known in enumerate(core.known):
        if seat != player:
            for rank in cards_of(known):
                unseen[rank] -= 1
    for rank in cards_of(core.hands[player]):
        unseen[rank] -= 1
    return unseen


def draw_match_chance(unseen, hand: int) -> float:
    """Chance that the top of the stock matches my hand (each unseen card equally likely)."""
    total = sum(unseen)
    return sum(unseen[r] for r in cards_of(hand)) / total if total else 0.0


def roll_match_chance(core, unseen, hand: int) -> float:
    """Chance that a throw of the dice ends in a match, by the estimate in the docstring."""
    total = sum(unseen)
    if not total:
        return 0.0
    in_stock = core.stock_size / total        # chance an unseen copy is in the stock
    chance = 0.0
    for offer, probability in zip(core.rules.offers, DICE_PROBABILITIES):
        held = offer & hand
        if not held:
            continue
        none_of_held = _none_in_stock(held, unseen, in_stock)
        none_offered = _none_in_stock(offer, unseen, in_stock)
        someone_has = any(unseen[r] for r in cards_of(held))
        chance += probability * ((1 - none_of_held) + (none_offered if someone_has else 0.0))
    return chance


def _none_in_stock(ranks: int, unseen, in_stock: float) -> float:
    p = 1.0
    for rank in cards_of(ranks):
        p *= (1 - in_stock) ** unseen[rank]
    return p
