"""Weighted least squares of per-point means with their standard errors, and the two
models the catalogue uses (power laws, limits).

The coefficient covariance is (X^T W X)^{-1} with W = 1/se^2. When the lack-of-fit
chi-square on n - p residual degrees of freedom is not significant at
``LACK_OF_FIT_ALPHA``, intervals use Student's t on the smallest per-point degrees of
freedom min(n_i) - 1, the covariance scaled by the reduced chi-square where it exceeds 1
(the Birge ratio); when it is significant, by the reduced chi-square, with the n - p
residual degrees of freedom. A fit decides from ``MIN_POINT_REPLICATES`` replicates per
point, a limit (it extrapolates) from :data:`~.means.MIN_REPLICATES`: below, an interval
raises :class:`TooFewReplicates`. :func:`wls_batch` fits many samples at once (the
calibration's rates); :func:`wls` is one of them.

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

from ..verdicts import TooFewReplicates
from .means import MIN_REPLICATES
from .power import t_quantile

__all__ = ["LACK_OF_FIT_ALPHA", "MIN_POINT_REPLICATES", "Fit", "wls", "wls_batch", "power_law", "limit"]

#: Level of the lack-of-fit pre-test that switches a fit to residual-based errors.
LACK_OF_FIT_ALPHA = 0.01
#: The fewest replicates per point (``point_df`` + 1) from which a fit's interval decides.
MIN_POINT_REPLICATES = 20


@dataclass(frozen=True)
class Fit:
    coef: np.ndarray
    cov: np.ndarray
    residual_df: int
    chi2: float
    lack_of_fit_p: float
    inflated: bool
    quantile_df: float
    point_df: float = math.inf
    #: The fewest replicates per point from which an interval decides.
    min_point: int = MIN_POINT_REPLICATES

    def se(self, i: int) -> float:
        return math.sqrt(float(self.cov[i, i]))

    def interval(self, i: int, alpha: float) -> tuple[float, float]:
        """(1 - alpha) interval of coefficient i, each tail at alpha/2; also a one-sided
        test's limits, as in :mod:`.means`."""
        if self.point_df + 1 < self.min_point:
            raise TooFewReplicates(f"a fit needs at least {self.min_point} replicates per point, got "
                                   f"{self.point_df + 1:g}")
        q = t_quantile(alpha / 2, self.quantile_df) * self.se(i)
        return float(self.coef[i] - q), float(self.coef[i] + q)

    def summary(self, i: int, alpha: float) -> dict:
        lo, hi = self.interval(i, alpha)
        dof = self.residual_df
        return {"estimate": float(self.coef[i]), "se": self.se(i), "interval": [lo, hi], "residual_df": dof,
                "reduced_chi2": self.chi2 / dof if dof else None, "lack_of_fit_p": self.lack_of_fit_p,
                "widened_for_lack_of_fit": self.inflated, "birge_ratio": max(1.0, self.chi2 / dof) if dof else None,
                "t_df": self.quantile_df}


def wls_batch(X, y, se, point_df: float = math.inf) -> dict:
    """Weighted least squares of each row of ``y`` (shape (..., n)) on the columns of X
    (n, p), standard errors ``se`` (shape of y): arrays ``coef`` (..., p), ``cov`` (...,
    p, p, scaled as the module says), ``chi2``, ``lack_of_fit_p``, ``inflated`` and
    ``quantile_df`` (...), and the residual degrees of freedom ``dof``."""
    X, y, se = np.asarray(X, float), np.asarray(y, float), np.asarray(se, float)
    n, p = X.shape
    if n < p:
        raise ValueError(f"a fit of {p} coefficients needs at least {p} points, got {n}")
    if not (np.all(np.isfinite(y)) and np.all(np.isfinite(se)) and np.all(se > 0)):
        raise ValueError("y must be finite and se finite and > 0 at every point")
    w = 1 / se**2
    cov = np.linalg.inv(np.einsum("ki,...k,kj->...ij", X, w, X))
    coef = np.einsum("...ij,kj,...k->...i", cov, X, w * y)
    chi2 = np.sum(w * (y - coef @ X.T) ** 2, axis=-1)
    dof = n - p
    if dof == 0:
        return {"coef": coef, "cov": cov, "chi2": chi2, "lack_of_fit_p": np.ones_like(chi2), "dof": 0,
                "inflated": np.zeros(chi2.shape, bool), "quantile_df": np.full(chi2.shape, float(point_df))}
    p_lof = st.chi2.sf(chi2, dof)
    inflated = p_lof < LACK_OF_FIT_ALPHA
    scale = np.where(inflated, chi2 / dof, np.maximum(1.0, chi2 / dof))
    return {"coef": coef, "cov": cov * scale[..., None, None], "chi2": chi2, "lack_of_fit_p": p_lof, "dof": dof,
            "inflated": inflated, "quantile_df": np.where(inflated, float(dof), float(point_df))}


def wls(X, y, se, point_df: float = math.inf, min_point: int = MIN_POINT_REPLICATES) -> Fit:
    """Weighted least squares of y on the columns of X with standard errors ``se``.
    ``point_df`` is the smallest degrees of freedom of the per-point standard errors."""
    b = wls_batch(X, y, se, point_df)
    return Fit(b["coef"], b["cov"], b["dof"], float(b["chi2"]), float(b["lack_of_fit_p"]), bool(b["inflated"]),
               float(b["quantile_df"]), float(point_df), min_point)


def power_law(x, y, se, point_df: float = math.inf) -> Fit:
    """log y = log A + p log x (coefficient 1 is the exponent p); the log-scale standard
    errors are se/y (delta method). y must be positive."""
    x, y, se = (np.asarray(v, float) for v in (x, y, se))
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("a power law needs positive x and y at every point")
    return wls(np.stack([np.ones_like(x), np.log(x)], axis=1), np.log(y), se / y, point_df)


def limit(x, y, se, order: float = 1.0, point_df: float = math.inf) -> Fit:
    """y(x) = c + a x^(-order) (coefficient 0 is the limit c as x -> infinity)."""
    x = np.asarray(x, float)
    return wls(np.stack([np.ones_like(x), x ** (-order)], axis=1), y, se, point_df, min_point=MIN_REPLICATES)
