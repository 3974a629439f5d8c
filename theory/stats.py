"""Statistics for Monte-Carlo acceptance, set in one place.

- ``FAMILY_ALPHA`` is the family-wise false-alarm probability of the whole
  catalogue. Each Monte-Carlo claim gets ``FAMILY_ALPHA / n_claims`` (Bonferroni),
  split again over its sub-tests, and never more than ``MAX_CHECK_ALPHA``.
- ``POWER`` defines the resolution: the smallest deviation detected with that
  probability at the check's alpha, ``(z_{1-alpha/2} + z_{POWER}) * se``.
- A test that does not reject but whose resolution exceeds the relative deviation
  the claim must resolve (``required``) gives ``inconclusive``, never ``holds``.

>>> r = mean_test([1.0, 1.1, 0.9, 1.05, 0.95] * 40, target=1.0, alpha=1e-6, required=0.1)
>>> r.verdict.value
'holds'
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from .evidence import Verdict

__all__ = [
    "FAMILY_ALPHA", "MAX_CHECK_ALPHA", "POWER", "check_alpha", "z_crit", "resolution_factor",
    "MeanTest", "mean_test", "variance_difference_test", "chi_square_uniform", "PowerLawFit",
    "fit_power_law", "extrapolate_limit",
]

FAMILY_ALPHA = 1e-5
MAX_CHECK_ALPHA = 1e-6
POWER = 0.9


def check_alpha(n_claims: int, n_subtests: int = 1) -> float:
    """Per-sub-test alpha: Bonferroni over Monte-Carlo claims, then over sub-tests."""
    return min(MAX_CHECK_ALPHA, FAMILY_ALPHA / max(1, n_claims)) / max(1, n_subtests)


def z_crit(alpha: float) -> float:
    """Two-sided normal critical value."""
    return float(_st.norm.isf(alpha / 2))


def resolution_factor(alpha: float, power: float = POWER) -> float:
    """Multiplier of the standard error that gives the detectable deviation."""
    return z_crit(alpha) + float(_st.norm.ppf(power))


@dataclass
class MeanTest:
    mean: float
    se: float
    n: int
    target: float
    z: float
    alpha: float
    resolution: float  # absolute
    required: float  # relative deviation the test must resolve
    verdict: Verdict

    @property
    def rel_resolution(self) -> float:
        return self.resolution / abs(self.target) if self.target else self.resolution

    def row(self, **labels) -> dict:
        return {**labels, "mean": self.mean, "se": self.se, "n": self.n, "target": self.target,
                "z": self.z, "rel_resolution": self.rel_resolution, "verdict": self.verdict.value}


def _verdict(z: float, alpha: float, rel_res: float, required: float, ok=Verdict.HOLDS) -> Verdict:
    if abs(z) > z_crit(alpha):
        return Verdict.FAILS
    return ok if rel_res <= required else Verdict.INCONCLUSIVE


def mean_test(samples, target: float, alpha: float, required: float) -> MeanTest:
    """Is E[X] = target? ``samples`` are iid replicates (independent network draws)."""
    x = np.asarray(samples, dtype=float).ravel()
    if x.size < 30:
        raise ValueError(f"samples must hold at least 30 replicates, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError("samples must be finite")
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(x.size))
    z = (mean - target) / se if se > 0 else (0.0 if mean == target else math.inf)
    res = resolution_factor(alpha) * se
    rel = res / abs(target) if target else res
    return MeanTest(mean, se, x.size, float(target), float(z), alpha, res, required,
                    _verdict(z, alpha, rel, required))


def variance_difference_test(a, b, alpha: float):
    """One-sided test of Var(a) < Var(b); SEs of the sample variances from 4th moments.

    Returns ``(var_a, var_b, z, rejects_equal)`` where ``z = (var_b - var_a)/se``.
    """
    out = []
    for x in (np.asarray(a, float).ravel(), np.asarray(b, float).ravel()):
        c = x - x.mean()
        v = float(np.mean(c**2))
        m4 = float(np.mean(c**4))
        out.append((v * x.size / (x.size - 1), math.sqrt(max(m4 - v * v, 0.0) / x.size)))
    (va, sa), (vb, sb) = out
    z = (vb - va) / math.hypot(sa, sb)
    return va, vb, z, z > float(_st.norm.isf(alpha))


def chi_square_uniform(counts, probs, alpha: float, required_w: float):
    """Goodness of fit of ``counts`` to ``probs``; resolution as Cohen's effect size w.

    Returns ``(stat, p_value, w_resolution, verdict)``; ``w_resolution`` is the
    effect size detected with probability POWER (noncentral chi-square).
    """
    counts = np.asarray(counts, float)
    probs = np.asarray(probs, float)
    n = counts.sum()
    expected = n * probs
    stat = float(np.sum((counts - expected) ** 2 / expected))
    df = counts.size - 1
    p = float(_st.chi2.sf(stat, df))
    crit = float(_st.chi2.isf(alpha, df))
    lo, hi = 0.0, 1e6
    for _ in range(200):  # bisect the noncentrality with power POWER
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _st.ncx2.sf(crit, df, mid) < POWER else (lo, mid)
    w = math.sqrt(hi / n)
    verdict = Verdict.FAILS if p < alpha else (Verdict.HOLDS if w <= required_w else Verdict.INCONCLUSIVE)
    return stat, p, w, verdict


@dataclass
class PowerLawFit:
    exponent: float
    lo: float
    hi: float
    prefactor: float


def fit_power_law(widths, errors, ses, alpha: float) -> PowerLawFit:
    """Weighted least squares of log(error) on log(width): error ~ A * width^exponent.

    The log-scale standard errors come from the delta method (se / error) of large
    samples, so the interval uses the normal quantile, widened by the lack of fit
    (reduced chi-square) when that exceeds 1.
    """
    w = np.log(np.asarray(widths, float))
    e = np.asarray(errors, float)
    s = np.asarray(ses, float) / e
    if np.any(e <= 0) or len(w) < 3:
        raise ValueError("errors must be positive and at least 3 widths are needed")
    W = 1 / s**2
    X = np.stack([np.ones_like(w), w], axis=1)
    cov = np.linalg.inv(X.T @ (X * W[:, None]))
    beta = cov @ (X.T @ (W * np.log(e)))
    resid = np.log(e) - X @ beta
    dof = len(w) - 2
    scale = max(1.0, float(np.sum(W * resid**2)) / dof)  # inflate for lack of fit
    se = math.sqrt(cov[1, 1] * scale)
    t = z_crit(alpha)
    return PowerLawFit(float(beta[1]), float(beta[1] - t * se), float(beta[1] + t * se), float(math.exp(beta[0])))


def extrapolate_limit(widths, means, ses, order: float = 1.0):
    """WLS fit of mean(w) = c + a * w^(-order); returns (c, se_c).

    Mean-field quantities at finite width carry O(1/width) bias, hence order 1.
    """
    x = np.asarray(widths, float) ** (-order)
    y = np.asarray(means, float)
    W = 1 / np.asarray(ses, float) ** 2
    X = np.stack([np.ones_like(x), x], axis=1)
    cov = np.linalg.inv(X.T @ (X * W[:, None]))
    beta = cov @ (X.T @ (W * y))
    resid = y - X @ beta
    dof = max(1, len(x) - 2)
    scale = max(1.0, float(np.sum(W * resid**2)) / dof)
    return float(beta[0]), math.sqrt(cov[0, 0] * scale)
