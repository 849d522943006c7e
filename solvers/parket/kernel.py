"""The compiled search: the reference solver's algorithm (reference.py) in numba, over
flat integer arrays.  Every function here is `njit(cache=True)`, so the machine code is
kept on disk after the first compile; the searches release the GIL (`nogil`), so two
searches of one solve run on two cores (driver.py).

State array `st` (int64, laid out in STATE below): the board's class per cell (-1 empty)
first, then the hand counts per class, the hand totals per colour, the side to move, the
phase, the relocations in a row, the rules, the counters, and scratch for the move
generator.  A search's arrays travel as one record (`Arrays`: the position, its hashes
and undo stack, the table, the history of cut-offs per move code, the killer moves per
ply, the frames).

The transposition table is two arrays (views of one, so that a slot's two words share a
cache line) of buckets of two slots at `key & mask`: the first keeps the entry of the
most cards in hands (the biggest subtree), the second is always replaced.  `tt_val` packs
an entry's lower and upper bound, its move and its cards in hands into one word, and
`tt_key` holds the key XOR that word.  Positions of TABLE_FROM cards in hands or fewer
are searched without it: they are many, cheap, and would push the rest out.

A position of PROBE_FROM cards in hands or more tries its moves in rounds (`_probe`):
each move's search stops after a budget of nodes, and a move stopped so is tried again in
the next round, with PROBE_GROWTH times the budget.  A move whose search ends (its score
known) is not tried again.  So a cut-off that a small search proves comes before the big
searches of moves tried earlier in the history's order, which fail.  Nothing a stopped
search began is stored (a stopped position proves no bound); what its finished
subtrees stored stays in the table for the next round.

The two searches of one solve share the table (and the draw table, packed alike) from two
threads: a torn entry, half written by the other thread, fails the XOR check and reads as
a miss, so every entry read is one that was written whole, and each is a true bound on
its position, whichever search wrote it.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from koloda.games.kit.layout import StateLayout
from koloda.games.parket.board import ADJACENT_RANKS, NUM_CELLS
from koloda.solvers.parket import tables
from koloda.solvers.parket.scores import BEST_NONTERMINAL, BIG, INFINITY, WORST_NONTERMINAL

# --- layout of the state array ---------------------------------------------------------
STATE = StateLayout("the solver's state array")
CELLS = STATE.block("CELLS", NUM_CELLS, "The class per cell, -1 empty: first, as st[cell].")
COUNTS = STATE.block("COUNTS", tables.NUM_CLASSES, "The hand counts per class.")
TOTALS = STATE.block("TOTALS", 2, "The hand totals per colour (red, black).")
MOVER = STATE.word("MOVER")
MAIN = STATE.flag("MAIN")
RELOCS = STATE.word("RELOCS", "Relocations in a row.")
CAP = STATE.word("CAP", "The relocations in a row that draw.")
ORDER = STATE.word("ORDER", "The corner order.")
SP = STATE.word("SP", "The undo stack pointer.")
NODES = STATE.word("NODES")
NODE_LIMIT = STATE.word("NODE_LIMIT")
ABORTED = STATE.flag("ABORTED")
DEADLINE_MS = STATE.word("DEADLINE_MS")
(STAT_PLACE, STAT_RELOC, STAT_TERMINAL, STAT_PROBES, STAT_HITS, STAT_CUTS) = STATE.scalars(
    "STAT_PLACE STAT_RELOC STAT_TERMINAL STAT_PROBES STAT_HITS STAT_CUTS")
STAT_PROBE_STOPS = STATE.word("STAT_PROBE_STOPS", "Moves' searches stopped at their "
                              "probe's budget.")
STAT_STORE_HITS = STATE.word("STAT_STORE_HITS", "Entries found in the store of solved "
                             "positions (store.py) where the table had none.")
STORE_FROM = STATE.word("STORE_FROM", "The cards in hands from which the store is asked "
                        "(its entries' least); 0 without a store.")
LAST_FIRST = STATE.flag("LAST_FIRST", "Among equally promising moves, the last generated "
                        "first.")
EMPTY_CELLS = STATE.word("EMPTY_CELLS", "The empty cells, a bit per cell.")
OWN_CELLS = STATE.block("OWN_CELLS", 2, "The cells holding each colour's cards, a bit "
                        "per cell.")
HELD = STATE.block("HELD", 2, "The ranks in each colour's hand, a bit per rank.")
MASKS = STATE.block("MASKS", NUM_CELLS, "Scratch rank masks of the move generator.")
PROBE_END = STATE.word("PROBE_END", "The node count at which the tightest probe running "
                       "stops its move's search.")
PROBE_OWNER = STATE.word("PROBE_OWNER", "The depth of the position whose probe that is.")
PROBE_STOPPED = STATE.flag("PROBE_STOPPED", "Unwinding to PROBE_OWNER, storing nothing.")
STATE_SIZE = STATE.size
MAX_MOVES = 512


class Arrays(NamedTuple):
    """What one search works in (fast.py allocates them): the position, the shared
    transposition table, and its own history, move buffer and frames."""
    st: np.ndarray            # the state array (STATE)
    h: np.ndarray             # the four mirror hashes
    stack: np.ndarray         # the undo stack: (move, relocations, main) a ply
    tt_key: np.ndarray        # the transposition table: key XOR entry
    tt_val: np.ndarray        # its packed entries (pack_entry)
    hist: np.ndarray          # cut-offs per move code
    killers: np.ndarray       # the two moves (code + 1, 0 none) that last cut off a ply
    buf: np.ndarray           # MAX_MOVES moves a ply
    fr: np.ndarray            # the frames of the unrolled recursion (FRAME words a depth)
    keys: np.ndarray          # the key at each depth
    store_keys: np.ndarray    # the store of solved positions (store.py): keys, 0 empty
    store_vals: np.ndarray    # and their packed entries


class DrawArrays(NamedTuple):
    """What the search for drawing lines adds: the shared draw table and its frames."""
    dr_key: np.ndarray
    dr_val: np.ndarray
    dfr: np.ndarray
    dkeys: np.ndarray
RELOCATION = tables.RELOCATION

# --- rule tables as arrays (numba freezes global arrays into the code) ---------------
CORNER_A = np.full((NUM_CELLS, 8), -1, np.int64)
CORNER_B = np.full((NUM_CELLS, 8), -1, np.int64)
CORNER_N = np.zeros(NUM_CELLS, np.int64)
for _cell, _pairs in enumerate(tables.CORNER_PAIRS):
    CORNER_N[_cell] = len(_pairs)
    for _i, (_a, _b) in enumerate(_pairs):
        CORNER_A[_cell, _i], CORNER_B[_cell, _i] = _a, _b
LET_IN = np.array(tables.RANKS_LET_IN, np.int64)
# The same, padded to 16 ranks: a corner's class masked to 5 bits reads rank 15 when the
# corner is empty (class -1), and rank 15 lets nothing in, so ranks_at needs no branch.
LET_IN_16 = np.zeros((LET_IN.shape[0], 16, 16), np.int64)
LET_IN_16[:, :LET_IN.shape[1], :LET_IN.shape[2]] = LET_IN
USING = np.array([sum(1 << x for x in cells) for cells in tables.CELLS_USING], np.int64)
SYM = np.array(tables.SYMMETRIES, np.int64)
ZOB = np.array(tables.ZOBRIST, np.uint64)
# ZOB_IMAGES[cell, klass, s]: the number a card adds to the hash of mirror image s, the
# four side by side.
ZOB_IMAGES = np.ascontiguousarray(
    np.stack([ZOB[SYM[s]] for s in range(4)], axis=-1))
Z_BLACK = np.uint64(tables.ZOBRIST_BLACK_TO_MOVE)
Z_CROSS = np.uint64(tables.ZOBRIST_CROSS_PHASE)
Z_RELOCS = np.array(tables.ZOBRIST_RELOCATIONS, np.uint64)
INNER = np.array(tables.INNER, np.int64)
OUTER = np.array(tables.OUTER, np.int64)
INNER_OF = np.array(tables.INNER_OF_OUTER, np.int64)
CROSS = np.array(tables.CROSS, np.int64)
ADJACENT = np.array(ADJACENT_RANKS, np.int64)

# The index of a bit (a power of two) by de Bruijn multiplication.
DE_BRUIJN = 0x03F79D71B4CB0A89
BIT_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    BIT_INDEX[(((1 << _i) * DE_BRUIJN) & (2 ** 64 - 1)) >> 58] = _i
U_DE_BRUIJN, U58 = np.uint64(DE_BRUIJN), np.uint64(58)


# --- packed table entries ------------------------------------------------------------

OFFSET = INFINITY + 1          # scores -INFINITY..INFINITY as 1..2 * INFINITY + 1
LOW16 = np.uint64(0xFFFF)
U16, U32 = np.uint64(16), np.uint64(32)


@njit(cache=True)
def pack_entry(lower, upper, move):
    return (np.uint64(lower + OFFSET) | (np.uint64(upper + OFFSET) << U16)
            | (np.uint64(move + 1) << U32))


MOVE_MASK = np.uint64(0xFFF)              # move codes + 1 are below 4096
U_DEPTH = np.uint64(tables.ENTRY_DEPTH_SHIFT)   # then the cards in hands when stored


@njit(cache=True)
def unpack_entry(data):
    """(lower, upper, move) of a packed entry."""
    return (np.int64(data & LOW16) - OFFSET, np.int64((data >> U16) & LOW16) - OFFSET,
            np.int64((data >> U32) & MOVE_MASK) - 1)


@njit(cache=True)
def entry_depth(data):
    return np.int64(data >> U_DEPTH)


@njit(cache=True)
def find_slot(tt_key, tt_val, key):
    """The slot of the two of `key`'s bucket that holds `key`, or -1."""
    first = np.int64(key & np.uint64(tt_key.size - 2))
    for slot in range(first, first + 2):
        if tt_key[slot] ^ tt_val[slot] == key:
            return slot
    return -1


@njit(cache=True)
def slot_to_write(tt_key, tt_val, key, depth):
    """Where an entry of `key` stored at `depth` (cards in hands) goes: its own slot if
    it has one, else the bucket's first slot if that holds no deeper entry, else the
    second (always replaced): entries of big subtrees are not pushed out by the many
    small ones near the end."""
    found = find_slot(tt_key, tt_val, key)
    if found >= 0:
        return found
    first = np.int64(key & np.uint64(tt_key.size - 2))
    if entry_depth(tt_val[first]) <= depth:
        return first
    return first + 1


@njit(cache=True)
def store(keys, datas, slot, key, data):
    datas[slot] = data
    keys[slot] = key ^ data


# --- the store of solved positions (store.py) -------------------------------------------

@njit(cache=True)
def store_lookup(keys, vals, key):
    """The store's entry of `key`, 0 when it has none (linear probing; key 0 is empty)."""
    mask = np.uint64(keys.size - 1)
    slot = key & mask
    while keys[slot] != 0:
        if keys[slot] == key:
            return vals[slot]
        slot = (slot + np.uint64(1)) & mask
    return np.uint64(0)


@njit(cache=True)
def build_store_table(keys, datas, table_keys, table_vals):
    """Enters the entries into the open addressing table (at most half full)."""
    mask = np.uint64(table_keys.size - 1)
    for i in range(keys.size):
        key = keys[i]
        if key == 0:
            continue
        slot = key & mask
        while table_keys[slot] != 0 and table_keys[slot] != key:
            slot = (slot + np.uint64(1)) & mask
        table_keys[slot] = key
        table_vals[slot] = datas[i]


@njit(cache=True)
def harvest(tt_key, tt_val, min_depth, out_keys, out_vals):
    """Copies the table's entries of at least `min_depth` cards in hands, moves left out,
    to out_*; returns how many."""
    n = 0
    for slot in range(tt_val.size):
        data = tt_val[slot]
        if data == 0 or entry_depth(data) < min_depth:
            continue
        out_keys[n] = tt_key[slot] ^ data
        out_vals[n] = data & ~(MOVE_MASK << U32)
        n += 1
    return n


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def toggle(h, cell, klass):
    for s in range(4):
        h[s] ^= ZOB_IMAGES[cell, klass, s]


@njit(cache=True)
def key_of(st, h):
    """(canonical key, the mirror image that gives it)."""
    best = 0
    for s in range(1, 4):
        if h[s] < h[best]:
            best = s
    key = h[best] ^ Z_RELOCS[st[RELOCS]]
    if st[MOVER] == 1:
        key ^= Z_BLACK
    if st[MAIN] == 0:
        key ^= Z_CROSS
    return key, best


@njit(cache=True)
def relocation_cells(move):
    """(source, target) of a relocation's code."""
    return (move - RELOCATION) // NUM_CELLS, (move - RELOCATION) % NUM_CELLS


@njit(cache=True)
def mirror(move, s):
    if move < 0 or s == 0:
        return move
    if move >= RELOCATION:
        source, target = relocation_cells(move)
        return RELOCATION + SYM[s, source] * NUM_CELLS + SYM[s, target]
    return (move // NUM_CELLS) * NUM_CELLS + SYM[s, move % NUM_CELLS]


@njit(cache=True)
def bit_index(bit):
    return BIT_INDEX[(np.uint64(bit) * U_DE_BRUIJN) >> U58]


@njit(cache=True)
def cell_masks(st):
    """Sets EMPTY_CELLS, OWN_CELLS and HELD from the board and the hands."""
    empty, red, black = 0, 0, 0
    for cell in range(NUM_CELLS):
        if st[cell] < 0:
            empty |= 1 << cell
        elif st[cell] & 1:
            black |= 1 << cell
        else:
            red |= 1 << cell
    st[EMPTY_CELLS], st[OWN_CELLS], st[OWN_CELLS + 1] = empty, red, black
    for colour in range(2):
        held = 0
        for rank in range(9):
            if st[COUNTS + 2 * rank + colour] > 0:
                held |= 1 << rank
        st[HELD + colour] = held


@njit(cache=True)
def flip_cells(st, cells, klass):
    """The cells' bits (a card of `klass` placed or lifted there) in EMPTY_CELLS and its
    colour's OWN_CELLS: flipping twice undoes."""
    st[EMPTY_CELLS] ^= cells
    st[OWN_CELLS + (klass & 1)] ^= cells


@njit(cache=True)
def shift_card(st, source, target):
    """Moves the card on `source` to the empty `target`, on the board and in the cell
    masks (the hashes are the caller's); returns its class."""
    klass = st[source]
    st[source] = -1
    st[target] = klass
    flip_cells(st, (1 << source) | (1 << target), klass)
    return klass


@njit(cache=True)
def apply_move(st, h, stack, move):
    sp = st[SP]
    stack[3 * sp] = move
    stack[3 * sp + 1] = st[RELOCS]
    stack[3 * sp + 2] = st[MAIN]
    st[SP] = sp + 1
    if move >= RELOCATION:
        source, target = relocation_cells(move)
        klass = shift_card(st, source, target)
        toggle(h, source, klass)
        toggle(h, target, klass)
        st[RELOCS] += 1
    else:
        klass = move // NUM_CELLS
        cell = move % NUM_CELLS
        st[cell] = klass
        st[COUNTS + klass] -= 1
        if st[COUNTS + klass] == 0:
            st[HELD + (klass & 1)] ^= 1 << (klass >> 1)
        st[TOTALS + st[MOVER]] -= 1
        toggle(h, cell, klass)
        flip_cells(st, 1 << cell, klass)
        st[RELOCS] = 0
        if st[MAIN] == 0:
            full = 1
            for c in CROSS:
                if st[c] < 0:
                    full = 0
            st[MAIN] = full
    st[MOVER] ^= 1


@njit(cache=True)
def undo_move(st, h, stack):
    sp = st[SP] - 1
    st[SP] = sp
    move = stack[3 * sp]
    st[RELOCS] = stack[3 * sp + 1]
    st[MAIN] = stack[3 * sp + 2]
    st[MOVER] ^= 1
    if move >= RELOCATION:
        source, target = relocation_cells(move)
        klass = shift_card(st, target, source)
        toggle(h, source, klass)
        toggle(h, target, klass)
    else:
        klass = move // NUM_CELLS
        cell = move % NUM_CELLS
        st[cell] = -1
        st[COUNTS + klass] += 1
        if st[COUNTS + klass] == 1:
            st[HELD + (klass & 1)] ^= 1 << (klass >> 1)
        st[TOTALS + st[MOVER]] += 1
        toggle(h, cell, klass)
        flip_cells(st, 1 << cell, klass)


@njit(cache=True)
def terminal_score(st):
    """-BIG when the opponent has just placed their last card, 0 at the relocation cap,
    1 (no score) otherwise."""
    if st[TOTALS + (st[MOVER] ^ 1)] == 0:
        return -BIG
    if st[RELOCS] >= st[CAP]:
        return 0
    return 1


# --- legal moves -----------------------------------------------------------------------

@njit(cache=True)
def ranks_at(st, cell):
    """The ranks `cell`'s corners let in for the mover: a corner counts when both its
    cells are filled and one is the opponent's.  Without branches (whose outcome the
    board decides), through LET_IN_16."""
    mover = st[MOVER]
    order = st[ORDER]
    ranks = 0
    for i in range(CORNER_N[cell]):
        ka = st[CORNER_A[cell, i]] & 31
        kb = st[CORNER_B[cell, i]] & 31
        foreign = ((ka ^ mover) | (kb ^ mover)) & 1
        ranks |= LET_IN_16[order, ka >> 1, kb >> 1] & -foreign
    return ranks


@njit(cache=True)
def _emit(out, base, n, ranks, cell, mover):
    for rank in range(9):
        if ranks >> rank & 1:
            out[base + n] = (2 * rank + mover) * NUM_CELLS + cell
            n += 1
    return n


@njit(cache=True)
def generate(st, out, base, enough=MAX_MOVES):
    """Writes the legal move codes at out[base:]; returns how many.  Relocations stop
    after `enough` of them (a node one relocation from the cap only needs to know that
    one exists: every relocation there draws)."""
    mover = st[MOVER]
    held = st[HELD + mover]
    n = 0
    if st[MAIN] == 0:
        for cell in INNER:
            if st[cell] < 0:
                n = _emit(out, base, n, held, cell, mover)
        for cell in OUTER:
            inner = st[INNER_OF[cell]]
            if st[cell] < 0 and inner >= 0:
                n = _emit(out, base, n, held & ADJACENT[inner >> 1], cell, mover)
        return n
    empty = st[EMPTY_CELLS]
    reachable = 0                     # the ranks some empty cell lets in
    rest = empty
    while rest:
        bit = rest & -rest
        rest ^= bit
        cell = bit_index(bit)
        ranks = ranks_at(st, cell)
        st[MASKS + cell] = ranks
        reachable |= ranks
        if ranks & held:
            n = _emit(out, base, n, ranks & held, cell, mover)
    if n > 0:
        return n
    # Emptying a source takes corners away and never adds one, so a card can only go
    # where its rank is let in now; a target whose corners use the source is checked
    # again with the source empty.
    sources = st[OWN_CELLS + mover]
    while sources:
        bit = sources & -sources
        sources ^= bit
        source = bit_index(bit)
        klass = st[source]
        rank_bit = 1 << (klass >> 1)
        if not reachable & rank_bit:
            continue
        using = USING[source]
        st[source] = -1
        targets = empty
        while targets:
            bit = targets & -targets
            targets ^= bit
            target = bit_index(bit)
            if not st[MASKS + target] & rank_bit:
                continue
            if (using >> target) & 1 and not ranks_at(st, target) & rank_bit:
                continue
            out[base + n] = RELOCATION + source * NUM_CELLS + target
            n += 1
            if n >= enough:
                st[source] = klass
                return n
        st[source] = klass
    return n


# --- the search ------------------------------------------------------------------------

@njit(cache=True)
def to_parent(child):
    if child < 0:
        return -child - 1
    if child > 0:
        return -child + 1
    return 0


@njit(cache=True)
def to_child(bound):
    if bound > 0:
        return -bound - 1
    if bound < 0:
        return -bound + 1
    return 0


@njit(cache=True)
def _out_of_budget(st):
    st[NODES] += 1
    if st[NODE_LIMIT] > 0 and st[NODES] > st[NODE_LIMIT]:
        st[ABORTED] = 1
    elif st[DEADLINE_MS] > 0 and st[NODES] & 0x3FFF == 0:
        with objmode(now="int64"):
            now = int(time.perf_counter() * 1000)
        if now > st[DEADLINE_MS]:
            st[ABORTED] = 1
    return st[ABORTED] == 1


# Frame fields of the iterative search (numba cannot cache a recursive function).
F_ALPHA, F_BETA, F_LOW, F_HIGH, F_BEST, F_BEST_MOVE, F_N, F_I, F_TABLED, F_SYM = range(10)
F_TABLE_MOVE = 10
# Probes: the budget of a move's search (0: no probe), the moves whose search ended (first
# in the move list), and the probe running outside this one (restored after each move).
F_BUDGET, F_DONE, F_OUTER_END, F_OUTER_OWNER = 11, 12, 13, 14
FRAME = 15


HISTORY_SHIFT = tables.HISTORY_SHIFT
TABLE_FROM = tables.TABLE_FROM
PROBE_FROM, PROBE_START, PROBE_GROWTH = tables.PROBE_FROM, tables.PROBE_START, tables.PROBE_GROWTH
NO_PROBE = tables.NO_PROBE
TABLE_MOVE_WEIGHT = 1 << 62
KILLER_WEIGHT, SECOND_KILLER_WEIGHT = 1 << 61, 1 << 60    # above any history


@njit(cache=True)
def _new_killer(killers, ply, move):
    """`move` cut off at `ply`: the ply's killer, the one before it second."""
    if killers[ply, 0] != move + 1:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = move + 1


@njit(cache=True)
def _pick(buf, base, i, n, hist, table_move, killer, second_killer, last_first):
    """Moves the most promising of buf[base + i:base + n] to base + i: the table move,
    else the ply's killers (`killer` before `second_killer`, each a code + 1), else the
    one with the most history cut-offs, the first generated among equals (the last with
    `last_first`, so that a helping search takes another path than the search it helps,
    driver.py).  One step of a selection sort, so a node cut off after one move never
    pays for ordering the rest."""
    best, weight = i, -1
    for k in range(i, n):
        j = n - 1 - (k - i) if last_first else k
        move = buf[base + j]
        if move == table_move:
            w = TABLE_MOVE_WEIGHT
        elif move + 1 == killer:
            w = KILLER_WEIGHT
        elif move + 1 == second_killer:
            w = SECOND_KILLER_WEIGHT
        else:
            w = hist[move]
        if w > weight:
            best, weight = j, w
    move = buf[base + best]
    buf[base + best] = buf[base + i]
    buf[base + i] = move
    return move


@njit(cache=True)
def _drawing_relocation(st, buf, base, n):
    """A stuck mover two relocations from the cap, for whom a draw is enough: its
    relocations at buf[base:base + n] judged by the opponent's reply, as the search
    judges a position one relocation from the cap, until one ends the search: 0 when it
    leaves the opponent stuck (a draw), the best win when it leaves the opponent no
    move; INFINITY when none does, and every relocation is searched.  Judged first, a
    draw is found before any reply that places is searched.  A reply is played on the
    board alone (no hashes, no undo stack) and counts as a node."""
    for i in range(n):
        source, target = relocation_cells(buf[base + i])
        shift_card(st, source, target)
        st[MOVER] ^= 1
        replies = generate(st, buf, base + MAX_MOVES, 1)
        st[MOVER] ^= 1
        shift_card(st, target, source)
        st[NODES] += 1
        if replies == 0:
            return BEST_NONTERMINAL
        if buf[base + MAX_MOVES] >= RELOCATION:
            return 0
    return INFINITY


@njit(cache=True)
def _probe(st, fr, d):
    """Before a move of the probing position at depth d is searched: keeps the probe
    running outside, and starts this one's if it stops sooner.  The last move not yet
    searched to its end needs no probe: it is searched whole."""
    fr[d, F_OUTER_END], fr[d, F_OUTER_OWNER] = st[PROBE_END], st[PROBE_OWNER]
    if fr[d, F_N] - fr[d, F_DONE] > 1:
        end = st[NODES] + fr[d, F_BUDGET]
        if end < st[PROBE_END]:
            st[PROBE_END], st[PROBE_OWNER] = end, d


@njit(cache=True, nogil=True)
def search(a, root_ply, alpha0, beta0):
    """Fail-soft negamax, as ReferenceSearch.search, with its recursion unrolled onto the
    frame array `a.fr` (depth d plays at ply root_ply + d).  `a` is the search's Arrays."""
    st, h, stack, tt_key, tt_val, hist, killers, buf, fr, keys, store_keys, store_vals = a
    d = 0
    st[PROBE_END], st[PROBE_OWNER], st[PROBE_STOPPED] = NO_PROBE, -1, 0
    fr[0, F_ALPHA] = alpha0
    fr[0, F_BETA] = beta0
    entering = True
    ret = 0
    while True:
        if entering:
            entering = False
            alpha, beta = fr[d, F_ALPHA], fr[d, F_BETA]
            if _out_of_budget(st):
                ret = 0
                continue
            if st[NODES] > st[PROBE_END]:
                st[PROBE_STOPPED] = 1
                st[STAT_PROBE_STOPS] += 1
                ret = 0
                continue
            terminal = terminal_score(st)
            if terminal != 1:
                st[STAT_TERMINAL] += 1
                ret = terminal
                continue
            if alpha >= BEST_NONTERMINAL:
                ret = BEST_NONTERMINAL
                continue
            base = (root_ply + d) * MAX_MOVES
            generated = False
            at_cap = st[RELOCS] + 1 >= st[CAP]
            last_card = st[TOTALS + st[MOVER]] == 1
            if at_cap or last_card:
                # One relocation from the cap: stuck, the node is a draw (or lost, with
                # no relocation either) whatever the table says; only a placement goes on.
                # A mover with one card left wins by any placement.  Both are judged
                # before the table is asked.
                n = generate(st, buf, base, 1 if at_cap else MAX_MOVES)
                if n == 0:
                    st[STAT_TERMINAL] += 1
                    ret = -BIG
                    continue
                if buf[base] >= RELOCATION:
                    if at_cap:
                        st[STAT_RELOC] += 1
                        ret = 0
                        continue
                elif last_card:
                    st[STAT_PLACE] += 1
                    ret = BEST_NONTERMINAL
                    continue
                generated = True
            lower, upper, table_move = -INFINITY, INFINITY, -1
            in_hands = st[TOTALS] + st[TOTALS + 1]
            tabled = in_hands > TABLE_FROM
            data = np.uint64(0)
            key, sym = np.uint64(0), 0
            if tabled:
                key, sym = key_of(st, h)
                st[STAT_PROBES] += 1
                slot = find_slot(tt_key, tt_val, key)
                if slot >= 0:
                    st[STAT_HITS] += 1
                    data = tt_val[slot]
                elif st[STORE_FROM] and in_hands >= st[STORE_FROM]:
                    data = store_lookup(store_keys, store_vals, key)
                    if data:
                        st[STAT_STORE_HITS] += 1
            if data:
                lower, upper, stored_move = unpack_entry(data)
                if lower >= beta or lower == upper:
                    st[STAT_CUTS] += 1
                    ret = lower
                    continue
                if upper <= alpha:
                    st[STAT_CUTS] += 1
                    ret = upper
                    continue
                alpha = max(alpha, lower)
                beta = min(beta, upper)
                table_move = mirror(stored_move, sym)
            if not generated:
                n = generate(st, buf, base)
            if n == 0:
                st[STAT_TERMINAL] += 1
                ret = -BIG
                continue
            if beta <= WORST_NONTERMINAL:
                ret = WORST_NONTERMINAL
                continue
            if buf[base] >= RELOCATION:
                st[STAT_RELOC] += 1
                if beta <= 0 and st[RELOCS] + 2 == st[CAP]:
                    # Two from the cap with a draw enough: a relocation that leaves the
                    # opponent stuck ends the search before any reply is searched.
                    found = _drawing_relocation(st, buf, base, n)
                    if found <= BEST_NONTERMINAL:
                        ret = found
                        continue
            else:
                st[STAT_PLACE] += 1
            ply = root_ply + d
            _pick(buf, base, 0, n, hist, table_move, killers[ply, 0], killers[ply, 1],
                  st[LAST_FIRST])
            fr[d, F_ALPHA], fr[d, F_BETA] = alpha, beta
            fr[d, F_LOW], fr[d, F_HIGH] = alpha, beta
            fr[d, F_BEST], fr[d, F_BEST_MOVE] = -INFINITY, -1
            fr[d, F_N], fr[d, F_I] = n, 0
            fr[d, F_TABLED], fr[d, F_SYM] = tabled, sym
            fr[d, F_TABLE_MOVE] = table_move
            keys[d] = key
            probing = tabled and in_hands >= PROBE_FROM and n > 1
            fr[d, F_BUDGET] = PROBE_START if probing else 0
            fr[d, F_DONE] = 0
            if probing:
                _probe(st, fr, d)
            apply_move(st, h, stack, buf[base])
            fr[d + 1, F_ALPHA] = to_child(beta)
            fr[d + 1, F_BETA] = to_child(alpha)
            d += 1
            entering = True
            continue
        # A child of depth d has returned `ret`: back to its parent.
        if d == 0:
            return ret
        d -= 1
        undo_move(st, h, stack)
        if st[ABORTED]:
            ret = 0
            continue
        searched = True               # the move's search ended, not stopped by a probe
        if st[PROBE_STOPPED]:
            if d != st[PROBE_OWNER]:
                continue              # a position inside the stopped search: no result
            st[PROBE_STOPPED] = 0
            searched = False
        probing = fr[d, F_BUDGET] > 0
        if probing:
            st[PROBE_END], st[PROBE_OWNER] = fr[d, F_OUTER_END], fr[d, F_OUTER_OWNER]
        base = (root_ply + d) * MAX_MOVES
        i, n = fr[d, F_I], fr[d, F_N]
        move = buf[base + i]
        cut = False
        if searched:
            score = to_parent(ret)
            if score > fr[d, F_BEST]:
                fr[d, F_BEST], fr[d, F_BEST_MOVE] = score, move
                if score > fr[d, F_LOW]:
                    fr[d, F_LOW] = score
                    if score >= fr[d, F_HIGH]:
                        hist[move] += 1 << min(st[TOTALS] + st[TOTALS + 1], HISTORY_SHIFT)
                        _new_killer(killers, root_ply + d, move)
                        cut = True
            if probing:               # searched moves gather at the front
                done = fr[d, F_DONE]
                buf[base + i] = buf[base + done]
                buf[base + done] = move
                fr[d, F_DONE] = done + 1
        following = i + 1
        if probing and following >= n and fr[d, F_DONE] < n:
            following = fr[d, F_DONE]         # the next round, with a bigger budget
            fr[d, F_BUDGET] *= PROBE_GROWTH
        if not cut and following < n:
            fr[d, F_I] = following
            ply = root_ply + d
            move = _pick(buf, base, following, n, hist, fr[d, F_TABLE_MOVE],
                         killers[ply, 0], killers[ply, 1], st[LAST_FIRST])
            if probing:
                _probe(st, fr, d)
            apply_move(st, h, stack, move)
            fr[d + 1, F_ALPHA] = to_child(fr[d, F_HIGH])
            fr[d + 1, F_BETA] = to_child(fr[d, F_LOW])
            d += 1
            entering = True
            continue
        best, alpha, beta = fr[d, F_BEST], fr[d, F_ALPHA], fr[d, F_BETA]
        ret = best
        if not fr[d, F_TABLED]:
            continue
        key = keys[d]
        depth = st[TOTALS] + st[TOTALS + 1]
        slot = slot_to_write(tt_key, tt_val, key, depth)
        data = tt_val[slot]
        if tt_key[slot] ^ data == key:     # the entry as it is now, the other search's too
            lower, upper, _ = unpack_entry(data)
        else:                              # replaced meanwhile: keep this search only
            lower, upper = -INFINITY, INFINITY
        if best >= beta:
            lower = max(lower, best)
        elif best <= alpha:
            upper = min(upper, best)
        else:
            lower = upper = best
        store(tt_key, tt_val, slot, key,
              pack_entry(lower, upper, mirror(fr[d, F_BEST_MOVE], fr[d, F_SYM]))
              | (np.uint64(depth) << U_DEPTH))
        ret = best


@njit(cache=True, nogil=True)
def exact(a, ply):
    """The exact score: a null window around 0 for the value, then MTD(f)."""
    st = a.st
    guess = search(a, ply, -1, 1)
    if guess == 0 or st[ABORTED]:
        return guess
    if guess > 0:
        lower, upper = guess, INFINITY
        upper = BEST_NONTERMINAL if terminal_score(st) == 1 else guess
        guess = upper
    else:
        lower, upper = -INFINITY, guess
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        guess = search(a, ply, beta - 1, beta)
        if st[ABORTED]:
            return 0
        if guess < beta:
            upper = guess
        else:
            lower = guess
    return guess


D_N, D_I, D_DEPTH, D_SLOT, D_AT_LEAST = range(5)
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True)
def _store_draw(dr_key, dr_val, dfr, dkeys, d, found):
    """Packs (the least length a draw has from here, its exact length or -1) as the
    search's entries, with the lengths for bounds."""
    slot, depth, at_least = dfr[d, D_SLOT], dfr[d, D_DEPTH], dfr[d, D_AT_LEAST]
    if found:
        data = pack_entry(at_least, depth if depth == at_least else -1, -1)
    else:
        data = pack_entry(depth + 1, -1, -1)
    store(dr_key, dr_val, slot, dkeys[d], data)


@njit(cache=True)
def _draw_feasible(st, buf, base, plies):
    """Whether this position could end in a draw within `plies` at all, judged without
    a search: a finished game is judged by the caller's search; otherwise a draw needs
    the relocations up to the cap, and a side that can place must place first."""
    if terminal_score(st) != 1:
        return True
    if plies < st[CAP] - st[RELOCS]:
        return False
    n = generate(st, buf, base, 1)
    if n == 0:
        return False
    return buf[base] >= RELOCATION or plies >= st[CAP] + 1


@njit(cache=True)
def _table_wins(st, h, tt_key, tt_val):
    """Whether the table already proves that the side to move wins (no search)."""
    if terminal_score(st) != 1:
        return False
    key, sym = key_of(st, h)
    slot = find_slot(tt_key, tt_val, key)
    return slot >= 0 and unpack_entry(tt_val[slot])[0] > 0


@njit(cache=True, nogil=True)
def draw_within(a, draws, root_ply, depth0):
    """Whether a line of drawing moves of at most `depth0` plies ends this drawn position
    in a draw (a move is drawing when its child is a draw: a null window around 0).
    Iterative over the frames `draws.dfr`; `draws.dr_val` holds per entry the least length
    a draw can have from there, and its exact length or -1."""
    st, h, stack, tt_key, tt_val, hist, _, buf, fr, keys, _, _ = a
    dr_key, dr_val, dfr, dkeys = draws
    d = 0
    dfr[0, D_DEPTH] = depth0
    mode = ENTER
    ret = False
    while True:
        if mode == ENTER:
            depth = dfr[d, D_DEPTH]
            mode = RETURN
            terminal = terminal_score(st)
            if terminal != 1:
                ret = terminal == 0
                continue
            # A draw is `cap` relocations in a row: fewer plies left cannot reach one.
            if depth < st[CAP] - st[RELOCS] or _out_of_budget(st):
                ret = False
                continue
            key, sym = key_of(st, h)
            slot = np.int64(key & np.uint64(dr_key.size - 1))
            at_least = 0
            data = dr_val[slot]
            if dr_key[slot] ^ data == key:
                at_least, known, _ = unpack_entry(data)
                if known >= 0:
                    ret = known <= depth
                    continue
                if depth < at_least:
                    ret = False
                    continue
            base = (root_ply + d) * MAX_MOVES
            n = generate(st, buf, base)
            if n > 0 and buf[base] < RELOCATION:
                # A side that can place must place: then `cap` relocations at least.
                at_least = max(at_least, st[CAP] + 1)
                if depth < at_least:
                    ret = False
                    continue
            dfr[d, D_N] = n
            dfr[d, D_I] = -1
            dfr[d, D_SLOT], dfr[d, D_AT_LEAST] = slot, at_least
            dkeys[d] = key
            mode = NEXT
        elif mode == RETURN:
            if d == 0:
                return ret
            d -= 1
            if ret and not st[ABORTED]:
                # The child ends in a draw within the plies left: the move counts if it
                # is drawing too.  No move of a drawn position loses for its mover, so
                # the child is a draw exactly when its side cannot win: a null window
                # at 0.  Tested last, once a line is found, since most lines fail and
                # the test costs a search (reference.py says why the draw table stays
                # right in this order).
                ret = search(a, root_ply + d + 1, 0, 1) <= 0
            undo_move(st, h, stack)
            if st[ABORTED]:
                return False
            if ret:
                _store_draw(dr_key, dr_val, dfr, dkeys, d, True)
                continue
            mode = NEXT
        if mode == NEXT:
            base = (root_ply + d) * MAX_MOVES
            while True:
                i = dfr[d, D_I] + 1
                if i >= dfr[d, D_N]:
                    _store_draw(dr_key, dr_val, dfr, dkeys, d, False)
                    ret = False
                    mode = RETURN
                    break
                dfr[d, D_I] = i
                apply_move(st, h, stack, buf[base + i])
                if not _draw_feasible(st, buf, base + MAX_MOVES, dfr[d, D_DEPTH] - 1):
                    undo_move(st, h, stack)
                    continue
                if _table_wins(st, h, tt_key, tt_val):    # a losing move: no draw
                    undo_move(st, h, stack)
                    continue
                dfr[d + 1, D_DEPTH] = dfr[d, D_DEPTH] - 1
                d += 1
                mode = ENTER
                break


@njit(cache=True, nogil=True)
def draw_distance(a, draws, ply):
    """The plies of the shortest line of drawing moves to a drawn end."""
    st = a.st
    if terminal_score(st) != 1:
        return 0
    depth = max(1, st[CAP] - st[RELOCS])
    while not draw_within(a, draws, ply, depth):
        if st[ABORTED]:
            return 0
        depth += 1
    return depth
