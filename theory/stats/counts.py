"""Counts: goodness of fit of category counts, and exact binomial intervals.

>>> stat, p, w, v = goodness_of_fit([260, 240, 250, 250], [0.25] * 4, alpha=1e-6, tol_w=0.3)
>>> v.value
'holds'
>>> lo, hi = binomial_interval(0, 1000, alpha=0.05)
>>> lo, round(hi, 5)
(0.0, 0.00368)
"""
from __future__ import annotations

import math

import numpy as np
from scipy import optimize
from scipy import stats as st

from ..verdicts import Verdict

__all__ = ["goodness_of_fit", "binomial_interval"]


def goodness_of_fit(counts, probs, alpha: float, tol_w: float):
    """Pearson's chi-square test of ``counts`` against ``probs`` (scipy.stats.chisquare),
    with an equivalence side on Cohen's effect size w = sqrt(noncentrality / n).

    Fails when the test rejects at alpha. Holds when the upper (1 - alpha) confidence
    limit of w is at most ``tol_w``: the largest noncentrality lambda with
    P(chi2_df(lambda) <= X^2) >= alpha (noncentral chi-square, inverted in lambda), so a
    deviation just outside the band is confirmed with probability at most alpha.
    Inconclusive otherwise. Returns ``(stat, p, w_upper, verdict)``.
    """
    counts = np.asarray(counts, float)
    probs = np.asarray(probs, float)
    if counts.shape != probs.shape or counts.ndim != 1 or counts.size < 2:
        raise ValueError("counts and probs must be 1-d arrays of the same length >= 2")
    if abs(probs.sum() - 1) > 1e-9 or np.any(probs <= 0):
        raise ValueError("probs must be positive and sum to 1")
    n = counts.sum()
    res = st.chisquare(counts, n * probs)
    stat, p = float(res.statistic), float(res.pvalue)
    w_upper = math.sqrt(_noncentrality_upper(stat, counts.size - 1, alpha) / n)
    v = Verdict.FAILS if p < alpha else (Verdict.HOLDS if w_upper <= tol_w else Verdict.INCONCLUSIVE)
    return stat, p, w_upper, v


def _noncentrality_upper(stat: float, df: int, alpha: float) -> float:
    """The largest lambda with P(chi2_df(lambda) <= stat) >= alpha (0 when even lambda = 0
    gives less: the statistic is then small, which bounds no deviation from below)."""
    def f(lam):
        return float(st.ncx2.cdf(stat, df, lam)) - alpha if lam > 0 else float(st.chi2.cdf(stat, df)) - alpha

    if f(0.0) <= 0:
        return 0.0
    hi = max(1.0, 2 * stat)
    while f(hi) > 0:
        hi *= 2
    return optimize.brentq(f, 0.0, hi, xtol=1e-12, rtol=1e-10)


def binomial_interval(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided (1 - alpha) interval of a proportion k/n."""
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"k must be in [0, n] and n >= 1, got k={k}, n={n}")
    ci = st.binomtest(int(k), int(n)).proportion_ci(confidence_level=1 - alpha, method="exact")
    return float(ci.low), float(ci.high)
