"""The solver benchmark runs and prints its table."""

from koloda.bench.solver import format_solver_bench, run_solver_bench


def test_the_benchmark_compares_each_baseline_with_the_compiled_solver():
    figures = run_solver_bench(minimax_empty=2, reference_empty=4, positions=2,
                               minimax_relocations=2, values_empty=10)
    assert [f.method for f in figures] == [
        "minimax", "fast", "reference", "fast", "fast", "fast, 2 cores",
        "store, first solve", "store, same positions", "fast, 2 cores, a move later",
        "store, a move later"]
    assert [f.lengths for f in figures] == [True] * 4 + [False] * 6
    assert figures[5].table_probes > figures[5].table_hits > 0
    assert figures[5].baseline == "fast" and figures[5].speed_up > 0
    assert figures[1].baseline == "minimax" and figures[1].speed_up > 0
    table = format_solver_bench(figures)
    assert "nodes/s" in table and "vs reference" in table and "table hits" in table
    assert figures[3].table_probes > 0 and 0 <= figures[3].hit_rate <= 1


def test_the_benchmark_measures_what_the_store_saves():
    figures = run_solver_bench(minimax_empty=1, reference_empty=2, positions=3,
                               minimax_relocations=2, values_empty=11)
    first, again, plain, read = figures[-4:]
    assert first.store_hits >= 0 and plain.store_hits == -1
    assert again.store_hits > 0 and again.nodes < first.nodes
    assert again.baseline == "first solve" and read.baseline == "no store"
    assert read.positions == plain.positions > 0
    assert "store hits" in format_solver_bench(figures)


def test_the_warm_up_runs_every_kernel_a_timed_row_runs():
    """In a fresh process no kernel is loaded: after the warm-up, the searches of values
    and of lengths (MTD(f), a draw's length) are, so no row times their compiling."""
    import subprocess
    import sys
    script = ("from koloda.solvers.parket import kernel, warm_up\n"
              "names = ['search', 'exact', 'draw_distance', 'draw_within']\n"
              "assert not any(getattr(kernel, n).signatures for n in names)\n"
              "warm_up()\n"
              "print([n for n in names if not getattr(kernel, n).signatures])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=300).stdout
    assert out.strip() == "[]"
