"""Platinum Fish's rules written plainly (docs/rules/platinum_fish.md), as a reference for
the engine over the kernel (tests/platinum_fish_engine/test_kernel.py): a hand is a bitmask
of ranks (a hand never holds a pair: it is laid as a match at once), the stock a count per
rank, the discard pile a list of ranks (its top last), the matches laid per seat; every
chance event and decision is appended to `events` as (kind, seat, value)."""

from __future__ import annotations

from koloda.games.kit.cards import cards_of, nth_card
from koloda.games.kit.chance import count_outcomes, draw_from_counts
from koloda.games.kit.engine import CHANCE, TERMINAL
from koloda.games.kit.outcomes import winners as top_scores
from koloda.games.platinum_fish.rules import DICE_PROBABILITIES

HAND, DEAL, TURN, PLAY, DRAW, DICE_ROLL, CHOOSE, ASK, OVER = range(9)
_CHANCE_PHASES = frozenset((HAND, DEAL, TURN, DRAW, DICE_ROLL))

(EV_HAND, EV_DEAL, EV_LAY, EV_TURN, EV_TAKE, EV_DRAW, EV_STOCK, EV_ROLL, EV_DICE, EV_CHOOSE,
 EV_ASK, EV_GIVE, EV_NOBODY, EV_MATCH, EV_TO_DISCARD, EV_TO_HAND, EV_NOTHING,
 EV_AVAILABLE, EV_NONE_AVAILABLE) = range(19)

_DICE_OUTCOMES = list(enumerate(DICE_PROBABILITIES))


class Reference:
    """One Platinum Fish position plus its event log, by the rules written plainly."""

    def __init__(self, rules):
        n = rules.num_players
        self.rules = rules
        self.phase = HAND
        self.player = (rules.dealer + 1) % n   # the seat being dealt to, then the one to move
        self.hands = [0] * n                   # rank bitmask per seat
        self.known = [0] * n                   # ranks everybody knows to be in that hand
        self.stock = [rules.copies] * rules.num_ranks
        self.stock_size = rules.num_cards
        self.discard = []                      # ranks, top last
        self.matches = [0] * n
        self.laid = ((),) * n                  # ranks of each seat's matches, in order
        self.deal_seat = self.player
        self.deal_left = 0                     # cards still to deal to deal_seat
        self.pairs = ()                        # (seat, rank) pairs dealt, laid after the deal
        self.offer = 0                         # ranks the last throw of the dice offers
        self.turns = 0
        self.events = []

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY or phase == CHOOSE or phase == ASK:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance(self) -> bool:
        return self.phase in _CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        rules = self.rules
        phase = self.phase
        if phase == PLAY:
            out = []
            if self.discard and self.hands[self.player] >> self.discard[-1] & 1:
                out.append(rules.take_action)
            out.append(rules.draw_action)
            out.append(rules.roll_action)
            return out
        if phase == CHOOSE:
            return cards_of(self.offer & self.stock_ranks(), rules.choose_base)
        if phase == ASK:
            return cards_of(self.offer, rules.ask_base)
        return []

    def stock_ranks(self) -> int:
        """The ranks the stock still holds, as a mask."""
        mask = 0
        for rank, count in enumerate(self.stock):
            if count:
                mask |= 1 << rank
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == HAND:
            sizes = self.rules.hand_sizes
            return [(size, 1.0 / len(sizes)) for size in sizes]
        if phase == DEAL or phase == TURN or phase == DRAW:
            return count_outcomes(self.stock)
        if phase == DICE_ROLL:
            return list(_DICE_OUTCOMES)
        return []

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        """Dealt cards are seen by their receiver only; everything else is public."""
        return self.phase != DEAL or self.deal_seat == player

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == DRAW:
            self._drawn(action)
        elif phase == DICE_ROLL:
            self._thrown(action)
        elif phase == CHOOSE:
            self._choose(action - self.rules.choose_base)
        elif phase == ASK:
            self._ask(action - self.rules.ask_base)
        elif phase == DEAL:
            self._deal(action)
        elif phase == HAND:
            self._hand_size(action)
        elif phase == TURN:
            self._turn(action)
        else:
            raise ValueError("the game is over")

    # The deal: a hand size for each seat in turn, then its cards; pairs laid; a discard.

    def _hand_size(self, size: int) -> None:
        self.events.append((EV_HAND, self.deal_seat, size))
        self.deal_left = size
        self.phase = DEAL

    def _deal(self, rank: int) -> None:
        seat = self.deal_seat
        self._take_from_stock(rank)
        self.events.append((EV_DEAL, seat, rank))
        bit = 1 << rank
        if self.hands[seat] & bit:       # the second of a pair: laid once the deal is done
            self.pairs += ((seat, rank),)
        self.hands[seat] ^= bit
        self.deal_left -= 1
        if self.deal_left:
            return
        n = self.rules.num_players
        self.deal_seat = (seat + 1) % n
        if seat != self.rules.dealer:
            self.phase = HAND
            return
        # Every hand is dealt: each player lays its pairs, from the dealer's left.
        first = (self.rules.dealer + 1) % n
        for seat, rank in sorted(self.pairs, key=lambda p: ((p[0] - first) % n, p[1])):
            self._lay(seat, rank, EV_LAY)
        self.pairs = ()
        self.phase = TURN

    def _turn(self, rank: int) -> None:
        self._take_from_stock(rank)
        self.discard.append(rank)
        self.events.append((EV_TURN, -1, rank))
        self.player = (self.rules.dealer + 1) % self.rules.num_players
        self.phase = PLAY

    # A turn: take the discard, draw, or throw the dice.

    def _play(self, action: int) -> None:
        rules = self.rules
        seat = self.player
        self.turns += 1
        if action == rules.take_action:
            rank = self.discard.pop()
            self.events.append((EV_TAKE, seat, rank))
            self._receive(seat, rank, to_discard=False)
        elif action == rules.draw_action:
            self.events.append((EV_DRAW, seat, -1))
            self.phase = DRAW
        else:
            self.events.append((EV_ROLL, seat, -1))
            self.phase = DICE_ROLL

    def _drawn(self, rank: int) -> None:
        self._take_from_stock(rank)
        self.events.append((EV_STOCK, self.player, rank))
        self._receive(self.player, rank, to_discard=True)

    def _thrown(self, dice: int) -> None:
        self.events.append((EV_DICE, -1, dice))
        offer = self.rules.offers[dice]
        self.offer = offer
        available = offer & self.stock_ranks()
        if available:
            # [koloda] the player searches the stock in view of all: which offered ranks it
            # holds is public (value: a rank mask)
            self.events.append((EV_AVAILABLE, self.player, available))
            self.phase = CHOOSE
        elif offer:
            self.events.append((EV_NONE_AVAILABLE, self.player, offer))
            self.phase = ASK
        else:  # [koloda] no offered rank is in play (a miniature deck): the turn ends
            self.events.append((EV_NOTHING, self.player, -1))
            self._end_turn(matched=False)

    def _choose(self, rank: int) -> None:
        self._take_from_stock(rank)
        self.events.append((EV_CHOOSE, self.player, rank))
        self._receive(self.player, rank, to_discard=False)

    def _ask(self, rank: int) -> None:
        seat = self.player
        self.events.append((EV_ASK, seat, rank))
        n = self.rules.num_players
        bit = 1 << rank
        for step in range(1, n):
            giver = (seat + step) % n
            if self.hands[giver] & bit:
                self.hands[giver] ^= bit
                self.known[giver] &= ~bit
                self.events.append((EV_GIVE, giver, rank))
                self._receive(seat, rank, to_discard=False)
                return
        self.events.append((EV_NOBODY, seat, rank))
        self._end_turn(matched=False)

    def _receive(self, seat: int, rank: int, to_discard: bool) -> None:
        """A card reaches `seat` in view of all: a match with its hand, or else it goes to
        the discard (a drawn card) or into the hand (a chosen or given card)."""
        bit = 1 << rank
        if self.hands[seat] & bit:
            self.hands[seat] ^= bit
            self.known[seat] &= ~bit
            self._lay(seat, rank, EV_MATCH)
            self._end_turn(matched=True)
            return
        if to_discard:
            self.discard.append(rank)
            self.events.append((EV_TO_DISCARD, seat, rank))
        else:
            self.hands[seat] |= bit
            self.known[seat] |= bit
            self.events.append((EV_TO_HAND, seat, rank))
        self._end_turn(matched=False)

    def _lay(self, seat: int, rank: int, kind: int) -> None:
        self.matches[seat] += 1
        laid = list(self.laid)
        laid[seat] = laid[seat] + (rank,)
        self.laid = tuple(laid)
        self.events.append((kind, seat, rank))

    def _end_turn(self, matched: bool) -> None:
        if not self.stock_size or self.turns >= self.rules.max_turns:
            self.phase = OVER
            return
        if not matched:
            self.player = (self.player + 1) % self.rules.num_players
        self.phase = PLAY

    def _take_from_stock(self, rank: int) -> None:
        self.stock[rank] -= 1
        self.stock_size -= 1

    # ----- search fast path ------------------------------------------------------------

    def random_playout(self, random) -> None:
        """Uniformly random decisions and chance by its probabilities, to the end, without
        building the lists: the same game as choosing from `legal_actions()` and drawing
        from `chance_outcomes()` with the same random numbers."""
        rules = self.rules
        while True:
            phase = self.phase
            if phase == PLAY:
                can_take = bool(self.discard) and bool(self.hands[self.player]
                                                       >> self.discard[-1] & 1)
                pick = int(random() * (2 + can_take))
                action = pick + (not can_take)
            elif phase == DRAW or phase == DEAL or phase == TURN:
                action = draw_from_counts(self.stock, self.stock_size, random)
            elif phase == DICE_ROLL:
                action = _pick(_DICE_OUTCOMES, random())
            elif phase == CHOOSE:
                options = self.offer & self.stock_ranks()
                action = rules.choose_base + nth_card(
                    options, int(random() * options.bit_count()))
            elif phase == ASK:
                action = rules.ask_base + nth_card(
                    self.offer, int(random() * self.offer.bit_count()))
            elif phase == HAND:
                sizes = rules.hand_sizes
                action = sizes[int(random() * len(sizes))]
            else:
                return
            self.apply(action)

    def random_chance(self, random) -> None:
        """Apply the pending chance outcome, drawn by its probabilities with `random()` in
        [0, 1) as `random_playout` draws it (for playouts that choose decisions their own
        way)."""
        phase = self.phase
        if phase == DICE_ROLL:
            self.apply(_pick(_DICE_OUTCOMES, random()))
        elif phase == HAND:
            sizes = self.rules.hand_sizes
            self.apply(sizes[int(random() * len(sizes))])
        else:
            self.apply(draw_from_counts(self.stock, self.stock_size, random))

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        """The seats with the most matches; empty before the end and when all tie."""
        return frozenset(top_scores(self.matches)) if self.phase == OVER else frozenset()

    def key(self) -> tuple:
        """Everything that decides how the game goes on (not `known`, not the log)."""
        return (self.phase, self.player, tuple(self.hands), tuple(self.stock),
                tuple(self.discard), tuple(self.matches), self.deal_seat, self.deal_left,
                self.pairs, self.offer, self.turns)


def _pick(outcomes, r: float) -> int:
    """The outcome of a (outcome, probability) list that `r` in [0, 1) falls on."""
    total = 0.0
    for outcome, p in outcomes:
        total += p
        if r < total:
            return outcome
    return outcomes[-1][0]
