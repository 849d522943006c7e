"""OpenSpiel's own algorithms on koloda's games, called as an outside user calls them.

After `from koloda import games` the games load by string in pyspiel, and OpenSpiel's
Python algorithms run on them unchanged.  tests/cfr covers koloda's training route (the C++
solvers on a C++ copy of the tree); these take the plain one, and check the limits that
docs/api.md names.
"""

import resource
import subprocess
import sys
import textwrap

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import (
    cfr,
    evaluate_bots,
    exploitability,
    external_sampling_mccfr,
    ismcts,
    mcts,
)

from koloda import games  # registers the games with pyspiel
from koloda.solvers.cfr.exploitability import exploitability as koloda_exploitability
from koloda.solvers.cfr.training import train
from koloda.solvers.parket import solve

OPEN = "durak(hand_size=2,ranks=5,suits=1)"        # durak-open, 22,766 histories
HIDDEN = "durak(hand_size=2,ranks=3,suits=2)"      # durak-mini: a hand hidden
THREE = "durak(hand_size=1,players=3,ranks=2,suits=2)"   # 809 histories, three players
# Python CFR's tabular policy keeps the information-state tensor of every information state
# (docs/api.md, "Limits upstream"), so its memory grows with the tree times the tensor; this
# tree has 405 histories, a hidden card and a trump.
TINY = "durak(hand_size=1,ranks=2,suits=2)"
# Red to move wins in three plies, with `move Kd a1` only (koloda's exact solver).
LATE_PARKET = ("--AdTcJsAc6cQc/7c6sKhQdKcTsJh/KdAhKsJd8d9sQh/QsAs6d9hThTdJc/"
               "--8h7s8c7d9d8s r m 0")


def test_rl_environment_steps_durak_with_the_information_state_tensor():
    env = rl_environment.Environment(
        OPEN, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    game = env.game
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    rng = np.random.default_rng(3)
    for _ in range(5):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            state = env.get_state
            seen = step.observations["info_state"][player]
            assert seen == state.information_state_tensor(player)
            assert step.observations["legal_actions"][player] == state.legal_actions(player)
            step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        assert step.rewards == env.get_state.returns() and sum(step.rewards) == 0


def test_mcts_bot_finds_the_only_winning_move_of_a_late_parket_position():
    # pyspiel's game strings take the position unquoted (a quote would be kept in the value)
    game = pyspiel.load_game(f"parket(position={LATE_PARKET})")
    state = game.new_initial_state()
    wins = [m.move for m in solve(LATE_PARKET).moves if m.value == "win"]
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2.0, 300, mcts.RandomRolloutEvaluator(1, rng), solve=True,
                         random_state=rng) for _ in range(2)]
    assert [state.action_to_string(0, bots[0].step(state))] == wins == ["move Kd a1"]
    assert evaluate_bots.evaluate_bots(state, bots, rng) == [1.0, -1.0]


def test_python_ismcts_plays_a_durak_miniature_reproducibly_with_a_seeded_resampler():
    """ISMCTSBot resamples with an unseeded sampler of its own; `set_resampler` hands it
    koloda's `resample_from_infostate` with a seeded one, so the same seed plays the same
    games."""
    game = games.load_game(HIDDEN)

    def games_played():
        played = []
        for seed in range(4):
            rng = np.random.RandomState(seed)
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.0, 100,
                                   random_state=rng)
            bot.set_resampler(lambda state, player, rng=rng: state.resample_from_infostate(
                player, rng.uniform))
            state, seat = game.new_initial_state(), seed % 2
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choice(outcomes, p=probs))
                elif state.current_player() == seat:
                    action = bot.step(state)
                    assert action in state.legal_actions()
                    state.apply_action(action)
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            played.append((state.history(), state.returns()[seat]))
        return played
    first = games_played()
    assert games_played() == first
    assert sum(score for _, score in first) > 0            # ahead of random play


def test_evaluate_bots_cannot_run_ismcts():
    """Pins the upstream limit docs/api.md names: ISMCTSBot has no `restart_at`."""
    game = games.load_game(HIDDEN)
    rng = np.random.RandomState(0)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.0, 10,
                             random_state=rng) for _ in range(2)]
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)


def test_python_cfr_and_exploitability_agree_with_koloda_cfr_train():
    game = pyspiel.load_game(TINY)
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    value = exploitability.exploitability(game, solver.average_policy())
    assert value == pytest.approx(train(game, "cfr", iterations=3, measurements=1)
                                  .exploitability, abs=1e-9)
    assert value < 0.5 * koloda_exploitability(game, {})     # uniform play


def test_nash_conv_and_mccfr_on_a_three_player_miniature():
    """Python `exploitability` is two-player only; `nash_conv` is not, and koloda's
    exploitability of n players is NashConv / n."""
    game = games.load_game(THREE)
    uniform = os_policy.UniformRandomPolicy(game)
    with pytest.raises(ValueError, match="2-player"):
        exploitability.exploitability(game, uniform)
    at_uniform = exploitability.nash_conv(game, uniform)
    assert at_uniform == pytest.approx(3 * koloda_exploitability(game, {}), abs=1e-9)

    solver = cfr.CFRSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < 0.2 * at_uniform
    sampled = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(100):
        sampled.iteration()
    assert exploitability.nash_conv(game, sampled.average_policy()) < 0.5 * at_uniform


@pytest.mark.parametrize("bot", ["MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 1.0, "
                                 "20, 100, False, 1, False)",
                                 "ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 1.0, 20, "
                                 "10, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, "
                                 "False, False)"], ids=["MCTSBot", "ISMCTSBot"])
def test_openspiels_cpp_bots_cannot_search_a_python_game(bot):
    """Pins the upstream limit docs/api.md names: the C++ bots' `step` lets go of Python's
    lock and then calls back into the Python game, which kills the process (open_spiel
    2.0.2).  Run in a child process for that reason."""
    script = textwrap.dedent(f"""
        from koloda import games
        import pyspiel
        game = games.load_game("{HIDDEN}")
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        bot = pyspiel.{bot}
        print("searching", flush=True)
        print("searched", bot.step(state))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: resource.setrlimit(
                              resource.RLIMIT_CORE, (0, 0)))
    assert done.stdout == "searching\n", done.stderr[-2000:]
    assert done.returncode < 0                                # killed by a signal
