"""The engine (a `SnitchCore`, a thin layer over games/snitch/kernel.py) against the rules
written plainly (reference.py): driven side by side through random games, they agree on
every field, every event, the legal actions, the chance and the results after every step
(scores across deals included), and the engine's random playout plays the game the plain
rules play from the same random numbers; the kernel's own random playouts end well and
play the plain rules' distribution."""

import random

import numpy as np
import pytest
from kernel_playouts import (
    assert_seat_wins_agree,
    assert_shares_agree,
    check_playouts_end,
    kernel_and_other_ends,
)
from snitch_rules.helpers import load, start

from koloda import games
from koloda.games.kit.chance import draw_from_counts
from koloda.games.kit.kernel import seed_state
from koloda.games.kit.outcomes import returns_for_winners
from koloda.games.snitch import kernel as K
from koloda.games.snitch.engine import SnitchCore
from koloda.games.snitch.reference import Reference

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

FIELDS = ("phase", "player", "dealer", "deal_index", "reserve_size", "sets_this_turn",
          "passes", "deals", "ends_with_deal", "held", "set_ranks", "points", "totals",
          "hands", "reserve", "discard", "laid")


def _fields(position):
    """The position's fields as plain values (the engine's are properties)."""
    return {name: getattr(position, name) for name in FIELDS}


def _plain(value):
    """Whether `value` is made of plain Python ints, bools, lists and tuples (views are
    JSON: no numpy scalars)."""
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    return type(value) in (int, bool)


def _kernel_fields(st, rules):
    """The kernel's state words as the fields of the same meaning."""
    n, kinds = rules.num_players, rules.num_kinds
    s = st.tolist()
    laid = [[] for _ in range(n)]
    for code in s[K.LAID:K.LAID + s[K.LAID_N]]:
        seat, rank, other = code // K.MAX_KINDS ** 2, code // K.MAX_KINDS % K.MAX_KINDS, \
            code % K.MAX_KINDS
        assert K.laid_code(seat, rank, other) == code
        laid[seat].append((rank, other))
    return {
        "phase": s[K.PHASE], "player": s[K.PLAYER], "dealer": s[K.DEALER],
        "deal_index": s[K.DEAL_INDEX], "reserve_size": s[K.RESERVE_SIZE],
        "sets_this_turn": s[K.SETS_THIS_TURN], "passes": s[K.PASSES], "deals": s[K.DEALS],
        "ends_with_deal": bool(s[K.ENDS_WITH_DEAL]),
        "held": s[K.HELD:K.HELD + n], "set_ranks": s[K.SET_RANKS:K.SET_RANKS + n],
        "points": s[K.POINTS:K.POINTS + n], "totals": s[K.TOTALS:K.TOTALS + n],
        "hands": [s[K.HANDS + seat * K.MAX_KINDS:K.HANDS + seat * K.MAX_KINDS + kinds]
                  for seat in range(n)],
        "reserve": s[K.RESERVE:K.RESERVE + kinds],
        "discard": s[K.DISCARD:K.DISCARD + s[K.DISCARD_N]],
        "laid": tuple(map(tuple, laid)),
    }


def _check_unused_words_are_zero(st, rules):
    """One position, one state array: nothing beyond the seats, kinds, pile or sets."""
    n, kinds = rules.num_players, rules.num_kinds
    for at in (K.HELD, K.SET_RANKS, K.POINTS, K.TOTALS):
        assert not st[at + n:at + K.MAX_SEATS].any()
    assert not st[K.RESERVE + kinds:K.RESERVE + K.MAX_KINDS].any()
    hands = st[K.HANDS:K.DISCARD].reshape(K.MAX_SEATS, K.MAX_KINDS)
    assert not hands[n:].any() and not hands[:, kinds:].any()
    assert not st[K.DISCARD + st[K.DISCARD_N]:K.POSITION_END].any()
    assert not st[K.LAID + st[K.LAID_N]:].any()


def _returns(st, r, n):
    out = np.zeros(n, np.float64)
    K.returns(st, r, out)
    return out.tolist()


def _check_chance(core, plain, r, outcomes, weights):
    """The engine's and the kernel's chance at a chance node against the plain rules'."""
    st = core.st
    expected = plain.chance_outcomes()
    assert core.chance_outcomes() == expected
    m = K.chance_outcomes(st, r, outcomes, weights)
    total = int(weights[:m].sum())
    assert total == st[K.RESERVE_SIZE]
    assert [(k, w / total) for k, w in zip(outcomes[:m].tolist(), weights[:m].tolist())] \
        == expected
    for seat in range(core.rules.num_players):
        for outcome, _ in expected:
            seen = plain.chance_seen_by(seat, outcome)
            assert core.chance_seen_by(seat, outcome) == seen
            assert K.chance_seen_by(st, r, seat, outcome) == seen
    assert all(core.is_legal(k) == plain.is_legal(k) for k in range(core.rules.num_kinds))
    return expected


def _check_same(core, plain, r, seen, where):
    """Every field and the events logged since `seen` (the log's length before)."""
    fields = _fields(plain)
    assert _fields(core) == fields, where
    assert _kernel_fields(core.st, core.rules) == fields, where
    assert len(core.events) == len(plain.events), where
    assert core.events[seen:] == plain.events[seen:], where
    assert core.current_player() == plain.current_player() == K.current_player(core.st), where
    assert core.is_terminal() == plain.is_terminal() == K.is_terminal(core.st)
    assert core.is_chance() == plain.is_chance() == K.is_chance(core.st)
    n = core.rules.num_players
    assert core.returns() == plain.returns() == _returns(core.st, r, n), where
    assert core.winners() == plain.winners()


def _drive(game, seed, cap, end_at_deal=False):
    """Plays one random game on the engine and the plain rules side by side, checking
    all after every step; the engine at the end."""
    rules = game.rules
    r = K.rules_arrays(rules)
    out = np.empty(K.MAX_LEGAL, np.int64)
    kinds = np.empty(K.MAX_CHANCE, np.int64)
    counts = np.empty(K.MAX_CHANCE, np.int64)
    rng = random.Random(seed)
    core = game.new_initial_state().core
    assert isinstance(core, SnitchCore)
    plain = Reference(rules)
    if end_at_deal:
        core.end_at_deal()
        plain.end_at_deal()
    steps = seen = 0
    while True:
        _check_same(core, plain, r, seen, (seed, steps))
        seen = len(plain.events)
        if core.is_terminal() or (cap is not None and steps >= cap):
            break
        if core.is_chance():
            outcomes = _check_chance(core, plain, r, kinds, counts)
            assert core.legal_actions() == [] and K.legal_actions(core.st, r, out) == 0
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = plain.legal_actions()
            assert core.legal_actions() == legal, (seed, steps)
            assert K.chance_outcomes(core.st, r, kinds, counts) == 0
            assert core.chance_outcomes() == []
            assert K.sample_chance(core.st, r, 1)[1] == -1
            assert core.returns() == [0.0] * rules.num_players
            action = legal[rng.randrange(len(legal))]
            assert core.is_legal(action) and not core.is_legal(rules.num_actions)
        core.apply(action)
        plain.apply(action)
        steps += 1
    mask = K.winners_mask(core.st, r)
    assert {s for s in range(rules.num_players) if mask >> s & 1} == core.winners()
    _check_unused_words_are_zero(core.st, rules)
    assert all(_plain(v) for v in _fields(core).values())
    assert all(_plain(event) for event in core.events)
    return core


@pytest.mark.slow
@pytest.mark.parametrize("game_string,cap", RULE_SETS)
def test_the_engine_plays_the_plain_rules_move_by_move(game_string, cap):
    game = games.load_game(game_string)
    ended, deals = 0, set()
    for seed in range(SEEDS):
        core = _drive(game, seed, cap)
        ended += core.is_terminal()
        deals.add(core.deals)
    if cap is None:
        assert ended == SEEDS
    else:
        assert ended or max(deals) >= 1     # the cap still reaches past a deal's end
    if game.rules.target_score:
        assert max(deals) >= 2              # the matches ran over several deals


def test_a_finished_game_refuses_moves():
    core = _drive(games.load_game("snitch(target_score=0)"), 0, None)
    assert not core.is_legal(0) and core.legal_actions() == []
    with pytest.raises(ValueError, match="over"):
        core.apply(0)
    with pytest.raises(ValueError, match="over"):
        core.random_step(0.5)
    assert core.is_terminal() and core.events[-1][0] == K.EV_SCORE


def test_end_at_deal_and_its_returns():
    """After end_at_deal the deal's score difference stands for the returns (checked
    against the plain rules in _drive): not the winners' formula, unless the deal ended
    the match anyway."""
    for game_string, match_ends in [("snitch", False), ("snitch(target_score=0)", True)]:
        game = games.load_game(game_string)
        n = game.rules.num_players
        by_deal = 0
        for seed in range(60):
            core = _drive(game, seed, None, end_at_deal=True)
            assert core.is_terminal() and core.deals == 1
            winners = returns_for_winners(n, core.winners())
            by_deal += core.returns() != winners
        assert (by_deal == 0) if match_ends else by_deal >= 50


def _plain_random_playout(plain, random):
    """The default loop's game on the plain rules: a decision at int(u * count) of the
    legal list, a draw by the reserve's counts."""
    while not plain.is_terminal():
        if plain.is_chance():
            plain.apply(draw_from_counts(plain.reserve, plain.reserve_size, random))
        else:
            legal = plain.legal_actions()
            plain.apply(legal[int(random() * len(legal))])


@pytest.mark.parametrize("game_string", [g for g, _ in RULE_SETS])
def test_the_engine_playout_is_the_plain_rules_game_from_the_same_numbers(game_string):
    rules = games.load_game(game_string).rules
    begin = SnitchCore(rules)
    for seed in range(20):
        core = begin.copy()
        core.random_playout(random.Random(seed).random)
        plain = Reference(rules)
        _plain_random_playout(plain, random.Random(seed).random)
        assert core.events == plain.events, seed
        assert _fields(core) == _fields(plain), seed
    assert begin.events == [] and begin.deal_index == 0      # the start is untouched


def test_random_steps_from_a_position_play_the_plain_rules_game():
    """`random_step` (the heuristic playout's draws) from the middle of a game."""
    game = games.load_game("snitch(copies=4,players=4,ranks=6,target_score=150)")
    rules = game.rules
    for seed in range(20):
        rng = random.Random(seed)
        core, plain = SnitchCore(rules), Reference(rules)
        for _ in range(rng.randrange(300)):
            if plain.is_terminal():
                break
            outcomes = [a for a, _ in plain.chance_outcomes()]
            action = rng.choice(outcomes or plain.legal_actions())
            core.apply(action)
            plain.apply(action)
        numbers = random.Random(seed + 100).random
        plain_numbers = random.Random(seed + 100).random
        while not core.is_terminal():
            core.random_step(numbers())
            if plain.is_chance():
                plain.apply(draw_from_counts(plain.reserve, plain.reserve_size, plain_numbers))
            else:
                legal = plain.legal_actions()
                plain.apply(legal[int(plain_numbers() * len(legal))])
            assert _fields(core) == _fields(plain)
        assert plain.is_terminal() and core.events == plain.events


def test_from_engine_is_the_engines_state_to_keep():
    core = SnitchCore(games.load_game("snitch").rules)
    st = K.from_engine(core)
    assert np.array_equal(st, core.st) and st is not core.st
    K.apply(st, core.r, 0)
    assert core.deal_index == 0 and core.events == [] and st[K.DEAL_INDEX] == 1


def test_copies_and_the_rules_array():
    game = games.load_game("snitch")
    one, two = SnitchCore(game.rules), SnitchCore(game.rules)
    assert one.r is two.r                            # one rules array per game
    one.apply(3)
    copy = one.copy()
    assert copy.r is one.r and copy.st is not one.st and copy.events == one.events
    copy.apply(4)
    assert one.deal_index == 1 and copy.deal_index == 2 and len(one.events) == 1


def test_setters_write_the_hidden_cards_through_the_state():
    core = _drive(games.load_game("snitch(target_score=0)"), 3, 40)
    seat = (core.player + 1) % core.rules.num_players
    hand = [0] * core.rules.num_kinds
    hand[0] = 2
    core.set_hand(seat, hand)
    assert core.hands[seat] == core.hand(seat) == hand and core.held[seat] == 2
    reserve = [1] * core.rules.num_kinds
    core.set_reserve(reserve)
    assert core.reserve == reserve and core.reserve_size == core.rules.num_kinds


def test_equal_positions_by_different_move_orders_have_equal_keys():
    """The key is the position: not the order the sets were laid in, nor end_at_deal."""
    game = load(ranks=3, copies=4, hand_size=4, target_score=0)
    hands = [["3", "3", "4", "4"], ["5", "5", "2", "X"], ["3", "4", "5", "2"]]
    one = start(game, hands, "set 33", "set 44").core
    two = start(game, hands, "set 44", "set 33").core
    assert one.laid != two.laid and one.points == two.points
    assert one.key() == two.key() and hash(one.key()) == hash(two.key())
    cut = one.copy()
    cut.end_at_deal()
    assert cut.key() == one.key()
    assert one.key() != start(game, hands, "set 33").core.key()


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
    assert rules.num_cards - in_play == 2 * st[K.LAID_N]     # the rest lie in sets of two
    assert (st[K.POINTS:K.POINTS + n] >= 0).all()
    assert not st[K.POINTS + n:K.POINTS + K.MAX_SEATS].any()
    # A deal ends with the reserve drawn and every hand passed or played out.
    assert st[K.RESERVE_SIZE] == 0
    _check_unused_words_are_zero(st, rules)


@pytest.mark.parametrize("game_string", [g for g, _ in RULE_SETS])
def test_kernel_random_playout_ends_consistently(game_string):
    rules = games.load_game(game_string).rules
    check_playouts_end(K, rules, lambda st: _check_finished(st, rules), seeds=300,
                       mid_games=100, mid_moves=300)


@pytest.mark.parametrize("game_string", ["snitch(target_score=0)",
                                         "snitch(hand_size=5,players=5,target_score=0)"])
def test_kernel_random_playout_matches_the_plain_rules_distribution(game_string):
    rules = games.load_game(game_string).rules

    def plain_winners(random):
        plain = Reference(rules)
        _plain_random_playout(plain, random)
        return sum(1 << s for s in plain.winners())

    kernel, plain = kernel_and_other_ends(K, rules, plain_winners)
    assert_seat_wins_agree(kernel, plain, rules.num_players)
    assert_shares_agree(kernel, plain, [0])                  # all tied


def _stream(seed):
    """The kit's xorshift state for a seed, as the uint64 the kernels take (numba hands
    one back to Python as an int)."""
    return np.uint64(seed_state(seed))


def _positions(game_string, count, seed, chance_only=False):
    """(kernel state, core) pairs at random points of random games."""
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
