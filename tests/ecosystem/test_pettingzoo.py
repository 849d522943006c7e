"""koloda's games as PettingZoo environments, through shimmy's OpenSpiel wrapper.

shimmy reloads the game on every `reset` from its short name and `config`, so the
environment is built from `game_name` and `config` (the game's parameters as a dict): a game
object passed as `env` is reloaded by its name alone and loses its parameters.  At the end
of a game shimmy's `last()` adds each agent's final reward once more for every agent that
left before it, so the returns are read from `env.rewards`, the rewards of the last step.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from koloda import games  # registers the games with pyspiel before shimmy loads them

LATE_PARKET = ("--AdTcJsAc6cQc/7c6sKhQdKcTsJh/KdAhKsJd8d9sQh/QsAs6d9hThTdJc/"
               "--8h7s8c7d9d8s r m 0")

# (game_name, config, the same game as a koloda game string)
GAMES = [
    ("durak", None, "durak"),
    ("durak", {"players": 3}, "durak(players=3)"),
    ("platinum_fish", None, "platinum_fish"),
    ("platinum_fish", {"players": 3, "ranks": 5}, "platinum_fish(players=3,ranks=5)"),
    ("snitch", None, "snitch"),
    ("snitch", {"players": 4, "target_score": 0}, "snitch(players=4,target_score=0)"),
    ("parket", None, "parket"),
    ("parket", {"position": LATE_PARKET}, f'parket(position="{LATE_PARKET}")'),
]
IDS = [string for _, _, string in GAMES]


def play(env, seed: int):
    """One whole game of random legal moves through the AEC loop: (each agent's rewards
    added up over the steps, the same as `last()` reports them, the agents' own
    (agent, action) moves in order)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    reported = dict.fromkeys(env.possible_agents, 0.0)
    moves = []
    for agent in env.agent_iter():
        _, reward, termination, truncation, info = env.last()
        reported[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        moves.append((agent, action))
        env.step(action)
        for other in env.agents:
            totals[other] += env.rewards[other]
    return totals, reported, moves


@pytest.mark.filterwarnings("ignore:Agent's m:UserWarning")     # shimmy's unbounded Box
@pytest.mark.parametrize("name, config, string", GAMES, ids=IDS)
def test_the_environment_passes_pettingzoos_api_test(name, config, string):
    env = OpenSpielCompatibilityV0(game_name=name, config=config)
    game = games.load_game(string)
    assert len(env.possible_agents) == game.num_players()
    api_test(env, num_cycles=200)
    shape = tuple(game.observation_tensor_shape())
    assert all(env.observation_space(a).shape == shape for a in env.possible_agents)


@pytest.mark.parametrize("name, config, string", GAMES, ids=IDS)
def test_whole_games_reward_what_koloda_returns_for_the_same_actions(name, config, string):
    env = OpenSpielCompatibilityV0(game_name=name, config=config)
    for seed in range(3):
        totals, _, moves = play(env, seed)
        history = env.game_state.history()
        assert env.game_state.is_terminal()            # played to the end, not truncated
        assert sum(totals.values()) == pytest.approx(0.0)

        state = games.load_game(string).new_initial_state()
        own = iter(moves)
        for action in history:
            if state.is_chance_node():
                assert action in [a for a, _ in state.chance_outcomes()]
            else:
                assert next(own) == (f"player_{state.current_player()}", action)
            state.apply_action(action)
        assert next(own, None) is None and state.is_terminal()
        assert list(totals.values()) == pytest.approx(state.returns())


def test_a_seed_deals_the_same_game():
    env = OpenSpielCompatibilityV0(game_name="durak", config={"players": 3})
    first = (play(env, 7), env.game_state.history())
    again = (play(env, 7), env.game_state.history())
    other = (play(env, 8), env.game_state.history())
    assert first == again and first[1] != other[1]


def test_last_reports_the_final_reward_again_for_each_agent_that_left_before():
    """Pins the upstream behaviour docs/api.md warns of: read the returns from env.rewards."""
    env = OpenSpielCompatibilityV0(game_name="durak", config={"players": 3})
    for seed in range(3):
        totals, reported, _ = play(env, seed)
        returns = env.game_state.returns()
        assert list(totals.values()) == pytest.approx(returns)
        assert [reported[f"player_{p}"] for p in range(3)] == pytest.approx(
            [(p + 1) * returns[p] for p in range(3)])


def test_a_game_object_loses_its_parameters_on_reset():
    """Pins the upstream behaviour docs/api.md warns of: pass game_name and config."""
    env = OpenSpielCompatibilityV0(env=games.load_game("durak(ranks=5,suits=1,hand_size=2)"))
    small = env.observation_space("player_0").shape
    env.reset(seed=1)
    assert env.observation_space("player_0").shape != small
    assert env.observation_space("player_0").shape == tuple(
        games.load_game("durak").observation_tensor_shape())


def test_the_docs_example_runs(capsys):
    api = Path(__file__).resolve().parents[2] / "docs" / "api.md"
    block = re.search(r"### PettingZoo through shimmy\n\n(?:[^ \n].*\n)*\n((?:    .*\n|\n)+)",
                      api.read_text())
    assert block, "docs/api.md lost its shimmy example"
    code = "\n".join(line[4:] for line in block.group(1).splitlines())
    exec(compile(code, "docs/api.md", "exec"), {})
    lines = capsys.readouterr().out.split("\n")[:-1]
    assert [line.split()[0] for line in lines] == ["player_0", "player_1", "player_2"]
    assert sum(float(line.split()[1]) for line in lines) == pytest.approx(0.0)
