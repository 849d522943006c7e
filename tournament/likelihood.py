"""Profile-likelihood intervals of Bradley-Terry ratings, for when the bootstrap collapses.

A bootstrap that resamples games can only show the variation the games showed.  When the
games of a table all came out alike (four-player Durak with three agents: the agent seated
twice was the durak every time), every resample refits the same counts, and the interval
has zero width however few the games.  The likelihood of the pairwise results does not
collapse: the 95% profile interval of agent k holds the ratings r whose best fit with k
held at r is within chi2(1, 0.95) / 2 = 1.92 log-likelihood units of the best fit overall.
It stays honest on such tables and is about as wide as the bootstrap on ordinary ones.

The likelihood is that of `pyspiel.elo`'s model: agent i beats j with probability
1 / (1 + 10^((r_j - r_i) / 400)), a draw counts half a win, and the same smoothing (a
pseudo-win for every ordered pair) keeps it bounded.  One difference, on purpose: when an
agent sits in several seats of one game, its results against another agent there are not
independent (in four-player Durak exactly one copy loses), so the results of a pair of
agents in one game weigh 1 / (seats of one x seats of the other): one game, at most one
result's worth of evidence per pair.
"""

from __future__ import annotations

import math

import numpy as np

from koloda.tournament import pairwise

ELO_PER_UNIT = 400.0 / math.log(10.0)     # Elo per natural-log unit of strength
CHI2_95 = 3.841458820694124               # chi-square, one degree of freedom, 95%
_FAR = 32.0                               # natural units (5,558 Elo): beyond, unbounded


def weighted_counts(outcomes, index: dict[str, int]):
    """(wins, draws) as float matrices, each pair's results in a game weighed by
    1 / (seats of one agent x seats of the other) in that game."""
    n = len(index)
    wins = np.zeros((n, n))
    draws = np.zeros((n, n))
    for outcome in outcomes:
        pairwise.add_game(wins, draws, [index[name] for name in outcome.seats],
                          outcome.returns, weigh=True)
    return wins, draws


class _Likelihood:
    """The smoothed Bradley-Terry log-likelihood of (wins, draws), in natural units."""

    def __init__(self, wins, draws, smoothing: float):
        n = len(wins)
        self.scored = np.asarray(wins) + 0.5 * np.asarray(draws) \
            + smoothing * (1.0 - np.eye(n))
        self.met = self.scored + self.scored.T

    def value(self, beta) -> float:
        gap = beta[:, None] - beta[None, :]
        return float(-(self.scored * np.logaddexp(0.0, -gap)).sum())

    def gradient_hessian(self, beta):
        gap = beta[:, None] - beta[None, :]
        p = 1.0 / (1.0 + np.exp(-gap))
        gradient = (self.scored - self.met * p).sum(axis=1)
        curvature = self.met * p * (1.0 - p)
        hessian = curvature - np.diag(curvature.sum(axis=1))
        return gradient, hessian

    def maximize(self, beta, directions):
        """The maximum over beta + directions @ y: Newton steps, halved while they do not
        climb, until the Newton decrement (the climb left) is negligible."""
        current = self.value(beta)
        for _ in range(100):
            gradient, hessian = self.gradient_hessian(beta)
            g = directions.T @ gradient
            curvature = directions.T @ hessian @ directions
            try:
                y = np.linalg.solve(curvature, -g)
            except np.linalg.LinAlgError:   # flat far out, where every result is certain
                y = np.linalg.lstsq(curvature, -g, rcond=None)[0]
            if g @ y < 1e-12:
                break
            step, t = directions @ y, 1.0
            while True:
                trial = beta + t * step
                value = self.value(trial)
                if value >= current or t < 1e-9:
                    break
                t /= 2.0
            if value < current:
                break
            beta, current = trial, value
        return beta, current


def _null_space(rows) -> np.ndarray:
    """An orthonormal basis of the vectors x with rows @ x = 0."""
    rows = np.atleast_2d(rows)
    _, _, vt = np.linalg.svd(rows)
    return vt[len(rows):].T


def profile_intervals(wins, draws, anchor_index: int | None = None, smoothing: float = 0.01):
    """(low, high) Elo of every agent: its 95% profile-likelihood interval, the zero at
    the anchor or, without one, at the mean; an end beyond 5,500 Elo is infinite."""
    n = len(wins)
    likelihood = _Likelihood(wins, draws, smoothing)
    zero = np.eye(n)[anchor_index] if anchor_index is not None else np.full(n, 1.0 / n)
    best, top = likelihood.maximize(np.zeros(n), _null_space(zero))
    low, high = np.full(n, -np.inf), np.full(n, np.inf)
    for k in range(n):
        if k == anchor_index:
            low[k] = high[k] = 0.0
            continue
        rows = np.vstack([zero, np.eye(n)[k] - zero])     # zero, and k's rating
        free = _null_space(rows)
        shift = np.linalg.pinv(rows) @ np.array([0.0, 1.0])  # moves k's rating by 1
        rating = best[k] - zero @ best

        def deviance(value, start, k=k, shift=shift, free=free):   # this iteration's
            beta = start + (value - (start[k] - zero @ start)) * shift
            beta, fit = likelihood.maximize(beta, free)
            return 2.0 * (top - fit) - CHI2_95, beta

        for side, ends in ((-1.0, low), (1.0, high)):
            end = _crossing(deviance, rating, side, best)
            ends[k] = end * ELO_PER_UNIT
    return low, high


def _crossing(deviance, centre: float, side: float, start) -> float:
    """Where the profile deviance crosses its 95% level on one side of `centre`: bracket
    by doubling steps, then regula falsi (Illinois); +-inf when it never does."""
    inside, outside = centre, None
    f_inside, beta = -CHI2_95, start
    step = 0.25
    while step <= _FAR:
        value = centre + side * step
        f, beta_value = deviance(value, beta)
        if f > 0:
            outside, f_outside = value, f
            break
        inside, f_inside, beta = value, f, beta_value
        step *= 2.0
    if outside is None:
        return side * math.inf
    kept = 0
    for _ in range(60):
        value = inside - f_inside * (outside - inside) / (f_outside - f_inside)
        f, beta_value = deviance(value, beta)
        if abs(f) < 1e-6 or abs(outside - inside) < 1e-6:
            return value
        if f > 0:
            outside, f_outside = value, f
            if kept == -1:
                f_inside /= 2.0
            kept = -1
        else:
            inside, f_inside, beta = value, f, beta_value
            if kept == 1:
                f_outside /= 2.0
            kept = 1
    return value
