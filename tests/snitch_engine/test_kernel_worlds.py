"""The compiled determinizer (games/snitch/kernel_worlds.py) is resample.py's Determinizer:
its worlds keep all the viewer knows, vary the rest, draw (seat, card) as the Python
Determinizer does and never depend on the cards the viewer has not seen."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.cardlog_kernel import hidden_seats, pack
from koloda.games.kit.kernel import seed_state
from koloda.games.snitch import kernel as K
from koloda.games.snitch.engine import EV_DEAL, EV_DRAW, EV_NEW_DEAL
from koloda.games.snitch.kernel_worlds import determinize, problem
from koloda.games.snitch.resample import Determinizer

GAMES = ["snitch", "snitch(hand_size=5,players=5,target_score=0)",
         "snitch(copies=2,max_sets_per_turn=1,ranks=4,target_score=100)"]


def _stream(seed):
    return np.uint64(seed_state(seed))


def _positions(game_string, count, seed):
    """Cores at random points of random games (several deals in the matches)."""
    game = games.load_game(game_string)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        core = game.new_initial_state().core
        for _ in range(rng.randrange(400)):
            if core.is_terminal():
                break
            if core.is_chance():
                core.apply(rng.choice(core.chance_outcomes())[0])
            else:
                core.apply(rng.choice(core.legal_actions()))
        if not core.is_terminal():
            found.append(core)
    return game, found


def _hidden(prob):
    """The state words a world redraws: the hands of the seats with hidden slots, the
    reserve."""
    mask = np.zeros(K.STATE_SIZE, bool)
    seats = hidden_seats(prob)
    for seat in range(K.MAX_SEATS):
        if seats >> seat & 1:
            mask[K.HANDS + seat * K.MAX_KINDS:K.HANDS + (seat + 1) * K.MAX_KINDS] = True
    mask[K.RESERVE:K.RESERVE + K.MAX_KINDS] = True
    return mask


def _hands(st):
    """The hands as a (seat, kind) table of counts."""
    return st[K.HANDS:K.HANDS + K.MAX_SEATS * K.MAX_KINDS].reshape(K.MAX_SEATS, K.MAX_KINDS)


def _unseen_pool(st):
    """Per kind, the copies in the hands of all seats and the reserve."""
    return _hands(st).sum(axis=0) + st[K.RESERVE:K.RESERVE + K.MAX_KINDS]


def _world(template, r, prob, extra, x):
    world = np.empty_like(template)
    x, ok = determinize(template, r, prob, extra, world, x)
    assert ok
    return np.uint64(x), world


def _check_world(world, template, r, prob, viewer, rules):
    """Everything the viewer knows is as in the position, and the world is a position."""
    n = rules.num_players
    hidden = _hidden(prob)
    assert not hidden[K.HANDS + viewer * K.MAX_KINDS]        # the viewer's own hand
    assert np.array_equal(world[~hidden], template[~hidden])
    hands = _hands(world)
    assert (hands >= 0).all() and (world[K.RESERVE:K.RESERVE + K.MAX_KINDS] >= 0).all()
    assert (hands.sum(axis=1)[:n] == template[K.HELD:K.HELD + n]).all()
    assert world[K.RESERVE:K.RESERVE + K.MAX_KINDS].sum() == template[K.RESERVE_SIZE]
    assert np.array_equal(_unseen_pool(world), _unseen_pool(template))  # conservation
    assert not hands[:, rules.num_kinds:].any()
    out_w = np.empty(K.MAX_LEGAL, np.int64)
    out_t = np.empty(K.MAX_LEGAL, np.int64)
    if K.current_player(template) == viewer:
        m = K.legal_actions(world, r, out_w)
        assert out_w[:m].tolist() == out_t[:K.legal_actions(template, r, out_t)].tolist()
    play = world.copy()
    K.playout(play, r, _stream(0))
    assert K.is_terminal(play)


@pytest.mark.parametrize("game_string", GAMES)
def test_worlds_keep_what_the_viewer_knows_and_vary_the_rest(game_string):
    game, cores = _positions(game_string, 25, seed=1)
    rules = game.rules
    r = K.rules_arrays(rules)
    varied = free = 0
    for core in cores:
        for viewer in range(rules.num_players):
            template, prob, extra = problem(core, viewer)
            assert np.array_equal(template, K.from_engine(core))
            assert np.array_equal(prob, pack(Determinizer(core, viewer)._log))
            py = K.from_engine(Determinizer(core, viewer).sample(random.Random(0)))
            hidden = _hidden(prob)
            assert np.array_equal(py[~hidden], template[~hidden])   # the same words redrawn
            x = _stream(viewer)
            worlds = set()
            for _ in range(20):
                x, world = _world(template, r, prob, extra, x)
                _check_world(world, template, r, prob, viewer, rules)
                worlds.add(world.tobytes())
            # Hidden cards in a hand and two kinds to choose from: worlds differ.
            others = [s for s in range(rules.num_players) if hidden_seats(prob) >> s & 1]
            in_hands = sum(int(template[K.HELD + s]) for s in others)
            kinds = np.count_nonzero(_unseen_pool(template)
                                     - template[K.HANDS + viewer * K.MAX_KINDS:
                                                K.HANDS + (viewer + 1) * K.MAX_KINDS])
            if in_hands and kinds >= 2:
                free += 1
                varied += len(worlds) > 1
    assert free >= 40 and varied == free


def _cells(st, n):
    """Each seat's hand counts and the reserve's, flattened: the (seat, card) counts."""
    hands = st[K.HANDS:K.HANDS + n * K.MAX_KINDS]
    return np.concatenate([hands, st[K.RESERVE:K.RESERVE + K.MAX_KINDS]]).astype(float)


@pytest.mark.parametrize("game_string", GAMES[:2])
def test_worlds_draw_as_the_python_determinizer(game_string):
    game, cores = _positions(game_string, 2, seed=5)
    rules = game.rules
    n = rules.num_players
    r = K.rules_arrays(rules)
    runs = 2500
    for core in cores:
        viewer = (core.player + 1) % n
        template, prob, extra = problem(core, viewer)
        x = _stream(9)
        compiled = []
        for _ in range(runs):
            x, world = _world(template, r, prob, extra, x)
            compiled.append(_cells(world, n))
        det, rng = Determinizer(core, viewer), random.Random(9)
        python = [_cells(K.from_engine(det.sample(rng)), n) for _ in range(runs)]
        compiled, python = np.array(compiled), np.array(python)
        se = np.sqrt(compiled.var(axis=0) / runs + python.var(axis=0) / runs)
        gap = np.abs(compiled.mean(axis=0) - python.mean(axis=0))
        assert (gap <= 4 * se + 1e-12).all(), np.argmax(gap - 4 * se)
        assert (se > 0).sum() >= 10          # many cells really vary


def _twin(core, viewer, rng):
    """`core` with one card of an opponent's hand swapped with another kind of the
    reserve, its deal or draw event rewritten to match; None where none can be."""
    n = core.rules.num_players
    start = max((i for i, e in enumerate(core.events) if e[0] == EV_NEW_DEAL), default=-1)
    options = []
    for index in range(start + 1, len(core.events)):
        kind, seat, card, other = core.events[index]
        if (kind == EV_DEAL or kind == EV_DRAW) and seat != viewer and core.hands[seat][card]:
            for swap, copies in enumerate(core.reserve):
                if copies and swap != card:
                    options.append((index, seat, card, swap))
    if not options or n < 2:
        return None
    index, seat, card, swap = rng.choice(options)
    twin = core.copy()
    hand, reserve = twin.hand(seat), twin.reserve
    hand[card] -= 1
    hand[swap] += 1
    reserve[swap] -= 1
    reserve[card] += 1
    twin.set_hand(seat, hand)
    twin.set_reserve(reserve)
    kind, _, _, other = twin.events[index]
    twin.events[index] = (kind, seat, swap, other)
    return twin


@pytest.mark.parametrize("game_string", GAMES)
def test_worlds_do_not_depend_on_unseen_cards(game_string):
    game, cores = _positions(game_string, 30, seed=3)
    rules = game.rules
    r = K.rules_arrays(rules)
    rng = random.Random(4)
    twins = 0
    for core in cores:
        for viewer in range(rules.num_players):
            twin = _twin(core, viewer, rng)
            if twin is None:
                continue
            twins += 1
            template, prob, extra = problem(core, viewer)
            template2, prob2, extra2 = problem(twin, viewer)
            assert not np.array_equal(template, template2)       # the truth differs
            assert np.array_equal(prob, prob2) and np.array_equal(extra, extra2)
            for seed in range(5):
                _, world = _world(template, r, prob, extra, _stream(seed))
                _, world2 = _world(template2, r, prob2, extra2, _stream(seed))
                assert np.array_equal(world, world2)
    assert twins >= 30
