"""False-alarm rates of every test the catalogue uses, counted at the smallest level a test
runs at inside a claim (:data:`theory.stats.CALIBRATED_LEVEL`), on replicate laws as skewed
as the catalogue's, at the fewest replicates the tests accept.

Each row runs the test, vectorized (the tests check it agrees with :mod:`theory.stats`),
on ``reseeds`` samples of a true null, each tail at half the level, and reports the rate
of both tails together with an exact 95% interval (a one-sided test's rate is at most
that). A row meets the claim's alpha when its rate is at most ``ALPHA_GUARD`` times the
level (:mod:`theory.stats.sequential`). The binomial and Bernstein rows are exact.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

from .. import stats
from ..stats.medians import median_order_index
from ..stats.skewness import hall_coefficient, rule_thresholds, welch_coefficient

__all__ = ["LAWS", "ROWS", "draw", "one_sample_rejects", "welch_rejects", "fit_rejects", "gof_rejects",
           "binomial_exact", "bernstein_exact", "measure_row", "run_rates"]


def _normal(rng, shape):
    return rng.standard_normal(shape, dtype=np.float32)  # single precision: half the memory and time


def _lognormal(s: float) -> tuple:
    """exp(s Z): sampler, mean, sd, skewness."""
    return (lambda rng, shape: np.exp(np.float32(s) * _normal(rng, shape)), math.exp(s * s / 2),
            math.sqrt((math.exp(s * s) - 1) * math.exp(s * s)), (math.exp(s * s) + 2) * math.sqrt(math.exp(s * s) - 1))


#: Replicate laws: (sampler, mean, sd, skewness). Per-network ratios and products over layers
#: are lognormal-like, squared norms chi-square-like.
LAWS = {
    "Gaussian": (_normal, 0.0, 1.0, 0.0),
    "lognormal, sd of log 0.3": _lognormal(0.3),
    "lognormal, sd of log 0.5": _lognormal(0.5),
    "chi-square, 1 d.o.f.": (lambda rng, shape: _normal(rng, shape) ** 2, 1.0, math.sqrt(2.0), math.sqrt(8.0)),
}
_WIDTHS = np.array([8.0, 16.0, 32.0, 64.0, 128.0])


def draw(law: str, rng, shape) -> np.ndarray:
    """Draws of ``law`` minus its mean (a true null of E = 0)."""
    sampler, mean, _, _ = LAWS[law]
    return sampler(rng, shape) - np.float32(mean)


def _sides(t, upper, lower) -> np.ndarray:
    """Rejections (upper side, lower side) of statistics ``t`` against thresholds."""
    return np.array([np.count_nonzero(t > upper), np.count_nonzero(t < lower)])


def one_sample_rejects(x: np.ndarray, level: float) -> np.ndarray:
    """(upper, lower) rejections of E = 0 by the one-sample rule of :mod:`theory.stats.means`
    (plain t and Hall's corrected t both reject, each tail at ``level``) over rows of ``x``."""
    n = x.shape[-1]
    t = x.mean(-1) / (x.std(-1, ddof=1) / math.sqrt(n))
    upper, lower = rule_thresholds(st.t.isf(level, n - 1), hall_coefficient(x))
    return _sides(t, upper, lower)


def welch_rejects(x: np.ndarray, y: np.ndarray, level: float) -> np.ndarray:
    """(upper, lower) rejections of E[x] = E[y] by the Welch rule of :mod:`theory.stats.means`
    (Welch's t and its Hall-corrected form both reject, each tail at ``level``)."""
    va, vb = x.var(-1, ddof=1) / x.shape[-1], y.var(-1, ddof=1) / y.shape[-1]
    df = (va + vb) ** 2 / (va**2 / (x.shape[-1] - 1) + vb**2 / (y.shape[-1] - 1))
    upper, lower = rule_thresholds(st.t.isf(level, df), welch_coefficient(x, y))
    return _sides((x.mean(-1) - y.mean(-1)) / np.sqrt(va + vb), upper, lower)


def fit_rejects(x: np.ndarray, level: float, model: str) -> np.ndarray:
    """(upper, lower) rejections of the true coefficient by a fit over 5 widths 8..128,
    ``x`` of shape (reseeds, widths, n) holding centred noise of unit-scale laws. "exponent":
    y_w = w^-1/2 (1 + x/4), power law (coefficient 1 = -1/2); "limit": y_w = 1 + 1/w + x/(4
    sqrt w), c + a/w (coefficient 0 = 1)."""
    n = x.shape[-1]
    if model == "exponent":
        y = _WIDTHS[:, None] ** -0.5 * (1 + x / 4)
        m, se = y.mean(-1), y.std(-1, ddof=1) / math.sqrt(n)
        X, ys, ses, i, truth = np.stack([np.ones(5), np.log(_WIDTHS)], 1), np.log(m), se / m, 1, -0.5
    else:
        y = 1 + 1 / _WIDTHS[:, None] + x / (4 * np.sqrt(_WIDTHS[:, None]))
        X, ys = np.stack([np.ones(5), 1 / _WIDTHS], 1), y.mean(-1)
        ses, i, truth = y.std(-1, ddof=1) / math.sqrt(n), 0, 1.0
    b = stats.wls_batch(X, ys, ses, n - 1)
    t = (b["coef"][:, i] - truth) / np.sqrt(b["cov"][:, i, i])
    q = st.t.isf(level, b["quantile_df"])
    return _sides(t, q, -q)


def gof_rejects(rng, reseeds: int, n: int, level: float, k: int = 16) -> np.ndarray:
    """(rejections, 0) of Pearson's chi-square test of ``n`` uniform draws on ``k`` categories
    at 2 ``level`` (it has one tail: its level is the test's)."""
    counts = rng.multinomial(n, np.full(k, 1 / k), size=reseeds)
    stat = ((counts - n / k) ** 2).sum(-1) / (n / k)
    return np.array([np.count_nonzero(stat > st.chi2.isf(2 * level, k - 1)), 0])


def median_rejects(x: np.ndarray, y: np.ndarray, level: float) -> np.ndarray:
    """(upper, lower) misses of median(x) - median(y) = 0 by the order-statistic interval of
    :func:`theory.stats.median_difference` with each end at ``level`` (each median bounded
    at ``level / 2`` a side), over rows of ``x`` and ``y``."""
    n = x.shape[-1]
    k, _ = median_order_index(n, level / 2)
    x, y = np.sort(x, -1), np.sort(y, -1)
    return np.array([np.count_nonzero(x[:, k - 1] > y[:, n - k]), np.count_nonzero(x[:, n - k] < y[:, k - 1])])


def _exact(limits, n: int) -> tuple[float, float]:
    """The largest exact rate, over true proportions p on a grid, at which the ``limits`` of
    k/n (k = 0..n) miss p when k ~ Binomial(n, p): (rate, p)."""
    def missed(p):
        return sum(st.binom.pmf(k, n, p) for k, (lo, hi) in enumerate(limits) if lo > p or hi < p)

    return max((missed(p), p) for p in np.linspace(0.02, 0.98, 49))


def binomial_exact(n: int, level: float) -> tuple[float, float]:
    """:func:`_exact` of the Clopper-Pearson intervals at ``level``."""
    return _exact([stats.binomial_interval(k, n, level) for k in range(n + 1)], n)


def bernstein_exact(n: int, level: float) -> tuple[float, float]:
    """:func:`_exact` of the empirical-Bernstein limits at ``level / 2`` each (both tails at ``level``)."""
    return _exact([stats.bernstein_limits(np.r_[np.ones(k), np.zeros(n - k)], level / 2) for k in range(n + 1)], n)


_LN3, _LN5, _CHI = "lognormal, sd of log 0.3", "lognormal, sd of log 0.5", "chi-square, 1 d.o.f."
#: (test, law, replicates per sample or point, or count) of each row: every test at its
#: minimum on the skewed laws (the mean tests are exact or conservative on Gaussian ones),
#: and twice the minimum where the more skewed laws need it.
ROWS = (
    *(("one-sample mean", law, stats.MIN_REPLICATES) for law in (_LN3, _LN5, _CHI)),
    ("one-sample mean", _LN5, 2 * stats.MIN_REPLICATES),
    *(("Welch difference", law, stats.MIN_REPLICATES) for law in (_LN3, _LN5, _CHI)),
    *(("Welch difference", law, 2 * stats.MIN_REPLICATES) for law in (_LN5, _CHI)),
    *(("fitted exponent", law, stats.MIN_POINT_REPLICATES) for law in ("Gaussian", _LN3, _LN5, _CHI)),
    *(("fitted limit", law, stats.MIN_REPLICATES) for law in ("Gaussian", _LN3)),
    ("chi-square goodness of fit", "uniform, 16 categories", 50000),  # arpit2019.lemma1's first look
    ("exact binomial interval", "Bernoulli", 100),
    ("empirical-Bernstein limit", "Bernoulli", stats.MIN_REPLICATES),
    # zeroinit2019 Table 1 and defazio_bottou Figure 2 (their log norms' spreads differ up to 4x)
    ("median difference", "Gaussian, sd 1 against 4", 32),
)
#: Samples per row: 50 false alarms expected at the calibrated level.
RESEEDS = 5 * 10**6


def measure_row(test: str, law: str, n: int, reseeds: int = RESEEDS, level: float = stats.CALIBRATED_LEVEL) -> dict:
    """The false-alarm rate at ``level`` of one row (:data:`ROWS`): both tails at ``level / 2``,
    counted over ``reseeds`` samples in chunks of about 1e7 random numbers (exact for the
    binomial and Bernstein rows)."""
    row = {"test": test, "law": law, "skewness": LAWS[law][3] if law in LAWS else None, "n": n, "level": level}
    if test in ("exact binomial interval", "empirical-Bernstein limit"):
        rate, p = map(float, (binomial_exact if test.startswith("exact") else bernstein_exact)(n, level))
        met = rate <= stats.ALPHA_GUARD * level
        return {**row, "reseeds": None, "rate": rate, "interval": [rate, rate], "worst_p": p, "met": met}
    rng = np.random.default_rng([0, len(test), n, sum(map(ord, law))])
    per = {"one-sample mean": n, "Welch difference": 2 * n, "median difference": 2 * n}.get(
        test, 5 * n if test.startswith("fitted") else 100)
    chunk, counts, done = max(1, int(1e7 // per)), np.zeros(2, int), 0
    while done < reseeds:
        k = min(chunk, reseeds - done)
        if test == "one-sample mean":
            counts += one_sample_rejects(draw(law, rng, (k, n)), level / 2)
        elif test == "Welch difference":
            counts += welch_rejects(draw(law, rng, (k, n)), np.float32(LAWS[law][2]) * _normal(rng, (k, n)), level / 2)
        elif test == "median difference":
            counts += median_rejects(_normal(rng, (k, n)), 4 * _normal(rng, (k, n)), level / 2)
        elif test.startswith("fitted"):
            counts += fit_rejects(draw(law, rng, (k, 5, n)), level / 2, test.split()[1])
        else:
            counts += gof_rejects(rng, k, n, level / 2)
        done += k
    both = int(counts.sum())
    lo, hi = stats.binomial_interval(both, reseeds, 0.05)
    return {**row, "reseeds": reseeds, "upper": int(counts[0]), "lower": int(counts[1]), "rate": both / reseeds,
            "interval": [lo, hi], "met": both / reseeds <= stats.ALPHA_GUARD * level}


def run_rates(reseeds: int = RESEEDS, rows=ROWS, jobs: int = 1, progress: bool = True) -> list:
    """Every row of ``rows`` at ``reseeds`` samples (numbers independent of ``jobs``)."""
    from .measure import map_tasks

    return map_tasks(measure_row, [(t, law, n, reseeds) for t, law, n in rows], jobs, "test rates", progress)
