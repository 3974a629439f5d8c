"""Distribution-free location shift: the Hodges-Lehmann estimate and its exact
confidence interval from the Mann-Whitney (Wilcoxon rank-sum) test.

For samples a (size m) and b (size n) let d_(1) <= ... <= d_(mn) be the sorted pairwise
differences a_i - b_j. The shift estimate is their median (Hodges and Lehmann 1963), and

    [d_(k), d_(mn+1-k)],   k = max{k >= 1 : P(U <= k - 1) <= alpha / 2},

is a two-sided confidence interval of level at least 1 - alpha, where U is the
Mann-Whitney statistic under H0 (its exact law below). Why: for the true shift delta the
count #{d_ij <= delta} has the null law of U, and delta < d_(k) exactly when that count
is at most k - 1; the upper end is the mirror image (U is symmetric about mn / 2).
Lehmann, *Nonparametrics* (1975), Sec. 2.6; Bauer, JASA 67 (1972) 687-690.

The null law of U is counted exactly (Python integers): the number of rank arrangements
with U = u is the coefficient of q^u in the Gaussian binomial

    [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),

the closed form of the standard recursion N(u; m, n) = N(u - n; m - 1, n) + N(u; m, n - 1)
(Mann and Whitney 1947); O(m^2 n) integer operations: 0.1 s at m = n = 100, 2 s at 200
(cached per (m, n)). Above ``MAX_SIZE`` per group k comes from the normal law of U
(mean mn / 2, variance mn (m + n + 1) / 12, continuity-corrected): U is bounded and
lighter-tailed than the normal, so the normal tail overstates P(U <= k - 1) and the
interval is, if anything, wider than exact.

Assumption: the shift model, a ~ b + delta with continuous laws. The interval is then
exact at every sample size (its coverage is at least 1 - alpha by construction; no
calibrated minimum number of replicates applies). Without the shift model it is the set
of shifts that the two-sided rank test at level alpha cannot reject, and its coverage of
a location difference is no longer guaranteed: with normal laws whose spreads differ by
a factor of 3 to 4 (as the log Hessian norms of zeroinit2019 Table 1 do between depths)
its false-alarm rate is several times alpha at small samples (Behrens-Fisher problem of
rank tests; Fligner and Policello 1981). A verdict built on it then states its alpha
only under the shift model. When the samples
are too small for any test at that level to reject (P(U <= 0) = 1 / C(m + n, m) > alpha / 2)
the interval is (-inf, inf): no shift can be excluded, and a verdict built on it is
inconclusive.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

__all__ = ["ShiftInterval", "shift_interval", "rank_sum_null_counts"]

#: The exact null law is counted up to this sample size per group.
MAX_SIZE = 200


@dataclass(frozen=True)
class ShiftInterval:
    """The Hodges-Lehmann shift of a relative to b and its exact rank interval."""

    estimate: float
    lo: float
    hi: float
    k: int
    coverage: float
    m: int
    n: int

    def interval(self) -> tuple[float, float]:
        return self.lo, self.hi


@lru_cache(maxsize=64)
def rank_sum_null_counts(m: int, n: int) -> tuple:
    """Number of the C(m + n, m) equally likely rank arrangements with Mann-Whitney U = u,
    u = 0 .. mn (exact integers): coefficients of the Gaussian binomial [m + n choose m]_q."""
    for name, v in (("m", m), ("n", n)):
        if not (isinstance(v, (int, np.integer)) and 1 <= v <= MAX_SIZE):
            raise ValueError(f"{name} must be an integer in [1, {MAX_SIZE}], got {v!r}")
    top = m * n
    c = np.zeros(top + 1, dtype=object)
    c[:] = 0
    c[0] = 1
    for i in range(1, m + 1):
        for r in range(i):  # divide by (1 - q^i): a cumulative sum with stride i
            c[r::i] = np.cumsum(c[r::i])
        j = n + i  # multiply by (1 - q^(n+i))
        if j <= top:
            c[j:] = c[j:] - c[:-j]
    return tuple(int(x) for x in c)


def _sample(x, name: str) -> np.ndarray:
    x = np.asarray(x, float)
    if x.ndim != 1 or x.size < 1 or not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be a 1-D finite sample of at least 1 value, got shape {x.shape}")
    return x


def _normal_k(m: int, n: int, alpha: float) -> int:
    """k of the interval from the continuity-corrected normal law of U (large samples)."""
    from scipy import stats as st

    sigma = math.sqrt(m * n * (m + n + 1) / 12)
    return max(0, math.floor(m * n / 2 + 0.5 - float(st.norm.isf(alpha / 2)) * sigma))


def shift_interval(a, b, alpha: float) -> ShiftInterval:
    """Hodges-Lehmann shift of ``a`` relative to ``b`` (median of all a_i - b_j) and its exact
    two-sided (1 - ``alpha``) Mann-Whitney interval [d_(k), d_(mn+1-k)]; (-inf, inf) when
    the samples are too small to exclude any shift at that level (see the module docstring)."""
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    a, b = _sample(a, "a"), _sample(b, "b")
    m, n = a.size, b.size
    d = np.sort((a[:, None] - b[None, :]).ravel())
    est = float(np.median(d))
    if max(m, n) > MAX_SIZE:
        k = _normal_k(m, n, alpha)
        if k == 0:
            return ShiftInterval(est, -math.inf, math.inf, 0, 1.0, m, n)
        sigma = math.sqrt(m * n * (m + n + 1) / 12)
        from scipy import stats as st

        coverage = 1.0 - 2.0 * float(st.norm.cdf((k - 0.5 - m * n / 2) / sigma))
        return ShiftInterval(est, float(d[k - 1]), float(d[m * n - k]), k, coverage, m, n)
    counts = rank_sum_null_counts(m, n)
    total = math.comb(m + n, m)
    # k = largest k >= 1 with P(U <= k - 1) <= alpha / 2, in integers scaled by total; the 1e-12 lets an
    # alpha meant as exactly 2 j / total (rounded down as a float) admit its count j.
    cum, k = 0, 0
    limit = Fraction(alpha) / 2 * total * Fraction(1 + 10**-12)
    for u, c in enumerate(counts[: m * n // 2 + 1]):
        cum += c
        if cum > limit:
            break
        k = u + 1
    if k == 0:
        return ShiftInterval(est, -math.inf, math.inf, 0, 1.0, m, n)
    tail = sum(counts[:k]) / total
    return ShiftInterval(est, float(d[k - 1]), float(d[m * n - k]), k, 1.0 - 2.0 * tail, m, n)
