"""Durak's rules (docs/rules/durak.md) as compiled numba code over a small int64 state array.

This is the one source of Durak's rules: the engine (engine.py, `DurakCore`) is a thin
layer over these functions, and search runs them directly on state arrays.  Every function
is `njit(cache=True)`.

State array `st` (int64, STATE_SIZE): the phase (DEAL..OVER), the stock, trump card and
suit, discard, table mask and match mask, the open card, the attack count, the bout's
attacker and defender, the throw round (`throw_order` at THROW_ORDER, its length and
index), the deal index, the draw queue (at DRAW_QUEUE, the next seat first, and its
length), the next attacker, the decision count, the fool, the table's cards in play order
(at TABLE, TABLE_N of them), a bitmask of cards per seat at HANDS and, last, the cards
everybody knows to be in each hand at KNOWN (public knowledge, for the observer and the
resampler; the rules never read it).  Cards are < 52, so every mask fits in an int64 with
bit 63 clear.  Entries past a list's length are kept 0, so a position has exactly one
state array and `st[:KNOWN]` identifies it.

Rules array `r` (int64, built once per `DurakRules` by `rules_arrays`): the scalars at the
R_* offsets, then the suit masks, the match masks per card and the beaters per trump suit
and card, with a stride of 52 cards.

Each action logs one event (kind, seat, card) (`event_of`; the engine keeps the log), and
the deal's last card one more, EV_TRUMP_SHOWN, when no stock is left to turn a trump from.
`apply` trusts its caller; `apply_checked` refuses a card its seat does not hold, as the
engine must.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.engine import CHANCE, TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import (
    below,
    fill_actions,
    low_card,
    nth_card,
    popcount,
    returns_of_mask,
    seed_state,
)
from koloda.games.kit.layout import StateLayout

# Phases.  The first three are chance nodes.
DEAL, TRUMP, DRAW, ATTACK, DEFEND, THROW, OVER = range(7)

# Event kinds, logged as (kind, player, card); player and card are -1 where they do not apply.
(EV_DEAL, EV_TRUMP, EV_TRUMP_SHOWN, EV_DRAW, EV_ATTACK, EV_THROW, EV_BEAT, EV_TAKE,
 EV_PASS) = range(9)
REFUSED = -1                        # apply_checked's kind for an action it did not apply

MAX_SEATS = 6
MAX_CARDS = 52

# --- layout of the state array ---------------------------------------------------------
STATE = StateLayout("Durak's state array")
PHASE = STATE.word("PHASE", "DEAL, TRUMP or DRAW (chance nodes), ATTACK, DEFEND, THROW, "
                   "or OVER.")
STOCK = STATE.word("STOCK", "The undealt and undrawn cards (the face-up trump included).")
TRUMP_CARD = STATE.word("TRUMP_CARD", "The card that fixed the trump suit; -1 before.")
TRUMP_SUIT = STATE.word("TRUMP_SUIT")
DISCARD = STATE.word("DISCARD")
TABLE_MASK = STATE.word("TABLE_MASK")
TABLE_MATCH = STATE.word("TABLE_MATCH", "The cards sharing a rank or a suit with a card on "
                         "the table.")
OPEN_CARD = STATE.word("OPEN_CARD", "The attack card the defender has yet to answer; -1 if "
                       "none.")
ATTACKS = STATE.word("ATTACKS", "Attack cards in this bout.")
ATTACKER = STATE.word("ATTACKER", "The bout's first attacker; -1 before the first bout.")
DEFENDER = STATE.word("DEFENDER")
THROW_N = STATE.word("THROW_N")
THROW_INDEX = STATE.word("THROW_INDEX")
DEAL_INDEX = STATE.word("DEAL_INDEX", "Cards dealt so far.")
DRAW_N = STATE.word("DRAW_N")
NEXT_ATTACKER = STATE.word("NEXT_ATTACKER")
MOVES = STATE.word("MOVES", "Decisions so far (for the max_moves cap).")
FOOL = STATE.word("FOOL", "The durak once the game is over; -1 for a draw.")
TABLE_N = STATE.word("TABLE_N")
HANDS = STATE.words("HANDS", MAX_SEATS, "Each seat's cards, as a bitmask.", per="num_players")
THROW_ORDER = STATE.counted("THROW_ORDER", MAX_SEATS, THROW_N, "Who may throw in, in order, "
                            "after the last beat.", as_tuple=True)
DRAW_QUEUE = STATE.counted("DRAW_QUEUE", MAX_SEATS, DRAW_N, "The seats still to draw after "
                           "this bout, the next one first.", as_tuple=True)
TABLE = STATE.counted("TABLE", MAX_CARDS, TABLE_N, "The bout's cards in play order: attack, "
                      "beat, attack, ...")
KNOWN = STATE.words("KNOWN", MAX_SEATS, "Per seat, the cards in that hand everybody knows "
                    "(taken, or the trump drawn).", per="num_players")
STATE_SIZE = STATE.size

# --- layout of the rules array ---------------------------------------------------------
RULES = StateLayout("Durak's rules array")
(R_PLAYERS, R_HAND_SIZE, R_MAX_ATTACK, R_PREVIOUS_FOOL, R_LEAD_STEP, R_MAX_MOVES, R_DEALER,
 R_SUITS, R_RANKS, R_SIZE, R_FULL, R_ATTACK_BASE, R_THROW_BASE, R_BEAT_BASE, R_TAKE,
 R_PASS) = RULES.scalars(
    "R_PLAYERS R_HAND_SIZE R_MAX_ATTACK R_PREVIOUS_FOOL R_LEAD_STEP R_MAX_MOVES R_DEALER "
    "R_SUITS R_RANKS R_SIZE R_FULL R_ATTACK_BASE R_THROW_BASE R_BEAT_BASE R_TAKE R_PASS")
R_SUIT_MASKS = RULES.block("R_SUIT_MASKS", 4)
R_MATCH = RULES.block("R_MATCH", MAX_CARDS, "A match mask per card.")
R_BEATERS = RULES.block("R_BEATERS", 4 * MAX_CARDS, "Per trump suit, the beaters of "
                          "each card.")
RULES_SIZE = RULES.size
MAX_LEGAL = MAX_CARDS + 1           # a decision has at most this many options
MAX_CHANCE = MAX_CARDS              # a chance node has at most this many outcomes


def rules_arrays(rules) -> np.ndarray:
    """The rules array of a `DurakRules` (plain Python; build it once per game)."""
    d = rules.deck
    r = np.zeros(RULES_SIZE, np.int64)
    r[R_PLAYERS] = rules.num_players
    r[R_HAND_SIZE] = rules.hand_size
    r[R_MAX_ATTACK] = rules.max_attack_cards
    r[R_PREVIOUS_FOOL] = rules.previous_fool
    r[R_LEAD_STEP] = -1 if rules.lead == "under" else 1
    r[R_MAX_MOVES] = rules.max_moves
    r[R_DEALER] = rules.dealer
    r[R_SUITS] = d.num_suits
    r[R_RANKS] = d.num_ranks
    r[R_SIZE] = d.size
    r[R_FULL] = d.full_mask
    r[R_ATTACK_BASE] = rules.attack_base
    r[R_THROW_BASE] = rules.throw_base
    r[R_BEAT_BASE] = rules.beat_base
    r[R_TAKE] = rules.take_action
    r[R_PASS] = rules.pass_action
    for s in range(d.num_suits):
        r[R_SUIT_MASKS + s] = d.suit_masks[s]
    for c in range(d.size):
        r[R_MATCH + c] = rules.match_masks[c]
    for t in range(d.num_suits):
        for c in range(d.size):
            r[R_BEATERS + t * MAX_CARDS + c] = rules.beaters[t][c]
    return r


# --- the position ----------------------------------------------------------------------

@njit(cache=True)
def new_state(r):
    """The state before the deal."""
    st = np.zeros(STATE_SIZE, np.int64)
    st[PHASE] = DEAL
    st[STOCK] = r[R_FULL]
    st[TRUMP_CARD] = -1
    st[TRUMP_SUIT] = -1
    st[OPEN_CARD] = -1
    st[ATTACKER] = -1
    st[DEFENDER] = -1
    st[NEXT_ATTACKER] = -1
    st[FOOL] = -1
    return st


@njit(cache=True)
def current_player(st):
    phase = st[PHASE]
    if phase == DEFEND:
        return st[DEFENDER]
    if phase == THROW:
        return st[THROW_ORDER + st[THROW_INDEX]]
    if phase == ATTACK:
        return st[ATTACKER]
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit(cache=True)
def is_chance(st):
    return st[PHASE] <= DRAW


@njit(cache=True)
def is_terminal(st):
    return st[PHASE] == OVER


@njit(cache=True)
def fool(st):
    """The durak of a finished game, -1 for a draw (or a game not over)."""
    return st[FOOL]


@njit(cache=True)
def winners_mask(st, r):
    """Everyone but the fool, as a bitmask; 0 for a draw or a game not over."""
    if st[PHASE] != OVER or st[FOOL] < 0:
        return 0
    return ((1 << r[R_PLAYERS]) - 1) & ~(1 << st[FOOL])


@njit(cache=True)
def returns(st, r, out):
    """Writes the returns to out[:num_players]: zeros before the end."""
    n = r[R_PLAYERS]
    if st[PHASE] != OVER:
        for s in range(n):
            out[s] = 0.0
        return
    returns_of_mask(winners_mask(st, r), n, out)


@njit(cache=True)
def drawable(st):
    """The cards the pending chance node may give, each equally likely (0 elsewhere);
    the face-up trump is drawn last."""
    phase = st[PHASE]
    if phase > DRAW:
        return 0
    stock = st[STOCK]
    trump = st[TRUMP_CARD]
    if phase == DRAW and trump >= 0 and stock != (1 << trump):
        return stock & ~(1 << trump)
    return stock


@njit(cache=True)
def chance_outcomes(st, r, outcomes, weights):
    """Writes the pending chance node's cards (ascending), each of weight 1, to `outcomes`
    and `weights` (MAX_CHANCE long); their count (0 at a decision or the end)."""
    n = fill_actions(drawable(st), 0, outcomes, 0)
    for i in range(n):
        weights[i] = 1
    return n


@njit(cache=True)
def sample_chance(st, r, x):
    """At a chance node: (new xorshift state, one of its cards, drawn uniformly).  `x`
    is a uint64 xorshift state (pass np.uint64 from Python)."""
    x = np.uint64(x)
    mask = drawable(st)
    x, pick = below(x, popcount(mask))
    return x, nth_card(mask, pick)


@njit(cache=True)
def chance_seen_by(st, r, player, outcome):
    """Whether `player` sees which card the pending chance node gives."""
    phase = st[PHASE]
    if phase == DEAL:
        stock = st[STOCK]
        if st[DEAL_INDEX] == r[R_PLAYERS] * r[R_HAND_SIZE] - 1 and not (stock & (stock - 1)):
            return True      # the last card of a deal that leaves no stock shows the trump
        return (r[R_DEALER] + 1 + st[DEAL_INDEX]) % r[R_PLAYERS] == player
    if phase == DRAW:
        return st[DRAW_QUEUE] == player or outcome == st[TRUMP_CARD]
    return True              # the trump card is turned face up


@njit(cache=True)
def legal_actions(st, r, out):
    """Writes the legal decisions, ascending, to `out` (MAX_LEGAL long); their count."""
    phase = st[PHASE]
    if phase == DEFEND:
        beaters = (r[R_BEATERS + st[TRUMP_SUIT] * MAX_CARDS + st[OPEN_CARD]]
                   & st[HANDS + st[DEFENDER]])
        n = fill_actions(beaters, r[R_BEAT_BASE], out, 0)
        out[n] = r[R_TAKE]
        return n + 1
    if phase == THROW:
        thrower = st[THROW_ORDER + st[THROW_INDEX]]
        n = fill_actions(st[HANDS + thrower] & st[TABLE_MATCH], r[R_THROW_BASE], out, 0)
        out[n] = r[R_PASS]
        return n + 1
    if phase == ATTACK:
        return fill_actions(st[HANDS + st[ATTACKER]], r[R_ATTACK_BASE], out, 0)
    return 0


# --- transitions -----------------------------------------------------------------------

@njit(cache=True)
def first_attacker(st, r):
    """Who leads the first bout from the hands in `st`."""
    return lead_of_hands(st, HANDS, st[TRUMP_SUIT], r)


@njit(cache=True)
def lead_of_hands(hands, at, trump_suit, r):
    """Lowest trump leads; with no trump dealt, the lowest card, first from the dealer's
    left.  The hands are hands[at + seat], so the determinizer can ask about dealt hands."""
    n = r[R_PLAYERS]
    suits = r[R_SUITS]
    trumps = r[R_SUIT_MASKS + trump_suit]
    best_seat, best_card = -1, r[R_SIZE]
    for i in range(n):
        seat = (r[R_DEALER] + 1 + i) % n
        mine = hands[at + seat] & trumps
        if mine:
            low = low_card(mine)
            if low < best_card:
                best_seat, best_card = seat, low
    if best_seat >= 0:
        return best_seat
    best_rank = r[R_RANKS]
    for i in range(n):
        seat = (r[R_DEALER] + 1 + i) % n
        hand = hands[at + seat]
        if hand:
            rank = low_card(hand) // suits
            if rank < best_rank:
                best_seat, best_rank = seat, rank
    return best_seat


@njit(cache=True)
def _begin_bout(st, r, attacker):
    n = r[R_PLAYERS]
    defender = (attacker + 1) % n
    while not st[HANDS + defender]:
        defender = (defender + 1) % n
    st[ATTACKER] = attacker
    st[DEFENDER] = defender
    st[PHASE] = ATTACK


@njit(cache=True)
def _start_play(st, r):
    n = r[R_PLAYERS]
    if r[R_PREVIOUS_FOOL] >= 0:
        first = (r[R_PREVIOUS_FOOL] + r[R_LEAD_STEP] + n) % n
    else:
        first = first_attacker(st, r)
    _begin_bout(st, r, first)


@njit(cache=True)
def _set_trump(st, r, card):
    st[TRUMP_CARD] = card
    st[TRUMP_SUIT] = card % r[R_SUITS]


@njit(cache=True)
def _play_card(st, r, seat, card):
    bit = np.int64(1) << card
    st[HANDS + seat] ^= bit
    st[KNOWN + seat] &= ~bit
    st[TABLE + st[TABLE_N]] = card
    st[TABLE_N] += 1
    st[TABLE_MASK] |= bit
    st[TABLE_MATCH] |= r[R_MATCH + card]


@njit(cache=True)
def _after_draw(st, r):
    n = r[R_PLAYERS]
    if not st[STOCK]:
        holders = 0
        holder = -1
        for s in range(n):
            if st[HANDS + s]:
                holders += 1
                if holder < 0:
                    holder = s
        if holders <= 1:
            st[FOOL] = holder
            st[PHASE] = OVER
            return
    attacker = st[NEXT_ATTACKER]
    while not st[HANDS + attacker]:
        attacker = (attacker + 1) % n
    _begin_bout(st, r, attacker)


@njit(cache=True)
def _end_bout(st, r, next_attacker):
    if st[TABLE_MASK] and st[OPEN_CARD] < 0:
        st[DISCARD] |= st[TABLE_MASK]     # everything was beaten
    for i in range(st[TABLE_N]):
        st[TABLE + i] = 0
    st[TABLE_N] = 0
    st[TABLE_MASK] = 0
    st[TABLE_MATCH] = 0
    st[OPEN_CARD] = -1
    st[ATTACKS] = 0
    st[NEXT_ATTACKER] = next_attacker
    n = r[R_PLAYERS]
    size = r[R_HAND_SIZE]
    q = 0
    for i in range(n):
        s = (st[ATTACKER] + i) % n
        if popcount(st[HANDS + s]) < size:
            st[DRAW_QUEUE + q] = s
            q += 1
    for i in range(q, MAX_SEATS):
        st[DRAW_QUEUE + i] = 0
    st[DRAW_N] = q
    if st[STOCK] and q:
        st[PHASE] = DRAW
    else:
        _after_draw(st, r)


@njit(cache=True)
def _open_throw_round(st, r):
    """After a beat the right to throw in starts again with the first attacker."""
    defender = st[DEFENDER]
    if st[ATTACKS] >= r[R_MAX_ATTACK] or not st[HANDS + defender]:
        _end_bout(st, r, defender)
        return
    n = r[R_PLAYERS]
    k = 0
    for i in range(n):
        s = (st[ATTACKER] + i) % n
        if s != defender and st[HANDS + s]:
            st[THROW_ORDER + k] = s
            k += 1
    if k == 0:
        _end_bout(st, r, defender)
        return
    for i in range(k, MAX_SEATS):
        st[THROW_ORDER + i] = 0
    st[THROW_N] = k
    st[THROW_INDEX] = 0
    st[PHASE] = THROW


@njit(cache=True)
def _pop_draw_queue(st):
    """The seat at the head has drawn up: the next one moves to the head."""
    k = st[DRAW_N] - 1
    for i in range(k):
        st[DRAW_QUEUE + i] = st[DRAW_QUEUE + i + 1]
    st[DRAW_QUEUE + k] = 0
    st[DRAW_N] = k


@njit(cache=True)
def apply(st, r, action):
    """Apply a decision or a chance outcome in place (the caller checked legality; see
    `apply_checked`)."""
    phase = st[PHASE]
    n = r[R_PLAYERS]
    if phase == DEFEND:
        defender = st[DEFENDER]
        if action == r[R_TAKE]:
            st[HANDS + defender] |= st[TABLE_MASK]
            st[KNOWN + defender] |= st[TABLE_MASK]      # taken in public
            _end_bout(st, r, (defender + 1) % n)
        else:
            _play_card(st, r, defender, action - r[R_BEAT_BASE])
            st[OPEN_CARD] = -1
            _open_throw_round(st, r)
    elif phase == THROW:
        seat = st[THROW_ORDER + st[THROW_INDEX]]
        if action == r[R_PASS]:
            st[THROW_INDEX] += 1
            if st[THROW_INDEX] == st[THROW_N]:
                _end_bout(st, r, st[DEFENDER])
        else:
            card = action - r[R_THROW_BASE]
            _play_card(st, r, seat, card)
            st[ATTACKS] += 1
            st[OPEN_CARD] = card
            st[PHASE] = DEFEND
    elif phase == ATTACK:
        card = action - r[R_ATTACK_BASE]
        _play_card(st, r, st[ATTACKER], card)
        st[ATTACKS] = 1
        st[OPEN_CARD] = card
        st[PHASE] = DEFEND
    elif phase == DRAW:
        seat = st[DRAW_QUEUE]
        bit = np.int64(1) << action
        st[HANDS + seat] |= bit
        st[STOCK] ^= bit
        if action == st[TRUMP_CARD]:
            st[KNOWN + seat] |= bit                     # the face-up trump
        if popcount(st[HANDS + seat]) >= r[R_HAND_SIZE]:
            _pop_draw_queue(st)
        if not (st[STOCK] and st[DRAW_N]):
            for i in range(st[DRAW_N]):
                st[DRAW_QUEUE + i] = 0
            st[DRAW_N] = 0
            _after_draw(st, r)
    elif phase == DEAL:
        seat = (r[R_DEALER] + 1 + st[DEAL_INDEX]) % n
        bit = np.int64(1) << action
        st[HANDS + seat] |= bit
        st[STOCK] ^= bit
        st[DEAL_INDEX] += 1
        if st[DEAL_INDEX] >= n * r[R_HAND_SIZE]:
            if st[STOCK]:
                st[PHASE] = TRUMP
            else:
                # No stock after the deal: the dealer's last card shows the trump suit.
                _set_trump(st, r, action)
                st[KNOWN + seat] |= bit
                _start_play(st, r)
    elif phase == TRUMP:
        _set_trump(st, r, action)
        _start_play(st, r)
    else:
        return          # the game is over
    if phase > DRAW:
        st[MOVES] += 1
        if st[MOVES] >= r[R_MAX_MOVES] and st[PHASE] != OVER:
            st[FOOL] = -1
            st[PHASE] = OVER


# --- random playouts -------------------------------------------------------------------

@njit(cache=True)
def random_playout(st, r, seed):
    """Play uniformly random legal decisions and chance outcomes to the end, in place
    (each decision uniform among the legal ones, each card of a chance node equally
    likely)."""
    playout(st, r, seed_state(seed))


@njit(cache=True)
def playout(st, r, x):
    """`random_playout` continuing the xorshift stream `x` (a uint64; pass
    np.uint64 from Python); the stream's new state."""
    x = np.uint64(x)
    while True:
        phase = st[PHASE]
        if phase == DEFEND:
            options = (r[R_BEATERS + st[TRUMP_SUIT] * MAX_CARDS + st[OPEN_CARD]]
                       & st[HANDS + st[DEFENDER]])
            count = popcount(options)
            x, pick = below(x, count + 1)
            action = r[R_TAKE] if pick == count else r[R_BEAT_BASE] + nth_card(options, pick)
        elif phase == THROW:
            options = st[HANDS + st[THROW_ORDER + st[THROW_INDEX]]] & st[TABLE_MATCH]
            count = popcount(options)
            x, pick = below(x, count + 1)
            action = r[R_PASS] if pick == count else r[R_THROW_BASE] + nth_card(options, pick)
        elif phase == ATTACK:
            hand = st[HANDS + st[ATTACKER]]
            x, pick = below(x, popcount(hand))
            action = r[R_ATTACK_BASE] + nth_card(hand, pick)
        elif phase == OVER:
            return x
        else:
            x, action = sample_chance(st, r, x)
        apply(st, r, action)


@njit(cache=True)
def random_playouts(st, r, seed, count, out_fools):
    """`count` playouts from copies of `st` (seeds seed, seed+1, ...), their fools to
    `out_fools` (for speed: one call from Python for many games)."""
    work = np.empty_like(st)
    for i in range(count):
        work[:] = st
        random_playout(work, r, seed + i)
        out_fools[i] = work[FOOL]


# --- events ----------------------------------------------------------------------------

@njit(cache=True)
def event_of(st, r, action):
    """The event (kind, seat, card) `action` logs, asked before it is applied: seat and
    card are -1 where they do not apply (the turned-up trump has no seat, a take or a pass
    no card).  Not for a finished game."""
    phase = st[PHASE]
    if phase == DEFEND:
        if action == r[R_TAKE]:
            return EV_TAKE, st[DEFENDER], -1
        return EV_BEAT, st[DEFENDER], action - r[R_BEAT_BASE]
    if phase == THROW:
        seat = st[THROW_ORDER + st[THROW_INDEX]]
        if action == r[R_PASS]:
            return EV_PASS, seat, -1
        return EV_THROW, seat, action - r[R_THROW_BASE]
    if phase == ATTACK:
        return EV_ATTACK, st[ATTACKER], action - r[R_ATTACK_BASE]
    if phase == DRAW:
        return EV_DRAW, st[DRAW_QUEUE], action
    if phase == DEAL:
        return EV_DEAL, (r[R_DEALER] + 1 + st[DEAL_INDEX]) % r[R_PLAYERS], action
    return EV_TRUMP, -1, action


@njit(cache=True)
def _refuses(st, kind, seat, card):
    """Whether the event plays a card its seat does not hold, or names no card of a deck."""
    if kind == EV_TAKE or kind == EV_PASS:
        return False
    if card < 0 or card >= MAX_CARDS:
        return True
    if kind == EV_ATTACK or kind == EV_THROW or kind == EV_BEAT:
        return not (st[HANDS + seat] >> card & 1)
    return False


@njit(cache=True)
def apply_checked(st, r, action):
    """Apply `action` and return the event it logs, unless the game is over or the action
    plays a card its seat does not hold (or is no card at all): then nothing changes and
    the kind is REFUSED.  The engine's apply, in one call."""
    if st[PHASE] == OVER:
        return REFUSED, -1, -1
    kind, seat, card = event_of(st, r, action)
    if _refuses(st, kind, seat, card):
        return REFUSED, seat, card
    apply(st, r, action)
    return kind, seat, card


@njit(cache=True)
def play_random(st, r, u):
    """Apply the option at index `int(u * count)` of the ascending legal decisions, or of
    the pending chance node's cards (u a float in [0, 1)), and return the event it logs:
    one step of a uniformly random game driven by the caller's random numbers (the
    engine's random_playout)."""
    phase = st[PHASE]
    if phase <= DRAW:
        options = drawable(st)
        count = popcount(options)
        action = nth_card(options, min(np.int64(u * count), count - 1))
    else:
        out = np.empty(MAX_LEGAL, np.int64)
        count = legal_actions(st, r, out)
        action = out[min(np.int64(u * count), count - 1)]
    kind, seat, card = event_of(st, r, action)
    apply(st, r, action)
    return kind, seat, card


# --- from an engine position -----------------------------------------------------------

def from_engine(core) -> np.ndarray:
    """The state array of a `DurakCore` position (its own, copied), so a search can start
    from the position a game is in."""
    return core.st.copy()
