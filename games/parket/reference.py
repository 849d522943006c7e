"""Parket's rules (docs/rules/parket.md) written plainly, for the tests to hold the kernel
to: every corner of every cell recomputed on every question, nothing kept between moves,
lists instead of bitmask tricks.  Slow, and obviously the rules."""

from __future__ import annotations

from koloda.games.kit.cards import cards_of
from koloda.games.parket.board import (
    ADJACENT_RANKS,
    CARD_IS_RED,
    CARD_RANK,
    CORNER_RANKS,
    CORNERS,
    CROSS_CELLS,
    EMPTY,
    INNER_CELLS,
    INNER_OF,
    NUM_CELLS,
    OUTER_CELLS,
    RANK_CARDS,
)
from koloda.games.parket.rules import PLACE_ACTIONS

ONGOING, DRAW = -1, 2


class Reference:
    """A position under `rules`: the board, the hands, the seat to move, the phase, the
    relocations in a row, and the result (ONGOING, a winning seat, or DRAW)."""

    def __init__(self, rules):
        start = rules.start
        self.rules = rules
        self.board = list(start.board)
        on_board = sum(1 << card for card in start.board if card != EMPTY)
        self.hands = [cards & ~on_board for cards in rules.seat_cards]
        self.player = rules.seat_of_colour[start.to_move]
        self.main = start.main
        self.relocations = start.relocations
        self.result = self._result()

    def corner_ranks(self, cell: int, red: bool) -> int:
        """The ranks a mover of colour `red` may lay on `cell`: every corner (A, B) at the
        cell with both cards laid, not both of the mover's colour, by the sequence rule."""
        table = CORNER_RANKS[self.rules.corner_order]
        ranks = 0
        for a, b in CORNERS[cell]:
            card_a, card_b = self.board[a], self.board[b]
            if card_a == EMPTY or card_b == EMPTY:
                continue
            if CARD_IS_RED[card_a] == red and CARD_IS_RED[card_b] == red:
                continue
            ranks |= table[CARD_RANK[card_a]][CARD_RANK[card_b]]
        return ranks

    def legal_actions(self) -> list[int]:
        if self.result != ONGOING:
            return []
        if not self.main:
            return sorted(self._cross_placements())
        return sorted(self._placements()) or sorted(self._relocations())

    def _cross_placements(self):
        hand = cards_of(self.hands[self.player])
        for cell in INNER_CELLS:
            if self.board[cell] == EMPTY:
                yield from (card * NUM_CELLS + cell for card in hand)
        for cell in OUTER_CELLS:
            inner = self.board[INNER_OF[cell]]
            if self.board[cell] == EMPTY and inner != EMPTY:
                fits = RANK_CARDS[ADJACENT_RANKS[CARD_RANK[inner]]]
                yield from (card * NUM_CELLS + cell for card in hand if fits >> card & 1)

    def _placements(self):
        red = self.rules.seat_is_red[self.player]
        for cell in range(NUM_CELLS):
            if self.board[cell] == EMPTY:
                fits = RANK_CARDS[self.corner_ranks(cell, red)]
                yield from (card * NUM_CELLS + cell for card in cards_of(self.hands[self.player])
                            if fits >> card & 1)

    def _relocations(self):
        """Each own card on the board to every other empty cell it may be laid on, judged
        with its old cell empty."""
        red = self.rules.seat_is_red[self.player]
        for source in range(NUM_CELLS):
            card = self.board[source]
            if card == EMPTY or CARD_IS_RED[card] != red:
                continue
            self.board[source] = EMPTY
            for cell in range(NUM_CELLS):
                if cell != source and self.board[cell] == EMPTY \
                        and self.corner_ranks(cell, red) >> CARD_RANK[card] & 1:
                    yield PLACE_ACTIONS + card * NUM_CELLS + cell
            self.board[source] = card

    def apply(self, action: int) -> None:
        if action < PLACE_ACTIONS:
            card, cell = divmod(action, NUM_CELLS)
            self.hands[self.player] &= ~(1 << card)
            self.board[cell] = card
            self.relocations = 0
            if all(self.board[c] != EMPTY for c in CROSS_CELLS):
                self.main = True
        else:
            card, cell = divmod(action - PLACE_ACTIONS, NUM_CELLS)
            self.board[self.board.index(card)] = EMPTY
            self.board[cell] = card
            self.relocations += 1
        self.player ^= 1
        self.result = self._result()

    def _result(self) -> int:
        """The opponent of the mover has won by laying their last card; the relocation cap
        draws; a mover without a legal move loses."""
        mover = self.player
        if not self.hands[mover ^ 1]:
            return mover ^ 1
        if self.relocations >= self.rules.max_relocations:
            return DRAW
        self.result = ONGOING
        return ONGOING if self.legal_actions() else mover ^ 1
