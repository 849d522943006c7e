"""`level(n)` and `level(elo)`: every level plays legally in every game, elo picks the
nearest measured level, a stale measurement is not used, and the temperature chooses among
the searched moves in proportion to visits^(1/t)."""

import collections
import json
import random
import re
from pathlib import Path

import pytest

from koloda import games, solvers
from koloda.games.kit.random_play import midgame_states
from koloda.solvers import levels
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.search.move_choice import chosen_move

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_name", list(levels.LEVELS))
def test_every_level_loads_and_plays_legally(game_name):
    game = games.load_game(levels.LADDER_GAMES[game_name])
    states = midgame_states(game, 2, seed=7, min_history=12, chance=0.2)
    assert len(levels.LEVELS[game_name]) == levels.COUNT
    for n in range(1, levels.COUNT + 1):
        agent = solvers.load_agent(game, f"level(n={n})", seed=n)
        assert agent.spec == f"level(n={n})"
        assert agent.inner.spec == levels.LEVELS[game_name][n - 1]
        for state in states:
            player = state.current_player()
            assert agent.step(state) in state.legal_actions(player)


def test_the_levels_specs_are_canonical():
    """As the registry writes them back, so a ladder's agents and the table compare."""
    for specs in levels.LEVELS.values():
        for spec in specs:
            assert solvers.format_spec(*solvers.parse_spec(spec)) == spec


def test_a_level_plays_its_spec_move_for_move():
    game = games.load_game("durak")
    states = midgame_states(game, 4, seed=3, min_history=10, chance=0.2)
    level = solvers.load_agent(game, "level(n=3)", seed=9)
    spec = solvers.load_agent(game, levels.LEVELS["durak"][2], seed=9)
    assert [level.step(s) for s in states] == [spec.step(s) for s in states]
    assert level.last_visits == spec.last_visits


def _calibrated(monkeypatch, tmp_path, elos, game_name="durak", specs=None, ladder=None):
    specs = specs or levels.LEVELS[game_name]
    rows = [{"n": n, "spec": spec, "elo": elo, "low": elo - 40, "high": elo + 40,
             "ms_per_move": 1.0 * n} for n, (spec, elo) in enumerate(zip(specs, elos), 1)]
    entry = {"game": ladder or levels.LADDER_GAMES[game_name], "levels": rows}
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({game_name: entry}))
    monkeypatch.setattr(levels, "CALIBRATION", path)
    levels._calibration.cache_clear()
    return path


@pytest.fixture(autouse=True)
def _fresh_calibration():
    levels._calibration.cache_clear()
    yield
    levels._calibration.cache_clear()


def test_elo_picks_the_nearest_measured_level(monkeypatch, tmp_path):
    _calibrated(monkeypatch, tmp_path, [-400, -250, -100, 0, 100, 200, 300, 400])
    game = games.load_game("durak")
    for target, n in [(-1000, 1), (1, 4), (-330, 1), (-320, 2), (-175, 2), (-174, 3), (40, 4),
                      (60, 5), (149, 5), (151, 6), (5000, 8)]:
        assert levels.nearest_level("durak", target).n == n, target
        assert solvers.load_agent(game, f"level(elo={target})").level.n == n
    assert solvers.load_agent(game, "level").level.n == levels.MIDDLE
    with pytest.raises(AgentSpecError, match="not both"):
        solvers.load_agent(game, "level(n=2,elo=100)")


def test_a_measurement_of_another_spec_is_not_used(monkeypatch, tmp_path):
    specs = list(levels.LEVELS["durak"])
    specs[7] = "ismcts(sims=123)"                # level 8 measured as something else
    _calibrated(monkeypatch, tmp_path, [-400, -250, -100, 0, 100, 200, 300, 400], specs=specs)
    table = levels.levels_of("durak")
    assert table[7].elo is None and table[6].elo == 300
    assert levels.nearest_level("durak", 5000).n == 7


def test_a_measurement_on_another_ladder_game_is_not_used(monkeypatch, tmp_path):
    """Snitch's levels were first measured on matches to 300; its ladder now plays whole
    matches to 1000, where the same spec stands elsewhere on the scale."""
    elos = [-300, -200, -100, 0, 20, 40, 60, 80]
    _calibrated(monkeypatch, tmp_path, elos, "snitch", ladder="snitch(target_score=300)")
    assert [level.elo for level in levels.levels_of("snitch")] == [None] * 8
    with pytest.raises(AgentSpecError, match="no measured Elo yet"):
        levels.nearest_level("snitch", 50)
    _calibrated(monkeypatch, tmp_path, elos, "snitch")
    assert [level.elo for level in levels.levels_of("snitch")] == elos


def test_elo_before_any_measurement_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(levels, "CALIBRATION", tmp_path / "none.json")
    game = games.load_game("parket")
    with pytest.raises(AgentSpecError, match="no measured Elo yet; choose one by n=1..8"):
        solvers.check_spec(game, "level(elo=1500)")
    solvers.check_spec(game, "level(n=8)")
    with pytest.raises(AgentSpecError, match="n"):
        solvers.check_spec(game, "level(n=9)")


def test_the_docs_list_the_levels_specs():
    """docs/levels.md's table per game is LEVELS, level for level."""
    text = (ROOT / "docs" / "levels.md").read_text()
    for game_name, specs in levels.LEVELS.items():
        section = text.split(f"### {game_name}\n", 1)[1].split("###", 1)[0]
        listed = re.findall(r"^\| (\d) \| `([^`]+)` \|", section, re.MULTILINE)
        assert listed == [(str(n), spec) for n, spec in enumerate(specs, 1)], game_name


def test_the_shipped_calibration_measured_todays_specs_or_says_nothing():
    """levels.json (package data) holds only rows of specs the levels still have, measured
    on the game their ladder plays."""
    if not levels.CALIBRATION.exists():
        return
    for game_name, entry in json.loads(levels.CALIBRATION.read_text()).items():
        assert entry["game"] == levels.LADDER_GAMES[game_name], game_name
        for row in entry["levels"]:
            assert row["spec"] == levels.LEVELS[game_name][row["n"] - 1], (game_name, row)


# --- the temperature -------------------------------------------------------------------

def test_temperature_zero_plays_the_most_visited_and_reads_no_randomness():
    rng = random.Random(1)
    state = rng.getstate()
    assert chosen_move({4: 10, 2: 30, 7: 30, 9: 0}, 0.0, rng) == 2     # ties: lowest id
    assert rng.getstate() == state


@pytest.mark.parametrize("temperature", [0.5, 1.0, 2.0])
def test_temperature_draws_in_proportion_to_visits_to_the_one_over_t(temperature):
    visits = {3: 60, 5: 30, 8: 10, 11: 0}
    rng = random.Random(5)
    draws = 20000
    counts = collections.Counter(chosen_move(visits, temperature, rng) for _ in range(draws))
    weights = {a: v ** (1 / temperature) for a, v in visits.items()}
    total = sum(weights.values())
    assert counts[11] == 0                       # never a move the search did not visit
    for action, weight in weights.items():
        share = weight / total
        spread = 4 * (share * (1 - share) / draws) ** 0.5
        assert abs(counts[action] / draws - share) <= spread + 1e-9, (action, counts)


def test_a_search_with_temperature_plays_only_moves_it_visited():
    game, states = games.load_game("durak"), None
    states = midgame_states(game, 6, seed=5, min_history=10, chance=0.2)
    agent = solvers.load_agent(game, "ismcts(sims=40,temperature=2.0)", seed=4)
    greedy = solvers.load_agent(game, "ismcts(sims=40)", seed=4)
    differed = 0
    for state in states * 5:
        action = agent.step(state)
        assert agent.last_visits[action] > 0
        differed += action != greedy.step(state)
    assert differed > 0
