"""The engine (a `PlatinumFishCore`, a thin layer over games/platinum_fish/kernel.py)
against the rules written plainly (reference.py): driven side by side through random games,
they agree on every field, every event, the legal actions, the chance outcomes and the
result after every step, and the engine's random playout plays the game (and logs the
events) the plain rules play from the same random numbers.  The kernel's chance draws follow
their weights, and its own random playouts end well and play the engine's distribution."""

import pickle
import random

import numpy as np
import pytest
from kernel_playouts import (
    assert_seat_wins_agree,
    assert_shares_agree,
    check_playouts_end,
    kernel_and_other_ends,
)

from koloda import games
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.outcomes import returns_for_winners
from koloda.games.platinum_fish import kernel as K
from koloda.games.platinum_fish.engine import PlatinumFishCore
from koloda.games.platinum_fish.reference import Reference

RULE_SETS = [
    "platinum_fish",
    "platinum_fish(players=4)",
    "platinum_fish(players=6,copies=4)",                   # 52 cards, six hands
    "platinum_fish(copies=4,players=3,ranks=6)",           # a miniature: offers cut short
    "platinum_fish(max_hand=3,min_hand=1,ranks=1)",        # one rank: pairs, empty offers
    "platinum_fish(copies=2,max_hand=2,min_hand=2,players=5,ranks=7)",  # fixed hand size
    "platinum_fish(max_turns=15)",                         # the turn cap ends the game
]
SEEDS = 300
FIELDS = ("phase", "player", "hands", "known", "stock", "stock_size", "discard", "matches",
          "laid", "deal_seat", "deal_left", "pairs", "offer", "turns")


def _fields(position):
    """Every field the engine's readers use, as plain values."""
    return {name: getattr(position, name) for name in FIELDS}


def _plain(value):
    """Whether `value` is made of plain Python ints, lists and tuples (views are JSON)."""
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    return type(value) is int


def _kernel_fields(st, n, ranks):
    """The kernel's state as the fields of the same meaning."""
    s = st.tolist()
    pairs = s[K.PAIRS:K.PAIRS + 2 * s[K.PAIRS_N]]
    laid = [[] for _ in range(n)]
    flat = s[K.LAID:K.LAID + 2 * s[K.LAID_N]]
    for seat, rank in zip(flat[::2], flat[1::2]):
        laid[seat].append(rank)
    return {
        "phase": s[K.PHASE], "player": s[K.PLAYER], "stock_size": s[K.STOCK_SIZE],
        "deal_seat": s[K.DEAL_SEAT], "deal_left": s[K.DEAL_LEFT], "offer": s[K.OFFER],
        "turns": s[K.TURNS],
        "hands": s[K.HANDS:K.HANDS + n], "known": s[K.KNOWN:K.KNOWN + n],
        "matches": s[K.MATCHES:K.MATCHES + n], "stock": s[K.STOCK:K.STOCK + ranks],
        "pairs": tuple(zip(pairs[::2], pairs[1::2])),
        "discard": s[K.DISCARD:K.DISCARD + s[K.DISCARD_N]],
        "laid": tuple(map(tuple, laid)),
    }


def _unused_slots_are_zero(st, n, ranks):
    s = st.tolist()
    assert not any(s[K.HANDS + n:K.MATCHES] + s[K.MATCHES + n:K.STOCK])
    assert not any(s[K.STOCK + ranks:K.PAIRS] + s[K.KNOWN + n:K.LAID_N])
    assert not any(s[K.PAIRS + 2 * s[K.PAIRS_N]:K.DISCARD])
    assert not any(s[K.DISCARD + s[K.DISCARD_N]:K.KEY_SIZE])
    assert not any(s[K.LAID + 2 * s[K.LAID_N]:])


def _legal_by_asking(core):
    """The actions `is_legal` allows, of every action id and chance outcome and then some."""
    return [a for a in range(-2, core.rules.num_actions + 25) if core.is_legal(a)]


def _kernel_outcomes(st, r, outcomes, weights):
    count = K.chance_outcomes(st, r, outcomes, weights)
    total = int(weights[:count].sum())
    return [(int(o), int(w) / total) for o, w in zip(outcomes[:count], weights[:count])]


def _stream(seed):
    """The kit's xorshift state of a seed, as the uint64 the kernels expect (numba hands
    it back to Python as an int, which would come back in as an int64)."""
    return np.uint64(seed_state(seed))


def _mask(seats):
    return sum(1 << s for s in seats)


@pytest.mark.slow
@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_plays_the_plain_rules_move_by_move(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    n, ranks = rules.num_players, rules.num_ranks
    out = np.empty(K.MAX_LEGAL, np.int64)
    outcomes = np.empty(K.MAX_CHANCE, np.int64)
    weights = np.empty(K.MAX_CHANCE, np.int64)
    back = np.empty(n, np.float64)
    ends = set()
    phases = set()
    kinds = set()
    keys = {}               # the plain rules' key -> the engine's
    for seed in range(SEEDS):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        assert isinstance(core, PlatinumFishCore)
        plain = Reference(rules)
        st = core.st
        steps = 0
        while True:
            fields = _fields(plain)
            assert _fields(core) == fields, (seed, steps)
            assert _kernel_fields(st, n, ranks) == fields, (seed, steps)
            assert _plain(list(_fields(core).values()))
            _unused_slots_are_zero(st, n, ranks)
            assert core.events == plain.events, (seed, steps)
            assert core.stock_ranks() == plain.stock_ranks() == K.stock_ranks(st, r)
            assert keys.setdefault(plain.key(), core.key()) == core.key(), (seed, steps)
            phases.add(core.phase)
            player = plain.current_player()
            assert core.current_player() == K.current_player(st) == player, (seed, steps)
            assert core.is_terminal() == K.is_terminal(st) == plain.is_terminal()
            assert core.is_chance() == K.is_chance(st) == plain.is_chance()
            if core.is_terminal():
                break
            if core.is_chance():
                expected = plain.chance_outcomes()
                assert core.chance_outcomes() == expected, (seed, steps)
                assert _kernel_outcomes(st, r, outcomes, weights) == expected, (seed, steps)
                assert K.legal_actions(st, r, out) == 0
                for seat in range(n):
                    for outcome, _ in expected:
                        seen = plain.chance_seen_by(seat, outcome)
                        assert core.chance_seen_by(seat, outcome) == seen, (seed, steps)
                        assert K.chance_seen_by(st, r, seat, outcome) == seen
                if seed < 20:
                    assert _legal_by_asking(core) == [outcome for outcome, _ in expected]
                action = expected[rng.randrange(len(expected))][0]
            else:
                legal = plain.legal_actions()
                assert core.legal_actions() == legal, (seed, steps)
                count = K.legal_actions(st, r, out)
                assert out[:count].tolist() == legal, (seed, steps)
                assert K.chance_outcomes(st, r, outcomes, weights) == 0
                assert core.chance_outcomes() == []
                if seed < 20:
                    assert _legal_by_asking(core) == legal
                action = legal[rng.randrange(len(legal))]
            assert K.winners_mask(st, r) == 0 and core.winners() == frozenset()
            K.returns(st, r, back)
            assert back.tolist() == core.returns() == [0.0] * n
            core.apply(action)
            plain.apply(action)
            steps += 1
        kinds.update(kind for kind, _, _ in core.events)
        assert core.winners() == plain.winners(), seed
        mask = K.winners_mask(st, r)
        assert mask == _mask(core.winners()), seed
        seats = [s for s in range(n) if mask >> s & 1]
        assert returns_for_winners(n, seats) == core.returns()
        K.returns(st, r, back)
        assert back.tolist() == core.returns(), seed
        assert not core.is_legal(0)
        with pytest.raises(ValueError):
            core.apply(0)
        ends.add(mask)
        if rules.max_turns >= 1000:
            assert core.stock_size == 0          # the stock ran out, not the turn cap
    assert len(set(keys.values())) == len(keys)  # keys equal just where the positions are
    assert len(ends) > 1
    assert phases >= {K.HAND, K.DEAL, K.TURN, K.PLAY, K.DRAW, K.DICE_ROLL, K.OVER}
    assert kinds >= {K.EV_HAND, K.EV_DEAL, K.EV_TURN, K.EV_DRAW, K.EV_STOCK, K.EV_ROLL,
                     K.EV_DICE}
    if rules.num_ranks > 1:
        assert K.CHOOSE in phases
        assert kinds >= {K.EV_CHOOSE, K.EV_AVAILABLE, K.EV_TAKE, K.EV_MATCH, K.EV_LAY,
                         K.EV_TO_HAND, K.EV_TO_DISCARD}
        if rules.max_turns >= 1000:
            assert K.ASK in phases               # an offer the stock has run out of
            assert kinds >= {K.EV_ASK, K.EV_NONE_AVAILABLE}
    else:
        assert K.EV_NOTHING in kinds


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_playout_is_the_plain_rules_game_from_the_same_numbers(game_string):
    rules = games.load_game(game_string).rules
    start = PlatinumFishCore(rules)
    for seed in range(30):
        core = start.copy()
        core.random_playout(random.Random(seed).random)
        plain = Reference(rules)
        plain.random_playout(random.Random(seed).random)
        assert core.events == plain.events, seed
        assert _fields(core) == _fields(plain), seed
        assert core.is_terminal() and core.legal_actions() == []
    assert start.events == [] and start.phase == K.HAND     # the start is untouched


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=3)",
                                         "platinum_fish(copies=4,players=3,ranks=6)"])
def test_random_chance_draws_what_the_plain_rules_draw(game_string):
    """Decisions from one stream, chance by `random_chance` from another: the same game."""
    rules = games.load_game(game_string).rules
    for seed in range(20):
        core, plain = PlatinumFishCore(rules), Reference(rules)
        moves, chance_core, chance_plain = (random.Random(seed), random.Random(-seed),
                                            random.Random(-seed))
        while not plain.is_terminal():
            if plain.is_chance():
                core.random_chance(chance_core.random)
                plain.random_chance(chance_plain.random)
            else:
                legal = plain.legal_actions()
                assert core.legal_actions() == legal
                action = legal[moves.randrange(len(legal))]
                core.apply(action)
                plain.apply(action)
        assert core.events == plain.events, seed
        assert _fields(core) == _fields(plain), seed


def test_copies_and_pickles_are_independent_and_share_the_rules_array():
    game = games.load_game("platinum_fish(players=3)")
    core = game.new_initial_state().core
    rng = random.Random(5)
    while core.phase != K.PLAY or core.turns < 5:
        if core.is_chance():
            outcomes = core.chance_outcomes()
            core.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            core.apply(core.legal_actions()[0])
    for twin in (core.copy(), pickle.loads(pickle.dumps(core))):
        assert twin.st is not core.st and np.array_equal(twin.r, core.r)
        assert twin.r is PlatinumFishCore.rules_array(twin.rules)     # one per rules object, shared
        assert twin.key() == core.key() and hash(twin.key()) == hash(core.key())
        assert _fields(twin) == _fields(core) and twin.events == core.events
        twin.apply(twin.legal_actions()[0])
        assert twin.key() != core.key() and len(twin.events) > len(core.events)
    assert core.copy().r is core.r and "r" not in core.__getstate__()


def test_setters_write_the_hidden_cards_and_forget_the_legal_actions():
    game = games.load_game("platinum_fish")
    core = game.new_initial_state().core
    for size in (3, 3):
        core.apply(size)
        for rank in (4, 5, 6) if core.deal_seat == 0 else (7, 8, 9):
            core.apply(rank)
    core.apply(4)                                # the first discard: a 4, seat 0 holds one
    assert core.legal_actions() == [0, 1, 2]     # take, draw, roll
    core.set_hand(0, 0b1110_0000)                # ranks 5, 6, 7: no 4
    assert core.hands[0] == 0b1110_0000 and core.legal_actions() == [1, 2]
    stock = core.stock
    stock[0], stock[1] = stock[0] - 1, stock[1] + 1
    core.set_stock(stock)
    assert core.stock == stock and sum(core.stock) == core.stock_size


def _check_finished(st, rules):
    n = rules.num_players
    assert K.is_terminal(st)
    hands = st[K.HANDS:K.HANDS + n].tolist()
    matches = st[K.MATCHES:K.MATCHES + n].tolist()
    stock = st[K.STOCK:K.STOCK + rules.num_ranks].tolist()
    assert not st[K.STOCK:K.PAIRS][rules.num_ranks:].any()
    discard = st[K.DISCARD:K.DISCARD + st[K.DISCARD_N]].tolist()
    assert st[K.STOCK_SIZE] == sum(stock) and min(stock) >= 0
    assert st[K.PAIRS_N] == 0
    assert st[K.STOCK_SIZE] == 0 or st[K.TURNS] >= rules.max_turns
    # Every card once: in a hand, a match (two cards), the discard or the stock.
    for rank in range(rules.num_ranks):
        held = sum(h >> rank & 1 for h in hands)
        assert held + discard.count(rank) + stock[rank] <= rules.copies
    assert (sum(h.bit_count() for h in hands) + 2 * sum(matches) + len(discard)
            + st[K.STOCK_SIZE]) == rules.num_cards
    for h in hands:
        assert 0 <= h < 1 << rules.num_ranks
    mask = K.winners_mask(st, K.rules_arrays(rules))
    best = max(matches)
    expected = 0 if min(matches) == best else _mask(s for s in range(n) if matches[s] == best)
    assert mask == expected


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_kernel_random_playout_ends_consistently(game_string):
    rules = games.load_game(game_string).rules
    check_playouts_end(K, rules, lambda st: _check_finished(st, rules), seeds=500,
                       mid_games=100, mid_moves=200)
    # The batch gives the same ends as one playout at a time.
    r = K.rules_arrays(rules)
    start = K.new_state(r)
    ends = np.empty(50, np.int64)
    K.random_playouts(start, r, 7, 50, ends)
    for i in range(50):
        st = start.copy()
        K.random_playout(st, r, 7 + i)
        assert ends[i] == K.winners_mask(st, r)


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(players=3)",
                                         "platinum_fish(copies=4,players=3,ranks=6)"])
def test_kernel_random_playout_matches_the_engine_distribution(game_string):
    game = games.load_game(game_string)
    start = game.new_initial_state().core

    def engine_winners(random):
        core = start.copy()
        core.random_playout(random)
        return _mask(core.winners())

    kernel, engine = kernel_and_other_ends(K, game.rules, engine_winners)
    assert_shares_agree(kernel, engine, set(kernel) | set(engine))
    assert_seat_wins_agree(kernel, engine, game.rules.num_players)


def test_random_playout_is_playout_from_the_seeded_stream():
    rules = games.load_game("platinum_fish(players=3)").rules
    r = K.rules_arrays(rules)
    for seed in range(50):
        a, b = K.new_state(r), K.new_state(r)
        K.random_playout(a, r, seed)
        x = K.playout(b, r, _stream(seed))
        assert np.array_equal(a, b)
        assert x != _stream(seed)             # the stream moved on
    # The stream continues: a second playout from the returned state differs from a
    # replay of the first.
    a, b = K.new_state(r), K.new_state(r)
    x = K.playout(a, r, _stream(3))
    K.playout(b, r, np.uint64(x))
    assert not np.array_equal(a, b)


def _chance_nodes(game_string, count, seed):
    """Kernel states at chance nodes of every chance phase, from random games."""
    rules = games.load_game(game_string).rules
    r = K.rules_arrays(rules)
    rng = random.Random(seed)
    out = np.empty(K.MAX_LEGAL, np.int64)
    outcomes = np.empty(K.MAX_CHANCE, np.int64)
    weights = np.empty(K.MAX_CHANCE, np.int64)
    found = {}
    while any(len(found.get(p, ())) < count for p in
              (K.HAND, K.DEAL, K.TURN, K.DRAW, K.DICE_ROLL)):
        st = K.new_state(r)
        while not K.is_terminal(st):
            if K.is_chance(st):
                nodes = found.setdefault(int(st[K.PHASE]), [])
                if len(nodes) < count and rng.random() < 0.2:
                    nodes.append(st.copy())
                k = K.chance_outcomes(st, r, outcomes, weights)
                K.apply(st, r, int(outcomes[rng.randrange(k)]))
            else:
                k = K.legal_actions(st, r, out)
                K.apply(st, r, int(out[rng.randrange(k)]))
    return r, [st for nodes in found.values() for st in nodes]


@pytest.mark.parametrize("game_string",
                         ["platinum_fish", "platinum_fish(copies=4,players=3,ranks=6)"])
def test_sample_chance_draws_by_the_weights(game_string):
    r, nodes = _chance_nodes(game_string, 3, 5)
    outcomes = np.empty(K.MAX_CHANCE, np.int64)
    weights = np.empty(K.MAX_CHANCE, np.int64)
    draws = 20000
    x = _stream(11)
    for st in nodes:
        before = st.copy()
        k = K.chance_outcomes(st, r, outcomes, weights)
        probability = dict(zip(outcomes[:k].tolist(), (weights[:k] / weights[:k].sum()).tolist()))
        seen = {}
        for _ in range(draws):
            x, outcome = K.sample_chance(st, r, x)
            x = np.uint64(x)
            seen[outcome] = seen.get(outcome, 0) + 1
        assert np.array_equal(st, before)               # drawing leaves the state alone
        assert set(seen) <= set(probability)
        for outcome, p in probability.items():
            share = seen.get(outcome, 0) / draws
            assert abs(share - p) <= 4 * (p * (1 - p) / draws) ** 0.5 + 1e-12, (outcome, share, p)
    # At a decision or the end there is nothing to draw.
    st = nodes[0].copy()
    K.playout(st, r, _stream(1))
    assert K.sample_chance(st, r, x)[1] == -1
