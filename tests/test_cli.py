"""The `koloda` command line, called in-process through `koloda.cli.main.main(argv)`."""

import pyspiel
import pytest

from koloda import games
from koloda.bench.playouts import measure_engines, run_bench
from koloda.cli.main import main


def test_games_lists_durak_and_its_parameters(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "durak" in out
    for name in ("players", "ranks", "suits", "hand_size", "max_attack_cards"):
        assert name in out


def test_show_prints_moves_and_a_result_and_is_reproducible(capsys):
    assert main(["show", "durak", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert "   1  p" in first                       # the first numbered move
    assert "chance  deal " in first and "trump " in first
    assert "returns: p0 " in first
    assert "winner: p" in first or "result: draw" in first
    assert main(["show", "durak", "--seed", "3"]) == 0
    assert capsys.readouterr().out == first


def test_show_takes_players_and_params(capsys):
    assert main(["show", "durak", "--players", "3", "--params", "ranks=6", "--seed", "1"]) == 0
    assert "durak(" in capsys.readouterr().out


@pytest.mark.parametrize("argv, named", [
    (["show", "no_such_game"], "no_such_game"),
    (["bench", "no_such_game"], "no_such_game"),
    (["show", "durak", "--params", "ranks=99"], "ranks"),
    (["show", "durak", "--params", "frobs=3"], "frobs"),
    (["show", "durak", "--params", "ranks=abc"], "ranks"),
    (["show", "durak", "--players", "4", "--params", "players=3"], "players"),
    (["show", "durak", "--params", "ranks"], "ranks"),
    (["show", "durak", "--params", "ranks=6,,suits=2"], "empty parameter"),
    (["show", "durak", "--params", "ranks=6,ranks=7"], "given twice"),
    (["show", "durak", "--params", "max_moves=99999999999"], "max_moves must be 1..100000"),
    (["show", "durak", "--params", "max_moves=" + "9" * 4400], "too many digits"),
    (["show", "durak", "--seed", "-1"], "--seed must be 0 or more"),
    (["bench", "durak", "--seconds", "nan"], "--seconds must be a positive number"),
    (["bench", "durak", "--seconds", "inf"], "--seconds must be a positive number"),
    (["bench", "durak", "--seconds", "0"], "--seconds must be a positive number"),
    (["bench", "durak", "--budget", "0"], "--budget"),
    (["frob"], "frob"),
])
def test_user_errors_exit_2_with_one_line_and_no_traceback(capfd, argv, named):
    assert main(argv) == 2
    captured = capfd.readouterr()  # capfd, not capsys: it sees what C++ code writes too
    assert captured.out == ""
    assert captured.err.startswith("koloda: error: ")
    assert captured.err.count("\n") == 1
    assert named in captured.err


def test_bench_returns_positive_figures_with_a_tiny_budget():
    results = run_bench(games.load_game("durak"), seconds=0.2)
    assert [r.game for r in results[1:]] == ["python_block_dominoes()", "go_fish()"]
    for figures in results:
        assert figures.games_per_s > 0
        assert figures.transitions_per_s > figures.games_per_s
        assert figures.clones_per_s > 0


def test_bench_compares_a_compiled_engine_with_its_python_one(capsys):
    assert main(["bench", "durak", "--seconds", "0.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    wrapper = next(line for line in lines if line.startswith("pyspiel wrapper: "))
    ratio, _, rest = wrapper.removeprefix("pyspiel wrapper: ").partition("x ")
    assert float(ratio) > 0 and rest.startswith("python_block_dominoes' transitions/s (")
    line = lines[-1]
    assert line.startswith("engine playouts from the start of durak(") and "compiled (" in line
    figures = measure_engines(games.load_game("durak"), seconds=0.2)
    assert figures.python_games_per_s > 0 and figures.compiled_games_per_s > 0
    assert measure_engines(pyspiel.load_game("go_fish"), seconds=0.2) is None   # no kernel


def test_search_bench_prints_each_agent_against_openspiel(capsys):
    assert main(["bench", "durak", "--search", "--sims", "20", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("ismcts(sims=20)", "ismcts_openspiel(sims=20)", "pimc(sims=20)",
                 "ismcts(sims=20,tree=python)", "pimc(sims=20,tree=python)"):
        assert name in out
    assert "x ismcts_openspiel" in out and "x python tree" in out
    assert "horizon" not in out                # Durak is one deal: no second ismcts row
    assert "rollout" not in out                # nor rollout policies of its own
    compiled = next(line for line in out.splitlines() if line.startswith("ismcts(sims=20) "))
    assert float(compiled.split()[3]) > 0      # its ratio to the Python tree


def test_search_bench_of_a_game_of_deals_also_measures_search_to_its_end(capsys):
    game = "snitch(ranks=3,copies=2,hand_size=2,target_score=40)"
    assert main(["bench", game, "--search", "--sims", "5", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("ismcts(sims=5)", "ismcts(horizon=game,sims=5)", "ismcts_openspiel(sims=5)",
                 "ismcts(horizon=game,sims=5,tree=python)", "ismcts(rollout=heuristic,sims=5)",
                 "ismcts(sims=5,value=snitch-v1)", "ismcts(sims=5,tree=python,value=snitch-v1)"):
        assert name in out
    # the learned leaf runs compiled, beside its Python tree; the heuristic rollout does not
    learned = next(line for line in out.splitlines()
                   if line.startswith("ismcts(sims=5,value=snitch-v1) "))
    assert float(learned.split()[3]) > 0
    assert "ismcts(rollout=heuristic,sims=5,tree=python)" not in out


def test_search_bench_of_a_game_with_nothing_hidden_measures_mcts_against_openspiels(capsys):
    assert main(["bench", "parket", "--search", "--sims", "5", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    assert "mcts(sims=5)" in out and "mcts(sims=5,tree=python)" in out
    assert "x mcts_openspiel" in out and "ismcts" not in out
    assert "mcts(sims=5,value=parket-v1)" in out          # a shipped value model, both trees
    assert "mcts(sims=5,tree=python,value=parket-v1)" in out


def test_budget_bench_prints_how_far_each_search_agent_goes_past_its_time(capsys):
    assert main(["bench", "durak", "--budget", "10", "--positions", "2"]) == 0
    out = capsys.readouterr().out
    for spec in ("ismcts(ms=10,sims=0)", "pimc(ms=10,sims=0)", "pimc(ms=10,sims=0,worlds=2000)"):
        assert spec in out
    assert "p99 ms over" in out


def test_show_narrates_what_followed_deal_by_deal(capsys):
    assert main(["show", "snitch", "--seed", "2", "--params", "target_score=500"]) == 0
    out = capsys.readouterr().out
    assert "= deal 1 scores " in out and "= p0 deals" in out
    assert main(["show", "platinum_fish", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "= p0 discards 9" in out and "= stock holds " in out
