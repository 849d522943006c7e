"""Does the SPRT keep its error rates?  Many simulated tests at known true Elo differences.

    python -m koloda.tournament.sprt_check [--runs 1000] [--seed 1] [--sprt elo0=0,elo1=10]

prints, for a two-player and a three-player (Snitch-like) game, how often the test accepts
H1 and H0 and how many units (deals, each played once per seat rotation) it took.  At
elo = elo0 it should accept H1 about alpha of the time or less, at elo = elo1 about
1 - beta or more.

The model of a game: between equals the agent's score in one game has the distribution
`even` (mean 1/2); a stronger agent's is the same tilted, p_i ~ even_i exp(t x_i).  A deal
favours its seats unequally: in the seat k of m the tilt is t + tau c_k, c running evenly
from +1 (the first seat) to -1 (the last) and tau drawn once per deal from a normal law of
spread `deal_edge`, so the games of one unit are correlated as the games of a replayed deal
are.  The unit's score distribution follows exactly (a convolution over the seats, a
Gauss-Hermite mixture over tau), with t set by bisection so its mean is the score of the
true Elo; the runs then draw units from it, and the test is the very `Sprt` arithmetic
(`sprt.llr` on every prefix of every run, vectorised).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from koloda.tournament import sprt


@dataclass(frozen=True)
class GameModel:
    """The agent's score in one game: its values, their chances between equals (mean
    1/2) and the spread of a deal's advantage to the first seat (natural log-odds)."""
    name: str
    players: int
    scores: tuple[float, ...]
    even: tuple[float, ...]
    deal_edge: float = 1.0


# a win, draw or loss; one game in five drawn
TWO_PLAYER = GameModel("two players", 2, (0.0, 0.5, 1.0), (0.4, 0.2, 0.4))
# Snitch: the highest total wins, the rest lose alike.  Against two opponent seats the agent
# scores 1 alone on top, 3/4 sharing the win, 1/2 in a draw, 1/4 when one opponent wins
# and 0 when both do; between equals 80% of games have one winner, 15% two, 5% are drawn
SNITCH_LIKE = GameModel("three players (Snitch-like)", 3, (0.0, 0.25, 0.5, 0.75, 1.0),
                        (0.05, 0.8 * 2 / 3, 0.05, 0.15 * 2 / 3, 0.8 / 3))
TRUE_ELOS = (-5.0, 0.0, 5.0, 10.0, 15.0)
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(21)   # normal tau, spread 1


def _unit_pmf(model: GameModel, tilt: float) -> np.ndarray:
    """The distribution of a unit's score on `sprt.unit_values(players)` for one tilt."""
    m = model.players
    scores = np.asarray(model.scores)
    slots = np.rint(scores * 2 * (m - 1)).astype(int)       # a game's place on its grid
    even = np.asarray(model.even)
    seat_sign = np.linspace(1.0, -1.0, m)
    pmf = np.zeros(2 * m * (m - 1) + 1)
    for node, weight in zip(_NODES, _WEIGHTS / _WEIGHTS.sum()):
        unit = np.ones(1)
        for sign in seat_sign:
            game = even * np.exp((tilt + model.deal_edge * node * sign) * scores)
            one = np.zeros(2 * (m - 1) + 1)
            one[slots] = game / game.sum()
            unit = np.convolve(unit, one)
        pmf += weight * unit
    return pmf / pmf.sum()


def unit_distribution(model: GameModel, elo: float) -> np.ndarray:
    """The unit-score distribution whose mean is the score of `elo` (logistic Elo)."""
    if abs(sum(model.even) - 1) > 1e-9 or abs(np.dot(model.scores, model.even) - 0.5) > 1e-9:
        raise sprt.SprtError(f"{model.name}: `even` must be a distribution of mean 1/2")
    target = float(sprt.score_of_elo(elo))
    values = sprt.unit_values(model.players)
    low, high = -50.0, 50.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        if _unit_pmf(model, middle) @ values < target:
            low = middle
        else:
            high = middle
    return _unit_pmf(model, 0.5 * (low + high))


@dataclass(frozen=True)
class Simulation:
    """What `runs` tests at one true Elo concluded, and after how many units."""
    true_elo: float
    runs: int
    accepted_h1: int
    accepted_h0: int
    units: np.ndarray       # per run: units to the decision (max_units if undecided)

    @property
    def undecided(self) -> int:
        return self.runs - self.accepted_h1 - self.accepted_h0


def simulate(test: sprt.SprtTest, model: GameModel, true_elo: float, runs: int,
             seed: int, max_units: int = 200_000, chunk: int = 256) -> Simulation:
    """`runs` sequential tests of `test` on units drawn from `model` at `true_elo`, each
    checked after every unit and stopped at the first bound it reaches."""
    rng = np.random.default_rng(seed)
    values = sprt.unit_values(model.players)
    cdf = np.cumsum(unit_distribution(model, true_elo))
    lower, upper = test.bounds
    counts = np.zeros((runs, len(values)))
    decision = np.zeros(runs, dtype=np.int8)
    units = np.full(runs, max_units)
    active = np.arange(runs)
    played = 0
    while active.size and played < max_units:
        width = min(chunk, max_units - played)
        draws = np.minimum(np.searchsorted(cdf, rng.random((active.size, width)),
                                           side="right"), len(values) - 1)
        prefixes = counts[active][:, None, :] + np.cumsum(
            np.eye(len(values))[draws], axis=1)
        ratio = sprt.llr(prefixes, values, test.elo0, test.elo1)
        crossed = (ratio >= upper) | (ratio <= lower)
        stopped = crossed.any(axis=1)
        first = crossed.argmax(axis=1)[stopped]
        done = active[stopped]
        decision[done] = np.where(ratio[stopped, first] >= upper, 1, -1)
        units[done] = played + first + 1
        counts[active] = prefixes[:, -1, :]
        active = active[~stopped]
        played += width
    return Simulation(true_elo, runs, int((decision == 1).sum()),
                      int((decision == -1).sum()), units)


def table(test: sprt.SprtTest, model: GameModel, runs: int, seed: int,
          true_elos=TRUE_ELOS) -> str:
    """One line per true Elo: acceptance rates and the units and games a test took."""
    lines = [f"{model.name}, deal edge {model.deal_edge:g}, {test}, {runs} runs each",
             f"{'true Elo':>8}  {'P(H1)':>6}  {'P(H0)':>6}  {'undec.':>6}  "
             f"{'mean units':>10}  {'median':>7}  {'95th pct':>8}  {'mean games':>10}"]
    for k, elo in enumerate(true_elos):
        result = simulate(test, model, elo, runs, seed + k)
        mean = result.units.mean()
        lines.append(f"{elo:>+8g}  {result.accepted_h1 / runs:>6.3f}  "
                     f"{result.accepted_h0 / runs:>6.3f}  {result.undecided / runs:>6.3f}  "
                     f"{mean:>10.0f}  {np.median(result.units):>7.0f}  "
                     f"{np.percentile(result.units, 95):>8.0f}  "
                     f"{mean * model.players:>10.0f}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m koloda.tournament.sprt_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="tests per true Elo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sprt", default="", help="elo0=0,elo1=10,alpha=0.05,beta=0.05")
    args = parser.parse_args(argv)
    test = sprt.parse_sprt(args.sprt)
    for model in (TWO_PLAYER, GameModel(TWO_PLAYER.name + ", independent games", 2,
                                        TWO_PLAYER.scores, TWO_PLAYER.even, 0.0),
                  SNITCH_LIKE):
        start = time.perf_counter()
        print(table(test, model, args.runs, args.seed))
        print(f"({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
