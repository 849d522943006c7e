"""Platinum Fish's rules as one compiled numba kernel, over a small int64 state array.

The first step of moving the rules of engine.py (`PlatinumFishCore`) into compiled code,
as games/durak/kernel.py does for Durak; until the move is done engine.py stays the
reference, and tests/platinum_fish_engine/test_kernel.py plays both side by side.  Every
function but the plain Python `rules_arrays` and `from_engine` is `njit(cache=True)`.

State array `st` (int64, STATE_SIZE): the phase (engine.py's HAND..OVER), the player (the
seat being dealt to, then the one to move), the stock size, the deal seat and the cards
still to deal to it, the last throw's offer (a rank mask), the turn count, the discard
pile's length and the count of pairs dealt; then a rank bitmask per seat at HANDS, the
match count per seat at MATCHES, the stock as a count per rank at STOCK, the (seat, rank)
pairs dealt and not yet laid at PAIRS (two slots each, in dealt order) and the discard
pile's ranks, top last, at DISCARD.

Rules array `r` (int64, built once per `PlatinumFishRules` by `rules_arrays`): the scalars
at the R_* offsets, then the offer of each throw of the dice at R_OFFERS and its weight in
36ths (1 for a double, 2 otherwise) at R_DICE_WEIGHTS.

Chance outcomes are given as integer weights (`chance_outcomes`): an outcome's probability
is its weight over their sum, which is exactly engine.py's float for every chance node (a
stock count over the stock size, 1 over the hand sizes, a throw's 36ths).  `sample_chance`
draws one by those weights and `playout` plays to the end, both on the kit's xorshift
stream; `from_engine` turns an engine position into a state, so a search can start from it.
Slots past the discard pile's and the pairs' lengths are kept zero, so a state is a
function of the position alone.

Left out in this step: the event log, the `known` masks and the `laid` ranks (they serve
the observer and the resampler, not the rules), and the legality checks engine.py raises
on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.kernel import (
    below, fill_actions, nth_card, popcount, returns_of_mask, seed_state, top_seats,
)

from koloda.games.platinum_fish.rules import DICE

# Phases, as in engine.py.  HAND, DEAL, TURN, DRAW and DICE_ROLL are chance nodes.
HAND, DEAL, TURN, PLAY, DRAW, DICE_ROLL, CHOOSE, ASK, OVER = range(9)
CHANCE, TERMINAL = -1, -4          # games/kit/engine.py

MAX_SEATS = 6
MAX_RANKS = 13
MAX_CARDS = 13 * 8                 # ranks x copies at most
MAX_HAND = 6
MAX_PAIRS = MAX_SEATS * (MAX_HAND // 2)
NUM_DICE = len(DICE)               # 21 unordered throws

# --- layout of the state array ---------------------------------------------------------
PHASE, PLAYER, STOCK_SIZE, DEAL_SEAT, DEAL_LEFT, OFFER, TURNS = 0, 1, 2, 3, 4, 5, 6
DISCARD_N, PAIRS_N = 7, 8
HANDS = 9                           # MAX_SEATS rank masks
MATCHES = HANDS + MAX_SEATS         # MAX_SEATS match counts
STOCK = MATCHES + MAX_SEATS         # MAX_RANKS counts
PAIRS = STOCK + MAX_RANKS           # MAX_PAIRS (seat, rank) pairs
DISCARD = PAIRS + 2 * MAX_PAIRS     # the discard pile, top last
STATE_SIZE = DISCARD + MAX_CARDS

# --- layout of the rules array ---------------------------------------------------------
R_PLAYERS, R_RANKS, R_COPIES, R_MAX_TURNS, R_MIN_HAND, R_MAX_HAND = 0, 1, 2, 3, 4, 5
R_NUM_CARDS, R_DEALER, R_TAKE, R_DRAW, R_ROLL, R_CHOOSE_BASE, R_ASK_BASE = (
    6, 7, 8, 9, 10, 11, 12)
R_OFFERS = 13                       # NUM_DICE offer masks
R_DICE_WEIGHTS = R_OFFERS + NUM_DICE  # NUM_DICE weights in 36ths
RULES_SIZE = R_DICE_WEIGHTS + NUM_DICE
DICE_TOTAL = 36
MAX_LEGAL = MAX_RANKS               # a decision has at most this many options (3 <= 13)
MAX_CHANCE = NUM_DICE               # a chance node has at most this many outcomes


def rules_arrays(rules) -> np.ndarray:
    """The rules array of a `PlatinumFishRules` (plain Python; build it once per game)."""
    r = np.zeros(RULES_SIZE, np.int64)
    r[R_PLAYERS] = rules.num_players
    r[R_RANKS] = rules.num_ranks
    r[R_COPIES] = rules.copies
    r[R_MAX_TURNS] = rules.max_turns
    r[R_MIN_HAND] = rules.min_hand
    r[R_MAX_HAND] = rules.max_hand
    r[R_NUM_CARDS] = rules.num_cards
    r[R_DEALER] = rules.dealer
    r[R_TAKE] = rules.take_action
    r[R_DRAW] = rules.draw_action
    r[R_ROLL] = rules.roll_action
    r[R_CHOOSE_BASE] = rules.choose_base
    r[R_ASK_BASE] = rules.ask_base
    assert rules.hand_sizes == tuple(range(rules.min_hand, rules.max_hand + 1))
    for d, (low, high) in enumerate(DICE):
        r[R_OFFERS + d] = rules.offers[d]
        r[R_DICE_WEIGHTS + d] = 1 if low == high else 2
    return r


def from_engine(core) -> np.ndarray:
    """The kernel state of a `PlatinumFishCore` in any phase (plain Python), so a search
    can start from the position a game is in."""
    st = np.zeros(STATE_SIZE, np.int64)
    st[PHASE] = core.phase
    st[PLAYER] = core.player
    st[STOCK_SIZE] = core.stock_size
    st[DEAL_SEAT] = core.deal_seat
    st[DEAL_LEFT] = core.deal_left
    st[OFFER] = core.offer
    st[TURNS] = core.turns
    st[DISCARD_N] = len(core.discard)
    st[PAIRS_N] = len(core.pairs)
    n = len(core.hands)
    st[HANDS:HANDS + n] = core.hands
    st[MATCHES:MATCHES + n] = core.matches
    st[STOCK:STOCK + len(core.stock)] = core.stock
    for p, (seat, rank) in enumerate(core.pairs):
        st[PAIRS + 2 * p] = seat
        st[PAIRS + 2 * p + 1] = rank
    st[DISCARD:DISCARD + len(core.discard)] = core.discard
    return st


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def new_state(r):
    """The state before the deal (PlatinumFishCore.__init__)."""
    st = np.zeros(STATE_SIZE, np.int64)
    first = (r[R_DEALER] + 1) % r[R_PLAYERS]
    st[PHASE] = HAND
    st[PLAYER] = first
    st[DEAL_SEAT] = first
    st[STOCK_SIZE] = r[R_NUM_CARDS]
    for k in range(r[R_RANKS]):
        st[STOCK + k] = r[R_COPIES]
    return st


@njit(cache=True)
def current_player(st):
    phase = st[PHASE]
    if phase == PLAY or phase == CHOOSE or phase == ASK:
        return st[PLAYER]
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit(cache=True)
def is_chance(st):
    phase = st[PHASE]
    return phase != PLAY and phase != CHOOSE and phase != ASK and phase != OVER


@njit(cache=True)
def is_terminal(st):
    return st[PHASE] == OVER


@njit(cache=True)
def stock_ranks(st, r):
    """The ranks the stock still holds, as a mask (PlatinumFishCore.stock_ranks)."""
    mask = 0
    for k in range(r[R_RANKS]):
        if st[STOCK + k]:
            mask |= np.int64(1) << k
    return mask


@njit(cache=True)
def winners_mask(st, r):
    """The seats with the most matches, as a mask; 0 before the end and when all tie
    (PlatinumFishCore.winners)."""
    if st[PHASE] != OVER:
        return 0
    return top_seats(st, MATCHES, r[R_PLAYERS])


@njit(cache=True)
def returns(st, r, out):
    """Writes the engine's returns (winners by matches; zeros before the end and when all
    tie) to out[:num_players]."""
    returns_of_mask(winners_mask(st, r), r[R_PLAYERS], out)


@njit(cache=True)
def chance_outcomes(st, r, outcomes, weights):
    """Writes the pending chance node's outcomes (ascending) and their integer weights to
    `outcomes` and `weights` (MAX_CHANCE long); their count (0 at a decision or the end).
    An outcome's probability is its weight over the weights' sum."""
    phase = st[PHASE]
    n = 0
    if phase == HAND:
        for size in range(r[R_MIN_HAND], r[R_MAX_HAND] + 1):
            outcomes[n] = size
            weights[n] = 1
            n += 1
    elif phase == DEAL or phase == TURN or phase == DRAW:
        for k in range(r[R_RANKS]):
            if st[STOCK + k]:
                outcomes[n] = k
                weights[n] = st[STOCK + k]
                n += 1
    elif phase == DICE_ROLL:
        for d in range(NUM_DICE):
            outcomes[n] = d
            weights[n] = r[R_DICE_WEIGHTS + d]
            n += 1
    return n


@njit(cache=True)
def sample_chance(st, r, x):
    """(x, the pending chance node's outcome drawn by its probabilities), walking the
    stock counts or the dice weights in place; -1 at a decision or the end.  `x` is the
    kit's xorshift state, a uint64."""
    x = np.uint64(x)
    phase = st[PHASE]
    outcome = -1
    if phase == DRAW or phase == DEAL or phase == TURN:
        x, pick = below(x, st[STOCK_SIZE])
        outcome = 0
        while pick >= st[STOCK + outcome]:
            pick -= st[STOCK + outcome]
            outcome += 1
    elif phase == DICE_ROLL:
        x, pick = below(x, DICE_TOTAL)
        outcome = 0
        while pick >= r[R_DICE_WEIGHTS + outcome]:
            pick -= r[R_DICE_WEIGHTS + outcome]
            outcome += 1
    elif phase == HAND:
        x, pick = below(x, r[R_MAX_HAND] - r[R_MIN_HAND] + 1)
        outcome = r[R_MIN_HAND] + pick
    return x, outcome


@njit(cache=True)
def chance_seen_by(st, r, player, outcome):
    """Whether `player` sees the pending chance outcome: a dealt card only its receiver,
    everything else everybody (PlatinumFishCore.chance_seen_by)."""
    return st[PHASE] != DEAL or st[DEAL_SEAT] == player


@njit(cache=True)
def _can_take(st):
    dn = st[DISCARD_N]
    return dn > 0 and (st[HANDS + st[PLAYER]] >> st[DISCARD + dn - 1]) & 1 == 1


@njit(cache=True)
def legal_actions(st, r, out):
    """Writes the legal decisions, ascending, to `out` (MAX_LEGAL long); their count."""
    phase = st[PHASE]
    if phase == PLAY:
        n = 0
        if _can_take(st):
            out[0] = r[R_TAKE]
            n = 1
        out[n] = r[R_DRAW]
        out[n + 1] = r[R_ROLL]
        return n + 2
    if phase == CHOOSE:
        return fill_actions(st[OFFER] & stock_ranks(st, r), r[R_CHOOSE_BASE], out, 0)
    if phase == ASK:
        return fill_actions(st[OFFER], r[R_ASK_BASE], out, 0)
    return 0


# --- transitions -----------------------------------------------------------------------

@njit(cache=True)
def _take_from_stock(st, rank):
    st[STOCK + rank] -= 1
    st[STOCK_SIZE] -= 1


@njit(cache=True)
def _end_turn(st, r, matched):
    if not st[STOCK_SIZE] or st[TURNS] >= r[R_MAX_TURNS]:
        st[PHASE] = OVER
        return
    if not matched:
        st[PLAYER] = (st[PLAYER] + 1) % r[R_PLAYERS]
    st[PHASE] = PLAY


@njit(cache=True)
def _receive(st, r, seat, rank, to_discard):
    """A card reaches `seat`: a match with its hand, or else it goes to the discard (a
    drawn card) or into the hand (a chosen or given card)."""
    bit = np.int64(1) << rank
    if st[HANDS + seat] & bit:
        st[HANDS + seat] ^= bit
        st[MATCHES + seat] += 1
        _end_turn(st, r, True)
        return
    if to_discard:
        st[DISCARD + st[DISCARD_N]] = rank
        st[DISCARD_N] += 1
    else:
        st[HANDS + seat] |= bit
    _end_turn(st, r, False)


@njit(cache=True)
def _deal(st, r, rank):
    seat = st[DEAL_SEAT]
    _take_from_stock(st, rank)
    bit = np.int64(1) << rank
    if st[HANDS + seat] & bit:       # the second of a pair: laid once the deal is done
        p = st[PAIRS_N]
        st[PAIRS + 2 * p] = seat
        st[PAIRS + 2 * p + 1] = rank
        st[PAIRS_N] = p + 1
    st[HANDS + seat] ^= bit
    st[DEAL_LEFT] -= 1
    if st[DEAL_LEFT]:
        return
    st[DEAL_SEAT] = (seat + 1) % r[R_PLAYERS]
    if seat != r[R_DEALER]:
        st[PHASE] = HAND
        return
    # Every hand is dealt: each player lays its pairs (only their count matters here).
    for p in range(st[PAIRS_N]):
        st[MATCHES + st[PAIRS + 2 * p]] += 1
        st[PAIRS + 2 * p] = 0
        st[PAIRS + 2 * p + 1] = 0
    st[PAIRS_N] = 0
    st[PHASE] = TURN


@njit(cache=True)
def _thrown(st, r, dice):
    offer = r[R_OFFERS + dice]
    st[OFFER] = offer
    if offer & stock_ranks(st, r):
        st[PHASE] = CHOOSE
    elif offer:
        st[PHASE] = ASK
    else:                            # no offered rank is in play: the turn ends
        _end_turn(st, r, False)


@njit(cache=True)
def _ask(st, r, rank):
    seat = st[PLAYER]
    n = r[R_PLAYERS]
    bit = np.int64(1) << rank
    for step in range(1, n):
        giver = (seat + step) % n
        if st[HANDS + giver] & bit:
            st[HANDS + giver] ^= bit
            _receive(st, r, seat, rank, False)
            return
    _end_turn(st, r, False)


@njit(cache=True)
def apply(st, r, action):
    """Apply a decision or a chance outcome in place (the caller checked legality)."""
    phase = st[PHASE]
    if phase == PLAY:
        seat = st[PLAYER]
        st[TURNS] += 1
        if action == r[R_TAKE]:
            st[DISCARD_N] -= 1
            rank = st[DISCARD + st[DISCARD_N]]
            st[DISCARD + st[DISCARD_N]] = 0
            _receive(st, r, seat, rank, False)
        elif action == r[R_DRAW]:
            st[PHASE] = DRAW
        else:
            st[PHASE] = DICE_ROLL
    elif phase == DRAW:
        _take_from_stock(st, action)
        _receive(st, r, st[PLAYER], action, True)
    elif phase == DICE_ROLL:
        _thrown(st, r, action)
    elif phase == CHOOSE:
        rank = action - r[R_CHOOSE_BASE]
        _take_from_stock(st, rank)
        _receive(st, r, st[PLAYER], rank, False)
    elif phase == ASK:
        _ask(st, r, action - r[R_ASK_BASE])
    elif phase == DEAL:
        _deal(st, r, action)
    elif phase == HAND:
        st[DEAL_LEFT] = action
        st[PHASE] = DEAL
    elif phase == TURN:
        _take_from_stock(st, action)
        st[DISCARD + st[DISCARD_N]] = action
        st[DISCARD_N] += 1
        st[PLAYER] = (r[R_DEALER] + 1) % r[R_PLAYERS]
        st[PHASE] = PLAY
    # OVER: the game is over, nothing changes


# --- random playouts -------------------------------------------------------------------

@njit(cache=True)
def _random_decision(st, r, x):
    """(x, a uniformly random legal decision), without building the list."""
    phase = st[PHASE]
    if phase == PLAY:
        if _can_take(st):
            x, pick = below(x, 3)
            return x, pick                # take, draw, roll
        x, pick = below(x, 2)
        return x, pick + 1                # draw, roll
    options = st[OFFER]
    base = r[R_ASK_BASE]
    if phase == CHOOSE:
        options &= stock_ranks(st, r)
        base = r[R_CHOOSE_BASE]
    x, pick = below(x, popcount(options))
    return x, base + nth_card(options, pick)


@njit(cache=True)
def playout(st, r, x):
    """Play uniformly random legal decisions and chance by its probabilities to the end,
    in place, continuing the xorshift stream `x`; the stream's state after it."""
    x = np.uint64(x)
    while True:
        phase = st[PHASE]
        if phase == OVER:
            return x
        if phase == PLAY or phase == CHOOSE or phase == ASK:
            x, action = _random_decision(st, r, x)
        else:
            x, action = sample_chance(st, r, x)
        apply(st, r, action)


@njit(cache=True)
def random_playout(st, r, seed):
    """`playout` from a seed (the distribution of PlatinumFishCore.random_playout)."""
    playout(st, r, seed_state(seed))


@njit(cache=True)
def random_playouts(st, r, seed, count, out_winners):
    """`count` playouts from copies of `st` (seeds seed, seed+1, ...), each one's winners
    as a seat mask (`winners_mask`: 0 when all tie) to `out_winners` (for speed: one call
    from Python for many games)."""
    work = np.empty_like(st)
    for i in range(count):
        work[:] = st
        random_playout(work, r, seed + i)
        out_winners[i] = winners_mask(work, r)
