"""The pure-Python exact solver: negamax alpha-beta over scores that hold value and
distance (scores.py), with a transposition table on a canonical key.

What makes it fast, and the compiled kernel copies each idea:
- cards are classes (rank and colour): a hand is a count per class, so two cards of one
  class give one move, not two;
- the key is the smallest of four Zobrist hashes, one per mirror image of the board,
  updated incrementally; a table move is stored in the orientation of the key;
- the value comes first from one null-window search around 0, the distance after from
  MTD(f) probes that only tighten the bounds already in the table;
- moves are tried table move first, then the ply's two killers (the moves that last cut
  off at that ply, the latest first), then by a history of cut-offs, each weighing more
  the more cards are still in hands (its subtree is bigger);
- a position one relocation from the cap is judged before the table is asked: stuck
  there, it is a draw whatever the table holds, and most such nodes are stuck; so is a
  mover with one card left, who wins by any placement;
- a stuck mover two relocations from the cap, for whom a draw is enough, first looks
  for a relocation that leaves the opponent stuck (a draw at the cap) before searching
  any reply;
- a position of PROBE_FROM cards in hands or more tries its moves in rounds: each
  move's search stops after a budget of nodes and waits for the next round, with
  PROBE_GROWTH times the budget, so a cut-off that a small search proves is found before
  the big searches of moves that fail (nothing a stopped search began is stored);
- a draw's length (every draw scores 0) is the shortest line of drawing moves, found by
  iterative deepening over moves whose child is itself a draw.
"""

from __future__ import annotations

import time

from koloda.games.parket.board import ADJACENT_RANKS, NUM_CELLS
from koloda.solvers.parket.scores import (
    BEST_NONTERMINAL,
    BIG,
    INFINITY,
    WORST_NONTERMINAL,
    to_child,
    to_parent,
)
from koloda.solvers.parket.tables import (
    CELLS_USING,
    CORNER_PAIRS,
    CROSS,
    HISTORY_SHIFT,
    INNER,
    INNER_OF_OUTER,
    NO_PROBE,
    NUM_CLASSES,
    OUTER,
    PROBE_FROM,
    PROBE_GROWTH,
    PROBE_START,
    RANKS_LET_IN,
    RELOCATION,
    SYMMETRIES,
    TABLE_FROM,
    ZOBRIST,
    ZOBRIST_BLACK_TO_MOVE,
    ZOBRIST_CROSS_PHASE,
    ZOBRIST_RELOCATIONS,
)

EMPTY = -1
CELLS = range(NUM_CELLS)
RANK_BITS = tuple(1 << r for r in range(NUM_CLASSES // 2))


class SearchAborted(Exception):
    """The node limit or the deadline was reached before the search finished."""


class CalledOff(SearchAborted):
    """A search stopped by another (fast.FastSearch.call_off): what it was looking for
    has been found."""


class ProbeStopped(Exception):
    """A move's search ran past the budget of the probe around it."""


class ReferenceSearch:
    """One position being searched, made and unmade in place, with the tables that
    outlive a single search (the transposition table, the history, the killers)."""

    def __init__(self, classes, mover: int, main: bool, relocations: int,
                 corner_order: int, max_relocations: int, node_limit: int = 0,
                 deadline: float = 0.0):
        self.board = list(classes)
        self.counts = [2] * NUM_CLASSES
        for klass in self.board:
            if klass != EMPTY:
                self.counts[klass] -= 1
        self.totals = [sum(self.counts[k] for k in range(c, NUM_CLASSES, 2)) for c in (0, 1)]
        self.mover, self.main, self.relocations = mover, main, relocations
        self.hashes = [0, 0, 0, 0]
        for cell, klass in enumerate(self.board):
            if klass != EMPTY:
                self._toggle(cell, klass)
        self.let_in = RANKS_LET_IN[corner_order]
        self.cap = max_relocations
        self.table = {}              # key -> [lower, upper, move in key orientation]
        self.draws = {}              # key -> (shortest draw at least, exact or None)
        self.history = {}
        self.killers = {}            # ply -> [the move that last cut off there, the one before]
        self.undo_stack = []
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.probe_end = NO_PROBE    # the node count at which the tightest probe stops
        self.stats = {"placement_nodes": 0, "relocation_nodes": 0, "terminal_nodes": 0,
                      "table_probes": 0, "table_hits": 0, "table_cutoffs": 0,
                      "probe_stops": 0}

    # ----- the position --------------------------------------------------------------

    def _toggle(self, cell: int, klass: int) -> None:
        hashes = self.hashes
        for s in range(4):
            hashes[s] ^= ZOBRIST[SYMMETRIES[s][cell]][klass]

    def key(self) -> tuple[int, int]:
        """(canonical key, the mirror image that gives it)."""
        hashes = self.hashes
        best = min(range(4), key=hashes.__getitem__)
        extra = ZOBRIST_RELOCATIONS[self.relocations]
        if self.mover:
            extra ^= ZOBRIST_BLACK_TO_MOVE
        if not self.main:
            extra ^= ZOBRIST_CROSS_PHASE
        return hashes[best] ^ extra, best

    def apply(self, move: int) -> None:
        board = self.board
        if move >= RELOCATION:
            source, target = divmod(move - RELOCATION, NUM_CELLS)
            klass = board[source]
            board[source] = EMPTY
            board[target] = klass
            self._toggle(source, klass)
            self._toggle(target, klass)
            self.undo_stack.append((move, self.relocations, self.main))
            self.relocations += 1
        else:
            klass, cell = divmod(move, NUM_CELLS)
            board[cell] = klass
            self.counts[klass] -= 1
            self.totals[self.mover] -= 1
            self._toggle(cell, klass)
            self.undo_stack.append((move, self.relocations, self.main))
            self.relocations = 0
            if not self.main and all(board[c] != EMPTY for c in CROSS):
                self.main = True
        self.mover ^= 1

    def undo(self) -> None:
        move, self.relocations, self.main = self.undo_stack.pop()
        self.mover ^= 1
        board = self.board
        if move >= RELOCATION:
            source, target = divmod(move - RELOCATION, NUM_CELLS)
            klass = board[target]
            board[target] = EMPTY
            board[source] = klass
            self._toggle(source, klass)
            self._toggle(target, klass)
        else:
            klass, cell = divmod(move, NUM_CELLS)
            board[cell] = EMPTY
            self.counts[klass] += 1
            self.totals[self.mover] += 1
            self._toggle(cell, klass)

    def terminal_score(self) -> int | None:
        """-BIG (lost in 0) when the opponent has just placed their last card, 0 at the
        relocation cap, None otherwise (no legal move is found by the move generator)."""
        if self.totals[self.mover ^ 1] == 0:
            return -BIG
        if self.relocations >= self.cap:
            return 0
        return None

    # ----- legal moves ---------------------------------------------------------------

    def _ranks_at(self, cell: int) -> int:
        """The ranks the mover may place on the empty `cell` by the corner rules."""
        board, mover, let_in = self.board, self.mover, self.let_in
        ranks = 0
        for a, b in CORNER_PAIRS[cell]:
            ka = board[a]
            if ka == EMPTY:
                continue
            kb = board[b]
            if kb == EMPTY or (ka & 1 == mover and kb & 1 == mover):
                continue
            ranks |= let_in[ka >> 1][kb >> 1]
        return ranks

    def moves(self) -> list[int]:
        """Every legal move as a code, one per class (placements) or per source and
        target (relocations)."""
        board, counts, mover = self.board, self.counts, self.mover
        held = 0
        for rank in range(NUM_CLASSES // 2):
            if counts[2 * rank + mover]:
                held |= RANK_BITS[rank]
        out = []
        if not self.main:
            for cell in INNER:
                if board[cell] == EMPTY:
                    out += self._placements(held, cell)
            for cell in OUTER:
                inner = board[INNER_OF_OUTER[cell]]
                if board[cell] == EMPTY and inner != EMPTY:
                    out += self._placements(held & ADJACENT_RANKS[inner >> 1], cell)
            return out
        ranks_at = {}
        for cell in CELLS:
            if board[cell] == EMPTY:
                ranks = ranks_at[cell] = self._ranks_at(cell)
                if ranks & held:
                    out += self._placements(ranks & held, cell)
        if out:
            return out
        for source in CELLS:
            klass = board[source]
            if klass == EMPTY or klass & 1 != mover:
                continue
            bit = RANK_BITS[klass >> 1]
            using = CELLS_USING[source]
            board[source] = EMPTY
            for target, ranks in ranks_at.items():
                if ranks & bit and (target not in using or self._ranks_at(target) & bit):
                    out.append(RELOCATION + source * NUM_CELLS + target)
            board[source] = klass
        return out

    def _placements(self, ranks: int, cell: int) -> list[int]:
        mover = self.mover
        return [(2 * rank + mover) * NUM_CELLS + cell
                for rank in range(NUM_CLASSES // 2) if ranks >> rank & 1]

    # ----- the search ----------------------------------------------------------------

    def search(self, alpha: int, beta: int) -> int:
        """Fail-soft negamax: the exact score if it lies strictly between alpha and beta,
        else a bound on the side of the window it falls."""
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise SearchAborted(self.nodes)
        if self.deadline and not self.nodes & 0xFFF and time.perf_counter() > self.deadline:
            raise SearchAborted(self.nodes)
        stats = self.stats
        if self.nodes > self.probe_end:
            stats["probe_stops"] += 1
            raise ProbeStopped
        terminal = self.terminal_score()
        if terminal is not None:
            stats["terminal_nodes"] += 1
            return terminal
        if alpha >= BEST_NONTERMINAL:             # not even a win in 1 would do
            return BEST_NONTERMINAL
        moves = None
        at_cap = self.relocations + 1 >= self.cap
        last_card = self.totals[self.mover] == 1
        if at_cap or last_card:
            # One relocation from the cap: stuck, the node is a draw (or lost, with no
            # relocation either) whatever the table says; only a placement goes on.
            # A mover with one card left wins by any placement.
            moves = self.moves()
            if not moves:
                stats["terminal_nodes"] += 1
                return -BIG
            if moves[0] >= RELOCATION:
                if at_cap:
                    stats["relocation_nodes"] += 1
                    return 0
            elif last_card:
                stats["placement_nodes"] += 1
                return BEST_NONTERMINAL           # the last card goes down: a win in 1
        key, symmetry = self.key()
        tabled = sum(self.totals) > TABLE_FROM     # the last few cards go without it
        if tabled:
            stats["table_probes"] += 1
        entry = self.table.get(key) if tabled else None
        table_move = -1
        if entry is not None:
            stats["table_hits"] += 1
            lower, upper, stored = entry
            if lower >= beta or upper <= alpha or lower == upper:
                stats["table_cutoffs"] += 1
                return lower if lower >= beta or lower == upper else upper
            alpha, beta = max(alpha, lower), min(beta, upper)
            if stored >= 0:
                table_move = mirror(stored, symmetry)
        if moves is None:
            moves = self.moves()
        if not moves:
            stats["terminal_nodes"] += 1
            return -BIG
        if beta <= WORST_NONTERMINAL:             # not even a loss in 2 would do
            return WORST_NONTERMINAL
        relocating = moves[0] >= RELOCATION
        stats["relocation_nodes" if relocating else "placement_nodes"] += 1
        if relocating and beta <= 0 and self.relocations + 2 == self.cap:
            found = self.drawing_relocation(moves)
            if found is not None:
                return found
        history = self.history
        killers = self.killers.setdefault(len(self.undo_stack), [-1, -1])
        moves.sort(key=lambda m: (m != table_move, m != killers[0], m != killers[1],
                                  -history.get(m, 0)))
        low, high = alpha, beta
        best, best_move = -INFINITY, -1
        budget = PROBE_START if tabled and sum(self.totals) >= PROBE_FROM else 0
        waiting = moves                    # the moves whose search has not ended
        while waiting and low < high:
            stopped = []
            for index, move in enumerate(waiting):
                unsearched = len(waiting) - index + len(stopped)
                score = self.probed(move, low, high, budget if unsearched > 1 else 0)
                if score is None:
                    stopped.append(move)
                elif score > best:
                    best, best_move = score, move
                    if score > low:
                        low = score
                        if score >= high:
                            history[move] = history.get(move, 0) + \
                                cutoff_weight(self.totals)
                            if killers[0] != move:
                                killers[:] = [move, killers[0]]
                            break
            waiting = stopped
            budget *= PROBE_GROWTH
        lower, upper = (entry[0], entry[1]) if entry is not None else (-INFINITY, INFINITY)
        if best >= beta:
            lower = best
        elif best <= alpha:
            upper = best
        else:
            lower = upper = best
        if tabled:
            self.table[key] = [lower, upper, mirror(best_move, symmetry)]
        return best

    def probed(self, move: int, low: int, high: int, budget: int) -> int | None:
        """The score of `move` in the window (low, high), or None when its search runs
        past `budget` nodes (0: no budget of its own); an outer probe's stop passes on."""
        outer = self.probe_end
        own = budget > 0 and self.nodes + budget < outer
        if own:
            self.probe_end = self.nodes + budget
        plies = len(self.undo_stack)
        self.apply(move)
        try:
            score = self.search(to_child(high), to_child(low))
        except ProbeStopped:
            while len(self.undo_stack) > plies:
                self.undo()
            self.probe_end = outer
            if own:
                return None
            raise
        self.undo()
        self.probe_end = outer
        return to_parent(score)

    def drawing_relocation(self, moves: list[int]) -> int | None:
        """A stuck mover two relocations from the cap, for whom a draw is enough: the
        score of the first relocation that leaves the opponent stuck (a draw at the cap)
        or without a move (a win), judged as search judges a position one relocation
        from the cap; None when every relocation leaves the opponent a placement."""
        for move in moves:
            self.apply(move)
            self.nodes += 1
            replies = self.moves()
            self.undo()
            if not replies:
                return BEST_NONTERMINAL
            if replies[0] >= RELOCATION:
                return 0
        return None

    def exact(self) -> int:
        """The exact score of the current position: its value first (a null window
        around 0), then its distance by MTD(f) from the bound that search returned."""
        guess = self.search(-1, 1)
        if guess == 0:
            return 0
        lower, upper = (guess, INFINITY) if guess > 0 else (-INFINITY, guess)
        if guess > 0:
            upper = BEST_NONTERMINAL if self.terminal_score() is None else guess
            guess = upper
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            guess = self.search(beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return guess

    def outcome(self) -> int:
        """The sign of the exact score (1 a win for the side to move, 0 a draw, -1 a
        loss): the null window exact() begins with, so a stop in the search of the
        distance after it leaves the value known."""
        guess = self.search(-1, 1)
        return (guess > 0) - (guess < 0)

    def at_most(self, bound: int) -> bool:
        """Whether the exact score is at most `bound`: one null window."""
        return self.search(bound, bound + 1) <= bound

    def scores(self, score: int) -> bool:
        """Whether the current position scores exactly `score` (one window around it)."""
        return self.search(score - 1, score + 1) == score

    def draws_within(self, plies: int) -> bool:
        """Whether this drawn position ends in a draw within `plies` by drawing moves."""
        return self._draw_within(plies)

    def draw_distance(self) -> int:
        """The plies of the shortest line of drawing moves from this drawn position to a
        drawn end."""
        if self.terminal_score() is not None:
            return 0
        depth = max(1, self.cap - self.relocations)
        while not self._draw_within(depth):
            depth += 1
        return depth

    def _draw_feasible(self, plies: int) -> bool:
        """Whether this position could end in a draw within `plies` at all, judged
        without a search (a finished game is left to the search): a draw needs the
        relocations up to the cap, and a side that can place must place first."""
        if self.terminal_score() is not None:
            return True
        if plies < self.cap - self.relocations:
            return False
        moves = self.moves()
        return bool(moves) and (moves[0] >= RELOCATION or plies >= self.cap + 1)

    def _table_wins(self) -> bool:
        """Whether the table already proves that the side to move wins (no search)."""
        if self.terminal_score() is not None:
            return False
        entry = self.table.get(self.key()[0])
        return entry is not None and entry[0] > 0

    def _draw_within(self, depth: int) -> bool:
        """Whether a line of drawing moves of at most `depth` plies ends this drawn
        position in a draw."""
        terminal = self.terminal_score()
        if terminal is not None:
            return terminal == 0
        if depth < self.cap - self.relocations:   # a draw is `cap` relocations in a row
            return False
        self.nodes += 1
        key = self.key()[0]
        at_least, exact = self.draws.get(key, (0, None))
        if exact is not None:
            return exact <= depth
        if depth < at_least:
            return False
        moves = self.moves()
        if moves and moves[0] < RELOCATION:
            # A side that can place must place: then `cap` relocations at least.
            at_least = max(at_least, self.cap + 1)
            if depth < at_least:
                return False
        found = False
        for move in moves:
            self.apply(move)
            # No move of a drawn position loses for its mover, so the child is a draw
            # exactly when its side cannot win: a null window at 0.  It is tested last,
            # once a line is found (most lines fail, and the test costs a search),
            # after a look in the table for a win already proved.  The draw table
            # stays right whatever the order: what it holds for a position (the
            # shortest line of moves that do not lose for their mover) is the
            # position's own.
            if self._draw_feasible(depth - 1) and not self._table_wins() \
                    and self._draw_within(depth - 1) and self.search(0, 1) <= 0:
                found = True
            self.undo()
            if found:
                break
        self.draws[key] = (at_least, depth) if found and depth == at_least else \
            (at_least, None) if found else (depth + 1, None)
        return found


def cutoff_weight(totals) -> int:
    """What a cut-off adds to its move's history: 2**cards in hands (up to
    2**HISTORY_SHIFT), so cut-offs far from the end, over big subtrees, count most."""
    return 1 << min(sum(totals), HISTORY_SHIFT)


def mirror(move: int, symmetry: int) -> int:
    if move < 0 or symmetry == 0:
        return move
    table = SYMMETRIES[symmetry]
    if move >= RELOCATION:
        source, target = divmod(move - RELOCATION, NUM_CELLS)
        return RELOCATION + table[source] * NUM_CELLS + table[target]
    klass, cell = divmod(move, NUM_CELLS)
    return klass * NUM_CELLS + table[cell]
