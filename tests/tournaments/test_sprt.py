"""The SPRT of `koloda match --sprt`: its LLR against a brute-force constrained maximum
likelihood and against fishtest's own numbers, its bounds and decisions, its parser, and a
small seeded simulation that it keeps its error rates."""

import math

import numpy as np
import pytest

from koloda.games.errors import KolodaError
from koloda.games.kit.outcomes import returns_for_winners
from koloda.tournament import sprt
from koloda.tournament.sprt import Sprt, SprtError, SprtTest, parse_sprt
from koloda.tournament.sprt_check import SNITCH_LIKE, TWO_PLAYER, simulate, unit_distribution

# --- an independent LLR: maximize the likelihood over the constrained simplex directly ---

def _golden_max(f, low, high, iterations=90):
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
        else:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
    return (a + b) / 2


def _brute_max_loglik(n, values, s, sweeps=400):
    """max sum n_i log p_i over distributions p on `values` (first 0, last 1) with mean s:
    the two end masses follow from the interior ones, which are optimized one at a time
    by golden-section search (the objective is concave), sweep after sweep."""
    k = len(values)
    inner = list(range(1, k - 1))

    def ends(p):
        top = s - sum(values[i] * p[i] for i in inner)
        return 1.0 - sum(p[i] for i in inner) - top, top

    def loglik(p):
        p[0], p[-1] = ends(p)
        if min(p) <= 0:
            return -math.inf
        return sum(c * math.log(q) for c, q in zip(n, p))

    p = [1.0 / k] * k
    p[0], p[-1] = ends(p)
    if min(p) <= 0:      # start from a feasible point: mass only at the ends
        p = [1.0 - s] + [1e-9] * (k - 2) + [s]
    for _ in range(sweeps):
        for i in inner:
            def along(q, i=i):
                trial = list(p)
                trial[i] = q
                return loglik(trial)
            others = sum(p[j] for j in inner if j != i)
            others_mean = sum(values[j] * p[j] for j in inner if j != i)
            # feasible q: top = s - others_mean - v_i q > 0 and bottom > 0
            upper = min((s - others_mean) / values[i],
                        (1.0 - others - (s - others_mean)) / (1.0 - values[i]))
            p[i] = _golden_max(along, 0.0, upper)
        p[0], p[-1] = ends(p)
    return loglik(p)


def _brute_llr(counts, values, elo0, elo1):
    n = [c if c else sprt.REGULARIZATION for c in counts]
    return (_brute_max_loglik(n, values, float(sprt.score_of_elo(elo1)))
            - _brute_max_loglik(n, values, float(sprt.score_of_elo(elo0))))


@pytest.mark.parametrize("counts, values, elo0, elo1", [
    ([3, 20, 40, 25, 5], sprt.PENTANOMIAL, 0, 10),
    ([12, 31, 40, 22, 9], sprt.PENTANOMIAL, -5, 5),
    ([0, 7, 0, 9, 2], sprt.PENTANOMIAL, 0, 20),          # empty values: regularized
    ([30, 40, 45], (0.0, 0.5, 1.0), 0, 10),               # the trinomial: one free mass
    ([4, 9, 3, 6], (0.0, 1 / 3, 0.5, 1.0), 0, 30),        # any grid, not only even steps
])
def test_llr_matches_a_brute_force_constrained_maximum_likelihood(counts, values, elo0,
                                                                  elo1):
    expected = _brute_llr(counts, values, elo0, elo1)
    assert sprt.llr(counts, values, elo0, elo1) == pytest.approx(expected, abs=1e-6)


# LLRcalc.LLR_logistic and stat_util.get_elo of official-stockfish/fishtest
# (server/fishtest/stats), run on these counts
@pytest.mark.parametrize("counts, elo0, elo1, fishtest", [
    ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.1310678117940807),
    ([3, 20, 40, 25, 5], 0, 10, 0.4418471106647591),
    ([0, 0, 0, 0, 10], 0, 10, 0.28373748283974387),       # all wins
    ([0, 0, 50, 0, 0], 0, 10, -1.452044952441818),        # all draws
    ([1, 0, 0, 0, 0], 0, 10, -0.02925544637039795),
])
def test_pentanomial_llr_is_fishtests(counts, elo0, elo1, fishtest):
    assert sprt.pentanomial_llr(counts, elo0, elo1) == pytest.approx(fishtest, rel=1e-9)


def test_elo_estimate_is_fishtests():
    estimate = sprt.elo_estimate([10789, 19328, 33806, 19402, 10543], sprt.PENTANOMIAL)
    assert (estimate.elo, estimate.low, estimate.high) == pytest.approx(
        (-0.7735773359165423, -2.051167691664677, 0.5039920997913666), rel=1e-9)
    estimate = sprt.elo_estimate([3, 20, 40, 25, 5], sprt.PENTANOMIAL)
    assert (estimate.elo, estimate.low, estimate.high) == pytest.approx(
        (16.82453800028453, -15.141834526691756, 49.07891780978572), rel=1e-9)
    assert estimate.units == 93
    assert sprt.elo_estimate([0] * 5, sprt.PENTANOMIAL) is None
    perfect = sprt.elo_estimate([0, 0, 0, 0, 10], sprt.PENTANOMIAL)
    assert perfect.high == pytest.approx(1199.8, abs=0.1) and perfect.low > 500


def test_llr_takes_many_count_vectors_at_once():
    rows = np.array([[3, 20, 40, 25, 5], [0, 0, 0, 0, 0], [0, 0, 50, 0, 0], [9, 1, 0, 0, 0]])
    many = sprt.llr(rows, sprt.PENTANOMIAL, 0, 10)
    assert many.shape == (4,)
    assert many[1] == 0.0
    assert list(many) == pytest.approx([sprt.pentanomial_llr(r, 0, 10) for r in rows])


def test_the_llr_is_symmetric_under_swapping_the_agents():
    counts = [3, 20, 40, 25, 5]
    assert sprt.pentanomial_llr(counts[::-1], -10, 0) == pytest.approx(
        -sprt.pentanomial_llr(counts, 0, 10))


def test_bounds_are_walds():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439)
    assert upper == pytest.approx(math.log(0.95 / 0.05)) == pytest.approx(2.944439)
    assert SprtTest(alpha=0.01, beta=0.2).bounds == pytest.approx(
        (math.log(0.2 / 0.99), math.log(0.8 / 0.01)))


def test_the_decision_flips_where_the_llr_reaches_the_upper_bound():
    test = Sprt(SprtTest(elo0=0, elo1=10))
    previous = test.llr
    while test.decision is None:
        assert test.lower < test.llr < test.upper
        test.add(1.0)                                 # a won pair
        assert test.llr > previous
        previous = test.llr
    assert test.decision == "H1" and test.llr >= test.upper
    assert test.decided_at == test.units
    crossed = test.units
    check = Sprt(SprtTest(elo0=0, elo1=10))
    check.add_counts(np.array([0, 0, 0, 0, crossed - 1]))
    assert check.decision is None and check.llr < check.upper
    for _ in range(crossed):                          # units finishing after the decision
        test.add(0.0)
    assert test.llr < test.upper and test.decision == "H1" and test.decided_at == crossed


def test_the_decision_flips_where_the_llr_reaches_the_lower_bound():
    test = Sprt(SprtTest(elo0=0, elo1=10))
    while test.add(0.5) is None:                      # pairs shared 1-1: no evidence of +10
        assert test.llr > test.lower
    assert test.decision == "H0" and test.llr <= test.lower
    before = Sprt(SprtTest(elo0=0, elo1=10))
    before.add_counts(np.array([0, 0, test.units - 1, 0, 0]))
    assert before.decision is None


def test_add_and_add_counts_agree_and_units_are_on_the_grid():
    one, bulk = Sprt(players=3), Sprt(players=3)
    scores = [7 / 12, 0.5, 1.0, 0.25, 11 / 12, 0.0, 0.5]
    for score in scores:
        one.add(score)
    counts = np.zeros(13, dtype=int)
    for score in scores:
        counts[round(score * 12)] += 1
    bulk.add_counts(counts)
    assert one.llr == pytest.approx(bulk.llr) and one.units == bulk.units == 7
    assert one.elo().elo == pytest.approx(bulk.elo().elo)
    assert Sprt().elo() is None and Sprt().llr == 0.0 and Sprt().decision is None
    with pytest.raises(SprtError, match="multiple of 1/12"):
        one.add(0.3)
    with pytest.raises(SprtError, match=r"in \[0, 1\]"):
        one.add(1.5)
    with pytest.raises(SprtError, match="13 non-negative integers"):
        one.add_counts([1, 2, 3, 4, 5])
    assert str(one).startswith("LLR ")


def test_unit_values_and_game_scores():
    assert list(sprt.unit_values(2)) == list(sprt.PENTANOMIAL)
    assert len(sprt.unit_values(3)) == 13 and len(sprt.unit_values(4)) == 25
    with pytest.raises(SprtError, match="players"):
        sprt.unit_values(1)
    assert sprt.game_score([1.0, -1.0], 0) == 1.0
    assert sprt.game_score([1.0, -1.0], 1) == 0.0
    assert sprt.game_score([0.0, 0.0], 1) == 0.5
    one_winner = returns_for_winners(3, {1})
    assert [sprt.game_score(one_winner, s) for s in range(3)] == [0.25, 1.0, 0.25]
    two_winners = returns_for_winners(3, {0, 2})
    assert [sprt.game_score(two_winners, s) for s in range(3)] == [0.75, 0.0, 0.75]


def test_elo_and_score_are_logistic():
    assert float(sprt.score_of_elo(0)) == 0.5
    assert float(sprt.score_of_elo(400)) == pytest.approx(10 / 11)
    assert sprt.elo_of_score(float(sprt.score_of_elo(10))) == pytest.approx(10)
    assert sprt.elo_of_score(1.0) == pytest.approx(1199.8, abs=0.1)


# --- the command-line string ---

def test_parse_sprt_reads_fields_and_fills_defaults():
    assert parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05") == SprtTest(0, 10, 0.05, 0.05)
    assert parse_sprt("") == SprtTest() == SprtTest(0.0, 10.0, 0.05, 0.05)
    assert parse_sprt(" elo1 = 5 , beta=0.1") == SprtTest(elo1=5, beta=0.1)
    assert parse_sprt("elo0=-3,elo1=1e0") == SprtTest(elo0=-3, elo1=1)
    assert parse_sprt(str(SprtTest(-2, 3, 0.01, 0.2))) == SprtTest(-2, 3, 0.01, 0.2)


@pytest.mark.parametrize("text, named", [
    ("elo2=5", "unknown field 'elo2'"),
    ("elo1=ten", "field elo1 must be a number"),
    ("elo1=5,elo1=6", "field elo1 is given twice"),
    ("elo1", "is not field=value"),
    ("elo0=0,,elo1=5", "is not field=value"),
    ("elo0=10,elo1=10", "elo1 must be greater than elo0"),
    ("elo0=15", "elo1 must be greater than elo0"),
    ("alpha=0.5", "field alpha must be between 0 and 0.5"),
    ("beta=0", "field beta must be between 0 and 0.5"),
    ("alpha=-0.1", "field alpha"),
    ("elo1=nan", "field elo1 must be a finite number"),
    ("elo1=inf", "field elo1 must be a finite number"),
    ("elo1=5000", "field elo1 must be between -1000 and 1000"),
])
def test_parse_sprt_names_the_bad_field(text, named):
    with pytest.raises(SprtError, match=named) as caught:
        parse_sprt(text)
    assert isinstance(caught.value, KolodaError) and isinstance(caught.value, ValueError)


def test_sprt_test_checks_its_fields_when_built_directly():
    with pytest.raises(SprtError, match="field alpha must be a finite number"):
        SprtTest(alpha="0.05")
    with pytest.raises(SprtError, match="--sprt takes text like"):
        parse_sprt(None)


# --- simulation ---

def test_the_simulated_unit_distributions_have_the_true_mean():
    for model in (TWO_PLAYER, SNITCH_LIKE):
        values = sprt.unit_values(model.players)
        for elo in (-20, 0, 15):
            pmf = unit_distribution(model, elo)
            assert pmf.sum() == pytest.approx(1)
            assert pmf @ values == pytest.approx(float(sprt.score_of_elo(elo)), abs=1e-12)


def test_a_seeded_simulation_keeps_the_error_rates():
    """400 runs a point: the binomial spread of a rate near 0.1 is 0.015, so the margins
    below are over three of them; the seed fixes the outcome anyway."""
    test = SprtTest(elo0=0, elo1=40, alpha=0.1, beta=0.1)
    for k, model in enumerate((TWO_PLAYER, SNITCH_LIKE)):
        at_elo0 = simulate(test, model, 0.0, runs=400, seed=10 + k)
        at_elo1 = simulate(test, model, 40.0, runs=400, seed=20 + k)
        assert at_elo0.undecided == at_elo1.undecided == 0
        assert at_elo0.accepted_h1 / 400 <= 0.1 + 0.05
        assert at_elo1.accepted_h1 / 400 >= 0.9 - 0.05
        assert 20 < at_elo1.units.mean() < 2000
