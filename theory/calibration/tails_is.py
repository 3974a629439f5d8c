"""False-alarm rates of the one-sample mean test far in the tail, by importance sampling.

The direct counts of :mod:`.tails` resolve rates down to about 1e-6; the tests inside a
claim run lower (the claim's alpha split over looks and rows, about 1e-8). Here the
replicates are lognormal, X = exp(sigma Z - sigma^2/2) with Z iid N(0, 1), and each tail
of the statistic is estimated under a Gaussian proposal Z ~ N(mu, tau^2) per coordinate,
weighted by the likelihood ratio

    w(z) = prod_i phi(z_i) / (phi((z_i - mu) / tau) / tau),

with (mu, tau) tuned by the cross-entropy method (Rubinstein & Kroese 2004): draws from
the current proposal, the most extreme 5% (or those past the critical value) refit mu
and tau by weighted moments, until the critical value is reached. The rate is the mean
of w 1{T past the critical value}, with a normal 95% interval from the sample variance
of those terms; the two tails are estimated separately and added.

The estimator is checked on known truth (Gaussian replicates, where the plain t test's
rate is alpha exactly) in the tests, and against the direct counts at 1e-4 and 1e-6 in
the report.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

from .tails import corrected_t

__all__ = ["IS_LEVELS", "IS_SIZES", "CONTROL_SIGMA", "tail_rates_is", "run_tails_is"]

#: Two-sided alphas: the two the direct counts also measure (a check of this estimator)
#: and the level of the tests inside a claim.
IS_LEVELS = (1e-4, 1e-6, 1e-8)
IS_SIZES = (25, 100, 400, 1600)
_STATS = ("plain_t", "corrected_t")


def _log_ratio(z: np.ndarray, mu: float, tau: float) -> np.ndarray:
    return (-0.5 * z**2 + 0.5 * ((z - mu) / tau) ** 2 + math.log(tau)).sum(axis=1)


def _statistic(z: np.ndarray, sigma: float, which: str) -> np.ndarray:
    t, th = corrected_t(np.exp(sigma * z - sigma**2 / 2), 1.0)
    return t if which == "plain_t" else th


def _cross_entropy(n, crit, sign, sigma, which, rng, draws=20000, elite=0.05, iters=15):
    """(mu, tau) of the proposal for the tail sign * T > crit."""
    mu, tau = 0.0, 1.0
    for _ in range(iters):
        z = mu + tau * rng.standard_normal((draws, n))
        t = sign * _statistic(z, sigma, which)
        level = min(float(np.quantile(t, 1 - elite)), crit)
        keep = t >= level
        w = np.exp(_log_ratio(z[keep], mu, tau))
        w /= w.sum()
        zk = z[keep]
        mu = float((w[:, None] * zk).sum() / n)
        tau = math.sqrt(float((w[:, None] * (zk - mu) ** 2).sum() / n))
        if level >= crit:
            break
    return mu, tau


def tail_rates_is(n: int, alpha: float, reseeds: int, sigma: float = 0.5, seed: int = 0, chunk: int = 20000) -> dict:
    """Two-sided false-alarm rates at ``alpha`` of the plain and the corrected t test for
    ``n`` lognormal replicates (log-sd ``sigma``, mean 1): ``reseeds`` weighted draws per
    tail and statistic, with normal 95% intervals."""
    if n < 2 or reseeds < 2 or not 0 < alpha < 1 or sigma <= 0:
        raise ValueError(f"need n >= 2, reseeds >= 2, alpha in (0, 1) and sigma > 0; got n={n}, "
                         f"reseeds={reseeds}, alpha={alpha}, sigma={sigma}")
    rng = np.random.default_rng([seed, n, int(round(-math.log10(alpha) * 100))])
    crit = float(st.t.isf(alpha / 2, n - 1))
    out = {"n": n, "alpha": alpha, "reseeds": reseeds, "method": "importance sampling (cross-entropy proposal)",
           "skewness": float((math.exp(sigma**2) + 2) * math.sqrt(math.exp(sigma**2) - 1))}
    for which in _STATS:
        rate, var, tails = 0.0, 0.0, []
        for sign in (-1, 1):
            mu, tau = _cross_entropy(n, crit, sign, sigma, which, rng)
            s = s2 = 0.0
            done = 0
            while done < reseeds:
                k = min(chunk, reseeds - done)
                z = mu + tau * rng.standard_normal((k, n))
                v = np.where(sign * _statistic(z, sigma, which) > crit, np.exp(_log_ratio(z, mu, tau)), 0.0)
                s, s2, done = s + float(v.sum()), s2 + float((v**2).sum()), done + k
            p = s / reseeds
            v_p = max(s2 / reseeds - p * p, 0.0) / reseeds
            rate, var = rate + p, var + v_p
            tails.append({"side": "lower" if sign < 0 else "upper", "rate": p, "se": math.sqrt(v_p),
                          "proposal": [mu, tau]})
        se = math.sqrt(var)
        out[which] = {"rate": rate, "se": se, "interval": [max(rate - 1.96 * se, 0.0), rate + 1.96 * se],
                      "over_alpha": rate / alpha, "tails": tails}
    return out


#: log-sd of the control rows: replicates this close to Gaussian make the plain t test exact,
#: so its rate there is alpha (the estimator's known truth).
CONTROL_SIGMA = 1e-3


def run_tails_is(sizes=IS_SIZES, levels=IS_LEVELS, reseeds: int = 100000, progress: bool = True,
                 jobs: int = 1) -> list:
    """One row per (alpha, sample size) on lognormal replicates (skewness 1.75), and the
    same on near-Gaussian control replicates (``control: True``), on ``jobs`` processes."""
    from .pool import map_tasks

    tasks = [(n, alpha, reseeds, sigma) for sigma in (0.5, CONTROL_SIGMA) for alpha in levels for n in sizes]
    rows = map_tasks(tail_rates_is, tasks, jobs, "tails (importance sampling)", progress)
    for row, task in zip(rows, tasks):
        row["control"] = task[3] == CONTROL_SIGMA
    return rows
