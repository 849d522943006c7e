"""Parket's rules (docs/rules/parket.md): one compiled numba kernel over a small int64
state array.

These are the game's only rules: the engine (engine.py `ParketCore`) keeps a state array
and calls these functions, and the compiled search runs them directly; the exact solver
keeps its own card-class kernel (solvers/parket/kernel.py).  Every function is
`njit(cache=True)` but `rules_arrays` and `from_engine`.  Parket has no chance nodes: the
chance interface every game's kernel offers the compiled search (chance_outcomes,
sample_chance, chance_seen_by) is there for that interface only and is never reached.

State array `st` (int64, STATE_SIZE): the seat to move, the phase (0 the cross, 1 the main
phase), the relocations in a row, the result (ONGOING, a winning seat, or DRAW), a card
bitmask per seat at HANDS, the board (a card or EMPTY per cell) at BOARD, and `room` (per
colour, black then red, the ranks each empty cell's corners let in, kept up to date after
every move so that a move recomputes only the cells whose corners pass through the cells
that changed, board.AFFECTED; a filled cell keeps a stale value) at ROOM.  Everything
before ROOM is the position itself.  Cards are < 36 and cells < 35, so every mask fits in
an int64.  The result is settled right after every move, so `current_player` is a lookup.

Rules array `r` (int64, built once per `ParketRules` by `rules_arrays`): the scalars at
the R_* offsets, each seat's colour and cards, the start board and the corner table of
the game's `corner_order`.  The geometry (corners, AFFECTED, the cross) is module constants.

Left to the engine: the event log (`events`, read by the observer and resample_history),
the position notation, and the legality checks; actions are applied unchecked.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.engine import TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import below, fill_actions, popcount, returns_of_mask, seed_state
from koloda.games.kit.layout import StateLayout
from koloda.games.parket.board import (
    ADJACENT_RANKS,
    AFFECTED,
    CARD_IS_RED,
    CARD_RANK,
    CORNER_RANKS,
    CORNERS,
    EMPTY,
    INNER_CELLS,
    INNER_OF,
    NUM_CARDS,
    NUM_CELLS,
    NUM_RANKS,
    OUTER_CELLS,
    RANK_CARDS,
)
from koloda.games.parket.rules import PLACE_ACTIONS

ONGOING, DRAW = -1, 2              # the result: ONGOING, a winning seat (0 or 1), or DRAW

# --- layout of the state array ---------------------------------------------------------
STATE = StateLayout("Parket's state array")
PLAYER = STATE.word("PLAYER", "The seat to move (after the end, the seat that would have).")
MAIN = STATE.flag("MAIN", "Whether the main phase has begun (the cross is complete).")
RELOCATIONS = STATE.word("RELOCATIONS", "Relocations in a row since the last placement.")
RESULT = STATE.word("RESULT", "ONGOING, the winning seat (0 or 1), or DRAW.")
HANDS = STATE.words("HANDS", 2, "Each seat's cards in hand, as a card bitmask.")
BOARD = STATE.words("BOARD", NUM_CELLS, "A card or EMPTY per cell.")
ROOM = STATE.block("ROOM", 2 * NUM_CELLS, "Black, then red: the ranks each empty cell's "
                   "corners let in.")
STATE_SIZE = STATE.size

# --- layout of the rules array ---------------------------------------------------------
RULES = StateLayout("Parket's rules array")
R_MAX_RELOCATIONS, R_START_PLAYER, R_START_MAIN, R_START_RELOCATIONS = RULES.scalars(
    "R_MAX_RELOCATIONS R_START_PLAYER R_START_MAIN R_START_RELOCATIONS")
R_SEAT_RED = RULES.block("R_SEAT_RED", 2, "1 if the seat plays red.")
R_SEAT_CARDS = RULES.block("R_SEAT_CARDS", 2, "Each seat's card mask.")
R_START_BOARD = RULES.block("R_START_BOARD", NUM_CELLS)
R_CORNER = RULES.block("R_CORNER", NUM_RANKS * NUM_RANKS, "Rank masks.")
RULES_SIZE = RULES.size
MAX_LEGAL = (NUM_CARDS // 2) * NUM_CELLS   # every own card on every cell, a bound
MAX_CHANCE = 1                     # no chance nodes; the search's chance arrays need a length

# --- geometry, as constants ------------------------------------------------------------
MAX_CORNERS = max(len(c) for c in CORNERS)
CORNER_N = np.array([len(c) for c in CORNERS], np.int64)
CORNER_A = np.full((NUM_CELLS, MAX_CORNERS), 0, np.int64)
CORNER_B = np.full((NUM_CELLS, MAX_CORNERS), 0, np.int64)
for _cell, _corners in enumerate(CORNERS):
    for _i, (_a, _b) in enumerate(_corners):
        CORNER_A[_cell, _i] = _a
        CORNER_B[_cell, _i] = _b
AFFECTED_MASK = np.array([sum(1 << x for x in AFFECTED[c]) for c in range(NUM_CELLS)],
                         np.int64)
CARD_RANK_A = np.array(CARD_RANK, np.int64)
CARD_RED_A = np.array([1 if red else 0 for red in CARD_IS_RED], np.int64)
ADJACENT_CARDS = np.array([RANK_CARDS[ADJACENT_RANKS[k]] for k in range(NUM_RANKS)], np.int64)
CROSS_MASK = sum(1 << c for c in INNER_CELLS + OUTER_CELLS)
INNER_OF_A = np.full(NUM_CELLS, -1, np.int64)    # an outer cell's inner cell, else -1
for _outer in OUTER_CELLS:
    INNER_OF_A[_outer] = INNER_OF[_outer]
INNER_MASK = sum(1 << c for c in INNER_CELLS)
OUTER_MASK = sum(1 << c for c in OUTER_CELLS)


def rules_arrays(rules) -> np.ndarray:
    """The rules array of a `ParketRules` (plain Python; build it once per game)."""
    r = np.zeros(RULES_SIZE, np.int64)
    start = rules.start
    r[R_MAX_RELOCATIONS] = rules.max_relocations
    r[R_START_PLAYER] = rules.seat_of_colour[start.to_move]
    r[R_START_MAIN] = 1 if start.main else 0
    r[R_START_RELOCATIONS] = start.relocations
    for s in range(2):
        r[R_SEAT_RED + s] = 1 if rules.seat_is_red[s] else 0
        r[R_SEAT_CARDS + s] = rules.seat_cards[s]
    for cell in range(NUM_CELLS):
        r[R_START_BOARD + cell] = start.board[cell]
    table = CORNER_RANKS[rules.corner_order]
    for a in range(NUM_RANKS):
        for b in range(NUM_RANKS):
            r[R_CORNER + a * NUM_RANKS + b] = table[a][b]
    return r


def from_engine(core) -> np.ndarray:
    """The kernel state of a `ParketCore` position, a copy the caller owns, so a search
    can start from the position a game is in."""
    return core.st.copy()


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def _corner_ranks(st, r, cell, red):
    """The ranks a mover of colour `red` may place on `cell`: the union over its corners
    (A, B) that are filled and not both of the mover's colour, by the sequence rule."""
    ranks = 0
    for i in range(CORNER_N[cell]):
        card_a = st[BOARD + CORNER_A[cell, i]]
        if card_a == EMPTY:
            continue
        card_b = st[BOARD + CORNER_B[cell, i]]
        if card_b == EMPTY:
            continue
        red_a = CARD_RED_A[card_a]
        red_b = CARD_RED_A[card_b]
        if red:
            if red_a and red_b:
                continue
        elif not (red_a or red_b):
            continue
        ranks |= r[R_CORNER + CARD_RANK_A[card_a] * NUM_RANKS + CARD_RANK_A[card_b]]
    return ranks


@njit(cache=True)
def _refresh_mask(st, r, cells):
    """Recompute `room` of the empty cells of the cell mask `cells`, both colours."""
    while cells:
        low = cells & -cells
        cells ^= low
        cell = popcount(low - 1)
        if st[BOARD + cell] == EMPTY:
            st[ROOM + cell] = _corner_ranks(st, r, cell, 0)
            st[ROOM + NUM_CELLS + cell] = _corner_ranks(st, r, cell, 1)


@njit(cache=True)
def _empty_cells(st):
    mask = 0
    for cell in range(NUM_CELLS):
        if st[BOARD + cell] == EMPTY:
            mask |= np.int64(1) << cell
    return mask


@njit(cache=True)
def _moves(st, r, out, first_only):
    """The legal actions, ascending, to `out`; their count.  With `first_only`, only
    whether there is one (0 or 1, `out` untouched)."""
    player = st[PLAYER]
    hand = st[HANDS + player]
    empty = _empty_cells(st)
    n = 0
    if not st[MAIN]:
        inner_open = empty & INNER_MASK
        outer_open = 0
        for cell in range(NUM_CELLS):
            if (OUTER_MASK >> cell) & 1 and (empty >> cell) & 1:
                if st[BOARD + INNER_OF_A[cell]] != EMPTY:
                    outer_open |= np.int64(1) << cell
        h = hand
        while h:
            low = h & -h
            h ^= low
            card = popcount(low - 1)
            cells = inner_open
            o = outer_open
            while o:
                lo = o & -o
                o ^= lo
                inner = st[BOARD + INNER_OF_A[popcount(lo - 1)]]
                if ADJACENT_CARDS[CARD_RANK_A[inner]] & low:
                    cells |= lo
            if cells:
                if first_only:
                    return 1
                n = fill_actions(cells, card * NUM_CELLS, out, n)
        return n
    red = r[R_SEAT_RED + player]
    room = ROOM + red * NUM_CELLS
    # Main placements: the empty cells per rank.
    by_rank = np.zeros(NUM_RANKS, np.int64)
    e = empty
    while e:
        low = e & -e
        e ^= low
        ranks = st[room + popcount(low - 1)]
        k = 0
        while ranks:
            if ranks & 1:
                by_rank[k] |= low
            ranks >>= 1
            k += 1
    h = hand
    while h:
        low = h & -h
        h ^= low
        card = popcount(low - 1)
        cells = by_rank[CARD_RANK_A[card]]
        if cells:
            if first_only:
                return 1
            n = fill_actions(cells, card * NUM_CELLS, out, n)
    if n:
        return n
    # Relocations: each own card on the board to the other empty cells where it fits,
    # judged with its old cell empty.
    source_of = np.full(NUM_CARDS, -1, np.int64)
    for cell in range(NUM_CELLS):
        card = st[BOARD + cell]
        if card != EMPTY and CARD_RED_A[card] == red:
            source_of[card] = cell
    for card in range(NUM_CARDS):
        source = source_of[card]
        if source < 0:
            continue
        st[BOARD + source] = EMPTY
        bit = 1 << CARD_RANK_A[card]
        changed = AFFECTED_MASK[source]
        cells = 0
        e = empty
        while e:
            low = e & -e
            e ^= low
            cell = popcount(low - 1)
            if (changed >> cell) & 1:
                ranks = _corner_ranks(st, r, cell, red)
            else:
                ranks = st[room + cell]
            if ranks & bit:
                cells |= low
        st[BOARD + source] = card
        if cells:
            if first_only:
                return 1
            n = fill_actions(cells, PLACE_ACTIONS + card * NUM_CELLS, out, n)
    return n


@njit(cache=True)
def _settle(st, r):
    """The result of the position: the mover's opponent wins by having placed the last
    card, the relocation cap draws, and a mover without a legal move loses."""
    mover = st[PLAYER]
    if not st[HANDS + (mover ^ 1)]:
        st[RESULT] = mover ^ 1                   # placed the last card
    elif st[RELOCATIONS] >= r[R_MAX_RELOCATIONS]:
        st[RESULT] = DRAW
    elif _moves(st, r, st[:0], True):
        st[RESULT] = ONGOING
    else:
        st[RESULT] = mover ^ 1                   # no legal move: the mover loses


@njit(cache=True)
def new_state(r):
    """The state at the game's start position (`rules.start`, the empty board or the
    position the game was started from), before its first move."""
    st = np.zeros(STATE_SIZE, np.int64)
    on_board = 0
    for cell in range(NUM_CELLS):
        card = r[R_START_BOARD + cell]
        st[BOARD + cell] = card
        if card != EMPTY:
            on_board |= np.int64(1) << card
    for s in range(2):
        st[HANDS + s] = r[R_SEAT_CARDS + s] & ~on_board
    st[PLAYER] = r[R_START_PLAYER]
    st[MAIN] = r[R_START_MAIN]
    st[RELOCATIONS] = r[R_START_RELOCATIONS]
    _refresh_mask(st, r, (np.int64(1) << NUM_CELLS) - 1)
    _settle(st, r)
    return st


@njit(cache=True)
def current_player(st):
    return st[PLAYER] if st[RESULT] == ONGOING else TERMINAL


@njit(cache=True)
def is_chance(st):
    return False


@njit(cache=True)
def is_terminal(st):
    return st[RESULT] != ONGOING


@njit(cache=True)
def result(st):
    """ONGOING, the winning seat, or DRAW."""
    return st[RESULT]


@njit(cache=True)
def returns(st, r, out):
    """Each seat's return to out[:2]: +1 the winner, -1 the loser,
    0 both on a draw and before the end."""
    res = st[RESULT]
    mask = np.int64(1) << res if res == 0 or res == 1 else 0
    returns_of_mask(mask, 2, out)


@njit(cache=True)
def legal_actions(st, r, out):
    """Writes the legal actions, ascending, to `out` (MAX_LEGAL long); their count."""
    if st[RESULT] != ONGOING:
        return 0
    return _moves(st, r, out, False)


@njit(cache=True)
def legal_actions_of(st, r, seat, out):
    """Writes to `out` the actions `seat` would have if it were to move here, ascending
    (a heuristic's measure of each side's room); their count.  `st` is left as it was."""
    mover = st[PLAYER]
    st[PLAYER] = seat
    n = _moves(st, r, out, False)
    st[PLAYER] = mover
    return n


# --- chance (none in Parket) -----------------------------------------------------------

@njit(cache=True)
def chance_outcomes(st, r, outcomes, weights):
    """The chance outcomes of the position and their weights: never any."""
    return 0


@njit(cache=True)
def sample_chance(st, r, x):
    """A chance outcome: there is no chance node to ask about, so none (-1)."""
    return x, -1


@njit(cache=True)
def chance_seen_by(st, r, player, outcome):
    """Nothing is hidden."""
    return True


# --- transitions -----------------------------------------------------------------------

@njit(cache=True)
def apply(st, r, action):
    """Apply a legal action in place (the caller checked legality)."""
    if st[RESULT] != ONGOING:
        return
    player = st[PLAYER]
    if action < PLACE_ACTIONS:
        card = action // NUM_CELLS
        cell = action % NUM_CELLS
        st[HANDS + player] ^= np.int64(1) << card
        st[RELOCATIONS] = 0
        st[BOARD + cell] = card
        _refresh_mask(st, r, AFFECTED_MASK[cell])
        if not st[MAIN]:
            full = True
            for c in range(NUM_CELLS):
                if (CROSS_MASK >> c) & 1 and st[BOARD + c] == EMPTY:
                    full = False
                    break
            if full:
                st[MAIN] = 1
    else:
        card = (action - PLACE_ACTIONS) // NUM_CELLS
        cell = (action - PLACE_ACTIONS) % NUM_CELLS
        source = 0
        while source < NUM_CELLS - 1 and st[BOARD + source] != card:
            source += 1         # bounded: an unchecked action never reads past the board
        st[BOARD + source] = EMPTY
        st[BOARD + cell] = card
        _refresh_mask(st, r, AFFECTED_MASK[source] | (np.int64(1) << source)
                      | AFFECTED_MASK[cell])
        st[RELOCATIONS] += 1
    st[PLAYER] = player ^ 1
    _settle(st, r)


# --- random playouts -------------------------------------------------------------------

@njit(cache=True)
def play_random(st, r, u):
    """Apply the legal action at index `int(u * count)` of the ascending list (u a float
    in [0, 1)) and return it: one step of a uniformly random game driven by the caller's
    random numbers (the engine's random_playout)."""
    out = np.empty(MAX_LEGAL, np.int64)
    count = _moves(st, r, out, False)
    action = out[min(np.int64(u * count), count - 1)]
    apply(st, r, action)
    return action


@njit(cache=True)
def playout(st, r, x):
    """Play uniformly random legal actions to the end, in place, continuing the xorshift
    stream `x`; its new state."""
    x = np.uint64(x)       # from Python, a seed state below 2**63 arrives as an int64
    out = np.empty(MAX_LEGAL, np.int64)
    while st[RESULT] == ONGOING:
        count = _moves(st, r, out, False)
        x, pick = below(x, count)
        apply(st, r, out[pick])
    return x


@njit(cache=True)
def random_playout(st, r, seed):
    """`playout` from a fresh stream of `seed`."""
    playout(st, r, seed_state(seed))


@njit(cache=True)
def random_playouts(st, r, seed, count, out_results):
    """`count` playouts from copies of `st` (seeds seed, seed+1, ...), their results to
    `out_results` (for speed: one call from Python for many games)."""
    work = np.empty_like(st)
    for i in range(count):
        work[:] = st
        random_playout(work, r, seed + i)
        out_results[i] = work[RESULT]
