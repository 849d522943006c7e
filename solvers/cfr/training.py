"""Training on OpenSpiel's C++ solvers, with exploitability measured as it goes.

Measured on durak-open (durak(hand_size=2,ranks=5,suits=1)), in processor time
(reports/cfr/solver-speed.txt): CFR+ takes 0.61 s an iteration in Python's
`cfr.CFRPlusSolver` on the Python game, 0.41 s in the C++ `pyspiel.CFRPlusSolver` on the
Python game, and 0.013 s in the C++ solver on the game's C++ copy (efg.py, made in 0.3 s);
outcome-sampling MCCFR makes 2,600, 7,100 and 116,000 iterations a second.  So every
solver runs in C++ on the copy.

Exploitability is measured at iterations spaced evenly on a log scale, since the curves
are read on log-log axes; the time it takes is not counted as training time.  Training
time is wall-clock time; the processor time of the training process is kept beside it,
since on a shared machine the wall clock also counts the other jobs' turns.  At each
measurement the average policy is checkpointed to the policy file.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pyspiel

from koloda.solvers.cfr import policy_file
from koloda.solvers.cfr.efg import efg_tree
from koloda.solvers.cfr.exploitability import exploitability
from koloda.solvers.cfr.tree import table_from, uniform

ALGOS = ("cfr", "cfr+", "mccfr-os", "mccfr-es")
#: sampling solvers make many cheap iterations: their first measurement comes later
FIRST_MEASURED = {"cfr": 1, "cfr+": 1, "mccfr-os": 1000, "mccfr-es": 100}


class Solver:
    """One OpenSpiel solver, on the game's C++ copy, behind one interface: `iterate()`,
    `average_table()` (in the game's own information states and actions)."""

    def __init__(self, game, algo: str, seed: int = 0):
        if algo not in ALGOS:
            raise ValueError(f"unknown algorithm {algo!r}; choose from {', '.join(ALGOS)}")
        self.tree = efg_tree(game)
        self.algo = algo
        game = self.tree.game
        if algo == "cfr":
            self.solver = pyspiel.CFRSolver(game)
        elif algo == "cfr+":
            self.solver = pyspiel.CFRPlusSolver(game)
        elif algo == "mccfr-os":
            self.solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed)
        else:
            self.solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)

    def iterate(self) -> None:
        if self.algo in ("cfr", "cfr+"):
            self.solver.evaluate_and_update_policy()
        else:
            self.solver.run_iteration()

    def average_table(self) -> dict:
        """{infostate: [(action, probability)]} of the average policy, every state."""
        if self.algo in ("cfr", "cfr+"):
            return self.tree.to_ours(self.solver.tabular_average_policy().policy_table())
        policy = self.solver.average_policy()

        def at(state, player):
            probs = policy.get_state_policy(state, player)
            return probs if probs else uniform(state.legal_actions(player))
        return self.tree.to_ours(table_from(self.tree.game, at))


def measure_points(first: int, last: int, count: int) -> list[int]:
    """About `count` iterations from `first` to `last`, evenly spaced on a log scale."""
    if last <= first:
        return [last]
    ratio = (last / first) ** (1 / max(1, count - 1))
    points = {min(last, round(first * ratio ** k)) for k in range(count)}
    return sorted(points | {last})


@dataclass
class Point:
    iteration: int
    seconds: float          # training time so far, measurements excluded
    exploitability: float
    cpu_seconds: float = 0.0  # processor time of this process in those seconds


def train(game, algo: str, iterations: int, seconds: float | None = None, seed: int = 0,
          measurements: int = 20, out=None, on_point=None) -> policy_file.PolicyFile:
    """Run `algo` for `iterations` (or until `seconds` of training), measuring the
    average policy's exploitability about `measurements` times; each measurement is
    passed to `on_point(point)` and, with `out`, checkpoints the policy file."""
    solver = Solver(game, algo, seed)
    first = min(FIRST_MEASURED[algo], iterations)
    pending = measure_points(first, iterations, measurements)
    data = policy_file.PolicyFile(game=policy_file.game_string_of(game), policy={},
                                  algo=algo)
    trained = cpu = 0.0
    done = 0
    while done < iterations:
        started, cpu_started = time.perf_counter(), time.process_time()
        target = pending[0]
        while done < target:
            solver.iterate()
            done += 1
            if seconds is not None and trained + time.perf_counter() - started >= seconds:
                break
        trained += time.perf_counter() - started
        cpu += time.process_time() - cpu_started
        out_of_time = seconds is not None and trained >= seconds
        if done >= target or out_of_time:
            while pending and pending[0] <= done:
                pending.pop(0)
            table = solver.average_table()
            point = Point(done, trained, exploitability(game, table), cpu)
            data.policy, data.iterations, data.seconds = table, done, trained
            data.cpu_seconds = cpu
            data.exploitability = point.exploitability
            data.curve.append((point.iteration, round(point.seconds, 3),
                               point.exploitability, round(point.cpu_seconds, 3)))
            if out is not None:
                policy_file.save(out, data)
            if on_point is not None:
                on_point(point)
        if out_of_time or not pending:
            break
    return data


def describe_point(algo: str, point: Point, iterations: int) -> str:
    """The progress line printed at each measurement."""
    width = len(str(iterations))
    return (f"{algo:8}  iteration {point.iteration:>{width}}/{iterations}  "
            f"{point.seconds:8.1f} s ({point.cpu_seconds:.1f} s cpu)  "
            f"exploitability {point.exploitability:.5f}")


