"""The engine (a `DurakCore`, a thin layer over games/durak/kernel.py) and the kernel against
the rules written plainly (reference.py): driven side by side through random games, they
agree on every field, every event, every chance node, the legal actions and the result
after every step; illegal cards raise as the plain rules do and change nothing; the
engine's random playout plays the plain rules' game from the same random numbers; the
kernel's own random playouts and chance draws end well and play the engine's
distribution."""

import pickle
import random

import numpy as np
import pytest
from kernel_playouts import assert_shares_agree, check_playouts_end, kernel_and_other_ends

from koloda import games
from koloda.games.durak import kernel as K
from koloda.games.durak.engine import DurakCore
from koloda.games.durak.reference import Reference

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
SCALARS = ("phase", "stock", "trump_card", "trump_suit", "discard", "table_mask",
           "table_match", "open_card", "attacks", "attacker", "defender", "throw_index",
           "deal_index", "next_attacker", "moves", "fool")
LISTS = ("hands", "known", "table", "events")
TUPLES = ("throw_order", "draw_queue")


def _fields(position):
    """Every field the rest of koloda reads, with its type: plain Python values only."""
    out = {}
    for name in SCALARS + LISTS + TUPLES:
        value = getattr(position, name)
        out[name] = (type(value).__name__, value)
    return out


def _kernel_fields(st, n):
    """The kernel's state as the fields of the same meaning (the event log aside)."""
    s = st.tolist()
    fields = {name: s[getattr(K, name.upper())] for name in SCALARS}
    fields.update(
        hands=s[K.HANDS:K.HANDS + n], known=s[K.KNOWN:K.KNOWN + n],
        table=s[K.TABLE:K.TABLE + s[K.TABLE_N]],
        throw_order=tuple(s[K.THROW_ORDER:K.THROW_ORDER + s[K.THROW_N]]),
        draw_queue=tuple(s[K.DRAW_QUEUE:K.DRAW_QUEUE + s[K.DRAW_N]]))
    return fields


def _plain_values(fields):
    return {name: value for name, (_, value) in fields.items() if name != "events"}


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


def _check_chance_seen_by(st, r, core, plain, outcomes):
    for player in range(core.rules.num_players):
        for card in outcomes:
            seen = plain.chance_seen_by(player, card)
            assert core.chance_seen_by(player, card) is seen
            assert K.chance_seen_by(st, r, player, card) == seen


def _check_step(core, plain, st, r, n, where):
    """The engine, the plain rules and a kernel state driven alongside agree."""
    fields = _fields(core)
    assert fields == _fields(plain), where
    assert _kernel_fields(st, n) == _plain_values(fields), where
    assert np.array_equal(core.st, st) and np.array_equal(K.from_engine(core), st), where
    assert core.returns() == plain.returns() == _returns_of(st, r, n), where
    assert core.winners() == plain.winners(), where
    assert core.current_player() == plain.current_player() == K.current_player(st), where
    assert core.is_terminal() == plain.is_terminal() == K.is_terminal(st), where
    assert core.is_chance() == plain.is_chance() == K.is_chance(st), where


def _refused_cards(plain):
    """A few decisions the plain rules refuse with a ValueError: cards the mover lacks."""
    rules = plain.rules
    phase = plain.phase
    if phase == K.ATTACK:
        seat, base = plain.attacker, rules.attack_base
    elif phase == K.DEFEND:
        seat, base = plain.defender, rules.beat_base
    elif phase == K.THROW:
        seat, base = plain.throw_order[plain.throw_index], rules.throw_base
    else:
        return []
    missing = [c for c in range(rules.num_cards) if not plain.hands[seat] >> c & 1]
    return [base + c for c in missing[:2]]


def _check_refusals(core, plain):
    before = core.copy()
    for action in _refused_cards(plain):
        with pytest.raises(ValueError, match="does not hold"):
            plain.apply(action)
        with pytest.raises(ValueError, match="does not hold"):
            core.apply(action)
        assert np.array_equal(core.st, before.st) and core.events == before.events


@pytest.mark.slow
@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_and_the_kernel_play_the_plain_rules_move_by_move(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    n = rules.num_players
    out = np.empty(K.MAX_LEGAL, np.int64)
    fools, shown = set(), 0
    for seed in range(SEEDS):
        rng = random.Random(seed)
        core = game.new_initial_state().core
        assert isinstance(core, DurakCore)
        plain = Reference(rules)
        st = K.new_state(r)
        steps = 0
        while True:
            _check_step(core, plain, st, r, n, (seed, steps))
            if core.is_terminal():
                break
            if core.is_chance():
                chance = plain.chance_outcomes()
                outcomes = [c for c, _ in chance]
                assert core.chance_outcomes() == chance, (seed, steps)
                mine = _chance_of(st, r)
                assert [c for c, _ in mine] == outcomes, (seed, steps)
                assert [p for _, p in mine] == pytest.approx([p for _, p in chance])
                _check_chance_seen_by(st, r, core, plain, outcomes)
                assert K.legal_actions(st, r, out) == 0 and core.legal_actions() == []
                action = outcomes[rng.randrange(len(outcomes))]
            else:
                legal = plain.legal_actions()
                assert core.legal_actions() == legal, (seed, steps)
                count = K.legal_actions(st, r, out)
                assert out[:count].tolist() == legal, (seed, steps)
                assert _chance_of(st, r) == [] and core.chance_outcomes() == []
                if seed % 10 == 0:
                    _check_refusals(core, plain)
                action = legal[rng.randrange(len(legal))]
            assert core.is_legal(action) and plain.is_legal(action)
            core.apply(action)
            plain.apply(action)
            K.apply(st, r, action)
            steps += 1
        assert not core.is_legal(0)
        with pytest.raises(ValueError, match="the game is over"):
            core.apply(0)
        fools.add(core.fool)
        shown += any(kind == K.EV_TRUMP_SHOWN for kind, _, _ in core.events)
    # The games reached real ends (under a short move cap every game is a draw).
    assert fools - {-1} if rules.max_moves >= 1000 else fools == {-1}
    assert shown == (SEEDS if rules.num_players * rules.hand_size == rules.num_cards else 0)


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_the_engine_playout_is_the_plain_rules_game_from_the_same_numbers(game_string):
    rules = games.load_game(game_string).rules
    start = DurakCore(rules)
    for seed in range(30):
        core = start.copy()
        core.random_playout(random.Random(seed).random)
        plain, rng = Reference(rules), random.Random(seed)
        while not plain.is_terminal():
            options = ([c for c, _ in plain.chance_outcomes()] if plain.is_chance()
                       else plain.legal_actions())
            plain.apply(options[int(rng.random() * len(options))])
        assert _fields(core) == _fields(plain), seed
    assert start.events == [] and start.phase == K.DEAL      # the start is untouched


def test_copies_pickles_and_keys_are_the_state_array():
    game = games.load_game("durak(players=3)")
    core = game.new_initial_state().core
    rng = random.Random(3)
    for _ in range(40):
        options = ([c for c, _ in core.chance_outcomes()] if core.is_chance()
                   else core.legal_actions())
        core.apply(options[rng.randrange(len(options))])
    twin = core.copy()
    assert twin.st is not core.st and twin.r is core.r and twin.events == core.events
    twin.apply(twin.legal_actions()[0])
    assert twin.key() != core.key() and len(twin.events) == len(core.events) + 1
    back = pickle.loads(pickle.dumps(core))
    assert "r" not in core.__getstate__()
    assert back.r is DurakCore.rules_array(back.rules) and np.array_equal(back.r, core.r)
    assert np.array_equal(back.st, core.st) and back.events == core.events
    assert back.key() == core.key() and hash(back.key()) == hash(core.key())
    # The key leaves out what is public knowledge: the same position, other known cards.
    other = core.copy()
    other.st[K.KNOWN] ^= 1
    other.events = []
    assert other.key() == core.key()


def test_setters_place_redrawn_hidden_cards():
    core = games.load_game("durak").new_initial_state().core
    core.random_playout(random.Random(0).random)
    world = core.copy()
    world.set_hand(0, 0b1010)
    world.set_stock(0b100)
    assert world.hands[0] == 0b1010 and world.stock == 0b100
    assert core.hands != world.hands or core.stock != world.stock


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_kernel_plays_the_engine_move_by_move(game_string):
    """The kernel alone, from its own new_state, plays the engine's games."""
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    start = K.new_state(r)
    assert np.array_equal(start, DurakCore(game.rules).st)
    for seed in range(20):
        core = DurakCore(game.rules)
        core.random_playout(random.Random(seed).random)
        st = start.copy()
        for kind, seat, card in core.events:
            if kind == K.EV_TRUMP_SHOWN:
                continue
            assert K.event_of(st, r, _action_of(game.rules, kind, card)) == (kind, seat, card)
            K.apply(st, r, _action_of(game.rules, kind, card))
        assert np.array_equal(st, core.st), seed


def _action_of(rules, kind, card):
    if kind == K.EV_ATTACK:
        return rules.attack_base + card
    if kind == K.EV_THROW:
        return rules.throw_base + card
    if kind == K.EV_BEAT:
        return rules.beat_base + card
    if kind == K.EV_TAKE:
        return rules.take_action
    if kind == K.EV_PASS:
        return rules.pass_action
    return card


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
    rules = games.load_game(game_string).rules
    check_playouts_end(K, rules, lambda st: _check_finished(st, rules), seeds=500,
                       mid_games=100, mid_moves=80)


@pytest.mark.parametrize("game_string", ["durak", "durak(players=3)"])
def test_kernel_random_playout_matches_the_engine_distribution(game_string):
    rules = games.load_game(game_string).rules

    def engine_fool(random):
        core = DurakCore(rules)
        core.random_playout(random)
        return core.fool

    kernel, engine = kernel_and_other_ends(K, rules, engine_fool)
    assert_shares_agree(kernel, engine, range(-1, rules.num_players))
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
