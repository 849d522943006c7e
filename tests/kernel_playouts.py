"""Checks every game's kernel tests share: its random playouts end in consistent positions
(from the start and from mid-game), and end as the engine's or the plain rules' playouts
do, in distribution."""

from __future__ import annotations

import random

import numpy as np

from koloda.games.kit.random_play import kernel_step

TOLERANCE = 0.04        # the largest gap of two shares of 3,000 playouts that is chance


def check_playouts_end(K, rules, check_finished, *, seeds: int, mid_games: int = 0,
                       mid_moves: int = 0) -> None:
    """`check_finished(st)` after a kernel playout from the start for each of `seeds`, and
    from `mid_games` positions reached by up to `mid_moves` random steps."""
    r = K.rules_arrays(rules)
    start = K.new_state(r)
    for seed in range(seeds):
        st = start.copy()
        K.random_playout(st, r, seed)
        check_finished(st)
    rng = random.Random(1)
    for seed in range(mid_games):
        st = K.new_state(r)
        for _ in range(rng.randrange(mid_moves)):
            if K.is_terminal(st):
                break
            kernel_step(K, st, r, rng)
        K.random_playout(st, r, seed)
        check_finished(st)


def kernel_and_other_ends(K, rules, other_end, runs: int = 3000) -> tuple[list, list]:
    """The ends of `runs` kernel playouts in one batch (seed 12345), and of `runs` games
    played by `other_end(random)`, which returns a game's end as the kernel writes it, on
    one stream (seed 0)."""
    r = K.rules_arrays(rules)
    ends = np.empty(runs, np.int64)
    K.random_playouts(K.new_state(r), r, 12345, runs, ends)
    rng = random.Random(0)
    return ends.tolist(), [other_end(rng.random) for _ in range(runs)]


def assert_shares_agree(kernel: list, other: list, outcomes) -> None:
    """Each end in `outcomes` is about as common among the kernel's ends as the other's."""
    for end in outcomes:
        share_k = kernel.count(end) / len(kernel)
        share_o = other.count(end) / len(other)
        assert abs(share_k - share_o) < TOLERANCE, (end, share_k, share_o)


def assert_seat_wins_agree(kernel: list, other: list, num_players: int) -> None:
    """Each seat's share of the wins (ends as masks of winners, shared wins counted for
    each) is about the same in both."""
    for seat in range(num_players):
        share_k = sum(m >> seat & 1 for m in kernel) / len(kernel)
        share_o = sum(m >> seat & 1 for m in other) / len(other)
        assert abs(share_k - share_o) < TOLERANCE, (seat, share_k, share_o)
