"""The compiled determinizer (games/platinum_fish/kernel_worlds.py) draws the worlds of
resample.py's `Determinizer`: every world keeps what the viewer knows, the hidden cards
vary, the (seat, card) distribution is the Python one, and nothing of the true hidden
cards leaks into the worlds."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.random_play import engine_step
from koloda.games.platinum_fish import kernel as K
from koloda.games.platinum_fish import kernel_worlds as W
from koloda.games.platinum_fish.engine import EV_DEAL, PlatinumFishCore

RULE_SETS = [
    "platinum_fish",
    "platinum_fish(players=4)",
    "platinum_fish(copies=4,players=3,ranks=6)",           # a miniature: offers cut short
    "platinum_fish(copies=2,max_hand=2,min_hand=2,players=5,ranks=7)",
]
WORLDS = 20


def _positions(game_string, games_count, per_game, seed):
    """Engine positions of random games, spread from the end of the deal to the end
    (decisions and chance nodes both)."""
    game = games.load_game(game_string)
    rng = random.Random(seed)
    found = []
    for _ in range(games_count):
        core = game.new_initial_state().core
        along = []
        while not core.is_terminal():
            if core.phase not in (K.HAND, K.DEAL):
                along.append(core.copy())
            engine_step(core, rng)
        step = max(1, len(along) // per_game)
        found.extend(along[::step][:per_game])
    return game, found


def _worlds(core, viewer, r, count, seed):
    template, prob, extra = W.problem(core, viewer)
    world = np.empty_like(template)
    x = np.uint64(seed + 1)
    out = []
    for _ in range(count):
        x, ok = W.determinize(template, r, prob, extra, world, x)
        x = np.uint64(x)                   # numba hands the stream back as an int
        assert ok
        out.append(world.copy())
    return out


def _engine_of(core, world, n, ranks):
    """The engine position of a world: `core` with the world's hands and stock."""
    c = core.copy()
    for seat, hand in enumerate(world[K.HANDS:K.HANDS + n].tolist()):
        c.set_hand(seat, hand)
    c.set_stock(world[K.STOCK:K.STOCK + ranks].tolist())
    return c


def _check_world(core, viewer, world, template, r, rules):
    n, ranks = rules.num_players, rules.num_ranks
    hands = world[K.HANDS:K.HANDS + n].tolist()
    stock = world[K.STOCK:K.STOCK + ranks].tolist()
    # Everything but the other hands and the stock is the true position's.
    public = np.ones(K.STATE_SIZE, bool)
    public[K.STOCK:K.STOCK + ranks] = False
    for seat in range(n):
        if seat != viewer:
            public[K.HANDS + seat] = False
    assert np.array_equal(world[public], template[public])
    assert hands[viewer] == core.hands[viewer]
    for seat in range(n):
        assert hands[seat].bit_count() == core.hands[seat].bit_count()
        assert hands[seat] & core.known[seat] == core.known[seat]
        assert 0 <= hands[seat] < 1 << ranks
    assert min(stock) >= 0 and sum(stock) == core.stock_size
    # Every card once: in a hand, laid, in the discard or in the stock.
    for rank in range(ranks):
        held = sum(h >> rank & 1 for h in hands)
        laid = sum(seat_laid.count(rank) for seat_laid in core.laid)
        assert held + 2 * laid + core.discard.count(rank) + stock[rank] == rules.copies
    # The throw's knowledge: what the stock shows it holds or lacks of the offer.
    if core.phase == K.CHOOSE:
        assert K.stock_ranks(world, r) & core.offer == core.stock_ranks() & core.offer
    if core.phase == K.ASK:
        assert K.stock_ranks(world, r) & core.offer == 0
    # The engine of the same world agrees with the kernel, and the viewer's options are
    # the true position's.
    engine = _engine_of(core, world, n, ranks)
    assert np.array_equal(K.from_engine(engine), world)
    out = np.empty(K.MAX_LEGAL, np.int64)
    count = K.legal_actions(world, r, out)
    assert out[:count].tolist() == engine.legal_actions()
    if core.current_player() == viewer:
        assert out[:count].tolist() == core.legal_actions()


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_worlds_keep_what_the_viewer_knows_and_vary_the_rest(game_string):
    game, positions = _positions(game_string, 4, 8, 3)
    rules = game.rules
    r = K.rules_arrays(rules)
    varied = cases = 0
    for p, core in enumerate(positions):
        for viewer in range(rules.num_players):
            template, _, _ = W.problem(core, viewer)
            assert np.array_equal(template, K.from_engine(core))
            worlds = _worlds(core, viewer, r, WORLDS, 100 * p + viewer)
            for world in worlds:
                _check_world(core, viewer, world, template, r, rules)
                # A world plays on to a consistent end.
                end = world.copy()
                K.playout(end, r, np.uint64(p + 1))
                assert K.is_terminal(end)
                assert min(end[K.STOCK:K.STOCK + rules.num_ranks]) >= 0
            distinct = {w[K.HANDS:K.STOCK + rules.num_ranks].tobytes() for w in worlds}
            python = core.determinizer(viewer)
            rng = random.Random(p)
            python_distinct = {(tuple(s.hands), tuple(s.stock))
                               for s in (python.sample(rng) for _ in range(WORLDS))}
            if len(python_distinct) > 1:
                cases += 1
                varied += len(distinct) > 1
    assert cases >= len(positions) // 2    # many positions hide something
    assert varied == cases                 # and there the hidden cards vary


def test_no_world_during_the_deal():
    game = games.load_game("platinum_fish")
    core = game.new_initial_state().core
    rng = random.Random(2)
    seen = set()
    while core.phase in (K.HAND, K.DEAL):
        seen.add(core.phase)
        assert W.problem(core, 0) is None and W.problem(core, 1) is None
        outcomes = core.chance_outcomes()
        core.apply(outcomes[rng.randrange(len(outcomes))][0])
    assert seen == {K.HAND, K.DEAL}
    assert W.problem(core, 0) is not None        # the first discard is turned: compiled


def _picked_position(game_string, seed, min_turns, phase=K.PLAY):
    """A position some turns into a random game, at a decision of `phase`."""
    game = games.load_game(game_string)
    rng = random.Random(seed)
    core = game.new_initial_state().core
    while core.phase != phase or core.turns < min_turns:
        engine_step(core, rng)
        assert not core.is_terminal()
    return game, core


def _features(hands, stock, ranks):
    """One world as numbers: whether each seat holds each rank, then the stock's copies of
    each rank."""
    return [h >> rank & 1 for h in hands for rank in range(ranks)] + list(stock)


@pytest.mark.parametrize("game_string,seed,min_turns,phase", [
    ("platinum_fish", 1, 6, K.PLAY),
    ("platinum_fish(players=4)", 2, 10, K.PLAY),
    ("platinum_fish(players=6,copies=4)", 3, 1, K.ASK),  # the stock lacks the offer
    ("platinum_fish(copies=4,players=3,ranks=6)", 2, 2, K.CHOOSE),
])
def test_worlds_follow_the_python_determinizer(game_string, seed, min_turns, phase):
    game, core = _picked_position(game_string, seed, min_turns, phase)
    rules = game.rules
    n, ranks = rules.num_players, rules.num_ranks
    r = K.rules_arrays(rules)
    draws = 3000
    viewer = core.current_player()
    compiled = np.array([
        _features(w[K.HANDS:K.HANDS + n].tolist(), w[K.STOCK:K.STOCK + ranks].tolist(), ranks)
        for w in _worlds(core, viewer, r, draws, seed)], float)
    worlds = core.determinizer(viewer)
    rng = random.Random(seed)
    python = np.array([_features(w.hands, w.stock, ranks)
                       for w in (worlds.sample(rng) for _ in range(draws))], float)
    error = np.sqrt((compiled.var(axis=0) + python.var(axis=0)) / draws)
    gap = np.abs(compiled.mean(axis=0) - python.mean(axis=0))
    assert (gap <= 4 * error + 1e-9).all(), (gap - 4 * error).max()
    assert (python.var(axis=0) > 0).sum() >= 6       # the position really hides cards


def _twin(core, viewer, seed):
    """A position `viewer` cannot tell from `core` whose hidden cards differ (a history the
    Python resampler draws, replayed), or None when the viewer can tell every card."""
    rng = random.Random(seed)
    for _ in range(50):
        twin = PlatinumFishCore(core.rules)
        for action in core.resample_history(viewer, rng):
            twin.apply(action)
        if twin.hands != core.hands:
            return twin
    return None


@pytest.mark.parametrize("game_string", RULE_SETS[:3])
def test_worlds_do_not_depend_on_the_true_hidden_cards(game_string):
    game, positions = _positions(game_string, 4, 6, 9)
    rules = game.rules
    r = K.rules_arrays(rules)
    twins = 0
    for p, core in enumerate(positions):
        viewer = p % rules.num_players
        twin = _twin(core, viewer, p)
        if twin is None:
            continue
        twins += 1
        # The twin differs only in cards dealt to the other seats.
        assert len(twin.events) == len(core.events)
        for mine, theirs in zip(core.events, twin.events):
            if mine != theirs:
                assert mine[0] == theirs[0] == EV_DEAL and mine[1] == theirs[1] != viewer
        assert twin.hands[viewer] == core.hands[viewer] and twin.known == core.known
        t1, prob1, extra1 = W.problem(core, viewer)
        t2, prob2, extra2 = W.problem(twin, viewer)
        assert not np.array_equal(t1, t2)
        assert np.array_equal(prob1, prob2) and np.array_equal(extra1, extra2)
        w1, w2 = np.empty_like(t1), np.empty_like(t2)
        for seed in range(5):
            x1, ok1 = W.determinize(t1, r, prob1, extra1, w1, np.uint64(seed + 1))
            x2, ok2 = W.determinize(t2, r, prob2, extra2, w2, np.uint64(seed + 1))
            assert ok1 and ok2 and x1 == x2
            assert np.array_equal(w1, w2), (p, seed)
    assert twins >= len(positions) // 4
