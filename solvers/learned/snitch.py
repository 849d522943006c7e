"""What Snitch's learned values read: each player's deal, from the searcher's next turn.

Search with a Snitch value model (`ismcts(value=snitch-v1)`, and `rollout=learned`, which
names it) plays a simulation on from its new leaf by the heuristic agent's rules only to
the searcher's next turn (`walk_to_turn`, the game's walk of learned/value.py), and asks
the model for every seat's value there instead of playing the deal out: one playout's
result varies far more (a standard deviation of about 0.4) than the few hundredths that
separate sensible moves, so a prediction learned from many deals is a steadier guide.

* **The value** is the one search uses at the end of a deal (`SnitchCore.returns` after
  `end_at_deal`): a player's points in the deal less the mean of the others', over a fair
  share of the deck's points.  `snitch-v1` is linear: the points already laid
  (`laid_diff`, weight 1) plus what it predicts they still change by.
* **Features** (`features`) describe the position from one seat: its hand (points,
  natural pairs, wilds, high naturals, cards that extend its own sets, a card that pairs
  the top discard), the same for the other hands (mean), how much of the reserve is left
  (alone and times the hand features: a card in hand is worth less as the deal runs out),
  whose turn it is and the score race.  In search they read a sampled world, so the other
  hands are a guess consistent with what the searcher knows.  They are computed on the
  kernel state (games/snitch/kernel.py) by compiled functions, so the compiled search
  reads the same values inside its simulations.
* **The model** `snitch-v1` is fitted by least squares on positions of heuristic self-play
  (snitch_fit.py) and ships as a packed linear model (models/); refit it with
  `python -m koloda.solvers.learned.snitch_fit --deals 10000 --seed 1` (seeded: the same
  digest).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from koloda.games.snitch.engine import SnitchCore
from koloda.games.snitch.kernel import (
    DISCARD,
    DISCARD_N,
    HANDS,
    HELD,
    MAX_KINDS,
    OVER,
    PHASE,
    PLAYER,
    POINTS,
    R_CARDS,
    R_DECK_POINTS,
    R_JOKER,
    R_PLAYERS,
    R_POINTS,
    R_RANKS,
    R_TARGET,
    R_TWO,
    RESERVE_SIZE,
    SET_RANKS,
    SETS,
    TOTALS,
    TURN,
    apply,
    sample_chance,
)
from koloda.solvers.heuristics.snitch import rules_of_thumb
from koloda.solvers.learned.value import ValueFeatures

FEATURE_NAMES = (
    "bias",
    "hand_points", "hand_pairs", "hand_wilds2", "hand_jokers", "hand_high", "hand_extend",
    "hand_cards", "pick_top",
    "others_points", "others_pairs", "others_wilds2", "others_jokers", "others_cards",
    "reserve", "reserve_sq", "reserve_empty",
    "r_hand_points", "r_hand_pairs", "r_hand_wilds2", "r_hand_jokers", "r_hand_high",
    "r_others_points", "r_others_jokers", "r_others_wilds2",
    "e_hand_points", "e_hand_pairs", "e_hand_wilds2", "e_hand_jokers",
    "to_move", "next_to_move", "laid_diff", "race",
)
FEATURE_COUNT = len(FEATURE_NAMES)
LAID_DIFF = FEATURE_NAMES.index("laid_diff")
HAND_FEATURES = 8            # what `_hand_features` writes per hand


@njit(cache=True)
def _hand_features(st, r, seat, top, out):
    """Adds one hand's features to `out` (HAND_FEATURES long): its points, its natural
    pairs' points, its 2s, its jokers, its high naturals, the cards extending its own
    sets, its cards, and whether it pairs the top discard `top` (-1: none to pair)."""
    hand = HANDS + seat * MAX_KINDS
    two, joker = r[R_TWO], r[R_JOKER]
    own_sets = st[SET_RANKS + seat]
    total = pairs = high = extend = 0
    for card in range(r[R_RANKS]):
        count = st[hand + card]
        if count:
            points = r[R_POINTS + card]
            total += points * count
            if count >= 2:
                pairs += (count // 2) * 2 * points
            if points >= 10:
                high += count
            if own_sets >> card & 1:
                extend += count
    total += r[R_POINTS + two] * st[hand + two] + r[R_POINTS + joker] * st[hand + joker]
    pick = 0
    if top >= 0:
        if top >= two:
            for card in range(r[R_RANKS]):
                if st[hand + card]:
                    pick = 1
                    break
        elif st[hand + top] or st[hand + two] or st[hand + joker]:
            pick = 1
    out[0] += total
    out[1] += pairs
    out[2] += st[hand + two]
    out[3] += st[hand + joker]
    out[4] += high
    out[5] += extend
    out[6] += st[HELD + seat]
    out[7] += pick


@njit(cache=True)
def _laid(st, r, seat):
    """A seat's deal score difference from the points laid so far, in fair shares."""
    n = r[R_PLAYERS]
    total = 0
    for s in range(n):
        total += st[POINTS + s]
    return (n * st[POINTS + seat] - total) / (n - 1) / (r[R_DECK_POINTS] / n)


@njit(cache=True)
def kernel_features(st, r, seat, f):
    """The features of the kernel state `st` for `seat`, written to `f` (FEATURE_COUNT long;
    any phase, though the model was fitted at turns)."""
    n = r[R_PLAYERS]
    share = r[R_DECK_POINTS] / n
    reserve_size = st[RESERVE_SIZE]
    top = st[DISCARD + st[DISCARD_N] - 1] if st[DISCARD_N] and reserve_size else -1
    own = np.zeros(HAND_FEATURES)
    _hand_features(st, r, seat, top, own)
    others = np.zeros(HAND_FEATURES)
    for other in range(n):
        if other != seat:
            _hand_features(st, r, other, -1, others)
    for i in range(HAND_FEATURES):
        others[i] /= n - 1
    left = reserve_size / r[R_CARDS]
    empty = 0.0 if reserve_size else 1.0
    hp, hpairs, h2, hx = own[0] / share, own[1] / share, own[2], own[3]
    mover = st[PLAYER]
    race = 0.0
    if r[R_TARGET]:
        mine = st[TOTALS + seat] + st[POINTS + seat]
        best = -(1 << 62)
        for o in range(n):
            if o != seat:
                best = max(best, st[TOTALS + o] + st[POINTS + o])
        race = (mine - best) / r[R_TARGET]
    f[0] = 1.0
    f[1], f[2], f[3], f[4] = hp, hpairs, h2, hx
    f[5], f[6], f[7], f[8] = own[4], own[5], own[6], own[7]
    f[9], f[10] = others[0] / share, others[1] / share
    f[11], f[12], f[13] = others[2], others[3], others[6]
    f[14], f[15], f[16] = left, left * left, empty
    f[17], f[18], f[19], f[20], f[21] = (left * hp, left * hpairs, left * h2, left * hx,
                                         left * own[4])
    f[22], f[23], f[24] = left * others[0] / share, left * others[3], left * others[2]
    f[25], f[26], f[27], f[28] = empty * hp, empty * hpairs, empty * h2, empty * hx
    f[29] = 1.0 if mover == seat else 0.0
    f[30] = 1.0 if (seat - mover) % n == 1 else 0.0
    f[LAID_DIFF] = _laid(st, r, seat)
    f[32] = race


@njit(cache=True)
def count(r):
    """The features' count (every variant's)."""
    return FEATURE_COUNT


@njit(cache=True)
def walk_to_turn(st, r, x, player, turns, legal):
    """Play the kernel state `st` on in place, every seat by the heuristic's rules (chance
    by the xorshift stream `x`), until `player`'s turn begins for the `turns`-th time
    (counting a turn beginning now) or the game (the deal, in search) ends; the new x."""
    begun = 0
    while st[PHASE] != OVER:
        if st[PHASE] == TURN and st[PLAYER] == player:
            begun += 1
            if begun >= turns:
                return x
        if st[PHASE] == TURN or st[PHASE] == SETS:
            apply(st, r, rules_of_thumb(st, r, legal))
        else:
            x, card = sample_chance(st, r, x)
            apply(st, r, card)
    return x


def features(core: SnitchCore, seat: int) -> list[float]:
    """The features of `core` for `seat` (any phase; the models are fitted at turns)."""
    f = np.empty(FEATURE_COUNT)
    kernel_features(core.st, core.r, seat, f)
    return f.tolist()


def laid_value(core: SnitchCore) -> list[float]:
    """Each seat's deal score difference from the points laid so far."""
    return [_laid(core.st, core.r, seat) for seat in range(core.rules.num_players)]


#: What Snitch's value models read.  The features are scaled to the deck and the number of
#: players, so one model serves every variant.
FEATURES = ValueFeatures(kernel_features, count, "snitch-1", (), sys.modules[__name__],
                         walk_to_turn)
