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
    """The heuristic's choices on an engine position.  Search plays them in its worlds
    (solvers/playouts/snitch.py, the playout of `rollout=heuristic` and of `rollout=learned`
    up to its model), so `action` judges each legal set once, in one pass, and works out
    the dearer judgements (is the deal ending, which cards are unseen) only when a move
    turns on them."""

    def action(self, core, player: int) -> int:
        """The heuristic's move for `player`, the player to move in `core`."""
        rules = core.rules
        legal = core.legal_actions()
        if len(legal) == 1:                  # a forced move (`stop` with nothing to lay)
            return legal[0]
        set_base, pick_base, extend_base, stop = (rules.set_base, rules.pick_base,
                                                  rules.extend_base, rules.stop_action)
        if legal[-1] < set_base:             # discards only: no set, no `stop`, no `pass`
            return self._discard(core, core.hand(player), legal)
        points, two = rules.points, rules.two
        hand = core.hand(player)
        # The richest set worth laying, and the richest of all; legal actions ascend, so
        # `>` keeps the lowest id among equals.
        best = richest = -1
        best_points = richest_points = -1
        spend_wilds = None                   # judged when a wild's set first asks
        for action in legal:
            if action < set_base or action >= stop:
                continue
            if action < pick_base:                               # a hand set
                natural, which = divmod(action - set_base, 3)
                other = (natural, two, two + 1)[which]
                from_hand = True
            elif action < extend_base:                           # a discard set
                card, top = action - pick_base, core.discard[-1]
                natural, other = (top, card) if card >= two else (card, top)
                from_hand = card < two       # the wild (if any) is the top discard's
            else:                                                # an extension
                natural, which = divmod(action - extend_base, 2)
                other = two + which
                from_hand = False
            value = points[natural] + points[other]
            if value > richest_points:
                richest, richest_points = action, value
            if value <= best_points:
                continue
            # A wild goes on an extension, a high natural, or a discard set of a rank
            # not in hand; else only when the deal is ending.
            if (other < two or action >= extend_base or points[natural] >= HIGH_RANK_POINTS
                    or not from_hand and hand[natural] == 0):
                best, best_points = action, value
                continue
            if spend_wilds is None:
                spend_wilds = self._ending(core, player)
            if spend_wilds:
                best, best_points = action, value
        if best >= 0:
            return best
        phase = core.phase
        if phase == SETS:
            return stop
        if phase == TURN and not core.reserve_size:              # `pass` is legal
            return richest if richest >= 0 else rules.pass_action
        return self._discard(core, hand, legal)

    # --- judgements --------------------------------------------------------------------

    def _ending(self, core, player: int) -> bool:
        """Whether wilds should be spent now: the deal is ending or the race is on."""
        rules = core.rules
        if core.reserve_size <= SHORT_RESERVE * rules.num_players:
            return True
        if rules.target_score:
            return any(total + points + 50 >= rules.target_score
                       for total, points in zip(core.totals, core.points))
        return False

    def _discard(self, core, hand, legal) -> int:
        """A natural before a wild; then not a card held twice; then the fewest copies
        unseen (the deck's less my hand's, the pile's and the sets'), the fewest points,
        the lowest kind."""
        rules = core.rules
        two, discard_base = rules.two, rules.discard_base
        options = [a - discard_base for a in legal if a < rules.set_base]
        options = [c for c in options if c < two] or options
        if len(options) > 1:
            options = [c for c in options if hand[c] < 2] or options
        if len(options) == 1:
            return discard_base + options[0]
        copies, pile = rules.deck.copies, core.discard
        unseen = {c: copies[c] - hand[c] - pile.count(c) for c in options}
        for sets in core.laid:
            for rank, other in sets:
                if rank in unseen:
                    unseen[rank] -= 1
                if other in unseen:
                    unseen[other] -= 1
        points = rules.points
        return discard_base + min([(unseen[c], points[c], c) for c in options])[2]


RULES_OF_THUMB = SnitchRulesOfThumb()
