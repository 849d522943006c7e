"""Platinum Fish's rollout playout: match when the discard allows, else mostly throw.

Take the discard for a match; else mostly throw the dice (a throw matches more often than
a draw, and a miss keeps the card where a missed draw feeds the discard); choose or ask a
rank held, else the rank the stock has most of, or ask the next player for one it holds.

The moves are played in the engine's kernel state, many in one compiled call
(`PlatinumFishCore.play_moves`, which logs their events): the playout runs at every leaf of
a search.
"""

from __future__ import annotations

from numba import njit

from koloda.games.kit.kernel import nth_card, popcount
from koloda.games.platinum_fish.kernel import (
    ASK,
    CHOOSE,
    DISCARD,
    DISCARD_N,
    HANDS,
    OFFER,
    OVER,
    PHASE,
    PLAY,
    PLAYER,
    R_ASK_BASE,
    R_CHOOSE_BASE,
    R_DRAW,
    R_PLAYERS,
    R_RANKS,
    R_ROLL,
    R_TAKE,
    STOCK,
    apply_logged,
    play_random,
    stock_ranks,
)

DRAW_SHARE = 0.1     # of the turns without a match to take, the share that draws


@njit(cache=True)
def _lowest(mask):
    return popcount((mask & -mask) - 1)


@njit(cache=True)
def _most_in_stock(st, r, options):
    """The option the stock holds most copies of (the lowest of a tie)."""
    best, most = -1, -1
    for rank in range(r[R_RANKS]):
        if options >> rank & 1 and st[STOCK + rank] > most:
            best, most = rank, st[STOCK + rank]
    return best


@njit(cache=True)
def heuristic_action(st, r, u):
    """The mover's decision by the rules above; `u` in [0, 1) is the random number that
    picks a draw over a throw or one rank of several to ask for."""
    phase = st[PHASE]
    seat = st[PLAYER]
    hand = st[HANDS + seat]
    if phase == PLAY:
        top = st[DISCARD_N] - 1
        if top >= 0 and hand >> st[DISCARD + top] & 1:
            return r[R_TAKE]
        return r[R_DRAW] if u < DRAW_SHARE else r[R_ROLL]
    if phase == CHOOSE:
        options = st[OFFER] & stock_ranks(st, r)
        held = options & hand
        rank = _lowest(held) if held else _most_in_stock(st, r, options)
        return r[R_CHOOSE_BASE] + rank
    offer = st[OFFER]
    held = offer & hand
    if not held:
        held = offer & st[HANDS + (seat + 1) % r[R_PLAYERS]]
        if not held:
            held = offer
    return r[R_ASK_BASE] + nth_card(held, int(u * popcount(held)))


@njit(cache=True)
def heuristic_moves(st, r, draws, log):
    """Moves of the playout, one for each number of `draws` in [0, 1) until the game ends
    or they run out: the mover's decision by the rules above, or chance by its
    probabilities; their events appended to `log` (PlatinumFishCore.play_moves)."""
    for i in range(draws.size):
        phase = st[PHASE]
        if phase == OVER:
            return
        if phase == PLAY or phase == CHOOSE or phase == ASK:
            apply_logged(st, r, heuristic_action(st, r, draws[i]), log)
        else:
            play_random(st, r, draws[i], log)


def heuristic_playout(core, random) -> None:
    """Play the Platinum Fish engine `core` to the end by the rules above, chance by
    `random`."""
    core.play_moves(heuristic_moves, random)
