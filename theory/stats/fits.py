"""The one fitting helper: weighted least squares of per-point estimates with their
standard errors, and the two models the catalogue uses (power laws, limits).

Each point is a mean over independent replicates with a standard error from n_i
replicates. The coefficient covariance is (X^T W X)^{-1} with W = 1/se^2. Two cases:

- the model fits (the lack-of-fit chi-square on n - p residual degrees of freedom is
  not significant at ``LACK_OF_FIT_ALPHA``): intervals use Student's t with the
  smallest per-point degrees of freedom min(n_i) - 1 (the standard errors are
  estimates), and the covariance is still scaled by the reduced chi-square when that
  exceeds 1 (the Birge ratio), so that a misfit the pre-test misses (unmodelled
  curvature biasing a coefficient by several standard errors) widens the interval
  instead of making a false ``fails``;
- it does not: the covariance is scaled by the reduced chi-square and intervals use
  Student's t with the n - p residual degrees of freedom, so a misspecified fit on
  few points gets the wide interval it deserves. With no residual degree of freedom
  (as many points as coefficients) the fit cannot be checked: the known-variance
  interval is used and ``checked`` is False.

>>> import numpy as np
>>> w = np.array([8, 16, 32, 64, 128.0])
>>> f = power_law(w, 3 * w**-0.5, 0.01 * 3 * w**-0.5, point_df=999)
>>> round(float(f.coef[1]), 6), f.residual_df, f.inflated
(-0.5, 3, False)
>>> lo, hi = f.interval(1, alpha=1e-6)
>>> bool(lo < -0.5 < hi)
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

from .power import t_quantile

__all__ = ["LACK_OF_FIT_ALPHA", "Fit", "wls", "power_law", "limit"]

#: Level of the lack-of-fit pre-test that switches a fit to residual-based errors.
LACK_OF_FIT_ALPHA = 0.01


@dataclass(frozen=True)
class Fit:
    coef: np.ndarray
    cov: np.ndarray
    residual_df: int
    chi2: float
    lack_of_fit_p: float
    inflated: bool
    quantile_df: float
    checked: bool

    def se(self, i: int) -> float:
        return math.sqrt(float(self.cov[i, i]))

    def interval(self, i: int, alpha: float, sides: int = 2) -> tuple[float, float]:
        """(1 - alpha) interval of coefficient i (two-sided), or its one-sided limits."""
        q = t_quantile(alpha / sides, self.quantile_df) * self.se(i)
        return float(self.coef[i] - q), float(self.coef[i] + q)

    def summary(self, i: int, alpha: float) -> dict:
        lo, hi = self.interval(i, alpha)
        return {"estimate": float(self.coef[i]), "se": self.se(i), "interval": [lo, hi],
                "residual_df": self.residual_df, "reduced_chi2": self.chi2 / self.residual_df if self.residual_df else None,
                "lack_of_fit_p": self.lack_of_fit_p, "widened_for_lack_of_fit": self.inflated,
                "birge_ratio": max(1.0, self.chi2 / self.residual_df) if self.residual_df else None,
                "t_df": self.quantile_df}


def wls(X, y, se, point_df: float = math.inf, lack_of_fit_alpha: float = LACK_OF_FIT_ALPHA) -> Fit:
    """Weighted least squares of y on the columns of X with standard errors ``se``.
    ``point_df`` is the smallest degrees of freedom of the per-point standard errors."""
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    se = np.asarray(se, float)
    n, p = X.shape
    if n < p:
        raise ValueError(f"a fit of {p} coefficients needs at least {p} points, got {n}")
    if not (np.all(np.isfinite(y)) and np.all(np.isfinite(se)) and np.all(se > 0)):
        raise ValueError("y must be finite and se finite and > 0 at every point")
    w = 1 / se**2
    cov = np.linalg.inv(X.T @ (X * w[:, None]))
    coef = cov @ (X.T @ (w * y))
    chi2 = float(np.sum(w * (y - X @ coef) ** 2))
    dof = n - p
    if dof == 0:
        return Fit(coef, cov, 0, chi2, 1.0, False, float(point_df), False)
    p_lof = float(st.chi2.sf(chi2, dof))
    if p_lof < lack_of_fit_alpha:
        return Fit(coef, cov * (chi2 / dof), dof, chi2, p_lof, True, float(dof), True)
    return Fit(coef, cov * max(1.0, chi2 / dof), dof, chi2, p_lof, False, float(point_df), True)


def power_law(x, y, se, point_df: float = math.inf) -> Fit:
    """log y = log A + p log x (coefficient 1 is the exponent p); the log-scale standard
    errors are se/y (delta method). y must be positive."""
    x, y, se = (np.asarray(v, float) for v in (x, y, se))
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("a power law needs positive x and y at every point")
    X = np.stack([np.ones_like(x), np.log(x)], axis=1)
    return wls(X, np.log(y), se / y, point_df)


def limit(x, y, se, order: float = 1.0, point_df: float = math.inf) -> Fit:
    """y(x) = c + a x^(-order) (coefficient 0 is the limit c as x -> infinity)."""
    x = np.asarray(x, float)
    X = np.stack([np.ones_like(x), x ** (-order)], axis=1)
    return wls(X, y, se, point_df)
