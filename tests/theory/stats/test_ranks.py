"""The exact Mann-Whitney shift interval: its null law against a brute-force count, its ends
against scipy's exact rank test (the shifted sample is just rejected outside, just not
rejected inside), its coverage on a simulation, and the undecidable and bad inputs."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu

from tests.strategies import seeds
from theory.stats import shift_interval
from theory.stats.ranks import rank_sum_null_counts


@pytest.mark.parametrize("m, n", [(1, 1), (2, 3), (3, 4), (4, 4), (5, 2)])
def test_null_counts_match_brute_force(m, n):
    counts = [0] * (m * n + 1)
    for pos in itertools.combinations(range(m + n), m):  # ranks of a among the pooled sample
        counts[sum(p - i for i, p in enumerate(pos))] += 1  # U = number of b's below each a
    assert list(rank_sum_null_counts(m, n)) == counts
    assert sum(rank_sum_null_counts(m, n)) == math.comb(m + n, m)


def test_null_counts_are_exact_at_the_largest_size():
    c = rank_sum_null_counts(100, 100)
    assert sum(c) == math.comb(200, 100) and c == c[::-1]


@settings(max_examples=25, deadline=None)
@given(seed=seeds, m=st.integers(6, 14), n=st.integers(6, 14), alpha=st.sampled_from([0.01, 0.05, 0.2]))
def test_interval_ends_agree_with_scipys_exact_test(seed, m, n, alpha):
    g = np.random.default_rng(seed)
    a, b = g.normal(0.7, 1.0, m), g.normal(0.0, 1.0, n)
    s = shift_interval(a, b, alpha)
    d = np.sort((a[:, None] - b[None, :]).ravel())
    assert s.k >= 1 and math.isclose(s.estimate, float(np.median(d)))

    def p(delta):
        return mannwhitneyu(a - delta, b, alternative="two-sided", method="exact").pvalue

    eps = 1e-9
    for end, inward in ((s.lo, +1), (s.hi, -1)):
        assert p(end + inward * eps) > alpha  # just inside: not rejected
        assert p(end - inward * eps) <= alpha  # just outside: rejected


def test_coverage_is_at_least_the_level():
    """2000 draws, m = n = 8, alpha = 0.1, skewed (log-normal) laws shifted by 1.5."""
    g = np.random.default_rng(20250)
    alpha, hits, draws = 0.1, 0, 2000
    for _ in range(draws):
        a, b = g.lognormal(0, 1, 8) + 1.5, g.lognormal(0, 1, 8)
        s = shift_interval(a, b, alpha)
        hits += s.lo <= 1.5 <= s.hi
    # nominal coverage >= 0.9 (exact: the achieved level); allow 3 binomial sd below it
    assert hits / draws >= 1 - alpha - 3 * math.sqrt(alpha * (1 - alpha) / draws)
    assert s.coverage >= 1 - alpha


def test_tiny_samples_give_the_whole_line():
    s = shift_interval([1.0, 2.0, 3.0], [0.0, 0.5], 0.05)  # P(U <= 0) = 1/10 > 0.025
    assert (s.lo, s.hi, s.k) == (-math.inf, math.inf, 0)
    # m = n = 8: the least two-sided p is 2 / C(16, 8) = 1.55e-4
    x = np.arange(8.0)
    assert math.isfinite(shift_interval(x + 100, x, 1.6e-4).lo)
    assert shift_interval(x + 100, x, 1.5e-4).lo == -math.inf


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, float("nan"), "0.05"])
def test_bad_alpha_is_named(alpha):
    with pytest.raises(ValueError, match="alpha must be a number in"):
        shift_interval([1.0, 2.0], [0.0, 1.0], alpha)


def test_bad_samples_are_named():
    with pytest.raises(ValueError, match="a must be"):
        shift_interval([], [1.0], 0.05)
    with pytest.raises(ValueError, match="b must be"):
        shift_interval([1.0], [np.nan], 0.05)


def test_above_the_exact_size_the_normal_law_gives_a_slightly_wider_interval():
    """Past MAX_SIZE per group k comes from the normal law of U: at the largest exact size
    never above the exact k (conservative) and within 1% of it, out to 1e-6."""
    from theory.stats.ranks import MAX_SIZE, _normal_k

    m = n = MAX_SIZE
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.3, 1, m), rng.normal(0, 1, n)
    for alpha in (1e-2, 1e-4, 1e-6):
        exact = shift_interval(a, b, alpha)
        assert 0.99 * exact.k <= _normal_k(m, n, alpha) <= exact.k
    big = shift_interval(rng.normal(0.3, 1, 2 * MAX_SIZE), rng.normal(0, 1, 2 * MAX_SIZE), 1e-4)
    assert big.lo < 0.3 < big.hi and big.k > 0 and 1 - 1e-4 <= big.coverage < 1


def test_k_is_exact_at_a_boundary_alpha():
    """alpha / 2 equal to j / C(m + n, m) admits k = j + 1 ... as far as P(U <= k - 1) allows:
    the comparison is in exact rationals, so a float rounding cannot drop a k."""
    from math import comb

    from theory.stats.ranks import rank_sum_null_counts

    m = n = 8
    total = comb(m + n, m)
    counts = rank_sum_null_counts(m, n)
    for j in (1, 2, 3):
        alpha = 2 * j / total
        k = shift_interval(np.arange(m, dtype=float), np.arange(n, dtype=float) + 0.5, alpha).k
        assert sum(counts[:k]) <= j < sum(counts[:k + 1])
