"""Elo ratings for a tournament, with bootstrap intervals that say how sure we are.

A finished game is a `GameOutcome`: the agent in each seat and each seat's return (zero
sum, higher is better).  Every game becomes pairwise results by placement
(`tournament.pairwise`, as the likelihood counts them): for each pair of seats held by
different agents, the better placement beats the worse, equal placements draw (in
4-player Durak the three winners draw with each other and each beats the durak).  Pairs
of seats held by copies of one agent say nothing about who is stronger and are skipped.

Ratings come from a Bradley-Terry fit of those pairwise results (OpenSpiel's
`pyspiel.elo`, draws count half a win), on the Elo scale: a 75% expected score is
400*log10(3) ~ 191 Elo.  Intervals (`rating_intervals`) are percentile bootstrap intervals
that resample whole games, because the pairwise results of one multiplayer game are not
independent.  Where the resamples are degenerate, the profile likelihood
(tournament.likelihood) takes over: when the games of a table all came out alike, every
resample refits the same table, and the bootstrap alone would give an interval of zero
width after a handful of games.

Choice of `pyspiel.elo` options (see `ELO_OPTIONS`):

* smoothing_factor 0.01 (OpenSpiel's default).  OpenSpiel adds it as a pseudo-win to
  every ordered pair, so every pair - also pairs that never met - gets 2*0.01 virtual
  games scored 50-50.  That shrinks a 75% score over 100 games by 0.05 Elo (0.5 would
  shrink it by 2.3 Elo, and by 20 Elo over 10 games), so the estimates stay unbiased for
  honest intervals, while an undefeated agent still gets a finite rating (100-0 gives
  400*log10(100.01/0.01) = 1600 Elo).
* max_iterations 20000, convergence_delta 1e-12 instead of 2000 and 1e-10: OpenSpiel's
  minorization-maximization (MM) crawls when an agent is (nearly) undefeated, and with
  2000 iterations it stopped 138 Elo short of the fixed point in a 3-agent chain of
  100-0 results.  Ordinary data converge in a handful of iterations either way.

A rating the data cannot bound (an agent that never lost to the agents it is compared
with, or never scored against them) gets an infinite interval end: its finite point
estimate is then only a consequence of the smoothing.

Head-to-head scores (a gauntlet's matches) come with `clustered_score`: the mean score and
a 95% interval when games come in correlated clusters (the seat rotations of one deal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyspiel

from koloda.games.kit.outcomes import winners
from koloda.tournament import likelihood, pairwise


@dataclass
class GameOutcome:
    seats: list[str]       # agent name per seat
    returns: list[float]   # zero-sum; higher return = better placement


@dataclass
class RatingRow:
    rank: int
    agent: str
    elo: float
    low: float
    high: float
    games: int
    score: float   # mean pairwise score (win 1, draw 1/2); NaN without pairwise results
    wins: int      # wins, draws and losses count every seat the agent held: an agent
    draws: int     # seated twice in a game (a copy filling the table) has two results
    losses: int
    ms_per_move: float | None = None   # thinking time, filled in by the summary
    seats: int | None = None           # seat results in wins/draws/losses; None: games


@dataclass
class PairRecord:
    """Pairwise results of one agent against another (see `head_to_head`)."""
    wins: int
    draws: int
    losses: int
    score: float   # NaN when the two never met


@dataclass(frozen=True)
class ScoreInterval:
    """A mean score with its 95% interval (see `clustered_score`)."""
    score: float   # NaN without any game
    low: float
    high: float
    clusters: int


def elo_options() -> pyspiel.elo.EloOptions:
    """OpenSpiel's options with the choices explained in the module docstring.

    EloOptions has no Python constructor, so we start from the defaults and change them.
    """
    options = pyspiel.elo.default_elo_options()
    options.smoothing_factor = 0.01
    options.max_iterations = 20_000
    options.convergence_delta = 1e-12
    return options


ELO_OPTIONS = elo_options()


# --- pairwise results -------------------------------------------------------------

def _agent_index(agents) -> dict[str, int]:
    index = {name: i for i, name in enumerate(agents)}
    if len(index) != len(agents):
        raise ValueError(f"duplicate agent names in {list(agents)}")
    return index


def _seat_indices(outcome: GameOutcome, index: dict[str, int]) -> list[int]:
    if len(outcome.seats) != len(outcome.returns):
        raise ValueError(f"{len(outcome.seats)} seats but {len(outcome.returns)} returns")
    try:
        return [index[name] for name in outcome.seats]
    except KeyError as err:
        raise ValueError(f"agent {err.args[0]!r} is not in the agent list") from None


def game_matrices(outcome: GameOutcome, index: dict[str, int]):
    """One game's (wins, draws) contribution; the unit the bootstrap resamples."""
    n = len(index)
    wins = np.zeros((n, n), dtype=np.int64)
    draws = np.zeros((n, n), dtype=np.int64)
    pairwise.add_game(wins, draws, _seat_indices(outcome, index), outcome.returns)
    return wins, draws


def _stacked_matrices(outcomes, agents):
    """Per-game contributions as (games, n, n) arrays, computed once for the bootstrap."""
    index = _agent_index(agents)
    n = len(agents)
    wins = np.zeros((len(outcomes), n, n), dtype=np.int64)
    draws = np.zeros((len(outcomes), n, n), dtype=np.int64)
    for g, outcome in enumerate(outcomes):
        wins[g], draws[g] = game_matrices(outcome, index)
    return wins, draws


def pairwise_counts(outcomes, agents):
    """(wins, draws): wins[i][j] = times agent i placed above agent j; draws symmetric."""
    wins, draws = _stacked_matrices(outcomes, agents)
    return wins.sum(axis=0), draws.sum(axis=0)


# --- fitting ----------------------------------------------------------------------

def fit_elo(wins, draws, anchor_index: int | None = None) -> np.ndarray:
    """Bradley-Terry Elo (draws count half) via pyspiel.elo, shifted to the anchor or mean.

    OpenSpiel shifts its ratings so that the weakest agent has 0; only differences mean
    anything, so we move the zero to the anchor agent, or to the mean without one.
    """
    wins = np.asarray(wins, dtype=np.int64)
    draws = np.asarray(draws, dtype=np.int64)
    if wins.ndim != 2 or wins.shape[0] != wins.shape[1] or draws.shape != wins.shape:
        raise ValueError(f"need square matrices of one shape, got {wins.shape}, {draws.shape}")
    if not np.array_equal(draws, draws.T):
        raise ValueError("the draw matrix must be symmetric")
    ratings = np.array(pyspiel.elo.compute_ratings_from_matrices(
        wins.tolist(), draws.tolist(), ELO_OPTIONS))
    zero = ratings.mean() if anchor_index is None else ratings[anchor_index]
    return ratings - zero


def _reachable(edges: np.ndarray) -> np.ndarray:
    """Transitive closure (with self-loops) of a boolean adjacency matrix."""
    reach = edges | np.eye(len(edges), dtype=bool)
    while True:
        wider = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(wider, reach):
            return reach
        reach = wider


def unbounded_sides(wins, draws, anchor_index: int | None = None):
    """(above, below): which ratings the data cannot bound from above / from below.

    Agent k's rating relative to the anchor a is bounded above only if a chain of results
    "a scored against x1, x1 against x2, ..., against k" exists (scored = won or drew):
    otherwise raising k and everyone k was never beaten by only improves the fit, and the
    finite estimate comes from the smoothing alone.  Without an anchor (mean zero) every
    other agent plays the anchor's part.
    """
    scored = (np.asarray(wins) > 0) | (np.asarray(draws) > 0)
    reach = _reachable(scored)          # reach[i, k]: a chain from i down to k
    if anchor_index is None:
        return ~reach.all(axis=0), ~reach.all(axis=1)
    return ~reach[anchor_index, :], ~reach[:, anchor_index]


# --- bootstrap --------------------------------------------------------------------

def _anchor_index(agents, anchor: str | None) -> int | None:
    if anchor is None:
        return None
    if anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not in the agent list")
    return list(agents).index(anchor)


def _compress(wins, draws):
    """Distinct per-game contributions and each game's type: few types, fast resamples."""
    flat = np.concatenate([wins.reshape(len(wins), -1), draws.reshape(len(draws), -1)], axis=1)
    types, game_type = np.unique(flat, axis=0, return_inverse=True)
    return types, game_type.reshape(-1)


def bootstrap_intervals(outcomes, agents, anchor: str | None = None, samples: int = 1000,
                        seed: int = 0, level: float = 0.95):
    """(elo, low, high): the fit to all games and percentile intervals from refits.

    Whole games are resampled with replacement, so the correlated pairwise results of one
    multiplayer game stay together.  Each game's contribution is computed once; a resample
    is then the count of each distinct contribution times that contribution.
    """
    n = len(agents)
    anchor_index = _anchor_index(agents, anchor)
    game_wins, game_draws = _stacked_matrices(outcomes, agents)
    wins, draws = game_wins.sum(axis=0), game_draws.sum(axis=0)
    elo = fit_elo(wins, draws, anchor_index)
    if not outcomes or samples <= 0:
        nan = np.full(n, np.nan)
        return elo, nan, nan.copy()

    types, game_type = _compress(game_wins, game_draws)
    rng = np.random.default_rng(seed)
    refits = np.empty((samples, n))
    for b in range(samples):
        picked = rng.integers(0, len(outcomes), size=len(outcomes))
        counts = np.bincount(game_type[picked], minlength=len(types)) @ types
        refits[b] = fit_elo(counts[:n * n].reshape(n, n), counts[n * n:].reshape(n, n),
                            anchor_index)

    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(refits, [tail, 100.0 - tail], axis=0)
    above, below = unbounded_sides(wins, draws, anchor_index)
    high[above] = np.inf
    low[below] = -np.inf
    return elo, low, high


# A bootstrap end less than this share as far from the estimate as the likelihood's end
# comes from resamples that did not vary (the games repeat one result), not from evidence:
# draws alone make honest bootstrap intervals narrower than the likelihood's (which counts
# a draw as a coin toss), but by far less (0.77 as wide at 40% draws).
TRUSTED_SHARE = 0.5


def rating_intervals(outcomes, agents, anchor: str | None = None, samples: int = 1000,
                     seed: int = 0):
    """(elo, low, high): the fit to all games and 95% intervals.

    Each end is the bootstrap's (`bootstrap_intervals`) unless the resamples were
    degenerate there: an end less than `TRUSTED_SHARE` as far from the estimate as the
    profile likelihood's (`tournament.likelihood.profile_intervals`) is replaced by the
    likelihood's.  So a table whose games all came out alike cannot give an interval
    narrower than the evidence of that many games, while ordinary tables keep the
    bootstrap, which sees how the games of a table are correlated.
    """
    elo, low, high = bootstrap_intervals(outcomes, agents, anchor, samples, seed)
    if not outcomes or samples <= 0:
        return elo, low, high
    wins, draws = likelihood.weighted_counts(outcomes, _agent_index(agents))
    profile_low, profile_high = likelihood.profile_intervals(
        wins, draws, _anchor_index(agents, anchor), ELO_OPTIONS.smoothing_factor)
    with np.errstate(invalid="ignore"):     # inf - inf where both ends are unbounded
        low = np.where(elo - low < TRUSTED_SHARE * (elo - profile_low), profile_low, low)
        high = np.where(high - elo < TRUSTED_SHARE * (profile_high - elo), profile_high, high)
    return elo, np.minimum(low, elo), np.maximum(high, elo)


# --- head-to-head probabilities ---------------------------------------------------

def likelihood_of_superiority(wins, draws) -> np.ndarray:
    """LOS[i][j]: probability that i is stronger than j, from their decisive games only.

    The cutechess/fishtest normal approximation 0.5 * (1 + erf((w - l) / sqrt(2 (w + l)))).
    Draws do not enter (they tell nothing about who is stronger); they are taken so the
    call matches the other functions.  0.5 without a decisive game, NaN on the diagonal.
    """
    w = np.asarray(wins, dtype=float)
    lost = w.T
    decisive = w + lost
    z = np.divide(w - lost, np.sqrt(2.0 * decisive), out=np.zeros_like(w), where=decisive > 0)
    los = 0.5 * (1.0 + np.vectorize(math.erf)(z))
    np.fill_diagonal(los, np.nan)
    return los


# --- tables -----------------------------------------------------------------------

def _game_results(outcomes, agents):
    """Per agent (games, seats, wins, draws, losses): games counted once per agent, the
    results once per seat it held.

    A seat wins when it is among the winners; a game without winners (all returns equal)
    is a draw for every seat; anything else is a loss.  Counting every seat keeps an agent
    seated twice honest: in four-player Durak one of its copies may win every game while
    the other is the durak in every game.
    """
    index = _agent_index(agents)
    counts = np.zeros((len(agents), 5), dtype=np.int64)
    for outcome in outcomes:
        seats = _seat_indices(outcome, index)
        won = set(winners(outcome.returns))
        for agent in set(seats):
            counts[agent, 0] += 1
        for seat, agent in enumerate(seats):
            column = 2 if seat in won else (3 if not won else 4)
            counts[agent, 1] += 1
            counts[agent, column] += 1
    return counts


def _score(wins: float, draws: float, losses: float) -> float:
    total = wins + draws + losses
    return float(wins + 0.5 * draws) / float(total) if total else math.nan


def rating_table(outcomes, agents, anchor: str | None = None, samples: int = 1000,
                 seed: int = 0) -> list[RatingRow]:
    """One row per agent, best Elo first, with its 95% interval and game record."""
    elo, low, high = rating_intervals(outcomes, agents, anchor, samples, seed)
    wins, draws = pairwise_counts(outcomes, agents)
    games = _game_results(outcomes, agents)
    order = sorted(range(len(agents)), key=lambda i: (-elo[i], agents[i]))
    rows = []
    for rank, i in enumerate(order, start=1):
        score = _score(wins[i].sum(), draws[i].sum(), wins[:, i].sum())
        rows.append(RatingRow(rank=rank, agent=agents[i], elo=float(elo[i]),
                              low=float(low[i]), high=float(high[i]),
                              games=int(games[i, 0]), score=score, wins=int(games[i, 2]),
                              draws=int(games[i, 3]), losses=int(games[i, 4]),
                              seats=int(games[i, 1])))
    return rows


def head_to_head(outcomes, agents) -> dict[str, dict[str, PairRecord]]:
    """h2h[a][b] = the pairwise `PairRecord` of a against b (a != b).

    The score is NaN when a and b never met.
    """
    wins, draws = pairwise_counts(outcomes, agents)
    table: dict[str, dict] = {}
    for i, a in enumerate(agents):
        table[a] = {}
        for j, b in enumerate(agents):
            if i == j:
                continue
            w, d, lost = int(wins[i, j]), int(draws[i, j]), int(wins[j, i])
            table[a][b] = PairRecord(w, d, lost, _score(w, d, lost))
    return table


# --- head-to-head scores over clusters of games -------------------------------------

def clustered_score(clusters, z: float = 1.96) -> ScoreInterval:
    """The mean score over clusters of correlated games, with its 95% interval.

    `clusters` holds, per cluster (a deal of a gauntlet: the same cards with the agent in
    each seat), the scores of its games.  The cluster is the independent unit: the score
    is the mean of the per-cluster mean scores, and the interval is the normal one from
    their spread (mean +- z * standard error), cut to [0, 1].  When every cluster has the
    same mean the spread is zero however few the clusters, so the interval is then the
    Wilson interval of that mean over as many coin-toss clusters, the widest a mean of
    scores in [0, 1] can honestly need.  One cluster gives [0, 1], none gives NaN.
    """
    means = [sum(c) / len(c) for c in clusters if len(c)]
    k = len(means)
    if k == 0:
        return ScoreInterval(math.nan, math.nan, math.nan, 0)
    mean = sum(means) / k
    if k < 2:
        return ScoreInterval(mean, 0.0, 1.0, k)
    var = sum((m - mean) ** 2 for m in means) / (k - 1)
    if var == 0.0:
        low, high = wilson_interval(mean, k, z)
        return ScoreInterval(mean, low, high, k)
    half = z * math.sqrt(var / k)
    return ScoreInterval(mean, max(0.0, mean - half), min(1.0, mean + half), k)


def wilson_interval(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share observed in n independent trials.  It holds
    the share itself even where rounding would put a bound a hair inside it (a share of
    1 has an upper bound 0.9999999999999999 in floating point)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half))
