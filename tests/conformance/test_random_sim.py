"""OpenSpiel's own consistency checks (`pyspiel.random_sim_test`) on every game."""

import pyspiel
import pytest

from koloda import games

from .games_under_test import GAMES, GameCase, _every_registered_game
from .random_play import load

NUM_SIMS = 6


@pytest.mark.slow
@pytest.mark.parametrize("case", GAMES, ids=str)
def test_openspiel_random_sim_test_passes(case):
    pyspiel.random_sim_test(load(case.game_string), num_sims=NUM_SIMS, serialize=True,
                            verbose=False)


def test_every_registered_game_is_under_test_even_when_no_line_names_it():
    assert {case.short_name for case in GAMES} == set(games.GAMES)
    only_durak = _every_registered_game([GameCase("durak(players=3)")])
    assert [str(case) for case in only_durak] == ["durak(players=3)", *sorted(
        name for name in games.GAMES if name != "durak")]
    assert [case.perfect_information for case in only_durak if case.short_name == "parket"] \
        == [True]
