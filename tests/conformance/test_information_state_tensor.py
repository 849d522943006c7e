"""Information-state tensors are perfect recall: for one player, two states have equal
tensors exactly when their information-state strings are equal; every tensor has the
size the game declares; and OpenSpiel's two ways to ask for it agree
(`state.information_state_tensor(player)`, through C++, and an observation made for
perfect recall, `make_observation(game, IIGObservationType(perfect_recall=True))`).

On the games whose whole tree is small (`tree` in games_under_test.py) every history is
visited, for every player at decision, chance and terminal nodes.  On the others: the
states of a random game (all different information states, so all different tensors) and
twins of it that a player cannot tell apart (so equal tensors).
"""

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from koloda.games.kit import tensors

from .games_under_test import GAMES, TREE_GAMES
from .random_play import load, random_history, spread, states_along
from .trees import every_state, twin_pairs

PERFECT_RECALL = pyspiel.IIGObservationType(perfect_recall=True)
PUBLIC_RECALL = pyspiel.IIGObservationType(perfect_recall=True,
                                           private_info=pyspiel.PrivateInfoType.NONE)
ALL_RECALL = pyspiel.IIGObservationType(perfect_recall=True,
                                        private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
VIEWS = {"own": PERFECT_RECALL, "public": PUBLIC_RECALL, "all": ALL_RECALL}
THROUGH_CPP_EVERY = 23     # a tree walk asks C++ too at every 23rd state (it copies lists)

OTHER_GAMES = [case for case in GAMES if not case.tree]
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def tensor_key(tensor: np.ndarray) -> bytes:
    """The tensor exactly, compactly: up to its last nonzero entry (the rows of events
    not yet logged are zeros, and every tensor of a game has the same size)."""
    nonzero = tensor != 0
    end = tensor.size - int(np.argmax(nonzero[::-1])) if nonzero.any() else 0
    return tensor[:end].tobytes()


class OneToOne:
    """(player, string, tensor) triples seen so far; fails at a string with two tensors or
    a tensor with two strings."""

    def __init__(self):
        self.tensor_of, self.string_of = {}, {}

    def add(self, player: int, string: str, tensor: np.ndarray) -> None:
        key = tensor_key(tensor)
        assert self.tensor_of.setdefault((player, string), key) == key, (
            f"p{player}: one information state, two tensors: {string}")
        other = self.string_of.setdefault((player, key), string)
        assert other == string, (
            f"p{player}: one tensor, two information states:\n{other}\n{string}")


def cpp_tensor(state, player: int) -> np.ndarray:
    return np.asarray(state.information_state_tensor(player), np.float32)


@pytest.mark.slow
@pytest.mark.parametrize("case", TREE_GAMES, ids=str)
def test_every_information_state_has_its_own_tensor(case):
    game = load(case.game_string)
    observation = make_observation(game, PERFECT_RECALL)
    size = game.information_state_tensor_size()
    assert observation.tensor.size == size
    pairs = OneToOne()
    for index, state in enumerate(every_state(game)):
        for player in range(game.num_players()):
            string = state.information_state_string(player)
            observation.set_from(state, player)
            pairs.add(player, string, observation.tensor)
            if index % THROUGH_CPP_EVERY == 0:
                assert observation.string_from(state, player) == string
                assert np.array_equal(cpp_tensor(state, player), observation.tensor)


@pytest.mark.parametrize("case", [c for c in TREE_GAMES if not c.perfect_information],
                         ids=str)
def test_the_public_perfect_recall_view_is_one_to_one_with_its_strings(case):
    """Seeing no private card: the string and the tensor still go together, and the
    tensor keeps its size."""
    game = load(case.game_string)
    observation = make_observation(game, PUBLIC_RECALL)
    size = observation.tensor.size
    pairs = OneToOne()
    for state in every_state(game):
        for player in range(game.num_players()):
            observation.set_from(state, player)
            assert observation.tensor.size == size
            pairs.add(player, observation.string_from(state, player), observation.tensor)


@pytest.mark.parametrize("case", [c for c in GAMES if not c.perfect_information], ids=str)
def test_every_perfect_recall_view_has_a_fixed_size(case):
    """The player's own cards, none or all: one size at every state of a random game."""
    game = load(case.game_string)
    views = [make_observation(game, view) for view in VIEWS.values()]
    sizes = [view.tensor.size for view in views]
    for state in spread(list(states_along(game, random_history(case.game_string, 42))), 8):
        for player in range(game.num_players()):
            for view, size in zip(views, sizes):
                view.set_from(state, player)
                assert view.tensor.size == size
                assert view.string_from(state, player).startswith(f"p{player}: ")


@pytest.mark.parametrize("case", OTHER_GAMES, ids=str)
def test_a_random_game_and_its_twins_have_the_tensors_of_their_strings(case):
    game = load(case.game_string)
    observation = make_observation(game, PERFECT_RECALL)
    size = game.information_state_tensor_size()
    history = random_history(case.game_string, seed=40)
    pairs = OneToOne()
    for state in spread(list(states_along(game, history)), 30):
        for player in range(game.num_players()):
            tensor = cpp_tensor(state, player)
            assert tensor.size == size
            observation.set_from(state, player)
            assert np.array_equal(tensor, observation.tensor)
            pairs.add(player, state.information_state_string(player), tensor)
    rng = random.Random(41)
    for player in range(game.num_players()):
        for state, twin in spread(list(twin_pairs(game, history, player, rng)), 15):
            for world in (state, twin):
                observation.set_from(world, player)
                pairs.add(player, world.information_state_string(player), observation.tensor)


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_the_game_type_promises_the_tensor(case):
    assert load(case.game_string).get_type().provides_information_state_tensor


DOCUMENTED_SIZES = {    # as docs/rules/<game>.md gives them
    "durak()": 2_040,
    "durak(hand_size=2,ranks=5,suits=1)": 2_009,
    "platinum_fish()": 6_023,
    "platinum_fish(copies=2,max_hand=2,max_turns=2,min_hand=2,ranks=3)": 884,
    "snitch": 24_553,
    "snitch(target_score=0)": 494,
    "snitch(copies=2,hand_size=2,ranks=2,target_score=0)": 738,
    "parket": 4_656,
}


@pytest.mark.parametrize("game_string", DOCUMENTED_SIZES)
def test_the_rules_give_the_size(game_string):
    size = load(game_string).information_state_tensor_size()
    assert size == DOCUMENTED_SIZES[game_string]
    name = game_string.split("(", 1)[0]
    text = " ".join((RULES / f"{name}.md").read_text(encoding="utf-8").split())
    assert f"{size:,} floats" in text


@pytest.mark.parametrize("encoding, limit", [("event_codes", 0), ("events", 10**9)])
@pytest.mark.parametrize("case", TREE_GAMES, ids=str)
def test_both_encodings_are_one_to_one(case, encoding, limit, monkeypatch):
    """Each encoding walked on every small tree, whichever the game's parameters give it,
    by moving the one-hot limit: again one tensor per information state."""
    game = load(case.game_string)
    monkeypatch.setattr(tensors, "ONE_HOT_LIMIT", limit)
    observation = make_observation(game, PERFECT_RECALL)
    assert encoding in observation.dict
    pairs = OneToOne()
    for state in every_state(game):
        if state.is_player_node():
            player = state.current_player()
            observation.set_from(state, player)
            pairs.add(player, state.information_state_string(player), observation.tensor)
