"""The order-statistic interval for a difference of medians: its order statistics against
the binomial law, its ends, its coverage where the spreads differ (where a shift-model rank
interval does not hold its level) and on a discrete law, and its refusals."""
import math

import numpy as np
import pytest
from scipy import stats as st

from theory.stats import median_difference
from theory.stats.medians import median_order_index


@pytest.mark.parametrize("n", [1, 2, 5, 16, 17, 32, 50, 64, 101, 400])
@pytest.mark.parametrize("tail", [0.2, 0.025, 1e-3, 3.125e-5, 1e-6])
def test_order_index_is_the_largest_k_inside_the_binomial_tail(n, tail):
    k, t = median_order_index(n, tail)
    cdf = st.binom.cdf(np.arange(n + 1), n, 0.5)
    if k == 0:
        assert cdf[0] > tail * (1 + 1e-12) and t == 0.0
    else:
        assert cdf[k - 1] <= tail * (1 + 1e-12) and math.isclose(t, cdf[k - 1], rel_tol=1e-9)
        assert k == (n + 1) // 2 or cdf[k] > tail * (1 - 1e-12)


def test_ends_are_the_named_order_statistics():
    a, b = np.random.default_rng(1).permutation(np.arange(40.0) + 10), np.arange(40.0)
    r = median_difference(a, b, 1e-3)  # k = 9 of 40 at a tail of 2.5e-4 each
    assert r.k == (9, 9) and (r.lo, r.hi) == (18.0 - 31.0, 41.0 - 8.0) and r.estimate == 10.0
    assert r.coverage == pytest.approx(1 - 4 * st.binom.cdf(8, 40, 0.5)) and r.coverage >= 1 - 1e-3


def _miss_rate(draw_a, draw_b, alpha, reps, seed):
    """Fraction of ``reps`` pairs of samples whose interval misses the true difference 0."""
    rng = np.random.default_rng(seed)
    miss = 0
    for _ in range(reps):
        r = median_difference(draw_a(rng), draw_b(rng), alpha)
        miss += not (r.lo <= 0.0 <= r.hi)
    return miss / reps, r


def test_coverage_holds_when_the_spreads_differ_fourfold():
    """Normal laws of equal medians and sd 1 vs 4 (the log norms of zeroinit2019 Table 1 differ
    so between depths), 16 per sample: the rate stays below the guaranteed 2 miss <= alpha."""
    rate, r = _miss_rate(lambda g: g.normal(0, 1, 16), lambda g: 4 * g.normal(0, 1, 16), 0.2, 20000, 7)
    assert rate <= 2 * r.miss <= 0.2


def test_coverage_holds_on_a_discrete_law_with_ties():
    """Poisson(3) draws (median 3, many ties): the bound needs no continuity."""
    rate, r = _miss_rate(lambda g: g.poisson(3.0, 25).astype(float), lambda g: g.poisson(3.0, 25).astype(float),
                         0.2, 20000, 8)
    assert rate <= 2 * r.miss <= 0.2


def test_unbounded_when_a_sample_is_too_small():
    r = median_difference(np.arange(4.0) + 100, np.arange(16.0), 1e-3)  # 2^-4 > 2.5e-4
    assert (r.lo, r.hi) == (-math.inf, math.inf) and r.k == (0, 1) and r.coverage == 1.0
    assert math.isfinite(median_difference(np.arange(16.0) + 100, np.arange(16.0), 6.2e-5).lo)  # 2^-16 <= 1.55e-5
    assert median_difference(np.arange(16.0) + 100, np.arange(16.0), 6.0e-5).lo == -math.inf


@pytest.mark.parametrize("alpha", [0, 1, -0.1, "0.05", None])
def test_alpha_outside_the_unit_interval_is_refused(alpha):
    with pytest.raises(ValueError, match="alpha must be a number in"):
        median_difference([1.0, 2.0], [0.0, 1.0], alpha)


def test_empty_or_non_finite_samples_are_refused():
    with pytest.raises(ValueError, match="a must be a 1-D finite sample"):
        median_difference([], [1.0], 0.05)
    with pytest.raises(ValueError, match="b must be a 1-D finite sample"):
        median_difference([1.0], [np.nan], 0.05)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        median_order_index(0, 0.1)
