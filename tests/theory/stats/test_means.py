"""Student-t and Welch tests: the verdict rules, the degrees of freedom, the resolution."""
import numpy as np
import pytest
from hypothesis import given
from scipy import stats as st

from theory.core import Verdict
from theory.stats import (
    MIN_REPLICATES,
    TooFewReplicates,
    detectable_deviation,
    difference,
    estimate,
    mean_at_least,
    mean_at_most,
    mean_equals,
)

from ...strategies import seeds


@given(seed=seeds)
def test_true_mean_holds_when_resolved(seed):
    x = np.random.default_rng(seed).exponential(size=20000)
    # half-width about 5 se = 0.035 and |mean - 1| below 5 se unless rejected: inside +-0.1
    assert mean_equals(x, 1.0, alpha=1e-6, tol=0.1).verdict == Verdict.HOLDS


@given(seed=seeds)
def test_deviation_of_twice_the_resolution_fails(seed):
    x = np.random.default_rng(seed).normal(1.0, 1.0, size=10000)
    res = detectable_deviation(0.01, 9999, 1e-6)
    assert mean_equals(x + 2 * res, 1.0, alpha=1e-6, tol=0.5).verdict == Verdict.FAILS


def test_coarse_resolution_is_inconclusive_not_holds():
    x = np.random.default_rng(0).normal(1.0, 1.0, size=MIN_REPLICATES)
    assert mean_equals(x, 1.0, alpha=1e-6, tol=0.01).verdict == Verdict.INCONCLUSIVE


def test_interval_uses_student_t_with_n_minus_1_degrees_of_freedom():
    x = np.tile([0.9, 1.1, 1.0, 1.2, 0.8], MIN_REPLICATES // 5)  # skewness 0: the plain t interval
    e = estimate(x)
    lo, hi = e.interval(0.05)
    assert e.df == x.size - 1
    assert hi - e.mean == pytest.approx(st.t.isf(0.025, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))


def test_tests_refuse_to_decide_below_the_minimum_replicates():
    """Below MIN_REPLICATES per sample an interval or p-value raises TooFewReplicates (the
    runner does not judge that look); the estimate itself is still available."""
    x = np.random.default_rng(5).normal(size=MIN_REPLICATES)
    e, d = estimate(x[:-1]), difference(x, x[:-1])
    assert e.n == MIN_REPLICATES - 1 and np.isfinite(e.mean)
    for ask in (lambda: e.interval(0.05), lambda: e.p_value(0.0, "upper"), lambda: d.interval(0.05),
                lambda: mean_equals(x[:-1], 0.0, 0.05, 0.1)):
        with pytest.raises(TooFewReplicates, match=f"at least {MIN_REPLICATES}"):
            ask()
    estimate(x).interval(0.05)  # at the minimum it decides


def test_welch_degrees_of_freedom_match_scipy():
    g = np.random.default_rng(1)
    a, b = g.normal(0, 1, 120), g.normal(0, 3, 300)
    d = difference(a, b)
    assert d.df == pytest.approx(st.ttest_ind(a, b, equal_var=False).df)
    assert d.mean == pytest.approx(a.mean() - b.mean())


def test_bound_tests_reject_only_when_the_data_do():
    g = np.random.default_rng(2)
    x = g.normal(1.0, 0.1, 1000)
    assert mean_at_most(x, 1.05, 1e-6).verdict == Verdict.HOLDS
    assert mean_at_most(x, 0.9, 1e-6).verdict == Verdict.FAILS
    assert mean_at_most(x, 1.0, 1e-6).verdict == Verdict.INCONCLUSIVE
    assert mean_at_least(x, 0.95, 1e-6).verdict == Verdict.HOLDS


def test_welch_rule_uses_the_skewness_of_the_difference():
    """Welch's difference is tested by the one-sample rule with Hall's coefficient of the
    difference: against a constant sample it is the one-sample test; its interval
    contains the plain Welch interval."""
    from theory.stats.means import MeanEstimate

    x = np.random.default_rng(6).lognormal(0, 0.5, 200)
    d, e = difference(x, np.zeros(200)), estimate(x)
    assert d.skew_a == pytest.approx(e.skew_a) and d.skew_a > 0
    lo, hi = d.interval(1e-4)
    p_lo, p_hi = MeanEstimate(d.mean, d.se, d.df, d.n).interval(1e-4)
    assert lo == pytest.approx(p_lo) and hi > p_hi


def test_p_value_names_its_side():
    e = estimate(np.linspace(0.0, 1.0, MIN_REPLICATES))
    with pytest.raises(ValueError, match="side must be one of"):
        e.p_value(0.5, "left")


@pytest.mark.parametrize("bad,message", [([1.0], "at least 2"), ([1.0, np.nan, 2.0], "finite")])
def test_bad_samples_raise(bad, message):
    with pytest.raises(ValueError, match=message):
        estimate(bad)


def test_mean_within_does_not_fail_a_measurable_drift_inside_its_band():
    """A statement with its own tolerance: a mean measurably off target but inside the
    band holds (mean_equals would fail it); outside the band it fails; on the edge it
    is inconclusive."""
    from theory.stats import mean_within

    rng = np.random.default_rng(3)
    x = 0.02 + 0.01 * rng.standard_normal(400)
    assert mean_equals(x, 0.0, 1e-6, 0.05, relative=False).verdict == Verdict.FAILS
    assert mean_within(x, 0.0, 1e-6, 0.05, relative=False).verdict == Verdict.HOLDS
    assert mean_within(x + 0.1, 0.0, 1e-6, 0.05, relative=False).verdict == Verdict.FAILS
    assert mean_within(x + 0.03, 0.0, 1e-6, 0.05, relative=False).verdict == Verdict.INCONCLUSIVE
    assert mean_within(x + 0.1, 0.0, 1e-6, 0.05, relative=False).p_value < 1e-6


@pytest.mark.parametrize("kind,estimate,need", [
    ("equals", 1.05, 0.15),   # room to the band edge 1.2 is larger than the deviation 0.05
    ("equals", 1.15, 0.15),   # the deviation 0.15 is larger than the room 0.05: failing decides first
    ("within", 1.15, 0.05),   # within: only the distance to the edge decides
    ("within", 1.3, 0.1),     # outside the band: the distance beyond the edge
    ("within", 1.2, 0.0),     # on the edge: nothing decides it
    ("bound", 1.15, 0.15),    # one-sided: the distance to the bound (target)
])
def test_shortfall_is_half_width_over_what_decides(kind, estimate, need):
    from theory.core import Verdict
    from theory.stats.means import TestResult

    r = TestResult(Verdict.INCONCLUSIVE, estimate, 0.1, 9, 10, (estimate - 0.3, estimate + 0.3), 0.5, 0.05, 1.0,
                   (0.8, 1.2), 0.2, kind)
    assert r.shortfall == (pytest.approx(0.3 / need) if need else float("inf"))


def test_shortfall_uses_the_side_that_decides():
    """Skewness-corrected intervals are asymmetric: the end facing the edge counts."""
    from theory.core import Verdict
    from theory.stats.means import TestResult

    r = TestResult(Verdict.INCONCLUSIVE, 1.1, 0.1, 9, 10, (1.05, 1.4), 0.5, 0.05, 1.0, (0.8, 1.2), 0.2, "bound")
    assert r.shortfall == pytest.approx(0.05 / 0.1)  # the lower end faces the bound 1.0
    r = TestResult(Verdict.INCONCLUSIVE, 1.1, 0.1, 9, 10, (1.05, 1.4), 0.5, 0.05, 1.0, (0.8, 1.2), 0.2, "equals")
    assert r.shortfall == pytest.approx(min(0.3 / 0.1, 0.05 / 0.1))


def test_hall_inverse_undoes_the_correction():
    from theory.stats.skewness import hall_corrected, hall_inverse

    for a in (-0.2, -1e-3, 0.0, 1e-13, 0.05, 0.3):
        for t in (-4.0, -0.5, 0.0, 2.0, 6.0):
            assert float(hall_inverse(hall_corrected(t, a), a)) == pytest.approx(t, abs=1e-9)


@given(seed=seeds)
def test_one_sample_test_rejects_only_where_both_statistics_reject(seed):
    """The interval is the union of the plain and the corrected test's intervals, each tail
    at alpha/2 for one- and two-sided tests alike, and the p-values agree with it: an end
    of the interval is where the test rejects at alpha; for right- and left-skewed samples
    (each end is decided by the corrected statistic for one of the two)."""
    from theory.stats.means import MeanEstimate
    from theory.stats.skewness import hall_inverse

    x0 = np.random.default_rng(seed).lognormal(0.0, 0.8, MIN_REPLICATES)
    for x in (x0, -x0):
        e = estimate(x)
        assert e.skew_a != 0
        plain = MeanEstimate(e.mean, e.se, e.df, e.n)
        for alpha in (1e-6, 1e-3):
            q = st.t.isf(alpha / 2, e.df)
            corrected = (e.mean - float(hall_inverse(q, e.skew_a)) * e.se,
                         e.mean - float(hall_inverse(-q, e.skew_a)) * e.se)
            lo, hi = e.interval(alpha)
            p_lo, p_hi = plain.interval(alpha)
            assert lo == pytest.approx(min(p_lo, corrected[0])) and hi == pytest.approx(max(p_hi, corrected[1]))
            # the skewed side's end comes from the corrected statistic, the other from the plain t
            assert (hi > p_hi and lo == p_lo) if e.skew_a > 0 else (lo < p_lo and hi == p_hi)
            assert e.p_value(hi, "lower") == pytest.approx(alpha, rel=1e-6)
            assert e.p_value(lo, "upper") == pytest.approx(alpha, rel=1e-6)
            assert e.p_value(lo - e.se, "both") < alpha and e.p_value(hi + e.se, "both") < alpha
            assert e.p_value(e.mean, "both") > alpha


@pytest.mark.parametrize("a", [-1 / 3, -0.1, -1e-9, 1e-12, 0.02, 1 / 3])
def test_rule_rejects_no_more_than_either_statistic(a):
    """On each side the p-value is at least twice each statistic's own tail: the rule's
    rejection region lies inside the plain t test's at alpha/2 per tail (exact on Gaussian
    data, so the rule keeps alpha there) and inside the corrected test's."""
    from theory.stats.means import MeanEstimate
    from theory.stats.skewness import hall_corrected

    n = MIN_REPLICATES
    e = MeanEstimate(0.0, 1.0, n - 1.0, n, a)
    for t in np.linspace(-12, 12, 97):
        value = -t  # (mean - value) / se = t
        th = float(hall_corrected(t, a))
        assert e.p_value(value, "upper") >= min(1, 2 * max(st.t.sf(t, n - 1), st.t.sf(th, n - 1))) * (1 - 1e-12)
        assert e.p_value(value, "lower") >= min(1, 2 * max(st.t.cdf(t, n - 1), st.t.cdf(th, n - 1))) * (1 - 1e-12)
        assert e.p_value(value, "both") >= min(1, 2 * st.t.sf(abs(t), n - 1)) * (1 - 1e-12)


def test_recording_tests_sees_each_tested_estimate_once():
    """Only inside the block, only estimates (one-sample or Welch) whose interval or
    p-value was asked, each once, with the smallest per-side level of its intervals;
    recording leaves the estimate's numbers as they were."""
    from theory.stats.means import recording_tests

    x = np.random.default_rng(4).lognormal(0, 0.5, 2 * MIN_REPLICATES)
    outside = estimate(x)
    outside.interval(0.01)
    with recording_tests() as seen:
        e, _untested = estimate(x), estimate(x[:20])
        e.interval(0.01), e.p_value(1.0, "both"), e.interval(0.1)
        d, _untested_d = difference(x, x[:MIN_REPLICATES]), difference(x[:20], x)
        d.p_value(0.0, "lower")
    assert [t for t, _ in seen] == [e, d] and seen[0][0] is e and e == outside
    assert seen[0][1] == 0.005 and seen[1][1] is None  # alpha/2 per side; a p-value alone names no level
    assert e.skewness == pytest.approx(st.skew(x)) and d.skewness is None
    assert d.welch_parts == (pytest.approx((2 * MIN_REPLICATES, st.skew(x))),
                             pytest.approx((MIN_REPLICATES, st.skew(x[:MIN_REPLICATES]))))
    with recording_tests() as seen:
        with pytest.raises(ValueError, match="alpha must be in"):
            estimate(x).interval(0.0)
    assert seen == []  # a refused alpha records nothing
