"""Durak's rules (docs/rules/durak.md) written plainly, for the tests to hold the engine and
its kernel to: a Python state machine of ints, bitmasks and short lists that logs every
chance event and decision as the engine does, and raises where the engine raises.  Slow,
and obviously the rules."""

from __future__ import annotations

from koloda.games.durak.engine import (
    ATTACK,
    DEAL,
    DEFEND,
    DRAW,
    EV_ATTACK,
    EV_BEAT,
    EV_DEAL,
    EV_DRAW,
    EV_PASS,
    EV_TAKE,
    EV_THROW,
    EV_TRUMP,
    EV_TRUMP_SHOWN,
    OVER,
    THROW,
    TRUMP,
)
from koloda.games.kit.cards import cards_of
from koloda.games.kit.chance import mask_outcomes
from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.games.kit.outcomes import returns_for_winners


class Reference:
    """One Durak position plus its event log, by the rules written plainly."""

    __slots__ = (
        "rules", "phase", "hands", "known", "stock", "trump_card", "trump_suit", "discard",
        "table", "table_mask", "table_match", "open_card", "attacks", "attacker", "defender",
        "throw_order", "throw_index", "deal_index", "draw_queue", "next_attacker", "moves",
        "fool", "events",
    )

    def __init__(self, rules):
        n = rules.num_players
        self.rules = rules
        self.phase = DEAL
        self.hands = [0] * n          # bitmask of cards per seat
        self.known = [0] * n          # cards everybody knows to be in that hand
        self.stock = rules.deck.full_mask  # undealt / undrawn cards (the trump card included)
        self.trump_card = -1
        self.trump_suit = -1
        self.discard = 0
        self.table = []               # cards of this bout in play order
        self.table_mask = 0
        self.table_match = 0          # cards sharing rank or suit with a table card
        self.open_card = -1           # attack card the defender has yet to answer
        self.attacks = 0              # attack cards in this bout
        self.attacker = -1            # the bout's first attacker
        self.defender = -1
        self.throw_order = ()         # who may throw in, in order, after the last beat
        self.throw_index = 0
        self.deal_index = 0
        self.draw_queue = ()          # seats still to draw after this bout, in order
        self.next_attacker = -1
        self.moves = 0                # decisions so far (for the max_moves cap)
        self.fool = -1                # the durak once the game is over; -1 for a draw
        self.events = []

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == DEFEND:
            return self.defender
        if phase == THROW:
            return self.throw_order[self.throw_index]
        if phase == ATTACK:
            return self.attacker
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance(self) -> bool:
        return self.phase <= DRAW

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        rules = self.rules
        phase = self.phase
        if phase == DEFEND:
            base = rules.beat_base
            beaters = rules.beaters[self.trump_suit][self.open_card] & self.hands[self.defender]
            out = cards_of(beaters, base)
            out.append(rules.take_action)
            return out
        if phase == THROW:
            thrower = self.throw_order[self.throw_index]
            out = cards_of(self.hands[thrower] & self.table_match, rules.throw_base)
            out.append(rules.pass_action)
            return out
        if phase == ATTACK:
            return cards_of(self.hands[self.attacker], rules.attack_base)
        return []

    def is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase <= DRAW:
            return 0 <= action < self.rules.num_cards and bool(self._drawable() >> action & 1)
        if phase == OVER:
            return False
        return action in self.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase > DRAW:
            return []
        return mask_outcomes(self._drawable())

    def _drawable(self) -> int:
        """The cards the pending chance node may give: the face-up trump is drawn last."""
        stock = self.stock
        trump = self.trump_card
        if self.phase == DRAW and trump >= 0 and stock != (1 << trump):
            return stock & ~(1 << trump)
        return stock

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """Whether `player` sees which card the pending chance node gives."""
        phase = self.phase
        if phase == DEAL:
            rules = self.rules
            if self.deal_index == rules.num_players * rules.hand_size - 1 and not (
                    self.stock & (self.stock - 1)):
                return True  # the last card of a deal that leaves no stock shows the trump
            return (rules.dealer + 1 + self.deal_index) % rules.num_players == player
        if phase == DRAW:
            return self.draw_queue[0] == player or outcome == self.trump_card
        return True  # the trump card is turned face up

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == DEFEND:
            self._defend(action)
        elif phase == THROW:
            self._throw_or_pass(action)
        elif phase == ATTACK:
            self._attack(action)
        elif phase == DRAW:
            self._draw(action)
        elif phase == DEAL:
            self._deal(action)
        elif phase == TRUMP:
            self._turn_trump(action)
        else:
            raise ValueError("the game is over")
        if phase > DRAW:
            self.moves += 1
            if self.moves >= self.rules.max_moves and self.phase != OVER:
                self.fool = -1
                self.phase = OVER

    def _deal(self, card: int) -> None:
        rules = self.rules
        n = rules.num_players
        seat = (rules.dealer + 1 + self.deal_index) % n
        bit = 1 << card
        self.hands[seat] |= bit
        self.stock ^= bit
        self.events.append((EV_DEAL, seat, card))
        self.deal_index += 1
        if self.deal_index < n * rules.hand_size:
            return
        if self.stock:
            self.phase = TRUMP
            return
        # [gap] No stock after the deal: the dealer's last card shows the trump suit.
        self._set_trump(card)
        self.known[seat] |= bit
        self.events.append((EV_TRUMP_SHOWN, seat, card))
        self._start_play()

    def _turn_trump(self, card: int) -> None:
        self._set_trump(card)
        self.events.append((EV_TRUMP, -1, card))
        self._start_play()

    def _set_trump(self, card: int) -> None:
        self.trump_card = card
        self.trump_suit = card % self.rules.deck.num_suits

    def _start_play(self) -> None:
        rules = self.rules
        if rules.previous_fool >= 0:
            step = -1 if rules.lead == "under" else 1
            first = (rules.previous_fool + step) % rules.num_players
        else:
            first = first_attacker(rules, self.hands, self.trump_suit)
        self._begin_bout(first)

    def _begin_bout(self, attacker: int) -> None:
        n = self.rules.num_players
        hands = self.hands
        defender = (attacker + 1) % n
        while not hands[defender]:
            defender = (defender + 1) % n
        self.attacker = attacker
        self.defender = defender
        self.phase = ATTACK

    def _attack(self, action: int) -> None:
        card = action - self.rules.attack_base
        seat = self.attacker
        self._play_card(seat, card)
        self.events.append((EV_ATTACK, seat, card))
        self.attacks = 1
        self.open_card = card
        self.phase = DEFEND

    def _play_card(self, seat: int, card: int) -> None:
        bit = 1 << card
        if not self.hands[seat] & bit:
            raise ValueError(f"seat {seat} does not hold {self.rules.deck.name(card)}")
        self.hands[seat] ^= bit
        self.known[seat] &= ~bit
        self.table.append(card)
        self.table_mask |= bit
        self.table_match |= self.rules.match_masks[card]

    def _defend(self, action: int) -> None:
        rules = self.rules
        defender = self.defender
        if action == rules.take_action:
            self.hands[defender] |= self.table_mask
            self.known[defender] |= self.table_mask
            self.events.append((EV_TAKE, defender, -1))
            self._end_bout(next_attacker=(defender + 1) % rules.num_players)
            return
        card = action - rules.beat_base
        self._play_card(defender, card)
        self.events.append((EV_BEAT, defender, card))
        self.open_card = -1
        self._open_throw_round()

    def _open_throw_round(self) -> None:
        """After a beat the right to throw in starts again with the first attacker."""
        hands = self.hands
        defender = self.defender
        if self.attacks >= self.rules.max_attack_cards or not hands[defender]:
            self._end_bout(next_attacker=defender)
            return
        order = tuple(seat for seat in self.rules.clockwise[self.attacker]
                      if seat != defender and hands[seat])
        if not order:
            self._end_bout(next_attacker=defender)
            return
        self.throw_order = order
        self.throw_index = 0
        self.phase = THROW

    def _throw_or_pass(self, action: int) -> None:
        rules = self.rules
        seat = self.throw_order[self.throw_index]
        if action == rules.pass_action:
            self.events.append((EV_PASS, seat, -1))
            self.throw_index += 1
            if self.throw_index == len(self.throw_order):
                self._end_bout(next_attacker=self.defender)
            return
        card = action - rules.throw_base
        self._play_card(seat, card)
        self.events.append((EV_THROW, seat, card))
        self.attacks += 1
        self.open_card = card
        self.phase = DEFEND

    def _end_bout(self, next_attacker: int) -> None:
        if self.table_mask and self.open_card < 0:
            self.discard |= self.table_mask  # everything was beaten
        self.table = []
        self.table_mask = 0
        self.table_match = 0
        self.open_card = -1
        self.attacks = 0
        self.next_attacker = next_attacker
        rules = self.rules
        hands = self.hands
        size = rules.hand_size
        self.draw_queue = tuple(s for s in rules.clockwise[self.attacker]
                                if hands[s].bit_count() < size)
        if self.stock and self.draw_queue:
            self.phase = DRAW
        else:
            self._after_draw()

    def _draw(self, card: int) -> None:
        seat = self.draw_queue[0]
        bit = 1 << card
        self.hands[seat] |= bit
        self.stock ^= bit
        if card == self.trump_card:
            self.known[seat] |= bit
        self.events.append((EV_DRAW, seat, card))
        if self.hands[seat].bit_count() >= self.rules.hand_size:
            self.draw_queue = self.draw_queue[1:]
        if not (self.stock and self.draw_queue):
            self.draw_queue = ()
            self._after_draw()

    def _after_draw(self) -> None:
        hands = self.hands
        n = self.rules.num_players
        if not self.stock:
            holders = [s for s in range(n) if hands[s]]
            if len(holders) <= 1:
                self.fool = holders[0] if holders else -1
                self.phase = OVER
                return
        attacker = self.next_attacker
        while not hands[attacker]:
            attacker = (attacker + 1) % n
        self._begin_bout(attacker)

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        """Seats that won; empty for a draw (nobody the durak, or the move cap)."""
        if self.phase != OVER or self.fool < 0:
            return frozenset()
        return frozenset(s for s in range(self.rules.num_players) if s != self.fool)

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.rules.num_players
        return returns_for_winners(self.rules.num_players, self.winners())


def first_attacker(rules, hands, trump_suit: int) -> int:
    """Lowest trump leads; with no trump dealt, the lowest card, first from the dealer's left."""
    n = rules.num_players
    d = rules.deck
    trumps = d.suit_masks[trump_suit]
    seats = [(rules.dealer + 1 + i) % n for i in range(n)]
    best_seat, best_card = -1, d.size
    for seat in seats:
        mine = hands[seat] & trumps
        if mine:
            low = (mine & -mine).bit_length() - 1
            if low < best_card:
                best_seat, best_card = seat, low
    if best_seat >= 0:
        return best_seat
    best_rank = d.num_ranks
    for seat in seats:
        hand = hands[seat]
        if hand:
            rank = ((hand & -hand).bit_length() - 1) // d.num_suits
            if rank < best_rank:
                best_seat, best_rank = seat, rank
    return best_seat

