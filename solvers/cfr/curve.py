"""The convergence chart: exploitability against training time, log-log, one line per run."""

from __future__ import annotations

from pathlib import Path


def draw_curves(runs, path, title: str) -> Path:
    """`runs`: [(label, [(iteration, seconds, exploitability), ...])]; writes a PNG with
    exploitability against seconds (left) and against iterations (right)."""
    from matplotlib.figure import Figure   # here: training need not load matplotlib

    fig = Figure(figsize=(11, 4.2))
    by_time, by_iteration = fig.subplots(1, 2)
    for label, curve in runs:
        points = [p for p in curve if p[1] > 0 and p[2] > 0]
        if not points:
            continue
        by_time.plot([p[1] for p in points], [p[2] for p in points], marker=".", label=label)
        by_iteration.plot([p[0] for p in points], [p[2] for p in points], marker=".",
                          label=label)
    for axes, xlabel in ((by_time, "training seconds"), (by_iteration, "iterations")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel(xlabel)
        axes.set_ylabel("exploitability (NashConv / 2)")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    return path
