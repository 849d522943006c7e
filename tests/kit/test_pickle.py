"""Games and states survive pickle, copy and deepcopy, and reach worker processes (spawn
and loky): same parameters, and the same seeded game played to the same end."""

import copy
import multiprocessing
import pickle
import random

import joblib
import pytest

from koloda import games

POSITION = ("------Tc------/------9c------/--KhAh--Ad6d--/------Js------/------Ts------ b m 0")

GAME_STRINGS = [
    "durak",
    "durak(players=3)",
    "durak(players=4,ranks=13)",
    "durak(players=6,ranks=13)",
    "durak(ranks=4,suits=2,hand_size=3)",
    "durak(players=4,previous_fool=2,lead=from_under)",
    "durak(players=3,max_moves=30)",
    "platinum_fish",
    "platinum_fish(players=4)",
    "platinum_fish(ranks=6,copies=3)",
    "platinum_fish(ranks=3,copies=2,min_hand=2,max_hand=2,max_turns=2)",
    "snitch",
    "snitch(target_score=0)",
    "snitch(players=5,target_score=0)",
    "snitch(target_score=300,max_deals=2)",
    "parket",
    "parket(first_color=black,corner_order=any)",
    "parket(corner_order=any,max_relocations=1)",
    f'parket(position="{POSITION}")',
    f'parket(first_color=black,position="{POSITION}")',
]

COPIES = {
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
    "pickle_protocol_2": lambda obj: pickle.loads(pickle.dumps(obj, protocol=2)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


def random_action(state, rng):
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        return rng.choices(outcomes, weights=probabilities)[0]
    return rng.choice(state.legal_actions())


def play_on(state, rng):
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    return state


def play_seeded(game, seed):
    """One seeded random game from the start: (history, returns).  Module level, so worker
    processes can be sent it."""
    state = play_on(game.new_initial_state(), random.Random(seed))
    return state.history(), state.returns()


def play_seeded_pair(args):
    return play_seeded(*args)


def states_of(game, seed, count=6):
    """`count` states spread over one seeded random game, its start and end included."""
    history, _ = play_seeded(game, seed)
    marks = {round(i * len(history) / (count - 1)) for i in range(count)}
    state = game.new_initial_state()
    found = [state.clone()] if 0 in marks else []
    for step, action in enumerate(history, 1):
        state.apply_action(action)
        if step in marks:
            found.append(state.clone())
    return found


def describe(state):
    players = range(state.get_game().num_players())
    return (str(state), state.history(), state.current_player(), state.is_terminal(),
            state.legal_actions(), state.returns(),
            [state.information_state_string(p) for p in players],
            [state.observation_string(p) for p in players])


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_a_copied_game_keeps_its_parameters_and_plays_the_same(game_string, how):
    game = games.load_game(game_string)
    twin = COPIES[how](game)
    assert type(twin) is type(game)
    assert str(twin) == str(game) and twin.get_parameters() == game.get_parameters()
    assert twin == game
    assert twin.num_distinct_actions() == game.num_distinct_actions()
    assert twin.max_game_length() == game.max_game_length()
    for seed in (1, 2):
        assert play_seeded(twin, seed) == play_seeded(game, seed)


@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_a_game_copied_twice_is_still_the_game(game_string):
    game = games.load_game(game_string)
    twin = copy.deepcopy(pickle.loads(pickle.dumps(copy.copy(game))))
    assert str(twin) == str(game) and play_seeded(twin, 3) == play_seeded(game, 3)


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_a_copied_state_is_the_state_and_plays_on_the_same(game_string, how):
    game = games.load_game(game_string)
    for state in states_of(game, seed=4):
        twin = COPIES[how](state)
        assert type(twin) is type(state)
        assert str(twin.get_game()) == str(game)
        assert describe(twin) == describe(state)
        assert (describe(play_on(twin, random.Random(5)))
                == describe(play_on(state.clone(), random.Random(5))))


def test_a_state_of_a_copied_game_is_a_state_of_the_game():
    game = games.load_game("durak(players=3)")
    state = pickle.loads(pickle.dumps(game)).new_initial_state()
    play_on(state, random.Random(6))
    assert state.history() == play_seeded(game, 6)[0]


def test_an_agent_holding_a_game_deep_copies():
    from koloda import solvers
    game = games.load_game("durak")
    agent = solvers.load_agent(game, "random", seed=3)
    twin = copy.deepcopy(agent.game)
    assert str(twin) == str(game) and play_seeded(twin, 7) == play_seeded(game, 7)


def test_a_spawned_worker_pool_plays_a_game_it_was_sent():
    game = games.load_game("durak(players=3,ranks=3,suits=2,hand_size=2,max_attack_cards=2)")
    jobs = [(game, seed) for seed in (1, 2)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        played = pool.map(play_seeded_pair, jobs)
    assert played == [play_seeded(game, seed) for seed in (1, 2)]


def test_loky_workers_play_a_game_they_were_sent():
    game = games.load_game(f'parket(position="{POSITION}")')
    played = joblib.Parallel(n_jobs=2, backend="loky")(
        joblib.delayed(play_seeded)(game, seed) for seed in (1, 2))
    assert played == [play_seeded(game, seed) for seed in (1, 2)]
