"""The numba kernel (games/platinum_fish/kernel.py) is engine.py's rules: a
`PlatinumFishCore` and a kernel state are driven side by side through random games and
agree on every field after every step (and `from_engine` of the engine gives the kernel's
very array); the kernel's chance draws follow their weights, and its own random playouts
end well and play the engine's distribution."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.outcomes import returns_for_winners
from koloda.games.platinum_fish import kernel as K
from koloda.games.platinum_fish.engine import PlatinumFishCore

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


def _kernel_fields(st, n, ranks):
    """The kernel's state as the PlatinumFishCore attributes of the same meaning."""
    s = st.tolist()
    pairs = s[K.PAIRS:K.PAIRS + 2 * s[K.PAIRS_N]]
    return {
        "phase": s[K.PHASE], "player": s[K.PLAYER], "stock_size": s[K.STOCK_SIZE],
        "deal_seat": s[K.DEAL_SEAT], "deal_left": s[K.DEAL_LEFT], "offer": s[K.OFFER],
        "turns": s[K.TURNS],
        "hands": s[K.HANDS:K.HANDS + n], "matches": s[K.MATCHES:K.MATCHES + n],
        "stock": s[K.STOCK:K.STOCK + ranks],
        "pairs": tuple(zip(pairs[::2], pairs[1::2])),
        "discard": s[K.DISCARD:K.DISCARD + s[K.DISCARD_N]],
    }


def _core_fields(core):
    return {
        "phase": core.phase, "player": core.player, "stock_size": core.stock_size,
        "deal_seat": core.deal_seat, "deal_left": core.deal_left, "offer": core.offer,
        "turns": core.turns,
        "hands": list(core.hands), "matches": list(core.matches), "stock": list(core.stock),
        "pairs": tuple(core.pairs), "discard": list(core.discard),
    }


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


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_kernel_plays_the_engine_move_by_move(game_string):
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
    for seed in range(SEEDS):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        assert isinstance(core, PlatinumFishCore)
        st = K.new_state(r)
        steps = 0
        while True:
            assert _kernel_fields(st, n, ranks) == _core_fields(core), (seed, steps)
            assert np.array_equal(K.from_engine(core), st), (seed, steps)
            phases.add(core.phase)
            player = core.current_player()
            assert K.current_player(st) == player, (seed, steps)
            assert K.is_terminal(st) == core.is_terminal()
            assert K.is_chance(st) == core.is_chance()
            assert K.stock_ranks(st, r) == core.stock_ranks()
            if core.is_terminal():
                break
            if core.is_chance():
                expected = core.chance_outcomes()
                assert _kernel_outcomes(st, r, outcomes, weights) == expected, (seed, steps)
                assert K.legal_actions(st, r, out) == 0
                for seat in range(n):
                    for outcome, _ in expected:
                        assert (K.chance_seen_by(st, r, seat, outcome)
                                == core.chance_seen_by(seat, outcome)), (seed, steps)
                action = expected[rng.randrange(len(expected))][0]
            else:
                legal = core.legal_actions()
                count = K.legal_actions(st, r, out)
                assert out[:count].tolist() == legal, (seed, steps)
                assert K.chance_outcomes(st, r, outcomes, weights) == 0
                action = legal[rng.randrange(len(legal))]
            assert K.winners_mask(st, r) == 0
            K.returns(st, r, back)
            assert back.tolist() == core.returns() == [0.0] * n
            core.apply(action)
            K.apply(st, r, action)
            steps += 1
        mask = K.winners_mask(st, r)
        assert mask == _mask(core.winners()), seed
        seats = [s for s in range(n) if mask >> s & 1]
        assert returns_for_winners(n, seats) == core.returns()
        K.returns(st, r, back)
        assert back.tolist() == core.returns(), seed
        ends.add(mask)
        if rules.max_turns >= 1000:
            assert core.stock_size == 0          # the stock ran out, not the turn cap
    assert len(ends) > 1
    assert phases >= {K.HAND, K.DEAL, K.TURN, K.PLAY, K.DRAW, K.DICE_ROLL, K.OVER}
    if rules.num_ranks > 1:
        assert K.CHOOSE in phases
        if rules.max_turns >= 1000:
            assert K.ASK in phases               # an offer the stock has run out of


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
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    start = K.new_state(r)
    for seed in range(500):
        st = start.copy()
        K.random_playout(st, r, seed)
        _check_finished(st, rules)
    # From mid-game positions too.
    rng = random.Random(1)
    out = np.empty(K.MAX_LEGAL, np.int64)
    outcomes = np.empty(K.MAX_CHANCE, np.int64)
    weights = np.empty(K.MAX_CHANCE, np.int64)
    for seed in range(100):
        st = K.new_state(r)
        for _ in range(rng.randrange(200)):
            if K.is_terminal(st):
                break
            if K.is_chance(st):
                k = K.chance_outcomes(st, r, outcomes, weights)
                K.apply(st, r, int(outcomes[rng.randrange(k)]))
            else:
                k = K.legal_actions(st, r, out)
                K.apply(st, r, int(out[rng.randrange(k)]))
        K.random_playout(st, r, seed)
        _check_finished(st, rules)
    # The batch gives the same ends as one playout at a time.
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
    rules = game.rules
    r = K.rules_arrays(rules)
    runs = 3000
    ends = np.empty(runs, np.int64)
    K.random_playouts(K.new_state(r), r, 12345, runs, ends)
    kernel = ends.tolist()
    rng = random.Random(0)
    start = game.new_initial_state().core
    engine = []
    for _ in range(runs):
        core = start.copy()
        core.random_playout(rng.random)
        engine.append(_mask(core.winners()))
    for end in set(kernel) | set(engine):
        share_k = kernel.count(end) / runs
        share_e = engine.count(end) / runs
        assert abs(share_k - share_e) < 0.04, (end, share_k, share_e)
    # Each seat's share of the wins, counting shared wins.
    for seat in range(rules.num_players):
        share_k = sum(e >> seat & 1 for e in kernel) / runs
        share_e = sum(e >> seat & 1 for e in engine) / runs
        assert abs(share_k - share_e) < 0.04, (seat, share_k, share_e)


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


@pytest.mark.parametrize("game_string", ["platinum_fish", "platinum_fish(copies=4,players=3,ranks=6)"])
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
