"""Platinum Fish's value features: each seat's block is read from that seat first, the
stock and the race are the position's, and two seats of one position see one race from
both sides."""

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.random_play import midgame_states
from koloda.games.platinum_fish import kernel as k
from koloda.solvers.learned import platinum_fish as value


def _states(game_string="platinum_fish", count=8):
    return midgame_states(games.load_game(game_string), count, seed=5, min_history=10)


def test_the_hands_are_read_from_the_seat_first():
    for game_string in ("platinum_fish", "platinum_fish(players=3)"):
        for state in _states(game_string, 4):
            core = state.core
            n, ranks = core.rules.num_players, core.rules.num_ranks
            block = 2 * ranks + value.PER_SEAT_SCALARS + 1
            for seat in range(n):
                f = value.FEATURES.of(core, seat)
                for place in range(n):
                    other = (seat + place) % n
                    hand = f[place * block:place * block + ranks]
                    assert [int(b) for b in hand] == \
                        [int(core.st[k.HANDS + other]) >> r & 1 for r in range(ranks)]
                    assert f[place * block + 2 * ranks] == pytest.approx(
                        core.st[k.MATCHES + other] / (core.rules.num_cards / (2 * n)))


def test_the_stock_and_the_lead_are_the_positions():
    for state in _states():
        core = state.core
        ranks = core.rules.num_ranks
        f0, f1 = value.FEATURES.of(core, 0), value.FEATURES.of(core, 1)
        at = 2 * (2 * ranks + value.PER_SEAT_SCALARS + 1)
        stock = [core.st[k.STOCK + r] / core.rules.copies for r in range(ranks)]
        np.testing.assert_allclose(f0[at:at + ranks], stock)
        np.testing.assert_array_equal(f0[at:at + 3 * ranks], f1[at:at + 3 * ranks])
        lead = int(core.st[k.MATCHES]) - int(core.st[k.MATCHES + 1])
        race = at + 3 * ranks + value.PHASES
        one_hot0 = f0[race:race + value.RACE - 2].reshape(value.STOCK_BUCKETS, -1)
        one_hot1 = f1[race:race + value.RACE - 2].reshape(value.STOCK_BUCKETS, -1)
        clipped = min(value.LEAD, max(-value.LEAD, lead))
        assert one_hot0.sum() == 1 and one_hot0[:, clipped + value.LEAD].sum() == 1
        assert one_hot1[:, -clipped + value.LEAD].sum() == 1     # the race from the other side
        np.testing.assert_array_equal(one_hot0.sum(axis=1), one_hot1.sum(axis=1))
        assert f0[-1] == 1.0


def test_the_features_count_is_the_rules():
    for game_string in ("platinum_fish", "platinum_fish(players=4,ranks=6,copies=6)"):
        core = games.load_game(game_string).new_initial_state().core
        n, ranks = core.rules.num_players, core.rules.num_ranks
        assert value.count(core.r) == n * (2 * ranks + 5) + 3 * ranks + value.PHASES + \
            value.RACE + value.SCALARS
        assert len(value.FEATURES.of(core, 0)) == value.count(core.r)
