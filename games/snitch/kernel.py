"""Snitch's rules as one compiled numba kernel, over a small int64 state array.

The first step of moving the rules of engine.py (`SnitchCore`) into compiled code, as
games/durak/kernel.py did for Durak; until the move is done engine.py stays the reference,
and tests/snitch_engine/test_kernel.py plays both side by side.  Every function is
`njit(cache=True)` but rules_arrays and from_engine.

State array `st` (int64, STATE_SIZE): the whole match, as SnitchCore keeps it.  Scalars:
the phase (engine.py's DEAL..OVER), the player to move, the dealer, the deal index, the
reserve's size, the discard pile's length, the sets laid this turn, the passes in a row,
the deals finished and the `end_at_deal` flag.  Then per seat (MAX_SEATS each): the cards
held, the natural ranks the seat has a set of (a bitmask, ranks < 12), the points in its
sets this deal and its running total across deals.  Then the reserve as a count per card
kind (MAX_KINDS), the hands as counts per seat and kind (seat-major, stride MAX_KINDS) and
the discard pile, bottom first (DISCARD_N cards; its top is the last; zeros after it, so
one position has one state array).  A card is its kind index (rules.py): naturals
0..ranks-1, then the 2, then the joker.  Everything is a count, a small sum or a mask of at
most 12 bits, so every word fits an int64 easily.

Rules array `r` (int64, built once per `SnitchRules` by `rules_arrays`): the scalars at
the R_* offsets, then the copies of each kind in the deck and each kind's points.

The chance outcomes are the reserve's kinds (engine.py `count_outcomes`): kind k with
weight reserve[k], the copies of it left, so with probability reserve[k] / reserve_size.
`random_playouts` stores each game's winners as a bitmask of seats (the seats with the
highest total; 0 when all tie), see `winners_mask`.

The search interface every game's kernel offers: current_player, legal_actions,
chance_outcomes, sample_chance, chance_seen_by, apply, playout, returns, and from_engine
(plain Python: the state of a `SnitchCore` in any phase).

Left out in this step: the event log and `laid` (the sets each player laid, in order: only
the observer reads them, the rules use `set_ranks` and `points`), and the legality checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.kernel import below, returns_of_mask, seed_state, top_seats

# Phases, as in engine.py.  DEAL and DRAW are chance nodes.
DEAL, TURN, SETS, DRAW, OVER = range(5)
CHANCE, TERMINAL = -1, -4          # games/kit/engine.py

MAX_SEATS = 8
MAX_RANKS = 12
MAX_KINDS = MAX_RANKS + 2
MAX_CARDS = (MAX_RANKS + 1) * 8 + 4          # 108: ranks and copies at their highest
MAX_CHANCE = MAX_KINDS               # a chance node has at most this many outcomes

# --- layout of the state array ---------------------------------------------------------
PHASE, PLAYER, DEALER, DEAL_INDEX, RESERVE_SIZE, DISCARD_N = 0, 1, 2, 3, 4, 5
SETS_THIS_TURN, PASSES, DEALS, ENDS_WITH_DEAL = 6, 7, 8, 9
HELD = 10                            # MAX_SEATS cards held
SET_RANKS = HELD + MAX_SEATS         # MAX_SEATS rank masks
POINTS = SET_RANKS + MAX_SEATS       # MAX_SEATS points this deal
TOTALS = POINTS + MAX_SEATS          # MAX_SEATS totals across deals
RESERVE = TOTALS + MAX_SEATS         # MAX_KINDS counts
HANDS = RESERVE + MAX_KINDS          # MAX_SEATS x MAX_KINDS counts
DISCARD = HANDS + MAX_SEATS * MAX_KINDS   # the pile, bottom first
STATE_SIZE = DISCARD + MAX_CARDS

# --- layout of the rules array ---------------------------------------------------------
R_PLAYERS, R_HAND_SIZE, R_MAX_SETS, R_TARGET, R_MAX_DEALS = 0, 1, 2, 3, 4
R_RANKS, R_KINDS, R_TWO, R_JOKER, R_CARDS, R_DECK_POINTS = 5, 6, 7, 8, 9, 10
R_DISCARD_BASE, R_SET_BASE, R_PICK_BASE, R_EXTEND_BASE, R_STOP, R_PASS = (
    11, 12, 13, 14, 15, 16)
R_COPIES = 17                        # MAX_KINDS copies in the deck
R_POINTS = R_COPIES + MAX_KINDS      # MAX_KINDS points per kind
RULES_SIZE = R_POINTS + MAX_KINDS
# A decision has at most this many options: every action but one of stop / pass.
MAX_LEGAL = MAX_KINDS + 3 * MAX_RANKS + MAX_KINDS + 2 * MAX_RANKS + 1


def rules_arrays(rules) -> np.ndarray:
    """The rules array of a `SnitchRules` (plain Python; build it once per game)."""
    r = np.zeros(RULES_SIZE, np.int64)
    r[R_PLAYERS] = rules.num_players
    r[R_HAND_SIZE] = rules.hand_size
    r[R_MAX_SETS] = rules.max_sets_per_turn
    r[R_TARGET] = rules.target_score
    r[R_MAX_DEALS] = rules.max_deals
    r[R_RANKS] = rules.num_ranks
    r[R_KINDS] = rules.num_kinds
    r[R_TWO] = rules.two
    r[R_JOKER] = rules.joker
    r[R_CARDS] = rules.num_cards
    r[R_DECK_POINTS] = rules.deck_points
    r[R_DISCARD_BASE] = rules.discard_base
    r[R_SET_BASE] = rules.set_base
    r[R_PICK_BASE] = rules.pick_base
    r[R_EXTEND_BASE] = rules.extend_base
    r[R_STOP] = rules.stop_action
    r[R_PASS] = rules.pass_action
    for k in range(rules.num_kinds):
        r[R_COPIES + k] = rules.deck.copies[k]
        r[R_POINTS + k] = rules.points[k]
    return r


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def _start_deal(st, r):
    """A fresh deal by the current dealer (SnitchCore._start_deal)."""
    n = r[R_PLAYERS]
    st[PHASE] = DEAL
    st[DEAL_INDEX] = 0
    st[PLAYER] = (st[DEALER] + 1) % n
    st[HANDS:] = 0                      # the hands and the pile: nothing left of the last deal
    for s in range(MAX_SEATS):
        st[HELD + s] = 0
        st[SET_RANKS + s] = 0
        st[POINTS + s] = 0
    for k in range(MAX_KINDS):
        st[RESERVE + k] = r[R_COPIES + k]
    st[RESERVE_SIZE] = r[R_CARDS]
    st[DISCARD_N] = 0
    st[SETS_THIS_TURN] = 0
    st[PASSES] = 0


@njit(cache=True)
def new_state(r):
    """The match before its first deal (SnitchCore.__init__)."""
    st = np.zeros(STATE_SIZE, np.int64)
    st[DEALER] = r[R_PLAYERS] - 1
    _start_deal(st, r)
    return st


@njit(cache=True)
def current_player(st):
    phase = st[PHASE]
    if phase == TURN or phase == SETS:
        return st[PLAYER]
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit(cache=True)
def is_chance(st):
    return st[PHASE] == DEAL or st[PHASE] == DRAW


@njit(cache=True)
def is_terminal(st):
    return st[PHASE] == OVER


@njit(cache=True)
def end_at_deal(st):
    """End with the deal in progress (SnitchCore.end_at_deal, for search)."""
    st[ENDS_WITH_DEAL] = 1


@njit(cache=True)
def chance_outcomes(st, r, outcomes, weights):
    """At a chance node, writes the kinds the reserve holds (ascending) to `outcomes` and
    their copies there to `weights` (MAX_CHANCE long); their count (0 elsewhere).  Kind
    outcomes[i] comes with probability weights[i] / st[RESERVE_SIZE]."""
    if not (st[PHASE] == DEAL or st[PHASE] == DRAW):
        return 0
    m = 0
    for k in range(r[R_KINDS]):
        c = st[RESERVE + k]
        if c:
            outcomes[m] = k
            weights[m] = c
            m += 1
    return m


@njit(cache=True)
def sample_chance(st, r, x):
    """(x, a card of the reserve drawn by its share of the copies) at a chance node
    (engine.py draw_from_counts), walking the counts in place; -1 at a decision or the
    end.  `x` is the kit's xorshift state, a uint64."""
    x = np.uint64(x)
    if not (st[PHASE] == DEAL or st[PHASE] == DRAW):
        return x, -1
    x, pick = below(x, st[RESERVE_SIZE])
    kind = 0
    while pick >= st[RESERVE + kind]:
        pick -= st[RESERVE + kind]
        kind += 1
    return x, kind


@njit(cache=True)
def _receiver(st, r):
    """The seat the next dealt or drawn card goes to (SnitchCore._receiver)."""
    if st[PHASE] == DEAL:
        return (st[DEALER] + 1 + st[DEAL_INDEX]) % r[R_PLAYERS]
    return st[PLAYER]


@njit(cache=True)
def chance_seen_by(st, r, player, outcome):
    """Whether `player` sees the card about to be dealt or drawn: only its receiver does
    (SnitchCore.chance_seen_by)."""
    return _receiver(st, r) == player


@njit(cache=True)
def _pairs(r, card, top):
    """Whether a hand card and the top discard make a set (engine.py _pairs)."""
    if card < r[R_TWO]:
        return top == card or top >= r[R_TWO]
    return top < r[R_TWO]


@njit(cache=True)
def _set_actions(st, r, out, m):
    """Appends the sets the player to move may lay now (SnitchCore._set_actions)."""
    hand = HANDS + st[PLAYER] * MAX_KINDS
    ranks = r[R_RANKS]
    wild2 = st[hand + r[R_TWO]] > 0
    wildx = st[hand + r[R_JOKER]] > 0
    for rank in range(ranks):
        c = st[hand + rank]
        if c:
            base = r[R_SET_BASE] + 3 * rank
            if c >= 2:
                out[m] = base
                m += 1
            if wild2:
                out[m] = base + 1
                m += 1
            if wildx:
                out[m] = base + 2
                m += 1
    if st[RESERVE_SIZE] and st[DISCARD_N]:
        top = st[DISCARD + st[DISCARD_N] - 1]
        for card in range(r[R_KINDS]):
            if st[hand + card] and _pairs(r, card, top):
                out[m] = r[R_PICK_BASE] + card
                m += 1
    own = st[SET_RANKS + st[PLAYER]]
    for rank in range(ranks):
        if own >> rank & 1 and st[hand + rank]:
            base = r[R_EXTEND_BASE] + 2 * rank
            if wild2:
                out[m] = base
                m += 1
            if wildx:
                out[m] = base + 1
                m += 1
    return m


@njit(cache=True)
def legal_actions(st, r, out):
    """Writes the legal decisions, ascending, to `out` (MAX_LEGAL long); their count."""
    phase = st[PHASE]
    if phase == TURN:
        m = 0
        if st[RESERVE_SIZE]:
            hand = HANDS + st[PLAYER] * MAX_KINDS
            for c in range(r[R_KINDS]):
                if st[hand + c]:
                    out[m] = r[R_DISCARD_BASE] + c
                    m += 1
        m = _set_actions(st, r, out, m)
        if not st[RESERVE_SIZE]:
            out[m] = r[R_PASS]
            m += 1
        return m
    if phase == SETS:
        m = _set_actions(st, r, out, 0)
        out[m] = r[R_STOP]
        return m + 1
    return 0


# --- transitions -----------------------------------------------------------------------

@njit(cache=True)
def _receive(st, seat, card):
    st[RESERVE + card] -= 1
    st[RESERVE_SIZE] -= 1
    st[HANDS + seat * MAX_KINDS + card] += 1
    st[HELD + seat] += 1


@njit(cache=True)
def _take(st, seat, card):
    st[HANDS + seat * MAX_KINDS + card] -= 1
    st[HELD + seat] -= 1


@njit(cache=True)
def _lay(st, r, seat, rank, other):
    st[POINTS + seat] += r[R_POINTS + rank] + r[R_POINTS + other]
    st[SET_RANKS + seat] |= np.int64(1) << rank
    st[PASSES] = 0


@njit(cache=True)
def match_over(st, r):
    """Whether the deal just scored ends the match (SnitchCore._match_over)."""
    if not r[R_TARGET] or st[DEALS] >= r[R_MAX_DEALS]:
        return True
    for s in range(r[R_PLAYERS]):
        if st[TOTALS + s] >= r[R_TARGET]:
            return True
    return False


@njit(cache=True)
def _end_deal(st, r):
    n = r[R_PLAYERS]
    for s in range(n):
        st[TOTALS + s] += st[POINTS + s]
    st[DEALS] += 1
    if match_over(st, r) or st[ENDS_WITH_DEAL]:
        st[PHASE] = OVER
        return
    st[DEALER] = (st[DEALER] + 1) % n
    _start_deal(st, r)


@njit(cache=True)
def _next_player(st, r):
    n = r[R_PLAYERS]
    seat = (st[PLAYER] + 1) % n
    while not st[HELD + seat]:          # an empty hand (reserve empty) is skipped
        seat = (seat + 1) % n
    st[PLAYER] = seat
    st[PHASE] = TURN


@njit(cache=True)
def _next_turn(st, r):
    for s in range(r[R_PLAYERS]):
        if st[HELD + s]:
            _next_player(st, r)
            return
    _end_deal(st, r)


@njit(cache=True)
def _end_turn(st, r):
    """Refill the hand from the reserve, then the next player's turn."""
    st[SETS_THIS_TURN] = 0
    if st[RESERVE_SIZE] and st[HELD + st[PLAYER]] < r[R_HAND_SIZE]:
        st[PHASE] = DRAW
        return
    _next_turn(st, r)


@njit(cache=True)
def _decide(st, r, action):
    seat = st[PLAYER]
    if action == r[R_PASS]:
        st[PASSES] += 1
        holders = 0
        for s in range(r[R_PLAYERS]):
            if st[HELD + s]:
                holders += 1
        if st[PASSES] >= holders:
            _end_deal(st, r)
        else:
            _next_player(st, r)
        return
    if action == r[R_STOP]:
        _end_turn(st, r)
        return
    if action < r[R_SET_BASE]:
        card = action - r[R_DISCARD_BASE]
        _take(st, seat, card)
        st[DISCARD + st[DISCARD_N]] = card
        st[DISCARD_N] += 1
        _end_turn(st, r)
        return
    if action < r[R_PICK_BASE]:
        rank = (action - r[R_SET_BASE]) // 3
        which = (action - r[R_SET_BASE]) % 3
        if which == 0:
            other = rank
        elif which == 1:
            other = r[R_TWO]
        else:
            other = r[R_JOKER]
        _take(st, seat, rank)
        _take(st, seat, other)
        _lay(st, r, seat, rank, other)
    elif action < r[R_EXTEND_BASE]:
        card = action - r[R_PICK_BASE]
        st[DISCARD_N] -= 1
        top = st[DISCARD + st[DISCARD_N]]
        st[DISCARD + st[DISCARD_N]] = 0
        _take(st, seat, card)
        if card < r[R_TWO]:
            _lay(st, r, seat, card, top)
        else:
            _lay(st, r, seat, top, card)
    else:
        rank = (action - r[R_EXTEND_BASE]) // 2
        wild = r[R_TWO] if (action - r[R_EXTEND_BASE]) % 2 == 0 else r[R_JOKER]
        _take(st, seat, rank)
        _take(st, seat, wild)
        _lay(st, r, seat, rank, wild)
    st[SETS_THIS_TURN] += 1
    if st[SETS_THIS_TURN] >= r[R_MAX_SETS]:
        _end_turn(st, r)
    else:
        st[PHASE] = SETS


@njit(cache=True)
def apply(st, r, action):
    """Apply a decision or a chance outcome in place (the caller checked legality)."""
    phase = st[PHASE]
    if phase == TURN or phase == SETS:
        _decide(st, r, action)
    elif phase == DRAW:
        seat = st[PLAYER]
        _receive(st, seat, action)
        if st[HELD + seat] >= r[R_HAND_SIZE] or not st[RESERVE_SIZE]:
            _next_turn(st, r)
    elif phase == DEAL:
        n = r[R_PLAYERS]
        _receive(st, _receiver(st, r), action)
        st[DEAL_INDEX] += 1
        if st[DEAL_INDEX] == n * r[R_HAND_SIZE]:
            st[PLAYER] = (st[DEALER] + 1) % n
            st[PHASE] = TURN
    # OVER: the game is over, nothing to do


# --- results ---------------------------------------------------------------------------

@njit(cache=True)
def winners_mask(st, r):
    """The seats with the highest total as a bitmask (SnitchCore.winners); 0 before the
    end and when all tie."""
    if st[PHASE] != OVER:
        return 0
    return top_seats(st, TOTALS, r[R_PLAYERS])


@njit(cache=True)
def returns(st, r, out):
    """Each seat's return to `out` (SnitchCore.returns): zeros before the end; the
    returns formula of the winners; after `end_at_deal` stopped a match short of its end,
    each player's points in the deal less the mean of the others', in fair shares."""
    n = r[R_PLAYERS]
    for s in range(n):
        out[s] = 0.0
    if st[PHASE] != OVER:
        return
    if st[ENDS_WITH_DEAL] and not match_over(st, r):
        total = 0
        for s in range(n):
            total += st[POINTS + s]
        share = r[R_DECK_POINTS] / n
        for s in range(n):
            out[s] = (n * st[POINTS + s] - total) / (n - 1) / share
        return
    returns_of_mask(winners_mask(st, r), n, out)


# --- random playouts -------------------------------------------------------------------

@njit(cache=True)
def _playout(st, r, x, legal):
    """`playout` with a MAX_LEGAL buffer for the legal decisions from the caller."""
    while True:
        phase = st[PHASE]
        if phase == TURN or phase == SETS:
            count = legal_actions(st, r, legal)
            x, pick = below(x, count)
            apply(st, r, legal[pick])
        elif phase == OVER:
            return x
        else:
            x, kind = sample_chance(st, r, x)
            apply(st, r, kind)


@njit(cache=True)
def playout(st, r, x):
    """Play uniformly random legal decisions and chance by its probabilities to the end,
    in place, continuing the xorshift stream `x` (a uint64); the stream's state after it
    (the distribution of SnitchCore.random_playout).  One small buffer for the legal
    decisions is allocated per call (a few nanoseconds of a playout's microseconds);
    `random_playouts` shares one over many games."""
    return _playout(st, r, np.uint64(x), np.empty(MAX_LEGAL, np.int64))


@njit(cache=True)
def random_playout(st, r, seed):
    """`playout` from a seed, in place."""
    playout(st, r, seed_state(seed))


@njit(cache=True)
def random_playouts(st, r, seed, count, out_winners):
    """`count` playouts from copies of `st` (seeds seed, seed+1, ...), each one's
    `winners_mask` to `out_winners` (for speed: one call from Python for many games)."""
    work = np.empty_like(st)
    legal = np.empty(MAX_LEGAL, np.int64)
    for i in range(count):
        work[:] = st
        _playout(work, r, seed_state(seed + i), legal)
        out_winners[i] = winners_mask(work, r)


# --- from the engine -------------------------------------------------------------------

def from_engine(core) -> np.ndarray:
    """The kernel state of a `SnitchCore` in any phase (plain Python), so that a search can
    start from the position a game is in."""
    n, kinds = core.rules.num_players, core.rules.num_kinds
    st = np.zeros(STATE_SIZE, np.int64)
    st[PHASE], st[PLAYER], st[DEALER] = core.phase, core.player, core.dealer
    st[DEAL_INDEX], st[RESERVE_SIZE] = core.deal_index, core.reserve_size
    st[DISCARD_N], st[SETS_THIS_TURN] = len(core.discard), core.sets_this_turn
    st[PASSES], st[DEALS], st[ENDS_WITH_DEAL] = core.passes, core.deals, core.ends_with_deal
    st[HELD:HELD + n] = core.held
    st[SET_RANKS:SET_RANKS + n] = core.set_ranks
    st[POINTS:POINTS + n] = core.points
    st[TOTALS:TOTALS + n] = core.totals
    st[RESERVE:RESERVE + kinds] = core.reserve
    for seat, hand in enumerate(core.hands):
        st[HANDS + seat * MAX_KINDS:HANDS + seat * MAX_KINDS + kinds] = hand
    st[DISCARD:DISCARD + len(core.discard)] = core.discard
    return st
