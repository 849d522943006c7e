"""Snitch's rules (docs/rules/snitch.md): one compiled numba kernel over a small int64
state array.

These are the game's only rules: the engine (engine.py `SnitchCore`) keeps a state array
and calls these functions (`play` and `play_random`, which also name the event each move
logs), and the compiled search runs them directly.  Every function is `njit(cache=True)`
but rules_arrays and from_engine.

State array `st` (int64, STATE_SIZE): the whole match.  Scalars: the phase (DEAL..OVER),
the player to move, the dealer, the deal index, the reserve's size, the discard pile's
length, the sets laid this turn, the passes in a row and the deals finished.  Then per
seat (MAX_SEATS each): the cards held, the natural ranks the seat has a set of (a bitmask,
ranks < 12), the points in its sets this deal and its running total across deals.  Then
the reserve as a count per card kind (MAX_KINDS), the hands as counts per seat and kind
(seat-major, stride MAX_KINDS) and the discard pile, bottom first (DISCARD_N cards; its
top is the last; zeros after it, so one position has one state array).  Everything before
POSITION_END is the position (`SnitchCore.key`).  After it: the `end_at_deal` flag, and the
sets laid this deal in the order laid (LAID_N of them at LAID, each `laid_code(seat, rank,
other)`: the observer shows them, the rules need only `set_ranks` and `points`).  A card is
its kind index (rules.py): naturals 0..ranks-1, then the 2, then the joker.  Everything is
a count, a small sum or a mask of at most 12 bits, so every word fits an int64 easily.

Rules array `r` (int64, built once per `SnitchRules` by `rules_arrays`): the scalars at
the R_* offsets, then the copies of each kind in the deck and each kind's points.

The chance outcomes are the reserve's kinds: kind k with weight reserve[k], the copies of
it left, so with probability reserve[k] / reserve_size.  `random_playouts` stores each
game's winners as a bitmask of seats (the seats with the highest total; 0 when all tie),
see `winners_mask`.

The search interface every game's kernel offers: current_player, legal_actions,
chance_outcomes, sample_chance, chance_seen_by, apply, playout, returns, and from_engine.
Actions are applied unchecked: the engine checks what it must.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from koloda.games.kit.engine import CHANCE, TERMINAL  # pyspiel.PlayerId's
from koloda.games.kit.kernel import below, returns_of_mask, seed_state, top_seats
from koloda.games.kit.layout import StateLayout

# Phases.  DEAL and DRAW are chance nodes.
DEAL, TURN, SETS, DRAW, OVER = range(5)

# Event kinds of the engine's log, (kind, seat, card, other): `other` is the second card
# of a set (the top discard a pick took), or -1; a score's `card` is the deals finished.
(EV_DEAL, EV_DRAW, EV_DISCARD, EV_SET, EV_PICK, EV_EXTEND, EV_STOP, EV_PASS, EV_SCORE,
 EV_NEW_DEAL) = range(10)

MAX_SEATS = 8
MAX_RANKS = 12
MAX_KINDS = MAX_RANKS + 2
MAX_CARDS = (MAX_RANKS + 1) * 8 + 4          # 108: ranks and copies at their highest
MAX_LAID = MAX_CARDS // 2            # a set puts two cards on the table
MAX_CHANCE = MAX_KINDS               # a chance node has at most this many outcomes

# --- layout of the state array ---------------------------------------------------------
STATE = StateLayout("Snitch's state array")
PHASE = STATE.word("PHASE", "DEAL, TURN, SETS, DRAW or OVER.")
PLAYER = STATE.word("PLAYER", "The seat to move (or to draw).")
DEALER = STATE.word("DEALER")
DEAL_INDEX = STATE.word("DEAL_INDEX", "Cards dealt so far in this deal.")
RESERVE_SIZE = STATE.word("RESERVE_SIZE")
DISCARD_N = STATE.word("DISCARD_N")
SETS_THIS_TURN = STATE.word("SETS_THIS_TURN")
PASSES = STATE.word("PASSES", "Passes in a row (with the reserve empty).")
DEALS = STATE.word("DEALS", "Deals finished.")
HELD = STATE.words("HELD", MAX_SEATS, "Cards in each hand.", per="num_players")
SET_RANKS = STATE.words("SET_RANKS", MAX_SEATS, "The natural ranks each player has a set of "
                        "this deal, as a bitmask.", per="num_players")
POINTS = STATE.words("POINTS", MAX_SEATS, "Points in each player's sets this deal.",
                     per="num_players")
TOTALS = STATE.words("TOTALS", MAX_SEATS, "Each player's total over the deals finished.",
                     per="num_players")
RESERVE = STATE.words("RESERVE", MAX_KINDS, "The reserve as a count per card kind.",
                      per="num_kinds")
HANDS = STATE.block("HANDS", MAX_SEATS * MAX_KINDS, "A count per card kind per seat.")
DISCARD = STATE.counted("DISCARD", MAX_CARDS, DISCARD_N, "The discard pile, its top last.")
POSITION_END = STATE.size            # the position ends here; the rest is not in its key
ENDS_WITH_DEAL = STATE.flag("ENDS_WITH_DEAL", "Whether this game ends with the deal in "
                            "progress (see end_at_deal).")
LAID_N = STATE.word("LAID_N", "Sets laid this deal.")
LAID = STATE.block("LAID", MAX_LAID, "The sets laid this deal, each a laid_code.")
STATE_SIZE = STATE.size

# --- layout of the rules array ---------------------------------------------------------
RULES = StateLayout("Snitch's rules array")
(R_PLAYERS, R_HAND_SIZE, R_MAX_SETS, R_TARGET, R_MAX_DEALS, R_RANKS, R_KINDS, R_TWO, R_JOKER,
 R_CARDS, R_DECK_POINTS, R_DISCARD_BASE, R_SET_BASE, R_PICK_BASE, R_EXTEND_BASE, R_STOP,
 R_PASS) = RULES.scalars(
    "R_PLAYERS R_HAND_SIZE R_MAX_SETS R_TARGET R_MAX_DEALS R_RANKS R_KINDS R_TWO R_JOKER "
    "R_CARDS R_DECK_POINTS R_DISCARD_BASE R_SET_BASE R_PICK_BASE R_EXTEND_BASE R_STOP R_PASS")
R_COPIES = RULES.block("R_COPIES", MAX_KINDS, "The copies of each kind in the deck.")
R_POINTS = RULES.block("R_POINTS", MAX_KINDS, "The points of each kind.")
RULES_SIZE = RULES.size

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
    """A fresh deal by the current dealer: full reserve, empty hands, pile and sets."""
    n = r[R_PLAYERS]
    st[PHASE] = DEAL
    st[DEAL_INDEX] = 0
    st[PLAYER] = (st[DEALER] + 1) % n
    st[HANDS:POSITION_END] = 0          # the hands and the pile: nothing left of the last deal
    st[LAID_N:] = 0
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
    """The match before its first deal."""
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
    """End with the deal in progress (for search); see `returns` for its value."""
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
    (games/kit/chance.py draw_from_counts), walking the counts in place; -1 at a decision
    or the end.  `x` is the kit's xorshift state, a uint64."""
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
    """The seat the next dealt or drawn card goes to."""
    if st[PHASE] == DEAL:
        return (st[DEALER] + 1 + st[DEAL_INDEX]) % r[R_PLAYERS]
    return st[PLAYER]


@njit(cache=True)
def chance_seen_by(st, r, player, outcome):
    """Whether `player` sees the card about to be dealt or drawn: only its receiver does."""
    return _receiver(st, r) == player


@njit(cache=True)
def _pairs(r, card, top):
    """Whether a hand card and the top discard make a set: one natural rank, at most one
    wild."""
    if card < r[R_TWO]:
        return top == card or top >= r[R_TWO]
    return top < r[R_TWO]


@njit(cache=True)
def _set_actions(st, r, out, m):
    """Appends the sets the player to move may lay now: from the hand, with the top
    discard (while the reserve lasts), and extensions of the player's own sets."""
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
def laid_code(seat, rank, other):
    """One set in the LAID log: its seat, its natural rank and its other card."""
    return (seat * MAX_KINDS + rank) * MAX_KINDS + other


@njit(cache=True)
def _lay(st, r, seat, rank, other):
    st[POINTS + seat] += r[R_POINTS + rank] + r[R_POINTS + other]
    st[SET_RANKS + seat] |= np.int64(1) << rank
    st[PASSES] = 0
    st[LAID + st[LAID_N]] = laid_code(seat, rank, other)
    st[LAID_N] += 1


@njit(cache=True)
def match_over(st, r):
    """Whether the deal just scored ends the match."""
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
    while not st[HELD + seat]:          # [gap] an empty hand (reserve empty) is skipped
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


# --- moves with their events (the engine's log) ------------------------------------------

@njit(cache=True)
def _decision_event(st, r, action):
    """(kind, card, other) of the event a decision logs, read before it is applied."""
    if action == r[R_PASS]:
        return EV_PASS, -1, -1
    if action == r[R_STOP]:
        return EV_STOP, -1, -1
    if action < r[R_SET_BASE]:
        return EV_DISCARD, action - r[R_DISCARD_BASE], -1
    if action < r[R_PICK_BASE]:
        rank = (action - r[R_SET_BASE]) // 3
        which = (action - r[R_SET_BASE]) % 3
        other = rank if which == 0 else (r[R_TWO] if which == 1 else r[R_JOKER])
        return EV_SET, rank, other
    if action < r[R_EXTEND_BASE]:
        return EV_PICK, action - r[R_PICK_BASE], st[DISCARD + st[DISCARD_N] - 1]
    rank = (action - r[R_EXTEND_BASE]) // 2
    wild = r[R_TWO] if (action - r[R_EXTEND_BASE]) % 2 == 0 else r[R_JOKER]
    return EV_EXTEND, rank, wild


@njit(cache=True)
def play(st, r, action):
    """`apply`, and the event it logs: (kind, seat, card, other, scored), `scored` 1 when
    the move ended the deal (the engine then logs the score and any next deal)."""
    phase = st[PHASE]
    deals = st[DEALS]
    if phase == DEAL:
        kind, seat, card, other = EV_DEAL, _receiver(st, r), action, -1
    elif phase == DRAW:
        kind, seat, card, other = EV_DRAW, st[PLAYER], action, -1
    else:
        seat = st[PLAYER]
        kind, card, other = _decision_event(st, r, action)
    apply(st, r, action)
    return kind, seat, card, other, st[DEALS] - deals


@njit(cache=True)
def play_checked(st, r, action):
    """`play` for an engine step, or (-1, -1, -1, -1, -1) and nothing changed once the
    game is over."""
    if st[PHASE] == OVER:
        return -1, -1, -1, -1, -1
    return play(st, r, action)


@njit(cache=True)
def random_action(st, r, u):
    """The move of a uniformly random game for a float u in [0, 1): the legal decision at
    index int(u * count) of the ascending list, or the reserve's card at index
    int(u * reserve size) counting kind by kind (chance by its probabilities, as
    games/kit/chance.py draw_from_counts draws)."""
    phase = st[PHASE]
    if phase == TURN or phase == SETS:
        out = np.empty(MAX_LEGAL, np.int64)
        count = legal_actions(st, r, out)
        return out[min(np.int64(u * count), count - 1)]
    pick = min(np.int64(u * st[RESERVE_SIZE]), st[RESERVE_SIZE] - 1)
    kind = 0
    while pick >= st[RESERVE + kind]:
        pick -= st[RESERVE + kind]
        kind += 1
    return kind


@njit(cache=True)
def play_random(st, r, u):
    """`play` of `random_action(st, r, u)` (not at the end): one step of the engine's
    random playout."""
    return play(st, r, random_action(st, r, u))


# --- results ---------------------------------------------------------------------------

@njit(cache=True)
def winners_mask(st, r):
    """The seats with the highest total as a bitmask; 0 before the end and when all tie."""
    if st[PHASE] != OVER:
        return 0
    return top_seats(st, TOTALS, r[R_PLAYERS])


@njit(cache=True)
def returns(st, r, out):
    """Each seat's return to `out`: zeros before the end; the returns formula of the
    winners; after `end_at_deal` stopped a match short of its end,
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
    (the distribution of SnitchCore.random_playout, which draws Python's numbers).  One
    small buffer for the legal decisions is allocated per call (a few nanoseconds of a
    playout's microseconds); `random_playouts` shares one over many games."""
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


# --- from the engine ------------------------------------------------------------------

def from_engine(core) -> np.ndarray:
    """The kernel state of a `SnitchCore` position, a copy the caller owns, so a search can
    start from the position a game is in."""
    return core.st.copy()
