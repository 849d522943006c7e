"""The numba kernel (games/snitch/kernel.py) is engine.py's rules: a `SnitchCore` and a
kernel state are driven side by side through random games and agree on every field after
every step (scores across deals included); the kernel's own random playouts end well and
play the engine's distribution."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.snitch import kernel as K
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.outcomes import returns_for_winners
from koloda.games.snitch.engine import SnitchCore

# (game string, step cap per seed or None to play every game to its end)
RULE_SETS = [
    ("snitch(target_score=0)", None),                       # single deals
    ("snitch", 700),                                        # whole matches, capped
    ("snitch(hand_size=5,players=5,target_score=0)", None),
    ("snitch(copies=2,max_sets_per_turn=1,ranks=4,target_score=100)", None),
    ("snitch(hand_size=2,max_deals=3,players=8,target_score=1000000)", None),
    ("snitch(copies=4,max_sets_per_turn=100,players=4,ranks=6,target_score=150)", None),
]
SEEDS = 300


def _kernel_fields(st, n):
    """The kernel's state as the SnitchCore attributes of the same meaning."""
    s = st.tolist()
    kinds = K.MAX_KINDS
    return {
        "phase": s[K.PHASE], "player": s[K.PLAYER], "dealer": s[K.DEALER],
        "deal_index": s[K.DEAL_INDEX], "reserve_size": s[K.RESERVE_SIZE],
        "sets_this_turn": s[K.SETS_THIS_TURN], "passes": s[K.PASSES], "deals": s[K.DEALS],
        "ends_with_deal": bool(s[K.ENDS_WITH_DEAL]),
        "held": s[K.HELD:K.HELD + n], "set_ranks": s[K.SET_RANKS:K.SET_RANKS + n],
        "points": s[K.POINTS:K.POINTS + n], "totals": s[K.TOTALS:K.TOTALS + n],
        "hands": [s[K.HANDS + seat * kinds:K.HANDS + (seat + 1) * kinds] for seat in range(n)],
        "reserve": s[K.RESERVE:K.RESERVE + kinds],
        "discard": s[K.DISCARD:K.DISCARD + s[K.DISCARD_N]],
    }


def _core_fields(core):
    pad = [0] * (K.MAX_KINDS - core.rules.num_kinds)
    return {
        "phase": core.phase, "player": core.player, "dealer": core.dealer,
        "deal_index": core.deal_index, "reserve_size": core.reserve_size,
        "sets_this_turn": core.sets_this_turn, "passes": core.passes, "deals": core.deals,
        "ends_with_deal": core.ends_with_deal,
        "held": list(core.held), "set_ranks": list(core.set_ranks),
        "points": list(core.points), "totals": list(core.totals),
        "hands": [list(hand) + pad for hand in core.hands],
        "reserve": list(core.reserve) + pad,
        "discard": list(core.discard),
    }


def _returns(st, r, n):
    out = np.zeros(n, np.float64)
    K.returns(st, r, out)
    return out.tolist()


def _check_chance(core, st, r, outcomes, weights):
    """The kernel's chance interface at a chance node against the engine's."""
    expected = core.chance_outcomes()
    m = K.chance_outcomes(st, r, outcomes, weights)
    total = int(weights[:m].sum())
    assert total == st[K.RESERVE_SIZE]
    assert [(k, w / total) for k, w in zip(outcomes[:m].tolist(), weights[:m].tolist())] \
        == expected
    for seat in range(core.rules.num_players):
        for outcome, _ in expected:
            assert K.chance_seen_by(st, r, seat, outcome) == core.chance_seen_by(seat, outcome)
    return expected


def _drive(game, r, seed, cap, end_at_deal=False):
    """Plays one random game on a core and a kernel state side by side, checking all."""
    rules = game.rules
    n = rules.num_players
    out = np.empty(K.MAX_LEGAL, np.int64)
    kinds = np.empty(K.MAX_CHANCE, np.int64)
    counts = np.empty(K.MAX_CHANCE, np.int64)
    rng = random.Random(seed)
    core = game.new_initial_state().core
    assert isinstance(core, SnitchCore)
    st = K.new_state(r)
    if end_at_deal:
        core.end_at_deal()
        K.end_at_deal(st)
    steps = 0
    while True:
        assert _kernel_fields(st, n) == _core_fields(core), (seed, steps)
        assert np.array_equal(K.from_engine(core), st), (seed, steps)
        player = core.current_player()
        assert K.current_player(st) == player, (seed, steps)
        assert K.is_terminal(st) == core.is_terminal()
        assert K.is_chance(st) == core.is_chance()
        if core.is_terminal() or (cap is not None and steps >= cap):
            break
        if core.is_chance():
            outcomes = _check_chance(core, st, r, kinds, counts)
            assert K.legal_actions(st, r, out) == 0
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = core.legal_actions()
            count = K.legal_actions(st, r, out)
            assert out[:count].tolist() == legal, (seed, steps)
            assert K.chance_outcomes(st, r, kinds, counts) == 0
            assert K.sample_chance(st, r, 1)[1] == -1
            assert _returns(st, r, n) == core.returns() == [0.0] * n
            action = legal[rng.randrange(len(legal))]
        core.apply(action)
        K.apply(st, r, action)
        steps += 1
    assert _returns(st, r, n) == core.returns(), seed
    mask = K.winners_mask(st, r)
    assert {s for s in range(n) if mask >> s & 1} == core.winners()
    return core


@pytest.mark.parametrize("game_string,cap", RULE_SETS)
def test_kernel_plays_the_engine_move_by_move(game_string, cap):
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    ended, deals = 0, set()
    for seed in range(SEEDS):
        core = _drive(game, r, seed, cap)
        ended += core.is_terminal()
        deals.add(core.deals)
    if cap is None:
        assert ended == SEEDS
    else:
        assert ended or max(deals) >= 1     # the cap still reaches past a deal's end
    if game.rules.target_score:
        assert max(deals) >= 2              # the matches ran over several deals


def test_end_at_deal_and_its_returns():
    """After end_at_deal the deal's score difference stands for the returns (checked
    against the engine in _drive): not the winners' formula, unless the deal ended the
    match anyway."""
    for game_string, match_ends in [("snitch", False), ("snitch(target_score=0)", True)]:
        game = games.load_game(game_string)
        r = K.rules_arrays(game.rules)
        n = game.rules.num_players
        by_deal = 0
        for seed in range(60):
            core = _drive(game, r, seed, None, end_at_deal=True)
            assert core.is_terminal() and core.deals == 1
            winners = returns_for_winners(n, core.winners())
            by_deal += core.returns() != winners
        assert (by_deal == 0) if match_ends else by_deal >= 50


def _check_finished(st, rules):
    n = rules.num_players
    kinds = rules.num_kinds
    assert K.is_terminal(st)
    assert K.winners_mask(st, K.rules_arrays(rules)) >> n == 0
    totals = st[K.TOTALS:K.TOTALS + n].tolist()
    deals = int(st[K.DEALS])
    assert 1 <= deals <= rules.max_deals
    if rules.target_score and deals < rules.max_deals:
        assert max(totals) >= rules.target_score
    if not rules.target_score:
        assert deals == 1 and totals == st[K.POINTS:K.POINTS + n].tolist()
    # The last deal's cards: every copy in a hand, the reserve, the discard pile or a set.
    hands = st[K.HANDS:K.HANDS + n * K.MAX_KINDS].reshape(n, K.MAX_KINDS)
    held = st[K.HELD:K.HELD + n]
    assert (hands.sum(axis=1) == held).all() and (hands >= 0).all()
    reserve = st[K.RESERVE:K.RESERVE + K.MAX_KINDS]
    assert reserve.sum() == st[K.RESERVE_SIZE] and (reserve >= 0).all()
    assert not hands[:, kinds:].any() and not reserve[kinds:].any()
    discard = st[K.DISCARD:K.DISCARD + st[K.DISCARD_N]]
    in_play = hands.sum() + reserve.sum() + len(discard)
    assert (rules.num_cards - in_play) % 2 == 0         # the rest lie in sets of two
    assert (st[K.POINTS:K.POINTS + n] >= 0).all()
    assert not st[K.POINTS + n:K.POINTS + K.MAX_SEATS].any()
    # A deal ends with the reserve drawn and every hand passed or played out.
    assert st[K.RESERVE_SIZE] == 0


@pytest.mark.parametrize("game_string", [g for g, _ in RULE_SETS])
def test_kernel_random_playout_ends_consistently(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    r = K.rules_arrays(rules)
    start = K.new_state(r)
    for seed in range(300):
        st = start.copy()
        K.random_playout(st, r, seed)
        _check_finished(st, rules)
    # From mid-game positions too.
    rng = random.Random(1)
    out = np.empty(K.MAX_LEGAL, np.int64)
    kinds = np.empty(K.MAX_CHANCE, np.int64)
    counts = np.empty(K.MAX_CHANCE, np.int64)
    for seed in range(100):
        st = K.new_state(r)
        for _ in range(rng.randrange(300)):
            if K.is_terminal(st):
                break
            if K.is_chance(st):
                m = K.chance_outcomes(st, r, kinds, counts)
                K.apply(st, r, int(kinds[rng.randrange(m)]))
            else:
                k = K.legal_actions(st, r, out)
                K.apply(st, r, int(out[rng.randrange(k)]))
        K.random_playout(st, r, seed)
        _check_finished(st, rules)


@pytest.mark.parametrize("game_string", ["snitch(target_score=0)",
                                         "snitch(hand_size=5,players=5,target_score=0)"])
def test_kernel_random_playout_matches_the_engine_distribution(game_string):
    game = games.load_game(game_string)
    rules = game.rules
    n = rules.num_players
    r = K.rules_arrays(rules)
    runs = 3000
    masks = np.empty(runs, np.int64)
    K.random_playouts(K.new_state(r), r, 12345, runs, masks)
    kernel = masks.tolist()
    rng = random.Random(0)
    engine = []
    for _ in range(runs):
        core = SnitchCore(rules)
        core.random_playout(rng.random)
        engine.append(sum(1 << s for s in core.winners()))
    for seat in range(n):           # each seat's share of wins (ties counted for each)
        share_k = sum(m >> seat & 1 for m in kernel) / runs
        share_e = sum(m >> seat & 1 for m in engine) / runs
        assert abs(share_k - share_e) < 0.04, (seat, share_k, share_e)
    share_k = kernel.count(0) / runs                    # all tied
    share_e = engine.count(0) / runs
    assert abs(share_k - share_e) < 0.04, (share_k, share_e)


def _stream(seed):
    """The kit's xorshift state for a seed, as the uint64 the kernels take (numba hands
    one back to Python as an int)."""
    return np.uint64(seed_state(seed))


def _positions(game_string, count, seed, chance_only=False):
    """(kernel state, core) pairs at random points of random games, driven side by side."""
    game = games.load_game(game_string)
    r = K.rules_arrays(game.rules)
    rng = random.Random(seed)
    out = np.empty(K.MAX_LEGAL, np.int64)
    found = []
    while len(found) < count:
        core = game.new_initial_state().core
        for _ in range(rng.randrange(200)):
            if core.is_terminal():
                break
            if core.is_chance():
                action = core.chance_outcomes()[0][0] if rng.random() < 0.5 else \
                    rng.choice(core.chance_outcomes())[0]
            else:
                action = rng.choice(core.legal_actions())
            core.apply(action)
        if core.is_terminal() or (chance_only and not core.is_chance()):
            continue
        st = K.from_engine(core)
        assert K.legal_actions(st, r, out) == len(core.legal_actions())
        found.append((st, core))
    return r, found


def test_sample_chance_draws_by_the_probabilities():
    draws = 20000
    for game_string in ["snitch", "snitch(copies=2,ranks=4,target_score=100)"]:
        r, found = _positions(game_string, 4, seed=7, chance_only=True)
        for st, core in found:
            before = st.copy()
            seen = {}
            x = _stream(3)
            for _ in range(draws):
                x, kind = K.sample_chance(st, r, np.uint64(x))  # numba returns a Python int
                seen[kind] = seen.get(kind, 0) + 1
            assert np.array_equal(st, before)
            probs = dict(core.chance_outcomes())
            assert set(seen) <= set(probs)
            for kind, p in probs.items():
                share = seen.get(kind, 0) / draws
                assert abs(share - p) <= 4 * (p * (1 - p) / draws) ** 0.5 + 1e-9, (kind, p)


def test_playout_continues_the_stream_and_random_playout_is_it():
    r, found = _positions("snitch(target_score=0)", 20, seed=11)
    ends = set()
    for i, (st, _) in enumerate(found):
        a, b = st.copy(), st.copy()
        x = K.playout(a, r, _stream(i))
        K.random_playout(b, r, i)
        assert np.array_equal(a, b) and K.is_terminal(a)
        c = st.copy()                     # the same stream gives the same game
        assert K.playout(c, r, _stream(i)) == x and np.array_equal(a, c)
        ends.add(int(x))
        assert x != _stream(i)
        d = st.copy()                     # the stream it hands back goes on elsewhere
        K.playout(d, r, np.uint64(x))
        assert K.is_terminal(d)
    assert len(ends) == len(found)
