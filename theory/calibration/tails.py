"""Tail accuracy of the one-sample mean test on skewed replicates, where rates are
small: the plain Student-t test, the skewness-corrected one (Hall 1992), and the rule
:mod:`theory.stats.means` uses (reject only where both reject), vectorized over many
reseeds; beside them, the Welch comparison of a skewed sample with a Gaussian one
(Welch's t has no skewness correction here).

:func:`corrected_t` is the same statistic as ``MeanEstimate.t`` (a test checks that
they agree), computed for a whole array of samples at once; :func:`oriented` gives each
rule's statistic for one tail.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

from ..stats import binomial_interval
from ..stats.skewness import SKEW_CORRECTION_FROM, hall_coefficient, hall_corrected

__all__ = ["TAIL_LEVELS", "RULES", "COUNTED", "require_rules", "covers_truth", "corrected_t", "oriented", "welch_t", "lognormal_skewness", "tail_rates", "run_tails"]

#: The tests whose rates are measured: the plain t, Hall's corrected t, and the judges'
#: rule that rejects only where both reject.
RULES = ("plain_t", "corrected_t", "both_t")
#: What :func:`tail_rates` counts: the rules, and the Welch comparison with a Gaussian sample.
COUNTED = RULES + ("welch_t",)


def require_rules(rows, keys, what: str) -> None:
    """A clear error where calibration.json's ``what`` predate a rule that is read from them."""
    missing = sorted({k for r in rows or () for k in keys if k not in r})
    if missing:
        raise ValueError(f"calibration.json's {what} lack {', '.join(missing)} (written before the judges' rule): "
                         "rerun `python -m theory calibrate`")


def covers_truth(row: dict, rule: str) -> bool | None:
    """Whether a control row's ``rule`` cell covers its known rate (``truth``, as a
    multiple of alpha) with its interval; None where the cell has no known rate or was
    not reached.

    >>> covers_truth({"alpha": 1e-8, "w": {"interval": [0.9e-8, 1.1e-8], "truth": {"over_alpha": 0.95}}}, "w")
    True
    """
    c = row[rule]
    if not c.get("truth") or not c.get("reached", True):
        return None
    return bool(c["interval"][0] <= c["truth"]["over_alpha"] * row["alpha"] <= c["interval"][1])


def lognormal_skewness(sigma: float) -> float:
    """Skewness (e^{s^2} + 2) sqrt(e^{s^2} - 1) of a lognormal law with log-sd ``sigma``."""
    return float((math.exp(sigma**2) + 2) * math.sqrt(math.exp(sigma**2) - 1))


def corrected_t(x: np.ndarray, target: float) -> tuple[np.ndarray, np.ndarray]:
    """(plain t, Hall-corrected t) of E = target for each row of ``x`` (reseeds, n)."""
    n = x.shape[1]
    m = x.mean(1)
    s = x.std(1, ddof=1)
    t = (m - target) / (s / math.sqrt(n))
    if n < SKEW_CORRECTION_FROM:
        return t, t
    return t, hall_corrected(t, hall_coefficient(x))


def oriented(t: np.ndarray, th: np.ndarray, sign: int, rule: str) -> np.ndarray:
    """The statistic of ``rule`` for the tail ``sign`` (+1 upper, -1 lower), oriented so
    that the test rejects on that side where it exceeds the critical value: sign * t,
    sign * th, or (both_t) the smaller of the two."""
    if rule == "plain_t":
        return sign * t
    if rule == "corrected_t":
        return sign * th
    if rule == "both_t":
        return np.minimum(sign * t, sign * th)
    raise ValueError(f"rule must be one of {RULES}, got {rule!r}")


def welch_t(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Welch t of E[x] = E[y], Welch-Satterthwaite degrees of freedom) for each row pair
    of ``x`` (reseeds, n_x) and ``y`` (reseeds, n_y): :func:`theory.stats.difference`,
    vectorized (a test checks that they agree)."""
    va, vb = x.var(1, ddof=1) / x.shape[1], y.var(1, ddof=1) / y.shape[1]
    df = (va + vb) ** 2 / (va**2 / (x.shape[1] - 1) + vb**2 / (y.shape[1] - 1))
    return (x.mean(1) - y.mean(1)) / np.sqrt(va + vb), df


def tail_rates(n: int, alpha: float, reseeds: int, sigma: float = 0.5, seed: int = 0, chunk: int = 20000) -> dict:
    """Two-sided false-alarm rates at ``alpha`` for lognormal replicates (log-sd ``sigma``,
    mean 1) of size ``n``: each of :data:`RULES`, and (``welch_t``) the Welch comparison of
    those replicates with as many Gaussian ones of the same mean and spread, from their
    own stream; exact 95% intervals."""
    rng = np.random.default_rng([seed, n])
    gauss = np.random.default_rng([seed, n, 1])
    sd = math.sqrt(math.exp(sigma**2) - 1)
    crit = st.t.isf(alpha / 2, n - 1)
    hits = np.zeros(len(COUNTED), dtype=np.int64)
    done = 0
    while done < reseeds:
        k = min(chunk, reseeds - done)
        x = np.exp(sigma * rng.standard_normal((k, n)) - sigma**2 / 2)
        t, th = corrected_t(x, 1.0)
        tw, df = welch_t(x, 1.0 + sd * gauss.standard_normal((k, n)))
        hits += [sum(int((oriented(t, th, sign, rule) > crit).sum()) for sign in (-1, 1)) for rule in RULES] + \
            [int((np.abs(tw) > st.t.isf(alpha / 2, df)).sum())]
        done += k
    out = {"n": n, "alpha": alpha, "reseeds": reseeds, "skewness": lognormal_skewness(sigma)}
    for name, h in zip(COUNTED, hits):
        lo, hi = binomial_interval(int(h), reseeds, 0.05)
        out[name] = {"rate": h / reseeds, "interval": [lo, hi], "over_alpha": h / reseeds / alpha}
    return out


#: (alpha, replicates drawn per row in all): a level where rates are measured tightly,
#: and the catalogue's own claim level, where only the smallest sizes resolve alpha.
TAIL_LEVELS = ((1e-4, 4e8), (1e-6, 8e8))


def run_tails(sizes=(25, 100, 400, 1600), levels=TAIL_LEVELS, progress: bool = True, jobs: int = 1) -> list:
    """One row per (alpha, sample size), ``budget`` replicates drawn per row in all, on
    ``jobs`` processes."""
    from .pool import map_tasks

    tasks = [(n, alpha, int(budget // n)) for alpha, budget in levels for n in sizes]
    return map_tasks(tail_rates, tasks, jobs, "tails", progress)
