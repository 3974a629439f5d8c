"""Confidence limits for the mean of a variable on [0, 1], valid at any sample size and
for any law there (no normal approximation): the empirical-Bernstein bound of Maurer &
Pontil (2009, Theorem 4).

For n iid X_i in [0, 1] with sample mean m and unbiased sample variance V, with
probability at least 1 - delta

    E[X] >= m - sqrt(2 V ln(2/delta) / n) - 7 ln(2/delta) / (3 (n - 1)),

and, applied to 1 - X, the same margin above m gives the upper limit. Student-t limits
fail where the law piles up against one end with a thin tail to the other; these cannot.

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
    """The one-sided margin of the module's bound at level ``alpha``, for a [0, 1] variable
    with unbiased sample variance ``var01`` over ``n`` draws."""
    if not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if not (math.isfinite(var01) and 0 <= var01 <= 0.25 * n / (n - 1) + 1e-12):
        raise ValueError(f"var01 must be a variance of a [0, 1] variable, in [0, n/(4(n-1))], got {var01!r}")
    log_term = math.log(2 / alpha)
    return math.sqrt(2 * var01 * log_term / n) + 7 * log_term / (3 * (n - 1))


def bernstein_limits(x, alpha: float) -> tuple[float, float]:
    """(lower, upper) one-sided limits for E[X] from draws ``x`` of a variable on [0, 1],
    each holding with probability at least 1 - ``alpha``; clipped to [0, 1]."""
    x = np.asarray(x, dtype=float).ravel()
    if not np.all(np.isfinite(x)) or np.any(x < 0) or np.any(x > 1):
        raise ValueError("x must be finite and lie in [0, 1]")
    m = float(x.mean())
    w = bernstein_margin(float(x.var(ddof=1)) if x.size > 1 else 0.0, int(x.size), alpha)
    return max(m - w, 0.0), min(m + w, 1.0)
