"""The numba kernel (games/snitch/kernel.py) is engine.py's rules: a `SnitchCore` and a
kernel state are driven side by side through random games and agree on every field after
every step (scores across deals included); the kernel's own random playouts end well and
play the engine's distribution."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.snitch import kernel as K
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


def _drive(game, r, seed, cap, end_at_deal=False):
    """Plays one random game on a core and a kernel state side by side, checking all."""
    rules = game.rules
    n = rules.num_players
    out = np.empty(K.MAX_LEGAL, np.int64)
    kinds = np.empty(K.MAX_KINDS, np.int64)
    counts = np.empty(K.MAX_KINDS, np.int64)
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
        player = core.current_player()
        assert K.current_player(st) == player, (seed, steps)
        assert K.is_terminal(st) == core.is_terminal()
        assert K.is_chance(st) == core.is_chance()
        if core.is_terminal() or (cap is not None and steps >= cap):
            break
        if core.is_chance():
            outcomes = core.chance_outcomes()
            m = K.chance_outcomes(st, kinds, counts)
            size = int(st[K.RESERVE_SIZE])
            assert [(k, c / size) for k, c in zip(kinds[:m].tolist(), counts[:m].tolist())] \
                == outcomes, (seed, steps)
            assert K.legal_actions(st, r, out) == 0
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = core.legal_actions()
            count = K.legal_actions(st, r, out)
            assert out[:count].tolist() == legal, (seed, steps)
            assert K.chance_outcomes(st, kinds, counts) == 0
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
    game = games.load_game("snitch")
    r = K.rules_arrays(game.rules)
    for seed in range(60):
        core = _drive(game, r, seed, None, end_at_deal=True)
        assert core.is_terminal() and core.deals == 1


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
    kinds = np.empty(K.MAX_KINDS, np.int64)
    counts = np.empty(K.MAX_KINDS, np.int64)
    for seed in range(100):
        st = K.new_state(r)
        for _ in range(rng.randrange(300)):
            if K.is_terminal(st):
                break
            if K.is_chance(st):
                m = K.chance_outcomes(st, kinds, counts)
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
