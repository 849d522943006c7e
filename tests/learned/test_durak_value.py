"""Durak's value features: they read each seat first and see the trump suit, not the
suits' names (the leaf that reads them: test_value.py)."""

import numpy as np

from koloda import games
from koloda.games.kit.random_play import midgame_states
from koloda.solvers.learned import durak as durak_value

GAME = "durak"


def _states(count=6):
    return midgame_states(games.load_game(GAME), count, seed=3, min_history=8)


def test_the_features_read_the_seat_first_and_the_trump_suit_first():
    for state in _states():
        core = state.core
        size = core.rules.deck.size
        mine, theirs = durak_value.features(core, 0), durak_value.features(core, 1)
        np.testing.assert_array_equal(mine[:size], theirs[size:2 * size])   # hands rotate
        trump = core.trump_suit
        hand = [c for c in range(size) if core.hands[0] >> c & 1]
        trumps = {c // 4 for c in hand if c % 4 == trump}
        assert {c // 4 for c in range(size) if mine[c] and c % 4 == 0} == trumps


def _renamed(core, to):
    """`core` with its trump suit renamed `to` and the other suits after it in their
    order: the same deal, as the features should see it."""
    from koloda.games.durak import kernel as k
    trump = core.trump_suit
    others = [s for s in range(4) if s != trump]
    placed = [s for s in range(4) if s != to]
    suit = {trump: to, **dict(zip(others, placed))}

    def card(c):
        return c - c % 4 + suit[c % 4]

    def mask(m):
        return sum(1 << card(c) for c in range(36) if m >> c & 1)
    other = core.copy()
    st = other.st
    for at in [k.STOCK, k.DISCARD, k.TABLE_MASK, k.HANDS, k.HANDS + 1]:
        st[at] = mask(int(st[at]))
    if st[k.OPEN_CARD] >= 0:
        st[k.OPEN_CARD] = card(int(st[k.OPEN_CARD]))
    st[k.TRUMP_SUIT] = to
    return other


def test_the_features_see_which_suit_is_trump_not_its_name():
    for state in _states():
        core = state.core
        for to in range(4):
            renamed = _renamed(core, to)
            assert renamed.trump_suit == to
            for seat in range(2):
                np.testing.assert_array_equal(durak_value.features(core, seat),
                                              durak_value.features(renamed, seat))
        moved = _renamed(core, (core.trump_suit + 1) % 4)
        moved.st[type(core).kernel.TRUMP_SUIT] = core.trump_suit      # trump not renamed
        assert not np.array_equal(durak_value.features(core, 0),
                                  durak_value.features(moved, 0))
