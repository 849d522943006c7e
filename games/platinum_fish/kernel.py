"""Platinum Fish's rules (docs/rules/platinum_fish.md) as one compiled numba kernel, over a
small int64 state array: the one source of the rules, which the engine (engine.py), the
compiled search and the kernel's own playouts all play.  Every function but the plain
Python `rules_arrays` and `from_engine` is `njit(cache=True)`.

State array `st` (int64, STATE_SIZE): the phase (HAND..OVER), the player (the seat being
dealt to, then the one to move), the stock size, the deal seat and the cards still to deal
to it, the last throw's offer (a rank mask), the turn count, the discard pile's length and
the count of pairs dealt; then a rank bitmask per seat at HANDS, the match count per seat
at MATCHES, the stock as a count per rank at STOCK, the (seat, rank) pairs dealt and not
yet laid at PAIRS (two slots each, in dealt order) and the discard pile's ranks, top last,
at DISCARD.  Those first KEY_SIZE slots are the position (what decides how the game goes
on).  After them come what the observer, the heuristic and the resampler read: the ranks
everybody knows to be in each hand at KNOWN, and the matches laid in order at LAID (a
(seat, rank) pair each, LAID_N of them); last, the scratch log of the step being applied.
Slots past the discard pile's, the pairs' and the matches' lengths are kept zero, and so is
the scratch log of an engine's state (`apply_logged` empties it), so such a state is a
function of the position and those facts.

Rules array `r` (int64, built once per `PlatinumFishRules` by `rules_arrays`): the scalars
at the R_* offsets, then the offer of each throw of the dice at R_OFFERS and its weight in
36ths (1 for a double, 2 otherwise) at R_DICE_WEIGHTS.

Chance outcomes are given as integer weights (`chance_outcomes`): an outcome's probability
is its weight over their sum (a stock count over the stock size, 1 over the hand sizes, a
throw's 36ths).  `sample_chance` draws one by those weights and `playout` plays to the end,
both on the kit's xorshift stream.

Events: every step notes the events it makes, as (kind, seat, value) triples (EV_*: value
is a rank, a hand size, a dice id or a rank mask), in a scratch log at the end of the state
(STEP_EVENTS, STEP_LOG), which costs search a few stores a step and no argument.
`apply_logged` applies a step and moves its events to the caller's log array, leaving the
scratch zero: the engine keeps them for the observer and the resampler.  `play_random` is
one step of a uniformly random game driven by a float the caller draws, and
`play_random_moves` many such steps (the engine's random playout, a few calls a game).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.engine import CHANCE, TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import (
    below,
    fill_actions,
    nth_card,
    popcount,
    returns_of_mask,
    seed_state,
    top_seats,
)
from koloda.games.kit.layout import StateLayout
from koloda.games.platinum_fish.rules import DICE

# Phases.  HAND, DEAL, TURN, DRAW and DICE_ROLL are chance nodes.
HAND, DEAL, TURN, PLAY, DRAW, DICE_ROLL, CHOOSE, ASK, OVER = range(9)

# Event kinds, logged as (kind, seat, value): value is a rank, a hand size, a dice id or
# (EV_AVAILABLE, EV_NONE_AVAILABLE) a rank mask; seat is -1 where nobody's.
(EV_HAND, EV_DEAL, EV_LAY, EV_TURN, EV_TAKE, EV_DRAW, EV_STOCK, EV_ROLL, EV_DICE, EV_CHOOSE,
 EV_ASK, EV_GIVE, EV_NOBODY, EV_MATCH, EV_TO_DISCARD, EV_TO_HAND, EV_NOTHING,
 EV_AVAILABLE, EV_NONE_AVAILABLE) = range(19)

MAX_SEATS = 6
MAX_RANKS = 13
MAX_CARDS = 13 * 8                 # ranks x copies at most
MAX_HAND = 6
MAX_PAIRS = MAX_SEATS * (MAX_HAND // 2)
MAX_MATCHES = MAX_CARDS // 2
MAX_STEP_EVENTS = 1 + MAX_PAIRS     # the last card of the deal and every pair laid
NUM_DICE = len(DICE)               # 21 unordered throws

# --- layout of the state array ---------------------------------------------------------
STATE = StateLayout("Platinum Fish's state array")
PHASE = STATE.word("PHASE", "HAND .. OVER (kernel.py).")
PLAYER = STATE.word("PLAYER", "The seat being dealt to, then the one to move.")
STOCK_SIZE = STATE.word("STOCK_SIZE")
DEAL_SEAT = STATE.word("DEAL_SEAT", "The seat being dealt to (after the deal, the dealer's "
                       "left).")
DEAL_LEFT = STATE.word("DEAL_LEFT", "Cards still to deal to `deal_seat`.")
OFFER = STATE.word("OFFER", "The ranks the last throw of the dice offers, as a mask.")
TURNS = STATE.word("TURNS")
DISCARD_N = STATE.word("DISCARD_N")
PAIRS_N = STATE.word("PAIRS_N")
HANDS = STATE.words("HANDS", MAX_SEATS, "A rank bitmask per seat.", per="num_players")
MATCHES = STATE.words("MATCHES", MAX_SEATS, "The matches laid per seat.", per="num_players")
STOCK = STATE.words("STOCK", MAX_RANKS, "The stock's count of each rank.", per="num_ranks")
PAIRS = STATE.block("PAIRS", 2 * MAX_PAIRS, "(seat, rank) pairs.")
DISCARD = STATE.counted("DISCARD", MAX_CARDS, DISCARD_N, "The discard pile's ranks, top "
                        "last.")
KEY_SIZE = STATE.size               # the position ends here
KNOWN = STATE.words("KNOWN", MAX_SEATS, "Per seat, the ranks everybody knows to be in that "
                    "hand.", per="num_players")
LAID_N = STATE.word("LAID_N", "Matches laid so far.")
LAID = STATE.block("LAID", 2 * MAX_MATCHES, "(seat, rank) pairs, in the order laid.")
STEP_EVENTS = STATE.block("STEP_EVENTS", 1, "Events of the step being applied.")
STEP_LOG = STATE.block("STEP_LOG", 3 * MAX_STEP_EVENTS, "Their (kind, seat, value) "
                         "triples.")
STATE_SIZE = STATE.size

# --- layout of the rules array ---------------------------------------------------------
RULES = StateLayout("Platinum Fish's rules array")
(R_PLAYERS, R_RANKS, R_COPIES, R_MAX_TURNS, R_MIN_HAND, R_MAX_HAND, R_NUM_CARDS, R_DEALER,
 R_TAKE, R_DRAW, R_ROLL, R_CHOOSE_BASE, R_ASK_BASE) = RULES.scalars(
    "R_PLAYERS R_RANKS R_COPIES R_MAX_TURNS R_MIN_HAND R_MAX_HAND R_NUM_CARDS R_DEALER "
    "R_TAKE R_DRAW R_ROLL R_CHOOSE_BASE R_ASK_BASE")
R_OFFERS = RULES.block("R_OFFERS", NUM_DICE, "An offer mask per throw.")
R_DICE_WEIGHTS = RULES.block("R_DICE_WEIGHTS", NUM_DICE, "A weight in 36ths per throw.")
RULES_SIZE = RULES.size
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
    """The kernel state of a `PlatinumFishCore` (a copy of its own), so a search can start
    from the position a game is in."""
    return core.st.copy()


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def new_state(r):
    """The state before the deal: the first seat to be dealt to is the dealer's left."""
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
    """The ranks the stock still holds, as a mask."""
    mask = 0
    for k in range(r[R_RANKS]):
        if st[STOCK + k]:
            mask |= np.int64(1) << k
    return mask


@njit(cache=True)
def winners_mask(st, r):
    """The seats with the most matches, as a mask; 0 before the end and when all tie."""
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
    everything else everybody."""
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
def _log(st, kind, seat, value):
    """Note the event (kind, seat, value) in the step's scratch log (STEP_LOG)."""
    at = STEP_LOG + 3 * st[STEP_EVENTS]
    st[at] = kind
    st[at + 1] = seat
    st[at + 2] = value
    st[STEP_EVENTS] += 1


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
def _lay(st, seat, rank, kind):
    """`seat` lays a match of `rank` (kind EV_LAY after the deal, EV_MATCH in play)."""
    st[MATCHES + seat] += 1
    at = LAID + 2 * st[LAID_N]
    st[at] = seat
    st[at + 1] = rank
    st[LAID_N] += 1
    _log(st, kind, seat, rank)


@njit(cache=True)
def _receive(st, r, seat, rank, to_discard):
    """A card reaches `seat` in view of all: a match with its hand, or else it goes to the
    discard (a drawn card) or into the hand (a chosen or given card)."""
    bit = np.int64(1) << rank
    if st[HANDS + seat] & bit:
        st[HANDS + seat] ^= bit
        st[KNOWN + seat] &= ~bit
        _lay(st, seat, rank, EV_MATCH)
        _end_turn(st, r, True)
        return
    if to_discard:
        st[DISCARD + st[DISCARD_N]] = rank
        st[DISCARD_N] += 1
        _log(st, EV_TO_DISCARD, seat, rank)
    else:
        st[HANDS + seat] |= bit
        st[KNOWN + seat] |= bit
        _log(st, EV_TO_HAND, seat, rank)
    _end_turn(st, r, False)


@njit(cache=True)
def _lay_pairs(st, r):
    """Every hand is dealt: each player lays the pairs it was dealt, from the dealer's
    left, lowest rank first."""
    n = r[R_PLAYERS]
    first = (r[R_DEALER] + 1) % n
    for step in range(n):
        seat = (first + step) % n
        for rank in range(r[R_RANKS]):
            for p in range(st[PAIRS_N]):
                if st[PAIRS + 2 * p] == seat and st[PAIRS + 2 * p + 1] == rank:
                    _lay(st, seat, rank, EV_LAY)
    for p in range(2 * st[PAIRS_N]):
        st[PAIRS + p] = 0
    st[PAIRS_N] = 0


@njit(cache=True)
def _deal(st, r, rank):
    seat = st[DEAL_SEAT]
    _take_from_stock(st, rank)
    _log(st, EV_DEAL, seat, rank)
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
    _lay_pairs(st, r)
    st[PHASE] = TURN


@njit(cache=True)
def _turn(st, r, rank):
    _take_from_stock(st, rank)
    st[DISCARD + st[DISCARD_N]] = rank
    st[DISCARD_N] += 1
    _log(st, EV_TURN, -1, rank)
    st[PLAYER] = (r[R_DEALER] + 1) % r[R_PLAYERS]
    st[PHASE] = PLAY


@njit(cache=True)
def _play(st, r, action):
    """A turn: take the discard, draw, or throw the dice."""
    seat = st[PLAYER]
    st[TURNS] += 1
    if action == r[R_TAKE]:
        st[DISCARD_N] -= 1
        rank = st[DISCARD + st[DISCARD_N]]
        st[DISCARD + st[DISCARD_N]] = 0
        _log(st, EV_TAKE, seat, rank)
        _receive(st, r, seat, rank, False)
    elif action == r[R_DRAW]:
        _log(st, EV_DRAW, seat, -1)
        st[PHASE] = DRAW
    else:
        _log(st, EV_ROLL, seat, -1)
        st[PHASE] = DICE_ROLL


@njit(cache=True)
def _thrown(st, r, dice):
    _log(st, EV_DICE, -1, dice)
    offer = r[R_OFFERS + dice]
    st[OFFER] = offer
    available = offer & stock_ranks(st, r)
    if available:
        # the player searches the stock in view of all: which offered ranks it holds is
        # public
        _log(st, EV_AVAILABLE, st[PLAYER], available)
        st[PHASE] = CHOOSE
    elif offer:
        _log(st, EV_NONE_AVAILABLE, st[PLAYER], offer)
        st[PHASE] = ASK
    else:                            # no offered rank is in play (a miniature): turn ends
        _log(st, EV_NOTHING, st[PLAYER], -1)
        _end_turn(st, r, False)


@njit(cache=True)
def _ask(st, r, rank):
    seat = st[PLAYER]
    _log(st, EV_ASK, seat, rank)
    n = r[R_PLAYERS]
    bit = np.int64(1) << rank
    for step in range(1, n):
        giver = (seat + step) % n
        if st[HANDS + giver] & bit:
            st[HANDS + giver] ^= bit
            st[KNOWN + giver] &= ~bit
            _log(st, EV_GIVE, giver, rank)
            _receive(st, r, seat, rank, False)
            return
    _log(st, EV_NOBODY, seat, rank)
    _end_turn(st, r, False)


@njit(cache=True)
def apply(st, r, action):
    """Apply a decision or a chance outcome in place (the caller checked legality); its
    events are left in the step's scratch log, for `apply_logged`."""
    st[STEP_EVENTS] = 0
    phase = st[PHASE]
    if phase == PLAY:
        _play(st, r, action)
    elif phase == DRAW:
        _take_from_stock(st, action)
        _log(st, EV_STOCK, st[PLAYER], action)
        _receive(st, r, st[PLAYER], action, True)
    elif phase == DICE_ROLL:
        _thrown(st, r, action)
    elif phase == CHOOSE:
        rank = action - r[R_CHOOSE_BASE]
        _take_from_stock(st, rank)
        _log(st, EV_CHOOSE, st[PLAYER], rank)
        _receive(st, r, st[PLAYER], rank, False)
    elif phase == ASK:
        _ask(st, r, action - r[R_ASK_BASE])
    elif phase == DEAL:
        _deal(st, r, action)
    elif phase == HAND:
        _log(st, EV_HAND, st[DEAL_SEAT], action)
        st[DEAL_LEFT] = action
        st[PHASE] = DEAL
    elif phase == TURN:
        _turn(st, r, action)
    # OVER: the game is over, nothing changes


@njit(cache=True)
def apply_logged(st, r, action, log):
    """`apply`, appending the events it made to `log` as (kind, seat, value) triples after
    the log[0] already there (room for MAX_STEP_EVENTS more); the log's count after.  The
    scratch log is left zero, so an engine's state holds the position alone."""
    apply(st, r, action)
    n = log[0]
    for i in range(3 * st[STEP_EVENTS]):
        log[1 + 3 * n + i] = st[STEP_LOG + i]
        st[STEP_LOG + i] = 0
    log[0] = n + st[STEP_EVENTS]
    st[STEP_EVENTS] = 0
    return log[0]


@njit(cache=True)
def apply_event(st, r, action, log):
    """`apply` for an engine step: (events made, then the first two events' kind, seat and
    value, zeros where there are fewer), every event also in `log` (from log[1], count in
    log[0]) when there are more; (-1, 0, 0, 0, 0, 0, 0) and nothing changed once the game
    is over.  Most moves make one event or two, which come back as a tuple: cheaper to
    read than a log."""
    if st[PHASE] == OVER:
        return -1, 0, 0, 0, 0, 0, 0
    log[0] = 0
    log[4] = log[5] = log[6] = 0
    n = apply_logged(st, r, action, log)
    if n == 0:
        return 0, 0, 0, 0, 0, 0, 0
    return n, log[1], log[2], log[3], log[4], log[5], log[6]


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
def _pick_dice(r, u):
    """The throw that `u` in [0, 1) falls on, walking the throws' probabilities as floats
    (the engine protocol's default playout draws chance so)."""
    total = 0.0
    for d in range(NUM_DICE):
        total += r[R_DICE_WEIGHTS + d] / DICE_TOTAL
        if u < total:
            return d
    return NUM_DICE - 1


@njit(cache=True)
def _pick_from_stock(st, u):
    """The rank whose share of the stock `u` in [0, 1) falls on."""
    pick = np.int64(u * st[STOCK_SIZE])
    rank = 0
    while pick >= st[STOCK + rank]:
        pick -= st[STOCK + rank]
        rank += 1
    return rank


@njit(cache=True)
def random_step(st, r, u):
    """The action a uniformly random game takes here with `u` in [0, 1): a decision the
    legal one at `int(u * count)`, a chance outcome by its probabilities (-1 at the end)."""
    phase = st[PHASE]
    if phase == PLAY:
        can_take = 1 if _can_take(st) else 0
        return np.int64(u * (2 + can_take)) + 1 - can_take   # take, draw, roll
    if phase == DRAW or phase == DEAL or phase == TURN:
        return _pick_from_stock(st, u)
    if phase == DICE_ROLL:
        return _pick_dice(r, u)
    if phase == CHOOSE or phase == ASK:
        options = st[OFFER]
        base = r[R_ASK_BASE]
        if phase == CHOOSE:
            options &= stock_ranks(st, r)
            base = r[R_CHOOSE_BASE]
        return base + nth_card(options, np.int64(u * popcount(options)))
    if phase == HAND:
        return r[R_MIN_HAND] + np.int64(u * (r[R_MAX_HAND] - r[R_MIN_HAND] + 1))
    return -1


@njit(cache=True)
def play_random(st, r, u, log):
    """`apply_logged` of `random_step(st, r, u)`: one step of a random game driven by the
    caller's random number; the log's count after."""
    return apply_logged(st, r, random_step(st, r, u), log)


@njit(cache=True)
def play_random_moves(st, r, draws, log):
    """`play_random` with each number of `draws` in turn until the game ends or they run
    out (`log` has room for MAX_STEP_EVENTS a number): the engine's random playout in a
    few calls a game."""
    for i in range(draws.size):
        if st[PHASE] == OVER:
            return
        play_random(st, r, draws[i], log)


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
    """`playout` from a seed (the distribution of the engine's random playout)."""
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
