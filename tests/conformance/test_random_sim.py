"""OpenSpiel's own consistency checks (`pyspiel.random_sim_test`) on every game."""

import pytest
import pyspiel

from .games_under_test import GAMES
from .random_play import load

NUM_SIMS = 6


@pytest.mark.parametrize("case", GAMES, ids=str)
def test_openspiel_random_sim_test_passes(case):
    pyspiel.random_sim_test(load(case.game_string), num_sims=NUM_SIMS, serialize=True,
                            verbose=False)
