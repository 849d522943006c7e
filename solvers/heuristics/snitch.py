"""`heuristic` for Snitch: lay points, keep wilds for rich sets, discard what helps nobody.

It reads only its own hand and what is public (sets laid, the discard pile, hand and
reserve sizes, the totals), so it plays the same on any resample of its information state.

* What to keep: a card scores only once laid, so every set worth laying is laid, the richest
  first.  A natural pair (R+R) is always laid.  A wild (a 2 is 20 points, a joker 50) is
  spent on a set only when it is worth it: with a high natural (ten or better), as an
  extension of a set of mine, or when the deal is ending (the reserve is short, or empty) and
  a wild left in hand would score nothing.
* Discards: never a wild while a natural can go.  Of the naturals, the one the next player is
  least likely to pick up: a rank with few copies unseen (its sets and discards are public),
  low in points, and not one I could pair soon (a rank I hold twice stays).
* The score race: when another player's total plus what lies in front of them could reach
  the target this deal, every set is laid at once, wilds included; there is no later deal
  to save them for.
* With the reserve empty, `pass` only when nothing can be laid.
"""

from __future__ import annotations

from koloda.games.snitch.engine import SETS, TURN
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register

HIGH_RANK_POINTS = 10        # a ten or better is worth a wild
SHORT_RESERVE = 2            # reserve cards per player below which the deal is ending


@register("heuristic", "lays the richest sets, keeps wilds for rich ones, safe discards",
          game="snitch")
class SnitchHeuristic(Agent):
    def choose(self, view, player: int) -> int:
        return RULES_OF_THUMB.action(view.core, player)


class SnitchRulesOfThumb:
    """The heuristic's choices on an engine position (search plays them in its worlds)."""

    def action(self, core, player: int) -> int:
        """The heuristic's move for `player`, the player to move in `core`."""
        rules = core.rules
        legal = core.legal_actions()
        sets = [a for a in legal if rules.set_base <= a < rules.stop_action]
        spend_wilds = self._ending(core, player)
        worth = [a for a in sets if self._worth_laying(core, a, spend_wilds)]
        if worth:
            return max(worth, key=lambda a: (self._set_points(core, a), -a))
        if core.phase == SETS:
            return rules.stop_action
        if core.phase == TURN and rules.pass_action in legal:
            return max(sets, key=lambda a: self._set_points(core, a)) if sets \
                else rules.pass_action
        return self._discard(core, player, legal)

    # --- judgements --------------------------------------------------------------------

    def _ending(self, core, player: int) -> bool:
        """Whether wilds should be spent now: the deal is ending or the race is on."""
        rules = core.rules
        if core.reserve_size <= SHORT_RESERVE * rules.num_players:
            return True
        if rules.target_score:
            return any(total + core.points[seat] + 50 >= rules.target_score
                       for seat, total in enumerate(core.totals))
        return False

    def _set_cards(self, core, action: int) -> tuple[int, int]:
        rules = core.rules
        if action < rules.pick_base:
            rank, which = divmod(action - rules.set_base, 3)
            return rank, (rank, rules.two, rules.joker)[which]
        if action < rules.extend_base:
            return action - rules.pick_base, core.discard[-1]
        rank, which = divmod(action - rules.extend_base, 2)
        return rank, (rules.two, rules.joker)[which]

    def _set_points(self, core, action: int) -> int:
        first, second = self._set_cards(core, action)
        return core.rules.points[first] + core.rules.points[second]

    def _worth_laying(self, core, action: int, spend_wilds: bool) -> bool:
        rules = core.rules
        first, second = self._set_cards(core, action)
        hand = core.hands[core.player]
        wild = [c for c in (first, second) if rules.is_wild(c)]
        if not wild:
            return True
        if spend_wilds or action >= rules.extend_base:
            return True
        natural = second if rules.is_wild(first) else first
        if action >= rules.pick_base and not rules.is_wild(core.discard[-1]):
            return rules.points[natural] >= HIGH_RANK_POINTS or hand[natural] == 0
        return rules.points[natural] >= HIGH_RANK_POINTS

    def _discard(self, core, player: int, legal) -> int:
        rules = core.rules
        hand = core.hands[player]
        options = [a - rules.discard_base for a in legal if a < rules.set_base]
        naturals = [c for c in options if not rules.is_wild(c)] or options
        unseen = self._unseen(core, player)
        return rules.discard_base + min(
            naturals, key=lambda c: (hand[c] > 1, unseen[c], rules.points[c], c))

    def _unseen(self, core, player: int) -> list[int]:
        """Copies of each kind not in sight: the deck less my hand, the sets and the pile."""
        unseen = list(core.rules.deck.copies)
        for card, count in enumerate(core.hands[player]):
            unseen[card] -= count
        for sets in core.laid:
            for rank, other in sets:
                unseen[rank] -= 1
                unseen[other] -= 1
        for card in core.discard:
            unseen[card] -= 1
        return unseen


RULES_OF_THUMB = SnitchRulesOfThumb()
