"""The convergence chart: exploitability against training time and iterations, log-log,
one line per run.

Time is the training process's processor time when every run recorded it (the wall clock
of a shared machine also counts the other jobs' turns), else wall-clock time.
"""

from __future__ import annotations

from pathlib import Path


def draw_curves(runs, path, title: str) -> Path:
    """`runs`: [(label, [(iteration, seconds, exploitability[, cpu seconds]), ...])];
    writes a PNG with exploitability against time (left) and iterations (right)."""
    from matplotlib.figure import Figure  # here: training need not load matplotlib

    by_cpu = all(len(p) > 3 and p[3] > 0 for _, curve in runs for p in curve)
    time_of = (lambda p: p[3]) if by_cpu else (lambda p: p[1])
    fig = Figure(figsize=(11, 4.2))
    by_time, by_iteration = fig.subplots(1, 2)
    for label, curve in runs:
        points = [p for p in curve if time_of(p) > 0 and p[2] > 0]
        if not points:
            continue
        by_time.plot([time_of(p) for p in points], [p[2] for p in points], marker=".",
                     label=label)
        by_iteration.plot([p[0] for p in points], [p[2] for p in points], marker=".",
                          label=label)
    time_label = "training seconds (processor)" if by_cpu else "training seconds (wall)"
    for axes, xlabel in ((by_time, time_label), (by_iteration, "iterations")):
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
