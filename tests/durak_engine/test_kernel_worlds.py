"""The compiled determinizer (games/durak/kernel_worlds.py) draws the worlds of the Python
`Determinizer` (games/durak/resample.py): every world keeps what the viewer knows, the
hidden cards vary, their distribution is the Python one (first-attacker rule included),
and the true hidden cards of the position never reach a world."""

import random

import numpy as np
import pytest

from koloda import games
from koloda.games.durak import kernel as K
from koloda.games.durak import kernel_worlds as W
from koloda.games.durak.engine import ATTACK, EV_DEAL, EV_DRAW
from koloda.games.durak.resample import Determinizer, first_attacker
from koloda.games.kit.random_play import engine_step

RULE_SETS = [
    "durak",
    "durak(players=3)",
    "durak(players=4,ranks=6)",
    "durak(players=3,previous_fool=1)",
    "durak(hand_size=6,players=6)",
]


def _positions(game_string, seeds, every=4):
    """Cores from random games: every `every`-th step, and each game's first decision."""
    game = games.load_game(game_string)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        core = game.new_initial_state().core
        step = 0
        while not core.is_terminal():
            if step % every == 0 or (core.phase == ATTACK and core.moves == 0):
                out.append(core.copy())
            engine_step(core, rng)
            step += 1
    return game, out


def _worlds(core, player, r, count, seed):
    template, prob, extra = W.problem(core, player)
    x = np.uint64(K.seed_state(seed))
    worlds = []
    for _ in range(count):
        world = np.empty_like(template)
        x, ok = W.determinize(template, r, prob, extra, world, np.uint64(x))
        assert ok
        worlds.append(world)
    return worlds


def _public(st):
    """Everything of a state but the hands and the stock."""
    keep = np.ones(len(st), bool)
    keep[K.HANDS:K.HANDS + K.MAX_SEATS] = False
    keep[K.STOCK] = False
    return st[keep]


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_worlds_keep_what_the_viewer_knows(game_string):
    game, positions = _positions(game_string, range(6))
    rules = game.rules
    r = K.rules_arrays(rules)
    n = rules.num_players
    out = np.empty(K.MAX_LEGAL, np.int64)
    varied = 0
    for index, core in enumerate(positions):
        truth = K.from_engine(core)
        trump_bit = 1 << core.trump_card if core.trump_card >= 0 else 0
        for player in range(n):
            worlds = _worlds(core, player, r, 8, index * 10 + player)
            for world in worlds:
                hands = world[K.HANDS:K.HANDS + n].tolist()
                stock = int(world[K.STOCK])
                assert np.array_equal(_public(world), _public(truth))
                assert hands[player] == core.hands[player]
                for seat in range(n):
                    assert hands[seat] & core.known[seat] == core.known[seat]
                    assert hands[seat].bit_count() == core.hands[seat].bit_count()
                assert stock.bit_count() == core.stock.bit_count()
                assert stock & trump_bit == core.stock & trump_bit
                union = 0
                for part in hands + [stock, core.discard, core.table_mask]:
                    assert union & part == 0
                    union |= part
                assert union == rules.deck.full_mask
                if core.current_player() == player:
                    k = K.legal_actions(world, r, out)
                    assert out[:k].tolist() == core.legal_actions()
                if (rules.previous_fool < 0 and core.phase == ATTACK and core.moves == 0):
                    # The dealt hands are the hands: they must give the true first attacker.
                    assert K.first_attacker(world, r) == core.attacker
            if len({w.tobytes() for w in worlds}) > 1:
                varied += 1
    # The hidden cards really vary (a world the viewer cannot tell from the truth).
    assert varied >= len(positions) * n // 4


@pytest.mark.parametrize("game_string", RULE_SETS[:4])
def test_hidden_cards_vary_wherever_the_python_worlds_do(game_string):
    game, positions = _positions(game_string, range(2), every=9)
    r = K.rules_arrays(game.rules)
    rng = random.Random(0)
    for index, core in enumerate(positions):
        for player in range(game.num_players()):
            python = Determinizer(core, player)
            seen = {(tuple(w.hands), w.stock) for w in (python.sample(rng) for _ in range(20))}
            compiled = {w.tobytes() for w in _worlds(core, player, r, 20, index)}
            assert (len(compiled) > 1) == (len(seen) > 1), (index, player)


def _cell_shares(worlds, n):
    """Share of worlds with each card in each seat's hand (seat n: the stock)."""
    counts = np.zeros((n + 1, K.MAX_CARDS))
    for hands, stock in worlds:
        for seat, mask in enumerate(list(hands) + [stock]):
            for card in range(K.MAX_CARDS):
                counts[seat, card] += mask >> card & 1
    return counts / len(worlds)


def _distribution_positions():
    """A first decision of a single game (where the first-attacker rule bites), a
    mid-game with cards taken and thrown, and a 4-player game."""
    picks = []
    for game_string, seed, pick in [("durak", 3, "first"), ("durak(players=3)", 5, 40),
                                    ("durak(players=4,ranks=6)", 2, 25)]:
        game, positions = _positions(game_string, [seed], every=1)
        if pick == "first":
            core = next(c for c in positions if c.phase == ATTACK and c.moves == 0)
        else:
            core = positions[pick]
        picks.append((game, core))
    return picks


@pytest.mark.parametrize("case", range(3))
def test_worlds_match_the_python_determinizer_distribution(case):
    game, core = _distribution_positions()[case]
    n = game.num_players()
    r = K.rules_arrays(game.rules)
    draws = 3000
    rng = random.Random(case)
    for player in range(n):
        python = Determinizer(core, player)
        py = _cell_shares([(w.hands, w.stock) for w in (python.sample(rng)
                                                         for _ in range(draws))], n)
        worlds = _worlds(core, player, r, draws, 100 + case)
        kernel = _cell_shares([(w[K.HANDS:K.HANDS + n].tolist(), int(w[K.STOCK]))
                               for w in worlds], n)
        p = (py + kernel) / 2
        tolerance = 4 * np.sqrt(p * (1 - p) * 2 / draws) + 1e-9
        assert (np.abs(py - kernel) <= tolerance).all(), (player, np.argwhere(
            np.abs(py - kernel) > tolerance))


def test_the_first_attacker_rule_changes_the_worlds():
    """Without the rule the opponent would often hold a lower trump than the leader: the
    rule is what keeps such worlds out."""
    game, core = _distribution_positions()[0]
    r = K.rules_arrays(game.rules)
    template, prob, extra = W.problem(core, 0)
    assert extra[W.X_CHECK_FIRST]
    loose = extra.copy()
    loose[W.X_CHECK_FIRST] = 0
    x = np.uint64(K.seed_state(1))
    world = np.empty_like(template)
    wrong = 0
    for _ in range(400):
        x, ok = W.determinize(template, r, prob, loose, world, np.uint64(x))
        wrong += K.first_attacker(world, r) != core.attacker
    assert wrong > 0
    for _ in range(400):
        x, ok = W.determinize(template, r, prob, extra, world, np.uint64(x))
        assert K.first_attacker(world, r) == core.attacker


def _dealt_first_attacker(core):
    hands = [0] * core.rules.num_players
    for kind, seat, card in core.events:
        if kind == EV_DEAL:
            hands[seat] |= 1 << card
    return first_attacker(core, hands)


def _twin(core, seat, a, other, b):
    """`core` with hidden card `a` of `seat` and hidden card `b` of `other` (-1: the stock)
    swapped, in the hands, the stock and the events that dealt them."""
    twin = core.copy()
    bits = 1 << a | 1 << b
    twin.set_hand(seat, core.hands[seat] ^ bits)
    if other < 0:
        twin.set_stock(core.stock ^ bits)
    else:
        twin.set_hand(other, core.hands[other] ^ bits)
    swap = {(seat, a): b, (other, b): a}
    twin.events = [(kind, s, swap.get((s, c), c)) if kind in (EV_DEAL, EV_DRAW) else (kind, s, c)
                   for kind, s, c in core.events]
    return twin


def _consistent(core, twin):
    """The twin leads the same first bout (else the viewer could tell them apart)."""
    if core.rules.previous_fool >= 0 or core.trump_card < 0:
        return True
    return _dealt_first_attacker(twin) == _dealt_first_attacker(core)


def _twins(core, player, rng):
    """Positions that differ from `core` only in cards `player` has not seen."""
    n = core.rules.num_players
    trump = 1 << core.trump_card if core.trump_card >= 0 else 0
    out = []
    for seat in range(n):
        if seat == player:
            continue
        mine = [c for c in range(52) if (core.hands[seat] & ~core.known[seat]) >> c & 1]
        if not mine:
            continue
        places = [(-1, core.stock & ~trump)] + [
            (o, core.hands[o] & ~core.known[o]) for o in range(n) if o not in (seat, player)]
        for other, mask in places:
            theirs = [c for c in range(52) if mask >> c & 1]
            if theirs:
                twin = _twin(core, seat, rng.choice(mine), other, rng.choice(theirs))
                if _consistent(core, twin):
                    out.append(twin)
    return out


@pytest.mark.parametrize("game_string", RULE_SETS)
def test_worlds_never_see_the_cards_the_viewer_has_not_seen(game_string):
    game, positions = _positions(game_string, range(3), every=5)
    r = K.rules_arrays(game.rules)
    rng = random.Random(7)
    checked = 0
    for index, core in enumerate(positions):
        for player in range(game.num_players()):
            for twin in _twins(core, player, rng):
                assert not np.array_equal(K.from_engine(twin), K.from_engine(core))
                for seed in range(3):
                    mine = _worlds(core, player, r, 2, seed)
                    theirs = _worlds(twin, player, r, 2, seed)
                    for a, b in zip(mine, theirs):
                        assert np.array_equal(a, b), (index, player)
                checked += 1
    assert checked > 20
