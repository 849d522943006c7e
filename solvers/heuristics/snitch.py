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

import numpy as np
from numba import njit

from koloda.games.snitch.kernel import (
    DISCARD,
    DISCARD_N,
    HANDS,
    LAID,
    LAID_N,
    MAX_KINDS,
    MAX_LEGAL,
    PHASE,
    PLAYER,
    POINTS,
    R_COPIES,
    R_DISCARD_BASE,
    R_EXTEND_BASE,
    R_PASS,
    R_PICK_BASE,
    R_PLAYERS,
    R_POINTS,
    R_SET_BASE,
    R_STOP,
    R_TARGET,
    R_TWO,
    RESERVE_SIZE,
    SETS,
    TOTALS,
    TURN,
    legal_actions,
)
from koloda.solvers.agent import Agent
from koloda.solvers.registry import register

HIGH_RANK_POINTS = 10        # a ten or better is worth a wild
SHORT_RESERVE = 2            # reserve cards per player below which the deal is ending
RACE_MARGIN = 50             # a joker: what one more set could add to a total


@register("heuristic", "lays the richest sets, keeps wilds for rich ones, safe discards",
          game="snitch")
class SnitchHeuristic(Agent):
    def choose(self, view, player: int) -> int:
        return RULES_OF_THUMB.action(view.core, player)


class SnitchRulesOfThumb:
    """The heuristic's choices on an engine position, made by `rules_of_thumb` on its
    kernel state: the compiled search plays the same function in its worlds."""

    def action(self, core, player: int) -> int:
        """The heuristic's move for `player`, the player to move in `core` (a buffer of
        its own each call: the server may ask from several threads)."""
        return int(rules_of_thumb(core.st, core.r, np.empty(MAX_LEGAL, np.int64)))


RULES_OF_THUMB = SnitchRulesOfThumb()


@njit(cache=True)
def rules_of_thumb(st, r, legal):
    """The heuristic's move for the player to move in the kernel state `st` (a decision);
    `legal` is a MAX_LEGAL buffer.  Each legal set is judged once, in one pass, and the
    dearer judgements (is the deal ending, which cards are unseen) are worked out only
    when a move turns on them."""
    n = legal_actions(st, r, legal)
    if n == 1:                               # a forced move (`stop` with nothing to lay)
        return legal[0]
    set_base, pick_base, extend_base, stop = (r[R_SET_BASE], r[R_PICK_BASE],
                                              r[R_EXTEND_BASE], r[R_STOP])
    if legal[n - 1] < set_base:              # discards only: no set, no `stop`, no `pass`
        return _discard(st, r, legal, n)
    two = r[R_TWO]
    hand = HANDS + st[PLAYER] * MAX_KINDS
    # The richest set worth laying, and the richest of all; legal actions ascend, so `>`
    # keeps the lowest id among equals.
    best = richest = -1
    best_points = richest_points = -1
    spend_wilds = -1                         # judged when a wild's set first asks
    for j in range(n):
        action = legal[j]
        if action < set_base or action >= stop:
            continue
        if action < pick_base:                                   # a hand set
            natural = (action - set_base) // 3
            which = (action - set_base) % 3
            other = natural if which == 0 else two + which - 1
            from_hand = True
        elif action < extend_base:                               # a discard set
            card = action - pick_base
            top = st[DISCARD + st[DISCARD_N] - 1]
            natural, other = (top, card) if card >= two else (card, top)
            from_hand = card < two           # the wild (if any) is the top discard's
        else:                                                    # an extension
            natural = (action - extend_base) // 2
            other = two + (action - extend_base) % 2
            from_hand = False
        value = r[R_POINTS + natural] + r[R_POINTS + other]
        if value > richest_points:
            richest, richest_points = action, value
        if value <= best_points:
            continue
        # A wild goes on an extension, a high natural, or a discard set of a rank not in
        # hand; else only when the deal is ending.
        if (other < two or action >= extend_base
                or r[R_POINTS + natural] >= HIGH_RANK_POINTS
                or (not from_hand and st[hand + natural] == 0)):
            best, best_points = action, value
            continue
        if spend_wilds < 0:
            spend_wilds = 1 if _ending(st, r) else 0
        if spend_wilds:
            best, best_points = action, value
    if best >= 0:
        return best
    if st[PHASE] == SETS:
        return stop
    if st[PHASE] == TURN and not st[RESERVE_SIZE]:               # `pass` is legal
        return richest if richest >= 0 else r[R_PASS]
    return _discard(st, r, legal, n)


@njit(cache=True)
def _ending(st, r):
    """Whether wilds should be spent now: the deal is ending or the race is on."""
    players = r[R_PLAYERS]
    if st[RESERVE_SIZE] <= SHORT_RESERVE * players:
        return True
    if r[R_TARGET]:
        for seat in range(players):
            if st[TOTALS + seat] + st[POINTS + seat] + RACE_MARGIN >= r[R_TARGET]:
                return True
    return False


@njit(cache=True)
def _discard(st, r, legal, n):
    """A natural before a wild; then not a card held twice; then the fewest copies unseen
    (the deck's less my hand's, the pile's and the sets'), the fewest points, the lowest
    kind."""
    two, base = r[R_TWO], r[R_DISCARD_BASE]
    hand = HANDS + st[PLAYER] * MAX_KINDS
    options = np.empty(MAX_KINDS, np.int64)
    m = naturals = 0
    for j in range(n):
        if legal[j] < r[R_SET_BASE]:
            card = legal[j] - base
            options[m] = card
            m += 1
            naturals += card < two
    if naturals:
        m = _keep(options, m, options < two)
    if m > 1:
        single = np.empty(m, np.bool_)
        for i in range(m):
            single[i] = st[hand + options[i]] < 2
        if single.any():
            m = _keep(options, m, single)
    if m == 1:
        return base + options[0]
    best, best_unseen, best_points = -1, 1 << 30, 1 << 30
    for i in range(m):
        card = options[i]
        unseen = r[R_COPIES + card] - st[hand + card]
        for k in range(st[DISCARD_N]):
            unseen -= st[DISCARD + k] == card
        for k in range(st[LAID_N]):
            code = st[LAID + k]
            unseen -= (code // MAX_KINDS) % MAX_KINDS == card
            unseen -= code % MAX_KINDS == card
        points = r[R_POINTS + card]
        if unseen < best_unseen or (unseen == best_unseen and points < best_points):
            best, best_unseen, best_points = card, unseen, points
    return base + best


@njit(cache=True)
def _keep(options, m, keep):
    """Compacts options[:m] to those with keep[i]; their count."""
    k = 0
    for i in range(m):
        if keep[i]:
            options[k] = options[i]
            k += 1
    return k
