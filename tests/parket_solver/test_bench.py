"""The solver benchmark runs and prints its table."""

from koloda.bench.solver import format_solver_bench, run_solver_bench


def test_the_benchmark_compares_each_baseline_with_the_compiled_solver():
    figures = run_solver_bench(minimax_empty=2, reference_empty=4, positions=2,
                               minimax_relocations=2, values_empty=10)
    assert [f.method for f in figures] == ["minimax", "fast", "reference", "fast", "fast",
                                           "fast, 2 cores"]
    assert [f.lengths for f in figures] == [True] * 4 + [False] * 2
    assert figures[-1].table_probes > figures[-1].table_hits > 0
    assert figures[-1].baseline == "fast" and figures[-1].speed_up > 0
    assert figures[1].baseline == "minimax" and figures[1].speed_up > 0
    table = format_solver_bench(figures)
    assert "nodes/s" in table and "vs reference" in table and "table hits" in table
    assert figures[3].table_probes > 0 and 0 <= figures[3].hit_rate <= 1
