"""Means of independent replicates (one replicate = one independent network draw):
Student-t intervals, tests against a target or a bound, Welch differences.

A one-sample test rejects only where both the plain Student t (n - 1 degrees of
freedom) and Hall's (1992) skewness-corrected t (:mod:`.skewness`) reject on the same
side, each at the same Student-t quantile: exact or conservative on Gaussian replicates,
and on skewed ones (per-network ratios and products) most of the plain t's far-tail
excess is gone. Welch differences (Welch-Satterthwaite degrees of freedom) use the same
rule with the skewness of the difference. Every test puts alpha/2 in each tail; below
:data:`MIN_REPLICATES` replicates per sample an interval or p-value raises
:class:`TooFewReplicates` (docs/statistics.md).

>>> import numpy as np
>>> x = np.random.default_rng(0).normal(1.0, 0.1, 400)
>>> r = mean_equals(x, target=1.0, alpha=1e-4, tol=0.05)
>>> r.verdict.value, r.df
('holds', 399.0)
>>> estimate(x[:20]).interval(0.05)
Traceback (most recent call last):
...
theory.verdicts.TooFewReplicates: a mean test needs at least 200 replicates per sample, got 20
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

from ..verdicts import TooFewReplicates, Verdict, band_verdict, inequality_verdict, shortfall
from .power import detectable_deviation, t_quantile
from .skewness import hall_coefficient, hall_corrected, rule_thresholds, welch_coefficient

__all__ = ["MIN_REPLICATES", "TooFewReplicates", "MeanEstimate", "estimate", "difference", "TestResult",
           "mean_equals", "mean_within", "mean_at_most", "mean_at_least", "recording_tests"]

#: The fewest replicates per sample on which a mean test (one-sample or Welch) decides.
MIN_REPLICATES = 200

#: {id: [estimate, smallest per-side level asked or None]} of the tests inside :func:`recording_tests`.
_TESTS: ContextVar[dict | None] = ContextVar("mean_tests", default=None)


@contextmanager
def recording_tests():
    """Collect every mean test run inside the block, once each (a one-sample :func:`estimate`
    or Welch :func:`difference` whose interval or p-value was asked), as ``[(estimate,
    smallest per-side level alpha/2 of its intervals, or None)]``: the runner reports the
    sizes, skewness and levels of a look's tests."""
    found: dict = {}
    token = _TESTS.set(found)
    out: list = []
    try:
        yield out
    finally:
        _TESTS.reset(token)
        out.extend((e, level) for e, level in found.values())


@dataclass(frozen=True)
class MeanEstimate:
    """A mean (or a difference of means) with its standard error, degrees of freedom and,
    for one-sample means, Hall's coefficient a = g / (3 sqrt n) (0: plain Student t).

    >>> e = MeanEstimate(mean=1.0, se=0.1, df=399.0, n=400, skew_a=0.05)
    >>> lo, hi = e.interval(1e-6)
    >>> plain = MeanEstimate(1.0, 0.1, 399.0, 400).interval(1e-6)
    >>> lo == plain[0] and hi > plain[1]  # right skew: the plain lower end, the corrected upper end
    True
    >>> round(e.p_value(hi, "both") / 1e-6, 9)  # an end of the interval is where the test rejects at alpha
    1.0
    """

    mean: float
    se: float
    df: float
    n: int
    skew_a: float = 0.0
    #: The replicates' sample skewness (one-sample means; None for a Welch difference).
    skewness: float | None = None
    #: ((n, sample skewness) of each sample) for a Welch difference; None otherwise.
    welch_parts: tuple | None = None

    def _tested(self, level: float | None = None) -> None:
        """Refuse below MIN_REPLICATES per sample; record the test (:func:`recording_tests`)."""
        smallest = min(n for n, _ in self.welch_parts) if self.welch_parts else self.n
        if smallest < MIN_REPLICATES:
            raise TooFewReplicates(f"a mean test needs at least {MIN_REPLICATES} replicates per sample, got {smallest}")
        seen = _TESTS.get()
        if seen is not None and (self.skewness is not None or self.welch_parts):
            _, old = seen.get(id(self), (self, None))
            seen[id(self)] = (self, level if old is None else old if level is None else min(old, level))

    def interval(self, alpha: float) -> tuple[float, float]:
        """The (1 - alpha) interval: the values that the two statistics do not both reject
        on the same side, each tail at alpha/2; also the limits of a one-sided test at
        alpha (every test puts alpha/2 in each tail)."""
        q = t_quantile(alpha / 2, self.df)  # checks alpha first
        self._tested(alpha / 2)
        upper, lower = rule_thresholds(q, self.skew_a)
        return float(self.mean - upper * self.se), float(self.mean - lower * self.se)

    def p_value(self, value: float, side: str) -> float:
        """p-value of the test of E <= value (``side`` "upper": small when the mean is
        significantly above value), of E >= value ("lower") or of E = value ("both"): twice
        the larger of the two statistics' tail probabilities beyond t on that side (its tail
        holds alpha/2), capped at 1."""
        if side not in ("upper", "lower", "both"):
            raise ValueError(f"side must be one of 'upper', 'lower', 'both', got {side!r}")
        self._tested()
        t = (self.mean - value) / self.se if self.se > 0 else (
            0.0 if self.mean == value else math.copysign(math.inf, self.mean - value))
        th = t if self.skew_a == 0 or not math.isfinite(t) else float(hall_corrected(t, self.skew_a))
        upper, lower = (min(1.0, 2 * float(st.t.sf(s, self.df))) for s in (min(t, th), -max(t, th)))
        return {"upper": upper, "lower": lower, "both": min(upper, lower)}[side]


def _replicates(samples, name: str) -> np.ndarray:
    x = np.asarray(samples, dtype=float).ravel()
    if x.size < 2:
        raise TooFewReplicates(f"{name} must hold at least 2 replicates, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite (a replicate is NaN or infinite)")
    return x


def _skewness(x: np.ndarray) -> float:
    """The sample skewness mean((x - mean)^3) / std^3 (ddof 0); 0 for constant ``x``."""
    return float(hall_coefficient(x)) * 3 * math.sqrt(x.size) if x.std() > 0 else 0.0


def estimate(samples, name: str = "samples") -> MeanEstimate:
    """Mean of iid replicates, standard error s/sqrt(n), n - 1 degrees of freedom, and
    Hall's skewness coefficient."""
    x = _replicates(samples, name)
    g, n = _skewness(x), x.size
    return MeanEstimate(float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)), n - 1.0, n, g / (3 * math.sqrt(n)), g)


def difference(a, b) -> MeanEstimate:
    """E[a] - E[b] from independent samples, Welch standard error and Welch-Satterthwaite
    degrees of freedom ``(v_a + v_b)^2 / (v_a^2 / (n_a - 1) + v_b^2 / (n_b - 1))`` with
    ``v = s^2 / n`` (what ``scipy.stats.ttest_ind(equal_var=False)`` reports), tested by
    the one-sample rule with Hall's coefficient of the difference
    (:func:`~.skewness.welch_coefficient`).

    >>> d = difference([1.0, 2.0, 3.0], [0.0, 0.5, 1.0, 1.5])
    >>> round(d.mean, 3), round(d.se, 4), round(d.df, 3)
    (1.25, 0.6614, 3.235)
    """
    x, y = _replicates(a, "a"), _replicates(b, "b")
    va, vb = float(x.var(ddof=1)) / x.size, float(y.var(ddof=1)) / y.size
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (x.size - 1) + vb**2 / (y.size - 1)) if se > 0 else float(x.size + y.size - 2)
    return MeanEstimate(float(x.mean() - y.mean()), se, df, int(x.size + y.size), float(welch_coefficient(x, y)),
                        welch_parts=((int(x.size), _skewness(x)), (int(y.size), _skewness(y))))


@dataclass(frozen=True)
class TestResult:
    """One test of one row: the verdict and the numbers behind it."""

    verdict: Verdict
    estimate: float
    se: float
    df: float
    n: int
    interval: tuple[float, float]
    p_value: float
    alpha: float
    target: float
    band: tuple[float, float]
    resolution: float
    #: "equals" (E = target, band for holds), "within" (|E - target| <= tol is the
    #: statement) or "bound" (a one-sided inequality): what decides the test.
    kind: str = "equals"

    __test__ = False  # not a pytest test class

    @property
    def shortfall(self) -> float:
        """:func:`shortfall` of this test (its estimate, interval, target, band and kind)."""
        return shortfall(self.estimate, self.interval, self.target, self.band, self.kind)

    def row(self, **labels) -> dict:
        return {**labels, "mean": self.estimate, "se": self.se, "df": self.df, "replicates": self.n,
                "interval": list(self.interval), "target": self.target, "band": list(self.band),
                "p_value": self.p_value, "resolution": self.resolution, "verdict": self.verdict.value}


def mean_equals(samples, target: float, alpha: float, tol: float, relative: bool = True,
                ok: Verdict = Verdict.HOLDS) -> TestResult:
    """E[X] = target, tolerance band target +- tol (times |target| if ``relative``)."""
    e = estimate(samples)
    half = tol * abs(target) if relative else tol
    p = e.p_value(target, "both")
    lo, hi = e.interval(alpha)
    v = Verdict.FAILS if p < alpha else ok if (lo >= target - half and hi <= target + half) else Verdict.INCONCLUSIVE
    return TestResult(v, e.mean, e.se, e.df, e.n, (lo, hi), p, alpha, float(target), (target - half, target + half),
                      detectable_deviation(e.se, e.df, alpha, skew_a=e.skew_a))


def mean_within(samples, target: float, alpha: float, tol: float, relative: bool = True,
                ok: Verdict = Verdict.HOLDS) -> TestResult:
    """|E[X] - target| <= tol (times |target| if ``relative``): a statement that itself
    allows a tolerance, so a mean inside the band, even one measurably off target, does
    not refute it. Holds when the (1 - alpha) interval lies inside the band; fails when it
    misses the band; inconclusive otherwise. The p-value is that of the nearer band edge
    (below alpha exactly when the check fails)."""
    e = estimate(samples)
    half = tol * abs(target) if relative else tol
    lo, hi = e.interval(alpha)
    v = band_verdict(lo, hi, target - half, target + half, ok)
    p = min(e.p_value(target + half, "upper"), e.p_value(target - half, "lower"))
    resolution = detectable_deviation(e.se, e.df, alpha, skew_a=e.skew_a)
    return TestResult(v, e.mean, e.se, e.df, e.n, (lo, hi), float(p), alpha, float(target),
                      (target - half, target + half), resolution, "within")


def _bound_test(samples, bound: float, alpha: float, claim: str) -> TestResult:
    e = estimate(samples)
    lo, hi = e.interval(alpha)
    p = e.p_value(bound, "upper" if claim.startswith("<") else "lower")
    band = (-math.inf, bound) if claim.startswith("<") else (bound, math.inf)
    return TestResult(inequality_verdict(lo, hi, bound, claim), e.mean, e.se, e.df, e.n, (lo, hi), p, alpha,
                      float(bound), band, detectable_deviation(e.se, e.df, alpha, skew_a=e.skew_a), "bound")


def mean_at_most(samples, bound: float, alpha: float) -> TestResult:
    """E[X] <= bound: fails when the one-sided test rejects it at alpha."""
    return _bound_test(samples, bound, alpha, "<=")


def mean_at_least(samples, bound: float, alpha: float) -> TestResult:
    """E[X] >= bound: fails when the one-sided test rejects it at alpha."""
    return _bound_test(samples, bound, alpha, ">=")
