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
of those terms; the two tails are estimated separately and added. The proposal is
written for blocks of coordinates, one (mu, tau) per block (:func:`cross_entropy`,
:func:`weighted_tail`): one block here, two (one per sample) for the Welch comparison
of :mod:`.tails_welch`.

The weights can be heavy-tailed (a proposal with tau < 1/sqrt 2 gives them infinite
variance along the all-ones direction), so each tail records its effective sample size
(sum w)^2 / sum w^2 and the largest weight's share of the sum, and a row whose weights
fall short of :data:`MIN_ESS` or exceed :data:`MAX_SHARE` is flagged ``reliable: False``
(its normal interval is not to be trusted). Below 25 replicates the proposals degenerate
and the function refuses.

Each of :data:`.tails.RULES` is estimated: the plain t, the corrected t, and the judges'
rule (reject only where both reject; per tail its statistic is the smaller of the two).

Known truth: on near-Gaussian replicates the plain t test's rate is alpha, and the
corrected test's and the judges' rule's rates are computed without importance sampling
(t is independent of the sample skewness for Gaussian data and the corrected statistic
is monotone in t, so the rate is E_g[P(t_{n-1} past the inverted critical values)],
:func:`gaussian_exact_rate`).
The report also sets the lognormal rows at 1e-4 and 1e-6 beside the direct counts.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

from ..stats.skewness import SKEW_CORRECTION_FROM, hall_coefficient, hall_inverse, rule_thresholds
from .tails import RULES, corrected_t, lognormal_skewness, oriented

__all__ = ["IS_LEVELS", "IS_SIZES", "CONTROL_SIGMA", "MIN_ESS", "MAX_SHARE", "tail_rates_is", "run_tails_is",
           "gaussian_exact_rate", "cross_entropy", "weighted_tail", "two_tails", "check_is_inputs"]

#: Two-sided alphas: the two the direct counts also measure (a check of this estimator)
#: and the level of the tests inside a claim.
IS_LEVELS = (1e-4, 1e-6, 1e-8)
IS_SIZES = (25, 100, 400, 1600)
#: Weight diagnostics a tail must meet for its interval to be reported as reliable.
MIN_ESS, MAX_SHARE = 1000.0, 0.01
#: The fewest replicates the estimator accepts.
MIN_REPLICATES = 25


def _log_ratio(z: np.ndarray, mu: float, tau: float) -> np.ndarray:
    return (-0.5 * z**2 + 0.5 * ((z - mu) / tau) ** 2 + math.log(tau)).sum(axis=1)


def _statistic(z: np.ndarray, sigma: float, rule: str, sign: int) -> np.ndarray:
    """``rule``'s statistic for the tail ``sign`` of lognormal replicates exp(sigma z - sigma^2/2)."""
    t, th = corrected_t(np.exp(sigma * z - sigma**2 / 2), 1.0)
    return oriented(t, th, sign, rule)


def _draw(proposal, sizes, k, rng) -> list:
    """``k`` draws of each block: block b holds ``sizes[b]`` iid N(mu_b, tau_b^2) coordinates."""
    return [mu + tau * rng.standard_normal((k, n)) for (mu, tau), n in zip(proposal, sizes)]


def _log_weight(zs, proposal) -> np.ndarray:
    """log of the likelihood ratio of N(0, I) to the proposal, summed over the blocks."""
    out = _log_ratio(zs[0], *proposal[0])
    for z, (mu, tau) in zip(zs[1:], proposal[1:]):
        out = out + _log_ratio(z, mu, tau)
    return out


def cross_entropy(score, sizes, crit, rng, what: str, draws=20000, elite=0.05, iters=15) -> list:
    """The proposal [(mu_b, tau_b) per block] for the tail score(blocks) > crit, by the
    cross-entropy method (module docstring); ``what`` names the tail in the error raised
    when ``iters`` steps do not reach ``crit``."""
    proposal = [(0.0, 1.0)] * len(sizes)
    for _ in range(iters):
        zs = _draw(proposal, sizes, draws, rng)
        t = score(zs)
        level = min(float(np.quantile(t, 1 - elite)), crit)
        keep = t >= level
        w = np.exp(_log_weight([z[keep] for z in zs], proposal))
        w /= w.sum()
        refit = []
        for z, n in zip(zs, sizes):
            zk = z[keep]
            mu = float((w[:, None] * zk).sum() / n)
            refit.append((mu, math.sqrt(float((w[:, None] * (zk - mu) ** 2).sum() / n))))
        proposal = refit
        if level >= crit:
            return proposal
    raise RuntimeError(f"the cross-entropy proposal did not reach the critical value {crit:.3g} in {iters} steps "
                       f"({what})")


def weighted_tail(score, sizes, crit, proposal, rng, reseeds: int, chunk: int) -> dict:
    """P(score > crit) under N(0, I) from ``reseeds`` draws of ``proposal``: the rate,
    its variance and standard error, and the weight diagnostics (effective sample size, largest
    weight's share of the sum)."""
    s = s2 = top = 0.0
    done = 0
    while done < reseeds:
        k = min(chunk, reseeds - done)
        zs = _draw(proposal, sizes, k, rng)
        v = np.where(score(zs) > crit, np.exp(_log_weight(zs, proposal)), 0.0)
        s, s2, top, done = s + float(v.sum()), s2 + float((v**2).sum()), max(top, float(v.max())), done + k
    p = s / reseeds
    v_p = max(s2 / reseeds - p * p, 0.0) / reseeds
    return {"rate": p, "var": v_p, "se": math.sqrt(v_p), "ess": s * s / s2 if s2 > 0 else 0.0,
            "top_share": top / s if s > 0 else 1.0}


def two_tails(tails: list, variances: list, alpha: float) -> dict:
    """The two-sided rate of two one-sided ``tails`` (lower, upper; their estimates'
    ``variances``): their sum, a normal 95% interval, and whether every tail that
    carries at least 1% of the rate has reliable weights (:data:`MIN_ESS`,
    :data:`MAX_SHARE`)."""
    rate = sum(t["rate"] for t in tails)
    se = math.sqrt(sum(variances))
    reliable = all(t["ess"] >= MIN_ESS and t["top_share"] <= MAX_SHARE for t in tails if t["rate"] > 0.01 * rate)
    return {"rate": rate, "se": se, "interval": [max(rate - 1.96 * se, 0.0), rate + 1.96 * se],
            "over_alpha": rate / alpha, "reliable": bool(reliable), "tails": tails}


def check_is_inputs(n, alpha, reseeds, sigma, chunk) -> None:
    """A clear error for sizes, levels, draw counts or log-sds the estimator cannot take."""
    if not isinstance(n, int) or n < MIN_REPLICATES:
        raise ValueError(f"n must be an integer >= {MIN_REPLICATES} (below, the proposals' weights degenerate), got {n!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if not isinstance(reseeds, int) or reseeds < 2:
        raise ValueError(f"reseeds must be an integer >= 2, got {reseeds!r}")
    if not (math.isfinite(sigma) and sigma > 0):
        raise ValueError(f"sigma must be finite and > 0, got {sigma!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an integer >= 1, got {chunk!r}")


def tail_rates_is(n: int, alpha: float, reseeds: int, sigma: float = 0.5, seed: int = 0, chunk: int = 20000,
                  rules: tuple = RULES) -> dict:
    """Two-sided false-alarm rates at ``alpha`` of each of ``rules`` (default
    :data:`.tails.RULES`) for ``n`` lognormal replicates (log-sd ``sigma``, mean 1):
    ``reseeds`` weighted draws per tail and statistic, with normal 95% intervals and each
    tail's weight diagnostics."""
    check_is_inputs(n, alpha, reseeds, sigma, chunk)
    if not rules or any(r not in RULES for r in rules):
        raise ValueError(f"rules must be a non-empty subset of {RULES}, got {rules!r}")
    rng = np.random.default_rng([seed, n, int(round(-math.log10(alpha) * 1000)), int(round(sigma * 1e6))])
    crit = float(st.t.isf(alpha / 2, n - 1))
    out = {"n": n, "alpha": alpha, "reseeds": reseeds, "sigma": sigma,
           "method": "importance sampling (cross-entropy proposal)",
           "skewness": lognormal_skewness(sigma)}
    for rule in rules:
        tails, variances = [], []
        for sign in (-1, 1):
            side = "lower" if sign < 0 else "upper"

            def score(zs, sign=sign, rule=rule):
                return _statistic(zs[0], sigma, rule, sign)

            proposal = cross_entropy(score, (n,), crit, rng, f"n={n}, {rule}, {side} tail")
            tail = weighted_tail(score, (n,), crit, proposal, rng, reseeds, chunk)
            tails.append({"side": side, "rate": tail["rate"], "se": tail["se"], "proposal": list(proposal[0]),
                          "ess": tail["ess"], "top_share": tail["top_share"]})
            variances.append(tail["var"])
        out[rule] = two_tails(tails, variances, alpha)
    return out


def gaussian_exact_rate(n: int, alpha: float, draws: int = 1_000_000, seed: int = 0,
                        rule: str = "corrected_t") -> dict:
    """The two-sided rate of the corrected test (``rule="corrected_t"``) or of the judges'
    rule (``"both_t"``) on Gaussian replicates without importance sampling: for Gaussian
    data t ~ t_{n-1} is independent of the sample skewness g, and Hall's statistic is
    nondecreasing in t, so the rate is E_g[F(t_-(a)) + S(t_+(a))] with t_+- the inverses
    of the critical values at a = g / (3 sqrt n) (for both_t, t_+ no lower than the
    critical value and t_- no higher than its negative); the mean over ``draws`` samples'
    g, with a normal 95% half-width (as multiples of alpha)."""
    if not isinstance(n, int) or n < SKEW_CORRECTION_FROM or not 0 < alpha < 1 or draws < 2:
        raise ValueError(f"need an integer n >= {SKEW_CORRECTION_FROM} (below, the judges use the plain t), alpha in "
                         f"(0, 1) and draws >= 2; got n={n!r}, alpha={alpha!r}, draws={draws!r}")
    if rule not in ("corrected_t", "both_t"):
        raise ValueError(f"rule must be 'corrected_t' or 'both_t', got {rule!r}")
    rng = np.random.default_rng([seed, n, 99])
    crit = float(st.t.isf(alpha / 2, n - 1))
    parts, done = [], 0
    while done < draws:
        k = min(max(1, 4_000_000 // n), draws - done)
        x = rng.standard_normal((k, n))
        a = hall_coefficient(x)
        up, lo = rule_thresholds(crit, a) if rule == "both_t" else (hall_inverse(crit, a), hall_inverse(-crit, a))
        parts.append(st.t.sf(up, n - 1) + st.t.cdf(lo, n - 1))
        done += k
    p = np.concatenate(parts)
    return {"over_alpha": float(p.mean() / alpha), "half_width": float(1.96 * p.std() / math.sqrt(p.size) / alpha)}


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
        if row["control"]:
            for rule in ("corrected_t", "both_t"):
                row[rule]["truth"] = gaussian_exact_rate(task[0], task[1], draws=min(10**6, 4 * 10**8 // task[0]),
                                                         rule=rule)
    return rows
