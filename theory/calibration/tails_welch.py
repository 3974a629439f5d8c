"""False-alarm rates of the Welch comparison far in the tail, by importance sampling.

The catalogue compares two samples with Welch's t (:func:`theory.stats.difference`;
Welch 1947, Satterthwaite degrees of freedom, no skewness correction) at the level of
the tests inside a claim, about 1e-8. The direct counts of :mod:`.tails` measure it
down to 1e-6 only. Here, as there, the comparison is of ``n`` lognormal replicates
X = exp(sigma Z - sigma^2/2) (mean 1) with ``n`` Gaussian ones Y = 1 + s W of the same
mean and spread s = sqrt(e^{sigma^2} - 1): E[X] = E[Y] is true, and one side skewed
against a symmetric one is the equal-size case where the difference of the means keeps
the most skewness, 2^{-3/2} (about 0.35) of the skewed side's (its third cumulant stays,
its variance doubles; two equally skewed sides of equal size cancel it). Each tail of the Welch statistic past
its critical value t_{df}^{-1}(1 - alpha/2) (df the Satterthwaite degrees of freedom of
each draw) is estimated under a Gaussian proposal with one (mu, tau) per sample, tuned
by the cross-entropy method of :mod:`.tails_is`, with the same weight diagnostics.

Known truth: for two Gaussian samples of equal size and equal variance the Welch
statistic is the pooled t, which is Student-t with 2n - 2 degrees of freedom and
independent of the variance ratio R = s_X^2 / s_Y^2 ~ F(n - 1, n - 1) (the sum and the
ratio of two independent chi-squares are independent), while the Satterthwaite degrees
of freedom are a function of R alone, (n - 1)(1 + R)^2 / (1 + R^2). So the rate is

    E_R[ 2 S_{2n-2}( t_{df(R)}^{-1}(1 - alpha/2) ) ],

a one-dimensional integral (:func:`welch_gaussian_exact`), set beside the control rows
(log-sd 1e-3: near-Gaussian X).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import integrate
from scipy import stats as st

from .tails import lognormal_skewness, welch_t
from .tails_is import (CONTROL_SIGMA, IS_LEVELS, IS_SIZES, check_is_inputs, cross_entropy, two_tails,
                       weighted_tail)

__all__ = ["welch_rates_is", "welch_gaussian_exact", "run_tails_welch"]


def _score(zs, sigma: float, alpha: float, sign: int) -> np.ndarray:
    """sign * t_Welch minus its critical value at two-sided ``alpha`` for each draw of
    the latent normals (zs[0] of the lognormal sample, zs[1] of the Gaussian one):
    positive where the test rejects on the side ``sign``."""
    x = np.exp(sigma * zs[0] - sigma**2 / 2)
    y = 1.0 + math.sqrt(math.expm1(sigma**2)) * zs[1]
    t, df = welch_t(x, y)
    return sign * t - st.t.isf(alpha / 2, df)


def welch_rates_is(n: int, alpha: float, reseeds: int, sigma: float = 0.5, seed: int = 0,
                   chunk: int = 20000) -> dict:
    """The two-sided false-alarm rate at ``alpha`` of Welch's comparison of ``n``
    lognormal replicates (log-sd ``sigma``, mean 1) with ``n`` Gaussian ones of the same
    mean and spread: ``reseeds`` weighted draws per tail, a normal 95% interval, and each
    tail's proposal and weight diagnostics."""
    check_is_inputs(n, alpha, reseeds, sigma, chunk)
    rng = np.random.default_rng([seed, n, int(round(-math.log10(alpha) * 1000)), int(round(sigma * 1e6)), 2])
    tails, variances = [], []
    for sign in (-1, 1):
        side = "lower" if sign < 0 else "upper"

        def score(zs, sign=sign):
            return _score(zs, sigma, alpha, sign)

        proposal = cross_entropy(score, (n, n), 0.0, rng, f"n={n}, Welch, {side} tail")
        tail = weighted_tail(score, (n, n), 0.0, proposal, rng, reseeds, chunk)
        tails.append({"side": side, "rate": tail["rate"], "se": tail["se"], "proposal": [list(b) for b in proposal],
                      "ess": tail["ess"], "top_share": tail["top_share"]})
        variances.append(tail["var"])
    return {"n": n, "alpha": alpha, "reseeds": reseeds, "sigma": sigma,
            "method": "importance sampling (cross-entropy proposal, one block per sample)",
            "skewness": lognormal_skewness(sigma), "welch_t": two_tails(tails, variances, alpha)}


def welch_gaussian_exact(n: int, alpha: float) -> dict:
    """The two-sided rate of Welch's test on two Gaussian samples of ``n`` replicates
    each with equal variances, as a multiple of alpha (module docstring: an integral over
    the F(n - 1, n - 1) law of the variance ratio, on the log scale), with quad's error
    estimate; below 1 (the test is conservative there, as its degrees of freedom are at
    most the pooled 2n - 2).

    >>> r = welch_gaussian_exact(25, 1e-6)
    >>> round(r["over_alpha"], 4), r["half_width"] < 1e-9
    (0.9025, True)
    """
    if not isinstance(n, int) or n < 2 or not 0 < alpha < 1:
        raise ValueError(f"need an integer n >= 2 and alpha in (0, 1); got n={n!r}, alpha={alpha!r}")
    ratio = st.f(n - 1, n - 1)
    pooled = 2 * n - 2

    def integrand(u):
        r = math.exp(u)
        df = (n - 1) * (1 + r) ** 2 / (1 + r * r)
        return 2 * st.t.sf(st.t.isf(alpha / 2, df), pooled) * ratio.pdf(r) * r

    value, err = integrate.quad(integrand, -40.0, 40.0, points=[0.0], limit=400, epsabs=0.0, epsrel=1e-10)
    return {"over_alpha": value / alpha, "half_width": err / alpha}


def run_tails_welch(sizes=IS_SIZES, levels=IS_LEVELS, reseeds: int = 100000, progress: bool = True,
                    jobs: int = 1) -> list:
    """One row per (alpha, sample size) on lognormal replicates (skewness 1.75), and the
    same on near-Gaussian control replicates (``control: True``, with the exact rate as
    ``truth``), on ``jobs`` processes."""
    from .pool import map_tasks

    tasks = [(n, alpha, reseeds, sigma) for sigma in (0.5, CONTROL_SIGMA) for alpha in levels for n in sizes]
    rows = map_tasks(welch_rates_is, tasks, jobs, "tails (Welch, importance sampling)", progress)
    for row, task in zip(rows, tasks):
        row["control"] = task[3] == CONTROL_SIGMA
        if row["control"]:
            row["welch_t"]["truth"] = welch_gaussian_exact(task[0], task[1])
    return rows
