"""Snitch's heuristic rules of thumb and the learned model's features, written plainly on
the engine's lists, for the tests to hold the compiled versions (solvers/heuristics/snitch.py,
solvers/learned/snitch.py) to: the same judgements, move for move and feature for feature.
"""

from __future__ import annotations

from koloda.games.snitch.engine import SETS, TURN

HIGH_RANK_POINTS = 10
SHORT_RESERVE = 2


class ReferenceRulesOfThumb:
    """The heuristic's choices on an engine position."""

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


REFERENCE_RULES = ReferenceRulesOfThumb()


def _hand_features(rules, hand, own_sets: int, top: int) -> tuple:
    points = rules.points
    two, joker = rules.two, rules.joker
    total = 0
    pairs = 0
    high = 0
    extend = 0
    pick = 0
    for card in range(rules.num_ranks):
        count = hand[card]
        if count:
            total += points[card] * count
            if count >= 2:
                pairs += (count // 2) * 2 * points[card]
            if points[card] >= 10:
                high += count
            if own_sets >> card & 1:
                extend += count
    total += points[two] * hand[two] + points[joker] * hand[joker]
    if top >= 0:
        if top >= two:
            pick = 1 if any(hand[c] for c in range(rules.num_ranks)) else 0
        elif hand[top] or hand[two] or hand[joker]:
            pick = 1
    return total, pairs, hand[two], hand[joker], high, extend, sum(hand), pick


class _Fields:
    """The engine fields the features read, read once for all seats (each read of an
    engine field builds a fresh list from its state)."""

    __slots__ = ("rules", "hands", "set_ranks", "points", "totals", "discard",
                 "reserve_size", "player")

    def __init__(self, core):
        self.rules = core.rules
        self.hands, self.set_ranks, self.points = core.hands, core.set_ranks, core.points
        self.totals, self.discard = core.totals, core.discard
        self.reserve_size, self.player = core.reserve_size, core.player


def reference_features(core, seat: int) -> list[float]:
    """The model's features of `core` for `seat`."""
    return _features(_Fields(core), seat)


def _features(fields: _Fields, seat: int) -> list[float]:
    """`features` from the fields read once."""
    rules = fields.rules
    n = rules.num_players
    share = rules.deck_points / n
    hands, set_ranks, points, reserve_size = (fields.hands, fields.set_ranks, fields.points,
                                              fields.reserve_size)
    discard = fields.discard
    top = discard[-1] if discard and reserve_size else -1
    own = _hand_features(rules, hands[seat], set_ranks[seat], top)
    others = [0.0] * 8
    for other in range(n):
        if other != seat:
            f = _hand_features(rules, hands[other], set_ranks[other], -1)
            for i in range(8):
                others[i] += f[i]
    others = [x / (n - 1) for x in others]
    r = reserve_size / rules.num_cards
    empty = 1.0 if not reserve_size else 0.0
    hp, hpairs, h2, hx = own[0] / share, own[1] / share, own[2], own[3]
    total = sum(points)
    laid = (n * points[seat] - total) / (n - 1) / share
    mover = fields.player
    to_move = 1.0 if mover == seat else 0.0
    next_to_move = 1.0 if (seat - mover) % n == 1 else 0.0
    race = 0.0
    if rules.target_score:
        totals = fields.totals
        mine = totals[seat] + points[seat]
        best = max(totals[o] + points[o] for o in range(n) if o != seat)
        race = (mine - best) / rules.target_score
    return [
        1.0,
        hp, hpairs, h2, hx, own[4], own[5], own[6], own[7],
        others[0] / share, others[1] / share, others[2], others[3], others[6],
        r, r * r, empty,
        r * hp, r * hpairs, r * h2, r * hx, r * own[4],
        r * others[0] / share, r * others[3], r * others[2],
        empty * hp, empty * hpairs, empty * h2, empty * hx,
        to_move, next_to_move, laid, race,
    ]


def reference_values(weights, core) -> list[float]:
    """Every seat's value by the linear model of `weights`, less their mean."""
    n = core.rules.num_players
    now = _laid_value(_Fields(core))
    out = [now[seat] + sum(a * b for a, b in zip(weights, reference_features(core, seat)))
           for seat in range(n)]
    mean = sum(out) / n
    return [v - mean for v in out]


def _laid_value(core) -> list[float]:
    """Each seat's deal score difference from the points laid so far (`core` an engine,
    or its `_Fields`)."""
    rules = core.rules
    n = rules.num_players
    share = rules.deck_points / n
    points = core.points
    total = sum(points)
    return [(n * p - total) / (n - 1) / share for p in points]


