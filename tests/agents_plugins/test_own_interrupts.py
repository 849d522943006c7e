"""A KeyboardInterrupt an agent raises itself loses its game; a person's Ctrl-C (SIGINT
arriving while the agent moves) stops the games run in this process (jobs = 1), as
solvers/interrupts.py tells them apart."""

import os
import signal
import time

import pytest

from koloda import games
from koloda.solvers import Agent
from koloda.solvers.interrupts import signals_noted
from koloda.solvers.random_agent import RandomAgent
from koloda.tournament.match import play_game

TINY = "durak(ranks=4,suits=2,hand_size=3)"


class Interrupts(Agent):
    def choose(self, view, player):
        raise KeyboardInterrupt


class CtrlC(Agent):
    """A person presses Ctrl-C while this agent thinks."""
    def choose(self, view, player):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)                 # the signal's KeyboardInterrupt ends this at once
        return view.legal_actions(player)[0]


@pytest.fixture(scope="module")
def game():
    return games.load_game(TINY)


def test_an_agents_own_keyboardinterrupt_loses_its_game(game):
    with signals_noted():
        record = play_game(game, [Interrupts(game), RandomAgent(game)], seed=1)
    assert record.error["reason"] == "crashed" and record.error["seat"] == 0
    assert record.error["message"].startswith("KeyboardInterrupt")


def test_ctrl_c_while_an_agent_moves_stops_the_game(game):
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), signals_noted():
        play_game(game, [CtrlC(game), RandomAgent(game)], seed=1)
    assert time.monotonic() - started < 5


def test_outside_signals_noted_a_keyboardinterrupt_is_taken_for_a_persons(game):
    with pytest.raises(KeyboardInterrupt):
        play_game(game, [Interrupts(game), RandomAgent(game)], seed=1)
