"""The numba kernel (games/durak/kernel.py) is engine.py's rules: a `DurakCore` and a kernel
state are driven side by side through random games and agree on every field, every chance
node and every result after every step (and `from_engine` rebuilds the kernel state from the
core); the kernel's own random playouts and chance draws end well and play the engine's
distribution."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.durak import kernel as K
from koloda.games.durak.engine import DurakCore

RULE_SETS = [
    "durak",
    "durak(players=3)",
    "durak(players=4,ranks=6)",
    "durak(hand_size=3,ranks=6,suits=2)",
    "durak(max_moves=30)",
    "durak(players=3,previous_fool=1)",
    "durak(lead=from_under,players=4,previous_fool=0)",
    "durak(hand_size=6,players=6)",          # 36 cards, no stock: the dealer shows the trump
]
SEEDS = 300


def _kernel_fields(st, n):
    """The kernel's state as the DurakCore attributes of the same meaning."""
    s = st.tolist()
    return {
        "phase": s[K.PHASE], "stock": s[K.STOCK], "trump_card": s[K.TRUMP_CARD],
        "trump_suit": s[K.TRUMP_SUIT], "discard": s[K.DISCARD],
        "table_mask": s[K.TABLE_MASK], "table_match": s[K.TABLE_MATCH],
        "open_card": s[K.OPEN_CARD], "attacks": s[K.ATTACKS], "attacker": s[K.ATTACKER],
        "defender": s[K.DEFENDER], "throw_index": s[K.THROW_INDEX],
        "deal_index": s[K.DEAL_INDEX], "next_attacker": s[K.NEXT_ATTACKER],
        "moves": s[K.MOVES], "fool": s[K.FOOL],
        "hands": s[K.HANDS:K.HANDS + n],
        "table": s[K.TABLE:K.TABLE + s[K.TABLE_N]],
        "throw_order": tuple(s[K.THROW_ORDER:K.THROW_ORDER + s[K.THROW_N]]),
        "draw_queue": tuple(s[K.DRAW_QUEUE:K.DRAW_QUEUE + s[K.DRAW_N]]),
    }


def _core_fields(core):
    return {
        "phase": core.phase, "stock": core.stock, "trump_card": core.trump_card,
        "trump_suit": core.trump_suit, "discard": core.discard,
        "table_mask": core.table_mask, "table_match": core.table_match,
        "open_card": core.open_card, "attacks": core.attacks, "attacker": core.attacker,
        "defender": core.defender, "throw_index": core.throw_index,
        "deal_index": core.deal_index, "next_attacker": core.next_attacker,
        "moves": core.moves, "fool": core.fool,
        "hands": list(core.hands), "table": list(core.table),
        "throw_order": tuple(core.throw_order), "draw_queue": tuple(core.draw_queue),
    }


def _chance_of(st, r):
    """The kernel's chance node as (outcome, probability) pairs, like the engine's."""
    outcomes = np.zeros(K.MAX_CHANCE, np.int64)
    weights = np.zeros(K.MAX_CHANCE, np.int64)
    k = K.chance_outcomes(st, r, outcomes, weights)
    total = int(weights[:k].sum())
    return [(int(o), int(w) / total) for o, w in zip(outcomes[:k], weights[:k])]


def _returns_of(st, r, n):
    out = np.full(K.MAX_SEATS, 7.0)
    K.returns(st, r, out)
    return out[:n].tolist()


def _check_chance_seen_by(st, r, core, outcomes):
    for player in range(core.rules.num_players):
        for card in outcomes:
            assert K.chance_seen_by(st, r, player, card) == core.chance_seen_by(player, card)


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_kernel_plays_the_engine_move_by_move(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    n = rules.num_players
    out = np.empty(K.MAX_LEGAL, np.int64)
    fools = set()
    for seed in range(SEEDS):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        assert isinstance(core, DurakCore)
        st = K.new_state(r)
        steps = 0
        while True:
            assert _kernel_fields(st, n) == _core_fields(core), (seed, steps)
            assert np.array_equal(K.from_engine(core), st), (seed, steps)
            assert _returns_of(st, r, n) == core.returns(), (seed, steps)
            player = core.current_player()
            assert K.current_player(st) == player, (seed, steps)
            assert K.is_terminal(st) == core.is_terminal()
            assert K.is_chance(st) == core.is_chance()
            if core.is_terminal():
                break
            if core.is_chance():
                chance = core.chance_outcomes()
                outcomes = [c for c, _ in chance]
                mine = _chance_of(st, r)
                assert [c for c, _ in mine] == outcomes, (seed, steps)
                assert [p for _, p in mine] == pytest.approx([p for _, p in chance])
                _check_chance_seen_by(st, r, core, outcomes)
                assert K.legal_actions(st, r, out) == 0
                action = outcomes[rng.randrange(len(outcomes))]
            else:
                legal = core.legal_actions()
                count = K.legal_actions(st, r, out)
                assert out[:count].tolist() == legal, (seed, steps)
                assert _chance_of(st, r) == []
                action = legal[rng.randrange(len(legal))]
            core.apply(action)
            K.apply(st, r, action)
            steps += 1
        assert K.fool(st) == core.fool
        fools.add(core.fool)
    # The games reached real ends (under a short move cap every game is a draw).
    assert fools - {-1} if rules.max_moves >= 1000 else fools == {-1}


def _check_finished(st, rules):
    n = rules.num_players
    assert K.is_terminal(st)
    assert -1 <= K.fool(st) < n
    hands = st[K.HANDS:K.HANDS + n].tolist()
    table = st[K.TABLE:K.TABLE + st[K.TABLE_N]].tolist()
    parts = hands + [int(st[K.STOCK]), int(st[K.DISCARD]), int(st[K.TABLE_MASK])]
    union = 0
    for part in parts:
        assert union & part == 0          # no card in two places
        union |= part
    assert union == rules.deck.full_mask   # every card somewhere
    assert sum(1 << c for c in table) == st[K.TABLE_MASK] and len(set(table)) == len(table)
    if K.fool(st) >= 0:
        assert st[K.STOCK] == 0
        assert [s for s in range(n) if hands[s]] == [K.fool(st)]


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
    for seed in range(100):
        st = K.new_state(r)
        out = np.empty(K.MAX_LEGAL, np.int64)
        for _ in range(rng.randrange(80)):
            if K.is_terminal(st):
                break
            if K.is_chance(st):
                cards = [c for c, _ in _chance_of(st, r)]
                K.apply(st, r, cards[rng.randrange(len(cards))])
            else:
                k = K.legal_actions(st, r, out)
                K.apply(st, r, int(out[rng.randrange(k)]))
        K.random_playout(st, r, seed)
        _check_finished(st, rules)


@pytest.mark.parametrize("game_string", ["durak", "durak(players=3)"])
def test_kernel_random_playout_matches_the_engine_distribution(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    runs = 3000
    fools = np.empty(runs, np.int64)
    K.random_playouts(K.new_state(r), r, 12345, runs, fools)
    kernel = fools.tolist()
    rng = random.Random(0)
    engine = []
    for _ in range(runs):
        core = DurakCore(rules)
        core.random_playout(rng.random)
        engine.append(core.fool)
    for seat in range(-1, rules.num_players):
        share_k = kernel.count(seat) / runs
        share_e = engine.count(seat) / runs
        assert abs(share_k - share_e) < 0.04, (seat, share_k, share_e)
    assert set(kernel) == set(engine)


def _chance_nodes(game_string, seed):
    """Kernel states at the chance nodes of one random game: the deal, the trump, draws
    with the face-up trump held back, and the last draw of the trump itself."""
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    rng = random.Random(seed)
    st = K.new_state(r)
    out = np.empty(K.MAX_LEGAL, np.int64)
    nodes = []
    while not K.is_terminal(st):
        if K.is_chance(st):
            nodes.append(st.copy())
            cards = [c for c, _ in _chance_of(st, r)]
            K.apply(st, r, cards[rng.randrange(len(cards))])
        else:
            k = K.legal_actions(st, r, out)
            K.apply(st, r, int(out[rng.randrange(k)]))
    return r, nodes


def test_sample_chance_draws_each_outcome_by_its_probability():
    r, nodes = _chance_nodes("durak(players=3)", 2)
    phases = [int(st[K.PHASE]) for st in nodes]
    picked = [nodes[0], nodes[phases.index(K.TRUMP)]]
    picked += [st for st in nodes if st[K.PHASE] == K.DRAW][::7]
    last = [st for st in nodes if st[K.PHASE] == K.DRAW and st[K.STOCK] == 1 << st[K.TRUMP_CARD]]
    picked += last
    assert len(picked) >= 5 and last
    x = np.uint64(K.seed_state(99))
    draws = 8000
    for st in picked:
        chance = dict(_chance_of(st, r))
        counts = {}
        for _ in range(draws):
            x, card = K.sample_chance(st, r, np.uint64(x))
            counts[card] = counts.get(card, 0) + 1
        assert set(counts) <= set(chance)
        for card, p in chance.items():
            share = counts.get(card, 0) / draws
            assert abs(share - p) <= 4 * (p * (1 - p) / draws) ** 0.5 + 1e-12, (card, share, p)


def test_playout_continues_the_stream_and_random_playout_seeds_it():
    game = games.load_game("durak")
    r = K.rules_arrays(game.rules)
    start = K.new_state(r)
    for seed in range(20):
        a, b = start.copy(), start.copy()
        K.random_playout(a, r, seed)
        x = K.playout(b, r, np.uint64(K.seed_state(seed)))
        assert np.array_equal(a, b)
        assert x != K.seed_state(seed)
        # Continuing the stream from where a playout left it plays another game.
        c = start.copy()
        K.playout(c, r, np.uint64(x))
        _check_finished(c, game.rules)
