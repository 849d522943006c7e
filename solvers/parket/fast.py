"""The compiled solver behind the same interface as ReferenceSearch: the position lives
in numpy arrays and every search runs in kernel.py."""

from __future__ import annotations

import numpy as np

from koloda.games.parket.board import NUM_CELLS
from koloda.solvers.parket import kernel as k
from koloda.solvers.parket.reference import CalledOff, SearchAborted
from koloda.solvers.parket.tables import NUM_CLASSES


def table_bits(empty: int) -> int:
    """log2 of the transposition table's entries: small for short endgames, where
    clearing a big table would cost more than the search."""
    return max(12, min(23, 2 * empty - 2))


NO_STORE = np.zeros(1, np.uint64)


class Tables:
    """The transposition table and the draw table (kernel.py packs their entries), of
    2**bits and 2**(bits - 2) entries, and the store of solved positions if there is one
    (store.py): what searches of one solve, or of the positions of one game (game.py),
    share."""

    def __init__(self, bits: int, store=None):
        self.bits = bits
        self.store = store
        self.rules = None         # (corner order, cap) of the searches using these tables
        # A slot's key and entry side by side, in one cache line.
        self.tt = np.zeros((1 << bits, 2), np.uint64)
        self.tt_key, self.tt_val = self.tt[:, 0], self.tt[:, 1]
        self.dr = np.zeros((1 << (bits - 2), 2), np.uint64)
        self.dr_key, self.dr_val = self.dr[:, 0], self.dr[:, 1]

    @classmethod
    def for_empty(cls, empty: int, store=None) -> Tables:
        return cls(table_bits(empty), store)

    def store_arrays(self, corner_order: int, max_relocations: int):
        """(keys, entries, cards in hands from which to ask) of the store's table for
        the rules of a search using these tables (every search of them plays under the
        same rules: the table's keys do not hold them); empty arrays and 0 without a
        store."""
        self.rules = (corner_order, max_relocations)
        if self.store is None:
            return NO_STORE, NO_STORE, 0
        return (*self.store.probe_table(corner_order, max_relocations),
                self.store.min_depth)

    def save_to_store(self) -> None:
        """Merges what the table proved of big subtrees into the store's file, under the
        rules of the searches that used it."""
        if self.store is None or self.rules is None:
            return
        out_keys = np.empty(self.tt_val.size, np.uint64)    # only what is kept is touched
        out_vals = np.empty(self.tt_val.size, np.uint64)
        n = k.harvest(self.tt_key, self.tt_val, self.store.min_depth, out_keys, out_vals)
        self.store.add(out_keys[:n], out_vals[:n], *self.rules)
        self.store.flush()


class FastSearch:
    def __init__(self, classes, mover: int, main: bool, relocations: int,
                 corner_order: int, max_relocations: int, node_limit: int = 0,
                 deadline: float = 0.0, tables: Tables | None = None):
        self._args = (list(classes), mover, main, relocations, corner_order,
                      max_relocations, node_limit, deadline)
        empty = sum(1 for klass in classes if klass < 0)
        self.tables = tables = tables or Tables.for_empty(empty)
        self.tt_key, self.tt_val = tables.tt_key, tables.tt_val
        self.dr_key, self.dr_val = tables.dr_key, tables.dr_val
        st = np.zeros(k.STATE_SIZE, np.int64)
        st[:NUM_CELLS] = classes
        counts = [2] * NUM_CLASSES
        for klass in classes:
            if klass >= 0:
                counts[klass] -= 1
        st[k.COUNTS:k.COUNTS + NUM_CLASSES] = counts
        for colour in (0, 1):
            st[k.TOTALS + colour] = sum(counts[colour::2])
        st[k.MOVER], st[k.MAIN], st[k.RELOCS] = mover, int(main), relocations
        st[k.CAP], st[k.ORDER] = max_relocations, corner_order
        st[k.NODE_LIMIT] = node_limit
        st[k.DEADLINE_MS] = int(deadline * 1000)
        k.cell_masks(st)
        self.st = st
        self.h = np.zeros(4, np.uint64)
        for cell, klass in enumerate(classes):
            if klass >= 0:
                k.toggle(self.h, cell, klass)
        max_ply = (empty + 2) * (max_relocations + 1) + 8
        self.stack = np.zeros(3 * max_ply, np.int64)
        self.buf = np.zeros(max_ply * k.MAX_MOVES, np.int64)
        self.frames = np.zeros((max_ply, k.FRAME), np.int64)
        self.frame_keys = np.zeros(max_ply, np.uint64)
        self.draw_frames = np.zeros((max_ply, k.FRAME), np.int64)
        self.draw_keys = np.zeros(max_ply, np.uint64)
        self.hist = np.zeros(k.RELOCATION + NUM_CELLS * NUM_CELLS, np.int64)
        self.killers = np.zeros((max_ply, 2), np.int64)
        store_keys, store_vals, st[k.STORE_FROM] = tables.store_arrays(corner_order,
                                                                       max_relocations)
        self.arrays = k.Arrays(self.st, self.h, self.stack, self.tt_key, self.tt_val,
                               self.hist, self.killers, self.buf, self.frames,
                               self.frame_keys, store_keys, store_vals)
        self.draw_arrays = k.DrawArrays(self.dr_key, self.dr_val, self.draw_frames,
                                        self.draw_keys)
        self.called_off = False
        self.twins = []          # the searches twin() made, whose counters add to ours

    def twin(self) -> FastSearch:
        """A new search of the position this one started from, with the same limits,
        sharing this one's tables (kernel.py says how two threads share them safely): a
        second worker of one solve (driver.py)."""
        twin = FastSearch(*self._args, tables=self.tables)
        self.twins.append(twin)
        return twin

    @property
    def nodes(self) -> int:
        return int(self.st[k.NODES])

    @property
    def stats(self) -> dict:
        st = self.st
        return {"placement_nodes": int(st[k.STAT_PLACE]),
                "relocation_nodes": int(st[k.STAT_RELOC]),
                "terminal_nodes": int(st[k.STAT_TERMINAL]),
                "table_probes": int(st[k.STAT_PROBES]), "table_hits": int(st[k.STAT_HITS]),
                "table_cutoffs": int(st[k.STAT_CUTS]),
                "probe_stops": int(st[k.STAT_PROBE_STOPS]),
                "store_hits": int(st[k.STAT_STORE_HITS])}

    def apply(self, move: int) -> None:
        k.apply_move(self.st, self.h, self.stack, move)

    def undo(self) -> None:
        k.undo_move(self.st, self.h, self.stack)

    def moves(self) -> list[int]:
        ply = int(self.st[k.SP])
        n = k.generate(self.st, self.buf, ply * k.MAX_MOVES, k.MAX_MOVES)
        return [int(m) for m in self.buf[ply * k.MAX_MOVES:ply * k.MAX_MOVES + n]]

    def exact(self) -> int:
        score = k.exact(self.arrays, int(self.st[k.SP]))
        self._check()
        return int(score)

    def outcome(self) -> int:
        """The sign of the exact score, as ReferenceSearch.outcome."""
        guess = int(k.search(self.arrays, int(self.st[k.SP]), -1, 1))
        self._check()
        return (guess > 0) - (guess < 0)

    def at_most(self, bound: int) -> bool:
        """Whether the exact score is at most `bound`: one null window."""
        found = k.search(self.arrays, int(self.st[k.SP]), bound, bound + 1)
        self._check()
        return int(found) <= bound

    def scores(self, score: int) -> bool:
        found = k.search(self.arrays, int(self.st[k.SP]), score - 1, score + 1)
        self._check()
        return int(found) == score

    def draws_within(self, plies: int) -> bool:
        found = k.draw_within(self.arrays, self.draw_arrays, int(self.st[k.SP]), plies)
        self._check()
        return bool(found)

    def draw_distance(self) -> int:
        depth = k.draw_distance(self.arrays, self.draw_arrays, int(self.st[k.SP]))
        self._check()
        return int(depth)

    def helping(self, on: bool) -> None:
        """Whether this search helps another on the same position: it then tries the
        last generated of equally promising moves first, to take another path."""
        self.st[k.LAST_FIRST] = int(on)

    def call_off(self) -> None:
        """Stops this search's current and next kernel call (from another thread), with
        CalledOff; resume() takes it back.  The kernel unwinds to where it was called."""
        self.called_off = True
        self.st[k.ABORTED] = 1

    def resume(self) -> None:
        self.called_off = False
        self.st[k.ABORTED] = 0

    def _check(self) -> None:
        if self.st[k.ABORTED]:
            if self.called_off:
                raise CalledOff(self.nodes)
            raise SearchAborted(self.nodes)
