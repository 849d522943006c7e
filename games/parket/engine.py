"""Parket as a plain Python state machine: the rules of docs/rules/parket.md.

The position is the board (a card or EMPTY per cell), each seat's hand as a card bitmask,
the seat to move, the phase and the relocations in a row.  Nothing is hidden and nothing
is left to chance, so `events` is just the action ids played, and a resample is a copy.
The result is settled right after every move (the legal moves are needed for it anyway),
so `current_player` is a lookup.  For speed the engine keeps, per colour, the ranks each
cell's corners let in (`room`), and after a move recomputes only the cells whose corners
pass through the cells that changed (board.AFFECTED).
"""

from __future__ import annotations

from koloda.games.kit.cards import cards_of
from koloda.games.kit.engine import TERMINAL, Engine
from koloda.games.parket.board import (
    ADJACENT_RANKS, AFFECTED, CARD_IS_RED, CARD_RANK, CORNERS, CORNER_RANKS, CROSS_CELLS, EMPTY,
    INNER_CELLS, INNER_OF, NUM_CELLS, OUTER_CELLS, RANK_CARDS,
)
from koloda.games.parket.position import write_position
from koloda.games.parket.rules import PLACE_ACTIONS

ONGOING, DRAW = -1, 2          # result: ONGOING, a winning seat (0 or 1), or DRAW
_CROSS = tuple(CROSS_CELLS)


class ParketCore(Engine):
    """One Parket position plus the actions that led to it."""

    __slots__ = ("rules", "board", "hands", "player", "main", "relocations", "result",
                 "room", "events", "_legal")
    perfect_information = True

    def __init__(self, rules):
        start = rules.start
        self.rules = rules
        self.board = list(start.board)
        on_board = 0
        for card in start.board:
            if card != EMPTY:
                on_board |= 1 << card
        self.hands = [cards & ~on_board for cards in rules.seat_cards]
        self.player = rules.seat_of_colour[start.to_move]
        self.main = start.main
        self.relocations = start.relocations
        self.events = []
        self.room = ([0] * NUM_CELLS, [0] * NUM_CELLS)     # by colour: black 0, red 1
        self._refresh(range(NUM_CELLS))
        self._settle()

    def copy(self) -> "ParketCore":
        c = ParketCore.__new__(ParketCore)
        c.rules = self.rules
        c.board = self.board[:]
        c.hands = self.hands[:]
        c.player = self.player
        c.main = self.main
        c.relocations = self.relocations
        c.result = self.result
        c.room = (self.room[0][:], self.room[1][:])
        c.events = self.events[:]
        c._legal = self._legal
        return c

    # ----- who moves, what is legal -------------------------------------------------

    def current_player(self) -> int:
        return self.player if self.result == ONGOING else TERMINAL

    def is_chance(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.result != ONGOING

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:            # unpickled: the cache is not kept
            self._settle()
            legal = self._legal
        return legal

    def is_legal(self, action: int) -> bool:
        return self.result == ONGOING and action in self.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def chance_seen_by(self, player: int, outcome: int) -> bool:
        return True

    def _compute_legal(self) -> list[int]:
        if not self.main:
            return self._cross_placements()
        return self._main_placements() or self._relocations()

    def _cross_placements(self) -> list[int]:
        """Any card on an empty inner cell; a card of a rank adjacent to the inner card on
        an empty outer cell whose inner cell is filled."""
        board, hand = self.board, self.hands[self.player]
        out = []
        for cell in INNER_CELLS:
            if board[cell] == EMPTY:
                out += [card * NUM_CELLS + cell for card in cards_of(hand)]
        for cell in OUTER_CELLS:
            inner = board[INNER_OF[cell]]
            if board[cell] == EMPTY and inner != EMPTY:
                fits = hand & RANK_CARDS[ADJACENT_RANKS[CARD_RANK[inner]]]
                out += [card * NUM_CELLS + cell for card in cards_of(fits)]
        out.sort()
        return out

    def _main_placements(self) -> list[int]:
        board, hand = self.board, self.hands[self.player]
        room = self.room[self.rules.seat_is_red[self.player]]
        out = []
        for cell in range(NUM_CELLS):
            if board[cell] == EMPTY:
                ranks = room[cell]
                if ranks:
                    out += [card * NUM_CELLS + cell
                            for card in cards_of(hand & RANK_CARDS[ranks])]
        out.sort()
        return out

    def _relocations(self) -> list[int]:
        """Each own card on the board to every other empty cell where it could be placed,
        judged with its old cell empty (only the cells with a corner through that cell
        see a difference; the others keep their `room`)."""
        board = self.board
        red = self.rules.seat_is_red[self.player]
        room = self.room[red]
        out = []
        for source in range(NUM_CELLS):
            card = board[source]
            if card == EMPTY or CARD_IS_RED[card] != red:
                continue
            board[source] = EMPTY
            bit = 1 << CARD_RANK[card]
            changed = AFFECTED[source]
            base = PLACE_ACTIONS + card * NUM_CELLS
            for cell in range(NUM_CELLS):
                if cell == source or board[cell] != EMPTY:
                    continue
                ranks = self._corner_ranks(cell)[red] if cell in changed else room[cell]
                if ranks & bit:
                    out.append(base + cell)
            board[source] = card
        out.sort()
        return out

    def _refresh(self, cells) -> None:
        """Recompute `room` of the empty cells among `cells`, for both colours."""
        board = self.board
        black, red = self.room
        for cell in cells:
            if board[cell] == EMPTY:
                black[cell], red[cell] = self._corner_ranks(cell)

    def _corner_ranks(self, cell: int) -> tuple[int, int]:
        """The ranks a black and a red mover may place on `cell`: the union over its
        corners (A, B) that are filled and not both of the mover's colour, by the
        sequence rule."""
        board = self.board
        table = CORNER_RANKS[self.rules.corner_order]
        black = red = 0
        for a, b in CORNERS[cell]:
            card_a = board[a]
            if card_a == EMPTY:
                continue
            card_b = board[b]
            if card_b == EMPTY:
                continue
            ranks = table[CARD_RANK[card_a]][CARD_RANK[card_b]]
            red_a, red_b = CARD_IS_RED[card_a], CARD_IS_RED[card_b]
            if not (red_a and red_b):
                red |= ranks
            if red_a or red_b:
                black |= ranks
        return black, red

    # ----- applying actions ----------------------------------------------------------

    def apply(self, action: int) -> None:
        board = self.board
        if action < PLACE_ACTIONS:
            card, cell = divmod(action, NUM_CELLS)
            self.hands[self.player] ^= 1 << card
            self.relocations = 0
            board[cell] = card
            self._refresh(AFFECTED[cell])
            if not self.main and all(board[c] != EMPTY for c in _CROSS):
                self.main = True
        else:
            card, cell = divmod(action - PLACE_ACTIONS, NUM_CELLS)
            source = board.index(card)
            board[source] = EMPTY
            board[cell] = card
            self._refresh(AFFECTED[source])
            self._refresh((source,))
            self._refresh(AFFECTED[cell])
            self.relocations += 1
        self.events.append(action)
        self.player ^= 1
        self._settle()

    def _settle(self) -> None:
        """The result of the position, and its legal moves while it goes on."""
        self._legal = []
        mover = self.player
        if not self.hands[mover ^ 1]:
            self.result = mover ^ 1                  # placed the last card
        elif self.relocations >= self.rules.max_relocations:
            self.result = DRAW
        else:
            self.result = ONGOING
            self._legal = self._compute_legal()
            if not self._legal:
                self.result = mover ^ 1              # no legal move: the mover loses

    # ----- results ---------------------------------------------------------------------

    def winners(self) -> frozenset:
        result = self.result
        return frozenset((result,)) if result == 0 or result == 1 else frozenset()

    def compiled_worlds(self, player: int):
        """The position in Parket's kernel: nothing is hidden, every world is it."""
        from koloda.games.kit.compiled import CompiledGame, CompiledWorlds  # numba: on use
        from koloda.games.parket import kernel
        return CompiledWorlds(CompiledGame.of(kernel, self.rules), kernel.from_engine(self))

    def key(self) -> tuple:
        """The board, the seat to move, the phase and the relocations in a row (the
        hands follow from the board)."""
        return (tuple(self.board), self.player, self.main, self.relocations)

    def position(self) -> str:
        """This position in the notation of docs/rules/parket.md."""
        return write_position(self.board, self.rules.seat_colour[self.player], self.main,
                              self.relocations)

    def resample_history(self, player: int, rng) -> list[int]:
        """Nothing is hidden: the one history is the one played."""
        return list(self.events)
