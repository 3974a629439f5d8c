"""Student-t quantiles and the resolution of a t-test: the smallest deviation of a mean that
a level-alpha test detects with probability ``POWER``, from the noncentral t law (for a
one-sample test, at the skewness rule's critical value on its worse side,
:func:`~.skewness.rule_thresholds`).

>>> round(t_quantile(0.025, 10), 4)
2.2281
>>> round(detectable_deviation(se=1.0, df=float("inf"), alpha=0.05), 4)  # z_0.025 + z_0.9
3.2415
"""
from __future__ import annotations

import math

from scipy import optimize
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


def _nct_sf_series(c: float, df: float, ncp: float) -> float | None:
    """scipy's (Boost's) series for P(T' > c), T' noncentral t(df, ncp), or None where it
    does not converge (huge c and ncp: 1-2 degrees of freedom at a tiny alpha; there
    :func:`_nct_sf_quadrature` computes it); a failure costs up to seconds (the series
    runs its whole iteration budget first)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            return float(st.nct.sf(c, df, ncp))
        except (RuntimeWarning, SystemError):
            return None


def _nct_sf_quadrature(c: float, df: float, ncp: float) -> float:
    """P(T' > c) = E[Phi(ncp - c sqrt(V / df))], V ~ chi2(df), by adaptive quadrature over
    V's quantiles u in (0, 1). The integrand calls the special functions behind
    ``scipy.stats`` directly (``chi2.ppf(u, df) = 2 gammaincinv(df / 2, u)``,
    ``norm.cdf = ndtr``): the same numbers, without the distributions' per-call checks
    (44-76x faster per integral at 1 degree of freedom)."""
    from scipy import integrate, special

    half_df = df / 2.0

    def f(u):
        return float(special.ndtr(ncp - c * math.sqrt(2.0 * float(special.gammaincinv(half_df, u)) / df)))

    return float(integrate.quad(f, 0.0, 1.0, limit=200)[0])


def detectable_deviation(se: float, df: float, alpha: float, sides: int = 2, power: float = POWER,
                         skew_a: float = 0.0) -> float:
    """Smallest deviation of the mean that a level-alpha t-test (``sides`` 1 or 2)
    detects with probability ``power``: ncp * se with P(T'_{df, ncp} > t_crit) = power.
    With ``skew_a`` (a one-sample test's Hall coefficient), t_crit is the rule's critical
    value on the plain t scale on its worse side, max(q, T_H^-1(q), -T_H^-1(-q)) for the
    Student-t quantile q: the deviation that the rule (both statistics reject) detects
    with probability ``power`` in either direction, given the sample's skewness.

    Once scipy's series has failed at some noncentrality, larger ones go straight to the
    quadrature (the series fails for huge ncp, and each failure costs up to seconds)."""
    if se == 0:
        return 0.0
    crit = t_quantile(alpha / sides, df)
    if skew_a:
        upper, lower = rule_thresholds(crit, skew_a)
        crit = float(max(upper, -lower))
    if math.isinf(df):
        return (crit + float(st.norm.ppf(power))) * se
    series_failed_at = math.inf

    def gap(d):
        nonlocal series_failed_at
        value = _nct_sf_series(crit, df, d) if d < series_failed_at else None
        if value is None:
            series_failed_at = min(series_failed_at, d)
            value = _nct_sf_quadrature(crit, df, d)
        return value - power

    hi = crit + 60.0
    while gap(hi) < 0:  # few degrees of freedom: the power needs a noncentrality far above crit
        hi *= 2
    ncp = optimize.brentq(gap, 0.0, hi)
    return float(ncp) * se
