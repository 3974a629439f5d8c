"""Confidence limits for the mean of a variable known to lie in a bounded interval,
valid at any sample size and for any law on that interval (no normal approximation):
the empirical-Bernstein bound of Maurer & Pontil (2009, Theorem 4).

For n iid X_i in [0, 1] with sample mean m and unbiased sample variance V, with
probability at least 1 - delta

    E[X] >= m - sqrt(2 V ln(2/delta) / n) - 7 ln(2/delta) / (3 (n - 1)),

and, applied to 1 - X, the same margin above m gives the upper limit. A variable on
[lo, hi] is rescaled to [0, 1]. Student-t limits can fail badly where the law piles up
against one end of its range with a thin tail to the other (a sample that misses the
tail has a high mean and a tiny spread); these limits cannot.

>>> import numpy as np
>>> x = np.r_[np.full(990, 0.99), np.full(10, 0.2)]   # skewness about -10
>>> lo, hi = bernstein_limits(x, 1e-6)
>>> bool(lo < x.mean() < hi), round(lo, 3), round(hi, 3)
(True, 0.935, 1.0)
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["bernstein_margin", "bernstein_limits"]


def bernstein_margin(var01: float, n: int, alpha: float) -> float:
    """The one-sided margin sqrt(2 V ln(2/alpha) / n) + 7 ln(2/alpha) / (3 (n - 1)) of a
    [0, 1] variable with unbiased sample variance ``var01`` over ``n`` draws, at level
    ``alpha`` (Maurer & Pontil 2009, Theorem 4)."""
    if not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if not (math.isfinite(var01) and 0 <= var01 <= 0.25 * n / (n - 1) + 1e-12):
        raise ValueError(f"var01 must be a variance of a [0, 1] variable, in [0, n/(4(n-1))], got {var01!r}")
    log_term = math.log(2 / alpha)
    return math.sqrt(2 * var01 * log_term / n) + 7 * log_term / (3 * (n - 1))


def bernstein_limits(x, alpha: float, lo: float = 0.0, hi: float = 1.0) -> tuple[float, float]:
    """(lower, upper) one-sided limits for E[X] from draws ``x`` of a variable on
    [``lo``, ``hi``], each holding with probability at least 1 - ``alpha``; clipped to
    the range."""
    x = np.asarray(x, dtype=float).ravel()
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"the range [lo, hi] must be finite with lo < hi, got [{lo!r}, {hi!r}]")
    if not np.all(np.isfinite(x)) or np.any(x < lo) or np.any(x > hi):
        raise ValueError(f"x must be finite and lie in [{lo:g}, {hi:g}]")
    u = (x - lo) / (hi - lo)
    m = float(u.mean())
    w = bernstein_margin(float(u.var(ddof=1)) if u.size > 1 else 0.0, int(u.size), alpha)
    return lo + (hi - lo) * max(m - w, 0.0), lo + (hi - lo) * min(m + w, 1.0)
