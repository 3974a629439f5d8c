"""Student-t quantiles and the resolution of a t-test: the smallest deviation of a mean that
a level-alpha test detects with probability ``POWER``, from the noncentral t law (for a
one-sample test, at the skewness rule's critical value on its worse side).

>>> round(t_quantile(0.025, 10), 4)
2.2281
>>> round(detectable_deviation(se=1.0, df=float("inf"), alpha=0.05), 4)  # z_0.025 + z_0.9
3.2415
"""
from __future__ import annotations

import math
import warnings

from scipy import integrate, optimize, special
from scipy import stats as st

from .skewness import rule_thresholds

__all__ = ["POWER", "t_quantile", "detectable_deviation"]

#: The resolution of a test is the deviation it detects with this probability.
POWER = 0.9


def t_quantile(alpha: float, df: float) -> float:
    """Upper alpha-quantile of Student's t with ``df`` degrees of freedom (normal for df = inf)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    return float(st.norm.isf(alpha) if math.isinf(df) else st.t.isf(alpha, df))


def _nct_sf(c: float, df: float, ncp: float) -> float:
    """P(T' > c) for T' noncentral t(df, ncp): scipy's series, or where it does not
    converge (a few degrees of freedom at a tiny alpha) E[Phi(ncp - c sqrt(V / df))],
    V ~ chi2(df), by quadrature over V's quantiles."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            return float(st.nct.sf(c, df, ncp))
        except (RuntimeWarning, SystemError):
            pass

    def f(u):
        return float(special.ndtr(ncp - c * math.sqrt(2.0 * float(special.gammaincinv(df / 2.0, u)) / df)))

    return float(integrate.quad(f, 0.0, 1.0, limit=200)[0])


def detectable_deviation(se: float, df: float, alpha: float, power: float = POWER, skew_a: float = 0.0) -> float:
    """Smallest deviation of the mean that a level-alpha t-test detects with probability
    ``power``: ncp * se with P(T'_{df, ncp} > t_crit) = power, t_crit at alpha/2 (every
    test of :mod:`.means` puts alpha/2 in each tail, one-sided or not).
    With ``skew_a`` (a one-sample test's Hall coefficient) t_crit is the rule's critical
    value on the plain t scale on its worse side (:func:`~.skewness.rule_thresholds`)."""
    if se == 0:
        return 0.0
    crit = t_quantile(alpha / 2, df)
    if skew_a:
        upper, lower = rule_thresholds(crit, skew_a)
        crit = float(max(upper, -lower))
    if math.isinf(df):
        return (crit + float(st.norm.ppf(power))) * se
    hi = crit + 60.0
    while _nct_sf(crit, df, hi) < power:  # few degrees of freedom: the power needs a noncentrality far above crit
        hi *= 2
    return float(optimize.brentq(lambda d: _nct_sf(crit, df, d) - power, 0.0, hi)) * se
