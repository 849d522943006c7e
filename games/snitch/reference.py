"""Snitch's rules (docs/rules/snitch.md) written plainly, for the tests to hold the kernel
and the engine to: a Python state machine over lists, one method per step of the rules.
Slow, and obviously the rules.

A game is the whole match: deals until a total reaches `target_score`.  Hands and the
reserve are counts per card kind, the discard pile a list (its top last), each player's
sets the ranks they cover, the points they hold and the (rank, other card) of each set in
the order laid, plus the running totals.  Every chance event and decision is appended to
`events` as (kind, seat, card, other): `other` is the second card of a set, or -1.
"""

from __future__ import annotations

from koloda.games.kit.chance import count_outcomes
from koloda.games.kit.engine import CHANCE, TERMINAL, Engine
from koloda.games.kit.outcomes import winners as top_scores

# Phases.  DEAL and DRAW are chance nodes.
DEAL, TURN, SETS, DRAW, OVER = range(5)

(EV_DEAL, EV_DRAW, EV_DISCARD, EV_SET, EV_PICK, EV_EXTEND, EV_STOP, EV_PASS, EV_SCORE,
 EV_NEW_DEAL) = range(10)


class Reference(Engine):
    """One Snitch position (within a match of deals) plus its event log."""

    __slots__ = ("rules", "phase", "player", "dealer", "deal_index", "hands", "held",
                 "reserve", "reserve_size", "discard", "set_ranks", "points", "laid",
                 "totals", "deals", "sets_this_turn", "passes", "ends_with_deal", "events",
                 "_legal")

    def __init__(self, rules):
        n = rules.num_players
        self.rules = rules
        self.totals = [0] * n
        self.deals = 0                         # deals finished
        self.dealer = n - 1
        self.ends_with_deal = False            # see end_at_deal
        self.events = []
        self._legal = None
        self._start_deal()

    def _start_deal(self) -> None:
        rules = self.rules
        n = rules.num_players
        self.phase = DEAL
        self.deal_index = 0
        self.player = (self.dealer + 1) % n
        self.hands = [[0] * rules.num_kinds for _ in range(n)]
        self.held = [0] * n                    # cards in each hand
        self.reserve = list(rules.deck.copies)
        self.reserve_size = rules.num_cards
        self.discard = []
        self.set_ranks = [0] * n               # natural ranks each player has a set of
        self.points = [0] * n                  # points in each player's sets this deal
        self.laid = ((),) * n                  # (rank, other card) of each set, in order
        self.sets_this_turn = 0
        self.passes = 0

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == TURN or phase == SETS:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance(self) -> bool:
        return self.phase == DEAL or self.phase == DRAW

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _compute_legal(self) -> list[int]:
        rules = self.rules
        if self.phase == TURN:
            out = []
            hand = self.hands[self.player]
            if self.reserve_size:
                out = [rules.discard_base + c for c, n in enumerate(hand) if n]
            out += self._set_actions()
            if not self.reserve_size:
                out.append(rules.pass_action)
            return out
        if self.phase == SETS:
            return self._set_actions() + [rules.stop_action]
        return []

    def _set_actions(self) -> list[int]:
        """The sets the player to move may lay now: from the hand, with the top discard
        (while the reserve lasts), and extensions of the player's own sets."""
        rules = self.rules
        hand = self.hands[self.player]
        two, joker = rules.two, rules.joker
        wilds = (hand[two] > 0, hand[joker] > 0)
        out = []
        for rank in range(rules.num_ranks):
            if hand[rank]:
                base = rules.set_base + 3 * rank
                if hand[rank] >= 2:
                    out.append(base)
                if wilds[0]:
                    out.append(base + 1)
                if wilds[1]:
                    out.append(base + 2)
        if self.reserve_size and self.discard:
            top = self.discard[-1]
            for card in range(rules.num_kinds):
                if hand[card] and _pairs(rules, card, top):
                    out.append(rules.pick_base + card)
        own = self.set_ranks[self.player]
        for rank in range(rules.num_ranks):
            if own >> rank & 1 and hand[rank]:
                base = rules.extend_base + 2 * rank
                if wilds[0]:
                    out.append(base)
                if wilds[1]:
                    out.append(base + 1)
        return out

    def is_legal(self, action: int) -> bool:
        if self.phase == OVER:
            return False
        if self.is_chance():
            return 0 <= action < self.rules.num_kinds and self.reserve[action] > 0
        return action in self.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == DEAL or self.phase == DRAW:
            return count_outcomes(self.reserve)
        return []

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """A dealt or drawn card is seen by its receiver only."""
        return self._receiver() == player

    def _receiver(self) -> int:
        if self.phase == DEAL:
            return (self.dealer + 1 + self.deal_index) % self.rules.num_players
        return self.player

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        self._legal = None
        phase = self.phase
        if phase == TURN or phase == SETS:
            self._decide(action)
        elif phase == DRAW:
            self._receive(self.player, action, EV_DRAW)
            if self.held[self.player] >= self.rules.hand_size or not self.reserve_size:
                self._next_turn()
        elif phase == DEAL:
            self._receive(self._receiver(), action, EV_DEAL)
            self.deal_index += 1
            if self.deal_index == self.rules.num_players * self.rules.hand_size:
                self.player = (self.dealer + 1) % self.rules.num_players
                self.phase = TURN
        else:
            raise ValueError("the game is over")

    def _receive(self, seat: int, card: int, kind: int) -> None:
        self.reserve[card] -= 1
        self.reserve_size -= 1
        self.hands[seat][card] += 1
        self.held[seat] += 1
        self.events.append((kind, seat, card, -1))

    def _decide(self, action: int) -> None:
        rules = self.rules
        seat = self.player
        if action == rules.pass_action:
            self.events.append((EV_PASS, seat, -1, -1))
            self.passes += 1
            holders = sum(1 for held in self.held if held)
            if self.passes >= holders:
                self._end_deal()
            else:
                self._next_player()
            return
        if action == rules.stop_action:
            self.events.append((EV_STOP, seat, -1, -1))
            self._end_turn()
            return
        if action < rules.set_base:
            self._take(seat, action)
            self.discard.append(action)
            self.events.append((EV_DISCARD, seat, action, -1))
            self._end_turn()
            return
        if action < rules.pick_base:
            rank, which = divmod(action - rules.set_base, 3)
            other = (rank, rules.two, rules.joker)[which]
            self._take(seat, rank)
            self._take(seat, other)
            self._lay(seat, rank, other, EV_SET, rank, other)
        elif action < rules.extend_base:
            card = action - rules.pick_base
            top = self.discard.pop()
            self._take(seat, card)
            rank, other = (card, top) if card < rules.two else (top, card)
            self._lay(seat, rank, other, EV_PICK, card, top)
        else:
            rank, which = divmod(action - rules.extend_base, 2)
            wild = rules.two if which == 0 else rules.joker
            self._take(seat, rank)
            self._take(seat, wild)
            self._lay(seat, rank, wild, EV_EXTEND, rank, wild)
        self.sets_this_turn += 1
        if self.sets_this_turn >= rules.max_sets_per_turn:
            self._end_turn()
        else:
            self.phase = SETS

    def _take(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.held[seat] -= 1

    def _lay(self, seat: int, rank: int, other: int, kind: int, card: int,
             second: int) -> None:
        points = self.rules.points
        self.points[seat] += points[rank] + points[other]
        self.set_ranks[seat] |= 1 << rank
        laid = list(self.laid)
        laid[seat] = laid[seat] + ((rank, other),)
        self.laid = tuple(laid)
        self.passes = 0
        self.events.append((kind, seat, card, second))

    def _end_turn(self) -> None:
        """Refill the hand from the reserve, then the next player's turn."""
        self.sets_this_turn = 0
        if self.reserve_size and self.held[self.player] < self.rules.hand_size:
            self.phase = DRAW
            return
        self._next_turn()

    def _next_turn(self) -> None:
        if not any(self.held):
            self._end_deal()
            return
        self._next_player()

    def _next_player(self) -> None:
        n = self.rules.num_players
        seat = (self.player + 1) % n
        while not self.held[seat]:          # [gap] an empty hand (reserve empty) is skipped
            seat = (seat + 1) % n
        self.player = seat
        self.phase = TURN

    def _end_deal(self) -> None:
        rules = self.rules
        for seat, points in enumerate(self.points):
            self.totals[seat] += points
        self.deals += 1
        self.events.append((EV_SCORE, -1, self.deals, -1))
        if self._match_over() or self.ends_with_deal:
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) % rules.num_players
        self.events.append((EV_NEW_DEAL, self.dealer, -1, -1))
        self._start_deal()

    def _match_over(self) -> bool:
        """Whether the deal just scored ends the match."""
        rules = self.rules
        return (not rules.target_score or max(self.totals) >= rules.target_score
                or self.deals >= rules.max_deals)

    # ----- search ---------------------------------------------------------------------

    def end_at_deal(self) -> None:
        """End with the deal in progress (for search); see `returns` for its value."""
        self.ends_with_deal = True

    # ----- results ---------------------------------------------------------------------

    def returns(self) -> list[float]:
        """The match's returns at its end.  Where `end_at_deal` stopped the game short of
        it, the score difference of that deal instead: each player's points in it less
        the mean of the others', in units of a fair share (1/n) of the deck's points."""
        if self.phase != OVER or not self.ends_with_deal or self._match_over():
            return super().returns()
        n = self.rules.num_players
        total = sum(self.points)
        share = self.rules.deck_points / n
        return [(n * p - total) / (n - 1) / share for p in self.points]

    def winners(self) -> frozenset:
        """The seats with the highest total; empty before the end and when all tie."""
        return frozenset(top_scores(self.totals)) if self.phase == OVER else frozenset()


def _pairs(rules, card: int, top: int) -> bool:
    """Whether a hand card and the top discard make a set: one natural rank, at most one
    wild."""
    if card < rules.two:
        return top == card or top >= rules.two
    return top < rules.two
