"""`koloda learn`'s generations: self-play through the tournament's runner, a model fitted
and written in the shipped format, scored against the last; resumed from its folder, the
same seed giving the same model, other settings refused."""

import json

import pytest

from koloda import games
from koloda.solvers.learned.models import load_model
from koloda.solvers.registry import load_agent
from koloda.tournament.learn import (
    LearnError,
    Learning,
    Settings,
    lambda_returns,
    ship,
    write_progress_report,
)
from koloda.tournament.learn_policy import PolicyLearning, policy_settings

pytestmark = pytest.mark.slow

TINY = dict(sims=10, games=4, score_games=2, jobs=1, hidden=[8])


def test_a_generation_plays_fits_scores_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setenv("KOLODA_MODELS", "")       # restored after: the run adds its folder
    first = Learning(Settings("durak", seed=3, **TINY), tmp_path / "a")
    generation = first.step()
    assert generation.model == "durak-g1" and generation.positions > 0
    assert 0.0 <= generation.score <= 1.0 and generation.low <= generation.score
    model = load_model("durak-g1")
    assert model.digest == generation.digest
    assert load_agent(games.load_game("durak"), "ismcts(value=durak-g1,sims=20)")
    progress = json.loads((tmp_path / "a" / "progress.json").read_text())
    assert [g["model"] for g in progress["generations"]] == ["durak-g1"]

    again = Learning(Settings("durak", seed=3, **TINY), tmp_path / "a")
    assert [g.digest for g in again.generations] == [generation.digest]
    report = write_progress_report(again, "koloda learn durak --seed 3").read_text()
    assert f"| 1 | durak-g1 `{generation.digest[:12]}` |" in report
    assert (tmp_path / "a" / "curve.png").stat().st_size > 0

    assert ship(again, 1, 7, tmp_path / "shipped") == generation.digest   # the same bytes
    entry = json.loads((tmp_path / "shipped" / "index.json").read_text())["durak-v7"]
    assert entry["from"].startswith("durak-g1 of koloda learn durak")
    with pytest.raises(LearnError, match="no generation 5"):
        ship(again, 5, 8, tmp_path / "shipped")

    second = again.step()             # self-play by the first model, scored twice
    assert second.model == "durak-g2" and second.playouts is not None
    assert (tmp_path / "a" / "playouts-g2.jsonl").exists()
    assert "ismcts(sims=10,value=durak-g1)" in (tmp_path / "a" / "selfplay-g2.jsonl").read_text()

    twin = Learning(Settings("durak", seed=3, **TINY), tmp_path / "b").step()
    assert twin.digest == generation.digest                  # the seed fixes the model

    with pytest.raises(LearnError, match="other settings"):
        Learning(Settings("durak", seed=4, **TINY), tmp_path / "a")


def test_a_game_without_value_features_is_refused(tmp_path, monkeypatch):
    from koloda.solvers.search.evaluators import Evaluator
    from koloda.tournament import learn
    monkeypatch.setattr(learn, "evaluator_for", lambda short_name: Evaluator())
    with pytest.raises(LearnError, match="parket has no value features"):
        Learning(Settings("parket", **TINY), tmp_path)


def test_a_game_of_deals_learns_each_deals_value_where_its_models_read(tmp_path, monkeypatch):
    """Snitch: the search given plays, its positions are read at turns only (where the walk
    of the value leaf stops), each labelled by its deal's return, not the match's."""
    from koloda.solvers.learned.snitch import FEATURE_NAMES
    from koloda.solvers.search.evaluators import evaluator_for
    from koloda.tournament.learn import deal_positions
    from koloda.tournament.results import read_results
    monkeypatch.setenv("KOLODA_MODELS", "")
    search = "ismcts(rollout=learned,sims=10,uct_c=0.1)"
    learning = Learning(Settings("snitch(target_score=400)", seed=2, search=search,
                                 **TINY), tmp_path)
    generation = learning.step()
    records = tmp_path / "selfplay-g1.jsonl"
    assert search in records.read_text()
    assert "ismcts(rollout=learned,sims=10,uct_c=0.1,value=snitch-g1)" in \
        (tmp_path / "score-g1.jsonl").read_text()
    game = games.load_game("snitch(target_score=400)")
    values = evaluator_for("snitch").values
    to_move = FEATURE_NAMES.index("to_move")
    deals = rows = not_the_matchs = 0
    for result, deal_rows, returns in deal_positions(game, values, [records]):
        deals += 1
        rows += len(deal_rows)
        assert abs(sum(returns)) < 1e-9
        not_the_matchs += list(returns) != list(result.returns)
        for row in deal_rows:                  # at a turn: exactly one seat is to move
            assert sum(seat[to_move] for seat in row) == 1.0
    finished = read_results(records).values()
    assert deals > len(finished) and not_the_matchs > 0      # several deals a match
    assert rows * 3 == generation.positions
    assert not any(values.reads(state.core) for state in _sets_phases(game, finished))


def _sets_phases(game, results):
    """States of the recorded games where the mover lays sets, after its turn began."""
    from koloda.games.snitch.engine import SETS
    for result in results:
        state = game.new_initial_state()
        for action in result.actions:
            if state.core.phase == SETS:
                yield state
            state.apply_action(action)


def test_a_linear_fit_is_ridge_regression_packed_as_a_one_layer_model(tmp_path):
    import numpy as np

    from koloda.solvers.learned import mlp
    learning = Learning(Settings("durak", hidden=[], alpha=1e-6, **{
        k: v for k, v in TINY.items() if k != "hidden"}), tmp_path)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, 5))
    y = x @ np.array([1.0, -2.0, 0.5, 0.0, 3.0]) + 0.25
    deals = np.repeat(np.arange(60), 10)
    packed, losses = learning.fit(x, y, deals, seed=1)
    assert len(mlp.unpack(packed)) == 1
    assert losses["train_loss"] < 1e-9 and losses["test_loss"] < 1e-9 < losses["baseline_loss"]


def test_lambda_returns_run_back_from_the_return_along_each_game_and_seat():
    import numpy as np
    # two sequences interleaved, as a game's rows are (seat 0, seat 1 at each position)
    sequence = np.array([0, 1, 0, 1, 0, 1])
    returns = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    values = np.array([0.0, 0.0, 0.2, -0.2, 0.6, -0.6])
    lam = 0.5
    last = 1.0
    middle = (1 - lam) * 0.6 + lam * last               # 0.8
    first = (1 - lam) * 0.2 + lam * middle              # 0.5
    np.testing.assert_allclose(lambda_returns(returns, values, sequence, lam),
                               [first, -first, middle, -middle, last, -last])
    np.testing.assert_allclose(lambda_returns(returns, values, sequence, 1.0), returns)
    np.testing.assert_allclose(lambda_returns(returns, values, sequence, 0.0),
                               [0.2, -0.2, 0.6, -0.6, 1.0, -1.0])      # TD(0): the next value


@pytest.mark.parametrize("text", ["{not json", '{"settings": {}}', "[1, 2]",
                                  '{"settings": {}, "generations": [{"nope": 1}]}'])
def test_a_broken_progress_file_is_refused_in_one_line(tmp_path, text):
    (tmp_path / "progress.json").write_text(text)
    with pytest.raises(LearnError, match="is not a learning run's progress") as err:
        Learning(Settings("durak", **TINY), tmp_path)
    assert "\n" not in str(err.value)


def test_a_policy_generation_learns_the_teachers_moves_and_ships(tmp_path, monkeypatch):
    monkeypatch.setenv("KOLODA_MODELS", "")
    small = "durak(hand_size=3,ranks=4,suits=2)"
    settings = policy_settings(small, teacher="ismcts(sims=20)", against="random", games=6,
                               score_games=2, jobs=1, hidden=[8], epochs=3, seed=5)
    generation = PolicyLearning(settings, tmp_path / "p").step()
    assert generation.model == "durak-policy-g1" and generation.positions > 0
    assert 0.0 <= generation.agreement <= 1.0 and generation.playouts == generation.score
    games_played = (tmp_path / "p" / "selfplay-g1.jsonl").read_text()
    assert "ismcts(sims=20)" in games_played and "policy(" not in games_played
    assert "policy(model=durak-policy-g1)" in (tmp_path / "p" / "score-g1.jsonl").read_text()
    again = PolicyLearning(settings, tmp_path / "p")
    assert [g.digest for g in again.generations] == [generation.digest]
    report = write_progress_report(again, "koloda learn durak --policy").read_text()
    assert f"| {100 * generation.agreement:.1f}% |" in report
    assert ship(again, 1, 7, tmp_path / "shipped") == generation.digest
    entry = json.loads((tmp_path / "shipped" / "index.json").read_text())["durak-policy-v7"]
    assert entry["kind"] == "policy" and entry["features"] == "durak-observation-trump-first-1"
    assert entry["variants"]["hand_size"] == 3 and "max_moves" not in entry["variants"]
    with pytest.raises(LearnError, match="other settings"):
        PolicyLearning(policy_settings(small, teacher="ismcts(sims=21)", against="random"),
                       tmp_path / "p")


@pytest.mark.parametrize("argv, message", [
    (["learn", "durak", "--teacher", "random"], "--teacher and --against go with --policy"),
    (["learn", "durak", "--policy", "--hidden", "0"], "--hidden widths must be from 1 to"),
    (["learn", "durak", "--policy", "--against", "ismcts(sims=-5)"],
     "the yardstick: agent ismcts parameter sims must be"),
    (["learn", "durak", "--policy", "--teacher", "bogus"], "the teacher: unknown agent 'bogus'"),
    (["learn", "durak", "--alpha", "-1"], "--alpha must be positive"),
    (["learn", "durak", "--hours", "-1"], "--hours must be positive"),
    (["learn", "durak", "--games", "0"], "--games must be positive"),
    (["learn", "durak", "--td", "1.5"], "--td is a lambda from 0 to 1, not 1.5"),
    (["learn", "durak", "--td", "nan"], "--td is a lambda from 0 to 1, not nan"),
    (["learn", "durak", "--policy", "--td", "0.9"], "--td and --search go with a value model"),
    (["learn", "durak", "--policy", "--search", "ismcts"], "--search go with a value model"),
    (["learn", "durak", "--search", "ismcts(sims=-3)"],
     "the search: agent ismcts parameter sims must be"),
    (["learn", "nosuchgame"], "nosuchgame"),
])
def test_the_command_refuses_bad_arguments_in_one_line(argv, message, capsys, tmp_path):
    from koloda.cli import main
    assert main([*argv, "--folder", str(tmp_path)]) != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
