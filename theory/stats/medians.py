"""Distribution-free confidence interval for a difference of medians, from order statistics.

For n independent draws of any law with median theta (P(X <= theta) >= 1/2 and
P(X >= theta) >= 1/2) and their order statistics X_(1) <= ... <= X_(n),

    P(X_(k) > theta) = P(#{X_i <= theta} <= k - 1) <= P(Bin(n, 1/2) <= k - 1) =: t_n(k),

and by symmetry P(X_(n+1-k) < theta) <= t_n(k), with equality for continuous laws
(Thompson 1936; David and Nagaraja, *Order Statistics* (2003), Sec. 7.1). For samples a
(size m, median theta_a) and b (size n, median theta_b) take k_a, k_b the largest k >= 1
with t(k) <= alpha / 4. Then

    theta_a - theta_b >= a_(k_a) - b_(n+1-k_b)   unless a_(k_a) > theta_a or b_(n+1-k_b) < theta_b,

so the lower end misses with probability at most t_m(k_a) + t_n(k_b) <= alpha / 2, and the
upper end a_(m+1-k_a) - b_(k_b) likewise: the interval covers theta_a - theta_b with
probability at least 1 - alpha whatever the two laws are (no shift model, no equal
spreads, no continuity; the samples must only be independent). It is wider than a rank
interval that assumes a shift, the price of assuming nothing. Medians commute with
monotone maps, so exp of the interval for log-values bounds the ratio of the medians.

When a sample is too small for any order statistic at that level (2^-n > alpha / 4) its
median is unbounded and the interval is (-inf, inf): a verdict built on it is inconclusive.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["MedianDifference", "median_difference", "median_order_index"]


@dataclass(frozen=True)
class MedianDifference:
    """median(a) - median(b), its interval, and the order statistics that bound it."""

    estimate: float
    lo: float
    hi: float
    k: tuple[int, int]  #: (k_a, k_b): order statistics k and size + 1 - k of each sample; 0 when unbounded
    miss: float  #: t_m(k_a) + t_n(k_b): bound on the probability that each end misses (<= alpha / 2)
    m: int
    n: int

    @property
    def coverage(self) -> float:
        """The guaranteed coverage, 1 - 2 ``miss`` (at least 1 - alpha)."""
        return 1.0 - 2.0 * self.miss


def median_order_index(n: int, tail: float) -> tuple[int, float]:
    """(k, t_n(k)): the largest k >= 1 with P(Bin(n, 1/2) <= k - 1) <= ``tail`` (exact integer
    arithmetic), and that probability; (0, 0.0) when even k = 1 exceeds it."""
    if not (isinstance(n, (int, np.integer)) and n >= 1):
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    limit, cum, term, k = Fraction(tail) * 2**n, 0, 1, 0
    while k < (n + 1) // 2 and cum + term <= limit:  # term = C(n, k)
        cum, k = cum + term, k + 1
        term = term * (n - k + 1) // k
    return k, cum / 2**n


def _sample(x, name: str) -> np.ndarray:
    x = np.asarray(x, float)
    if x.ndim != 1 or x.size < 1 or not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be a 1-D finite sample of at least 1 value, got shape {x.shape}")
    return np.sort(x)


def median_difference(a, b, alpha: float) -> MedianDifference:
    """median(``a``) - median(``b``) and its distribution-free two-sided (1 - ``alpha``) interval
    [a_(k_a) - b_(n+1-k_b), a_(m+1-k_a) - b_(k_b)] (module docstring); (-inf, inf) when a sample
    is too small to bound its median at alpha / 4 a side.

    >>> r = median_difference(np.arange(40.0) + 10, np.arange(40.0), 1e-3)
    >>> r.estimate, (r.lo, r.hi), r.k, r.coverage > 1 - 1e-3
    (10.0, (-13.0, 33.0), (9, 9), True)
    """
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    a, b = _sample(a, "a"), _sample(b, "b")
    m, n = a.size, b.size
    (ka, ta), (kb, tb) = median_order_index(m, alpha / 4), median_order_index(n, alpha / 4)
    est = float(np.median(a) - np.median(b))
    if ka == 0 or kb == 0:
        return MedianDifference(est, -math.inf, math.inf, (ka, kb), 0.0, m, n)
    lo, hi = float(a[ka - 1] - b[n - kb]), float(a[m - ka] - b[kb - 1])
    return MedianDifference(est, lo, hi, (ka, kb), float(ta + tb), m, n)
