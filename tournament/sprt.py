"""The sequential probability ratio test of `koloda match A B --sprt ...`: is A stronger than
B by elo1 rather than by elo0?  Played deal by deal, it stops as soon as the evidence decides.

What is tested.  A match plays *units*: one deal played once per rotation of the seats, the
agent in each seat once and the opponent in all the others (two players: the deal twice with
seats swapped, a game pair).  A unit's score is the agent's mean pairwise score over its games
(`game_score`: 1 for each opponent seat placed below it, 1/2 for each placed level, 0 for each
placed above, averaged over the opponent seats), a number in [0, 1] on a fixed grid: multiples
of 1 / (2 m (m - 1)) for m players (`unit_values`).  Units are independent; the games inside
one are not (the deal favours a seat, and the agent held every seat), which is why the unit
and not the game is the sample: deal and seat luck cancel inside it, and the test does not
pretend that the two games of a pair are two independent pieces of evidence.  With two players
the grid is 0, 1/4, 1/2, 3/4, 1: the pair totals 0, 1/2, 1, 3/2, 2 of fishtest's pentanomial
model (LL, LD+DL, LW+DD+WL, DW+WD, WW), which is this module's two-player instance
(`pentanomial_llr`).  With more players the same test runs on the finer grid.

Which Elo.  Logistic Elo of the pairwise score: an expected score s means Elo
-400 log10(1/s - 1), so elo0 = 0 is s = 1/2 and +10 Elo is s = 0.5144.  It is the model of
the tournament's ratings (`tournament.likelihood`, `pyspiel.elo`: i beats j with probability
1 / (1 + 10^((r_j - r_i) / 400)), a draw half a win), so the bounds of a test and the
ratings of a report speak the same unit.  Fishtest's default is the same logistic Elo (its
"normalized Elo" divides by the score's spread, which depends on the game's draw rate and
would make elo1 = 10 mean a different gap in each game).

The test.  The generalized SPRT of Michel Van den Bergh, as fishtest computes it
(server/fishtest/stats/LLRcalc.py, `LLR_logistic`; the theory in "Maximum likelihood
estimation of a multinomial distribution with given expectation value",
https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf, Proposition 1.1): the
distribution of unit scores is left free on the grid and only its mean is tested.  Under each
hypothesis s = L(elo) the maximum-likelihood distribution with mean s is the empirical one
reweighted, p_i = phat_i / (1 + x (v_i - s)), x the root of the secular equation
sum_i phat_i (v_i - s) / (1 + x (v_i - s)) = 0 (one dimension: safeguarded Newton here,
scipy's brentq in fishtest), and the log-likelihood ratio is LLR = sum_i n_i log(p1_i / p0_i).
The test accepts H1 at
LLR >= log((1 - beta) / alpha) and H0 at LLR <= log(beta / (1 - alpha)) (Wald's bounds;
fishtest narrows them by an overshoot estimate, which matters for its batched updates and
little for a test checked after every unit).  As in fishtest, an empty grid value counts
1e-3 of a unit (`REGULARIZATION`): the LLR stays finite when every unit so far scored alike
(all wins, all draws), and such a run moves, slowly, towards the hypothesis it supports
(elo0=0, elo1=10: 104 won pairs in a row accept H1, 102 pairs split 1-1 accept H0).
Before the first unit the LLR is 0.

The estimate.  Elo of the mean unit score with a 95% interval from the spread of unit scores
(mean +- 1.96 standard errors, each end turned into Elo), as fishtest's `get_elo` does,
scores clamped to [0.001, 0.999] (+-1200 Elo) so a perfect record gives a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from statistics import NormalDist

import numpy as np

from koloda.games.errors import KolodaError
from koloda.games.kit.outcomes import placements
from koloda.games.kit.params import shown

PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)   # two-player unit scores: pair total / 2
REGULARIZATION = 1e-3     # units counted for an empty grid value (fishtest's `regularize`)
SCORE_CLAMP = 1e-3        # scores nearer 0 or 1 read as this for Elo (fishtest's `elo`)
MAX_ELO = 1000.0          # |elo0|, |elo1| at most: scores 0.003 .. 0.997


class SprtError(KolodaError, ValueError):
    """An SPRT setting or a unit score that the test cannot use (the message names it)."""


def score_of_elo(elo):
    """The expected pairwise score of an Elo difference (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(elo, dtype=float) / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo of a score, the score clamped to [0.001, 0.999] (+-1200 Elo)."""
    score = min(max(score, SCORE_CLAMP), 1.0 - SCORE_CLAMP)
    return -400.0 * math.log10(1.0 / score - 1.0)


def game_score(returns, seat: int) -> float:
    """The score of the agent in `seat` against the other seats of one game: the mean over
    them of 1 for a seat it placed above, 1/2 for one placed level, 0 for one placed above
    it.  With two players it is the usual win / draw / loss; with more it is what the
    pairwise Elo model (`tournament.pairwise`) counts, and 1/2 on average between equals."""
    place = placements(returns)
    others = [p for s, p in enumerate(place) if s != seat]
    return sum(1.0 if place[seat] < p else 0.5 if place[seat] == p else 0.0
               for p in others) / len(others)


def unit_values(players: int) -> np.ndarray:
    """The scores a unit (one game per seat rotation) can have with `players` seats: the
    multiples of 1 / (2 m (m - 1)) in [0, 1].  Two players: 0, 1/4, 1/2, 3/4, 1."""
    if not isinstance(players, int) or isinstance(players, bool) or players < 2:
        raise SprtError(f"players must be an integer of at least 2, not {shown(players)}")
    steps = 2 * players * (players - 1)
    return np.arange(steps + 1) / steps


def _secular_root(phat, deviations, tolerance: float = 1e-13, iterations: int = 100):
    """The root x of f(x) = sum_i phat_i d_i / (1 + x d_i) = 0 for each row of phat (..., K).

    f falls from +inf to -inf between its poles -1/max(d) and -1/min(d) (d must straddle 0,
    phat be positive at both ends), and Newton on f itself creeps when the root is near a
    pole (an empty, regularized end of the grid).  So Newton runs on h = f (1 + x max(d))
    (1 + x min(d)), the same root without the poles, and a step that would leave the
    bracket kept around the root is replaced by halving it: about a dozen steps for any
    counts."""
    top, bottom = deviations.max(), deviations.min()
    low = np.full(phat.shape[:-1], -1.0 / top)
    high = np.full(phat.shape[:-1], -1.0 / bottom)
    x = np.zeros(phat.shape[:-1])
    for _ in range(iterations):
        denominators = 1.0 + x[..., None] * deviations
        poles = (1.0 + x * top) * (1.0 + x * bottom)
        poles_slope = top * (1.0 + x * bottom) + bottom * (1.0 + x * top)
        h = (phat * deviations / denominators).sum(axis=-1) * poles
        slope = (phat * deviations * (poles_slope[..., None] * denominators
                                      - poles[..., None] * deviations)
                 / denominators ** 2).sum(axis=-1)
        low = np.where(h > 0, x, low)
        high = np.where(h < 0, x, high)
        step = h / slope
        settled = np.abs(step) <= tolerance * (1.0 + np.abs(x))
        newton = x - step
        inside = settled | ((newton > low) & (newton < high))
        x = np.where(inside, newton, 0.5 * (low + high))
        if settled.all():
            break
    return x


def llr(counts, values, elo0: float, elo1: float):
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) for the unit
    counts `counts[..., i]` of the scores `values[i]` (ascending, 0 and 1 among them).

    The counts may carry leading axes (many runs, many moments of one run): one LLR each.
    No units at all: 0."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    n = np.where(counts == 0, REGULARIZATION, counts)
    phat = n / n.sum(axis=-1, keepdims=True)
    result = np.zeros(counts.shape[:-1])
    for sign, elo in ((-1.0, elo0), (1.0, elo1)):
        deviations = values - float(score_of_elo(elo))
        x = _secular_root(phat, deviations)
        # log p_s,i = log phat_i - log(1 + x (v_i - s)); the phat terms cancel in the ratio
        result -= sign * (n * np.log1p(x[..., None] * deviations)).sum(axis=-1)
    result = np.where(counts.sum(axis=-1) > 0, result, 0.0)
    return float(result) if result.ndim == 0 else result


def pentanomial_llr(counts, elo0: float, elo1: float) -> float:
    """The LLR of two-player game pairs counted as fishtest's pentanomial: pairs the agent
    scored 0, 1/2, 1, 3/2 and 2 points in (LL, LD+DL, LW+DD+WL, DW+WD, WW)."""
    if len(counts) != 5:
        raise SprtError(f"a pentanomial has 5 counts (LL, LD+DL, LW+DD+WL, DW+WD, WW), "
                        f"not {len(counts)}")
    return llr(counts, PENTANOMIAL, elo0, elo1)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds of the LLR: (log(beta / (1 - alpha)), log((1 - beta) / alpha))."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its confidence interval, from `units` units."""
    elo: float
    low: float
    high: float
    units: int
    level: float = 0.95

    def __str__(self) -> str:
        return (f"{self.elo:+.1f} Elo ({self.level:.0%} interval {self.low:+.1f} to "
                f"{self.high:+.1f}, {self.units} units)")


def elo_estimate(counts, values, level: float = 0.95) -> EloEstimate | None:
    """The Elo of the mean unit score, the interval the mean +- z standard errors turned
    into Elo (fishtest's `get_elo`, on regularized counts); None before the first unit."""
    counts = np.asarray(counts, dtype=float)
    units = int(round(counts.sum()))
    if units == 0:
        return None
    values = np.asarray(values, dtype=float)
    n = np.where(counts == 0, REGULARIZATION, counts)
    total = n.sum()
    mean = float((n * values).sum() / total)
    spread = math.sqrt(float((n * (values - mean) ** 2).sum() / total) / total)
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    return EloEstimate(elo_of_score(mean), elo_of_score(mean - z * spread),
                       elo_of_score(mean + z * spread), units, level)


@dataclass(frozen=True)
class SprtTest:
    """The hypotheses and error rates of a test: H0 elo = elo0, H1 elo = elo1 (logistic
    Elo), alpha the chance of accepting H1 when H0 holds, beta of accepting H0 under H1."""
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise SprtError(f"sprt field {f.name} must be a finite number, "
                                f"not {shown(value)}")
        for name in ("elo0", "elo1"):
            if abs(getattr(self, name)) > MAX_ELO:
                raise SprtError(f"sprt field {name} must be between {-MAX_ELO:g} and "
                                f"{MAX_ELO:g} Elo, not {getattr(self, name):g}")
        if not self.elo0 < self.elo1:
            raise SprtError(f"sprt field elo1 must be greater than elo0 "
                            f"(got elo0={self.elo0:g}, elo1={self.elo1:g})")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise SprtError(f"sprt field {name} must be between 0 and 0.5 "
                                f"(exclusive), not {getattr(self, name):g}")

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def __str__(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> SprtTest:
    """`elo0=0,elo1=10,alpha=0.05,beta=0.05` (any field may be left out, then 0, 10, 0.05,
    0.05) -> SprtTest; an error names the field that is unknown, repeated or bad."""
    if not isinstance(text, str):
        raise SprtError(f"--sprt takes text like elo0=0,elo1=10,alpha=0.05,beta=0.05, "
                        f"not {shown(text)}")
    known = [f.name for f in fields(SprtTest)]
    given: dict[str, float] = {}
    items = text.split(",") if text.strip() else []
    for item in items:
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key:
            raise SprtError(f"--sprt {shown(text)}: item {shown(item)} is not "
                            f"field=value (fields: {', '.join(known)})")
        if key not in known:
            raise SprtError(f"--sprt {shown(text)}: unknown field {shown(key)}; "
                            f"fields: {', '.join(known)}")
        if key in given:
            raise SprtError(f"--sprt {shown(text)}: field {key} is given twice")
        try:
            given[key] = float(value)
        except ValueError:
            raise SprtError(f"--sprt {shown(text)}: field {key} must be a number, "
                            f"not {shown(value)}") from None
    return SprtTest(**given)


class Sprt:
    """A running test, fed one unit score at a time (`add`) or counts at once (`add_counts`).

    `llr`, `lower`, `upper`, `units`, `counts` and `elo()` describe the evidence so far;
    `decision` is None until the LLR first reaches a bound, then "H1" (at or above `upper`)
    or "H0" (at or below `lower`) for good: units that finish after the decision (games
    already under way) still count in the LLR and the estimate, but a sequential test stops
    where it first crossed, and `decided_at` says after how many units that was."""

    def __init__(self, test: SprtTest | None = None, players: int = 2):
        self.test = test or SprtTest()
        self.players = players
        self.values = unit_values(players)
        self.counts = np.zeros(len(self.values), dtype=np.int64)
        self.lower, self.upper = self.test.bounds
        self.llr = 0.0
        self.decision: str | None = None
        self.decided_at: int | None = None

    @property
    def units(self) -> int:
        return int(self.counts.sum())

    def index(self, score: float) -> int:
        """The grid position of a unit score; an error for a score no unit can have."""
        steps = len(self.values) - 1
        if isinstance(score, bool) or not isinstance(score, (int, float, np.integer, np.floating)) \
                or not 0.0 <= score <= 1.0:
            raise SprtError(f"a unit score is a number in [0, 1], not {shown(score)}")
        position = round(score * steps)
        if abs(score * steps - position) > 1e-9:
            raise SprtError(f"a unit score of {self.players} players is a multiple of "
                            f"1/{steps}, not {score!r}")
        return position

    def add(self, score: float) -> str | None:
        """Count one unit's score (the agent's mean `game_score` over the unit's games);
        the decision so far."""
        self.counts[self.index(score)] += 1
        return self._update()

    def add_counts(self, counts) -> str | None:
        """Count many units at once, `counts[i]` of them scoring `values[i]` (two players:
        the pentanomial, low to high); the decision so far."""
        counts = np.asarray(counts)
        if counts.shape != self.counts.shape or not np.issubdtype(counts.dtype, np.integer) \
                or (counts < 0).any():
            raise SprtError(f"counts of {self.players} players are {len(self.values)} "
                            f"non-negative integers, not {shown(counts.tolist())}")
        self.counts += counts
        return self._update()

    def _update(self) -> str | None:
        self.llr = llr(self.counts, self.values, self.test.elo0, self.test.elo1)
        if self.decision is None:
            if self.llr >= self.upper:
                self.decision = "H1"
            elif self.llr <= self.lower:
                self.decision = "H0"
            if self.decision:
                self.decided_at = self.units
        return self.decision

    def elo(self, level: float = 0.95) -> EloEstimate | None:
        return elo_estimate(self.counts, self.values, level)

    def __str__(self) -> str:
        state = {None: "undecided", "H1": "H1 accepted", "H0": "H0 accepted"}[self.decision]
        return (f"LLR {self.llr:+.2f} [{self.lower:.2f}, {self.upper:.2f}] {state} "
                f"after {self.units} units ({self.test})")
