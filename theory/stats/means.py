"""Means of independent replicates (one replicate = one independent network draw):
Student-t intervals, tests of a mean against a target or a bound, Welch differences.

Intervals use Student's t with n - 1 degrees of freedom (Welch-Satterthwaite degrees
of freedom for differences); with thousands of replicates this is the normal limit,
with few it is what keeps the false-alarm rate at the stated alpha.

The catalogue's replicates are often skewed (per-network ratios, products over
layers), and there the plain t model is wrong in the far tails that a small alpha
uses: on lognormal replicates (skewness 1.75) the two-sided t-test rejects a true mean
several times too often at alpha 1e-4 with 100 replicates. Hall's (1992) skewness
correction of t, T_H = T + a T^2 + a^2 T^3 / 3 + a/2 (= ((1 + a T)^3 - 1)/(3a) + a/2)
with a = g/(3 sqrt n) and g the sample skewness (monotone in T, so intervals invert
exactly), removes most of that excess, but far in the tail it costs on symmetric
data: the noisy sample skewness shifts T_H's tails, and on Gaussian replicates at
alpha 1e-8 its rate is tens of times alpha with 25 replicates. So from 10 replicates on
(below, the skewness is too noisy to use and the plain t alone decides) a one-sample
test rejects only where **both** statistics reject on the same side, each against the
same Student-t quantile: on each side its rejection region lies inside each test's
own, so its false-alarm rate is at most the smaller of the two rates, at most alpha on
Gaussian replicates at every size (the plain t test is exact there), and at most the
corrected test's rate on skewed ones. The interval is the set of values that neither
side rejects (the union of the two tests' intervals at any alpha below 0.9); on each
side the p-value is the larger of the two statistics' p-values. What the rule keeps
and misses on skewed replicates is measured in the report's Calibration section
(``theory/calibration/tails.py``, ``tails_is.py``).

- ``mean_equals``: E[X] = target. Fails when the two-sided test rejects at alpha;
  holds when the (1 - alpha) interval lies inside target +- tol; else inconclusive.
- ``mean_at_most`` / ``mean_at_least``: E[X] <= bound (>= bound). Fails when the
  one-sided test rejects at alpha; holds when the one-sided (1 - alpha) limit is on the
  right side of the bound; else inconclusive.
- ``difference``: E[a] - E[b] with its Welch interval, for comparisons.

The resolution of a test is the deviation it detects with probability ``POWER`` at its
alpha (noncentral t, :mod:`.power`), reported beside every verdict; for a one-sample test,
at the rule's critical value on its worse side given the sample's skewness. Hall's
statistic and the rule's thresholds are in :mod:`.skewness`.

>>> import numpy as np
>>> x = np.random.default_rng(0).normal(1.0, 0.1, 400)
>>> r = mean_equals(x, target=1.0, alpha=1e-6, tol=0.05)
>>> r.verdict.value, r.df
('holds', 399.0)
>>> mean_equals(x + 0.2, target=1.0, alpha=1e-6, tol=0.05).verdict.value
'fails'
>>> mean_at_most(x, bound=1.1, alpha=1e-6).verdict.value
'holds'
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

from .power import detectable_deviation, t_quantile
from .skewness import SKEW_CORRECTION_FROM, hall_coefficient, hall_corrected, rule_thresholds
from .verdicts import TooFewReplicates, Verdict, band_verdict

__all__ = ["TooFewReplicates", "MeanEstimate", "estimate", "difference", "TestResult", "shortfall", "mean_equals",
           "mean_within", "mean_at_most", "mean_at_least", "inequality_verdict", "variance_less", "distance_lower_bound",
           "recording_tests"]


class RecordedTests(list):
    """The estimates tested inside :func:`recording_tests`, in order, each once; and
    ``levels``: per recorded estimate (by identity), the smallest and the largest
    per-side level alpha/sides at which its interval was asked ((None, None) where only
    p-values were)."""

    def __init__(self):
        super().__init__()
        self.levels: dict = {}

    def level_range(self, e) -> tuple:
        """(smallest, largest) per-side level at which ``e``'s interval was asked; (None, None) if never."""
        return self.levels.get(id(e), (None, None))


#: The estimates tested inside :func:`recording_tests`; None outside it.
_TESTS: ContextVar[RecordedTests | None] = ContextVar("mean_tests", default=None)


@contextmanager
def recording_tests():
    """Collect the estimates of every mean test run inside the block: each one-sample
    :func:`estimate` and each Welch :func:`difference` whose interval or p-value was
    asked, once however often: how far the catalogue's own tests sit from the sizes and
    skewness at which the calibration measured the tests' tails. A one-sample estimate
    carries ``skewness``, a Welch difference ``welch_parts``; ``seen.level_range(e)`` is
    the smallest and largest per-side level alpha/sides at which e's interval was asked.

    >>> import numpy as np
    >>> with recording_tests() as seen:
    ...     e = estimate(np.arange(12.0) ** 2)
    ...     _ = e.interval(0.05), e.p_two_sided(0.0)
    ...     _ = difference(np.arange(12.0) ** 2, np.arange(5.0)).interval(0.05)
    >>> [(e.n, round(e.skewness, 3)) for e in seen if e.skewness is not None]  # scipy.stats.skew(x) is 0.671 too
    [(12, 0.671)]
    >>> [tuple((n, round(g, 3)) for n, g in e.welch_parts) for e in seen if e.welch_parts]
    [((12, 0.671), (5, 0.0))]
    >>> [seen.level_range(e) for e in seen]
    [(0.025, 0.025), (0.025, 0.025)]
    """
    token = _TESTS.set(RecordedTests())
    try:
        yield _TESTS.get()
    finally:
        _TESTS.reset(token)


@dataclass(frozen=True)
class MeanEstimate:
    """A mean (or a difference of means) with its standard error, degrees of freedom and,
    for one-sample means, the skewness coefficient a = g / (3 sqrt n) of Hall's correction
    (0: plain Student t). With a != 0 a test rejects only where both the plain t and
    Hall's statistic reject on the same side (module docstring); with a = 0 the two
    coincide.

    >>> e = MeanEstimate(mean=1.0, se=0.1, df=99.0, n=100, skew_a=0.05)
    >>> lo, hi = e.interval(1e-6)
    >>> plain = MeanEstimate(1.0, 0.1, 99.0, 100).interval(1e-6)
    >>> lo == plain[0] and hi > plain[1]  # right skew: the plain lower end, the corrected upper end
    True
    >>> round(e.p_two_sided(hi) / 1e-6, 9)  # an end of the interval is where the test rejects at alpha
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

    def _record(self, level: float | None = None) -> None:
        seen = _TESTS.get()
        if seen is None or (self.skewness is None and not self.welch_parts):
            return
        if id(self) not in seen.levels:  # the list keeps every recorded estimate alive, so ids stay unique
            seen.append(self)
            seen.levels[id(self)] = (None, None)
        if level is not None:
            lo, hi = seen.levels[id(self)]
            seen.levels[id(self)] = (level if lo is None else min(lo, level), level if hi is None else max(hi, level))

    def corrected(self, t: float) -> float:
        """Hall's skewness-corrected statistic of a t value."""
        if self.skew_a == 0 or not math.isfinite(t):
            return t
        return float(hall_corrected(t, self.skew_a))

    def interval(self, alpha: float, sides: int = 2) -> tuple[float, float]:
        """The two-sided (1 - alpha) interval (``sides=2``), or the pair of one-sided
        (1 - alpha) limits (``sides=1``): the values that the two statistics do not
        both reject on the same side (the union of the plain and the corrected test's
        intervals wherever those overlap, i.e. at any alpha below 0.9)."""
        q = t_quantile(alpha / sides, self.df)  # checks alpha before anything is recorded
        self._record(alpha / sides)
        upper, lower = rule_thresholds(q, self.skew_a)
        return float(self.mean - upper * self.se), float(self.mean - lower * self.se)

    def plain_t(self, value: float) -> float:
        """The plain t statistic (mean - value) / se of E = value."""
        if self.se > 0:
            return (self.mean - value) / self.se
        return 0.0 if self.mean == value else math.copysign(math.inf, self.mean - value)

    def t(self, value: float) -> float:
        """Hall's skewness-corrected t statistic of E = value."""
        return self.corrected(self.plain_t(value))

    def p_upper(self, value: float) -> float:
        """p-value of 'E > value' (the test of E <= value): the larger of the two
        statistics' P(T >= t); small when the mean is significantly above value."""
        self._record()
        return _sf(min(self.plain_t(value), self.t(value)), self.df)

    def p_lower(self, value: float) -> float:
        """p-value of 'E < value' (the test of E >= value): the larger of the two
        statistics' P(T <= t)."""
        self._record()
        return _sf(-max(self.plain_t(value), self.t(value)), self.df)

    def p_two_sided(self, value: float) -> float:
        return min(1.0, 2 * min(self.p_upper(value), self.p_lower(value)))


def _sf(t: float, df: float) -> float:
    """P(T >= t) for Student's t with ``df`` degrees of freedom, t possibly infinite."""
    return float(st.t.sf(t, df)) if math.isfinite(t) else float(t < 0)


def _replicates(samples, name: str) -> np.ndarray:
    x = np.asarray(samples, dtype=float).ravel()
    if x.size < 2:
        raise TooFewReplicates(f"{name} must hold at least 2 replicates, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite (a replicate is NaN or infinite)")
    return x


def _skew(x: np.ndarray) -> tuple[float, float]:
    """(Hall's coefficient, the sample skewness mean((x - mean)^3) / std^3, ddof 0) of
    ``x``; (0, 0) for constant ``x``."""
    if not x.std() > 0:
        return 0.0, 0.0
    h = float(hall_coefficient(x))
    return h, h * 3 * math.sqrt(x.size)


def estimate(samples, name: str = "samples", skew_correction: bool = True) -> MeanEstimate:
    """Mean of iid replicates, standard error s/sqrt(n), n - 1 degrees of freedom, and
    (from SKEW_CORRECTION_FROM replicates) Hall's skewness coefficient."""
    x = _replicates(samples, name)
    h, g = _skew(x)
    a = h if skew_correction and x.size >= SKEW_CORRECTION_FROM else 0.0
    return MeanEstimate(float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)), float(x.size - 1), int(x.size), a,
                        skewness=g)


def difference(a, b) -> MeanEstimate:
    """E[a] - E[b] from independent samples, Welch standard error and
    Welch-Satterthwaite degrees of freedom
    ``(v_a + v_b)^2 / (v_a^2 / (n_a - 1) + v_b^2 / (n_b - 1))`` with ``v = s^2 / n``
    (Welch 1947; what ``scipy.stats.ttest_ind(equal_var=False)`` reports, computed here
    without its precision-loss warning on near-constant samples).

    >>> d = difference([1.0, 2.0, 3.0], [0.0, 0.5, 1.0, 1.5])
    >>> round(d.mean, 3), round(d.se, 4), round(d.df, 3)
    (1.25, 0.6614, 3.235)
    """
    x, y = _replicates(a, "a"), _replicates(b, "b")
    va, vb = float(x.var(ddof=1)) / x.size, float(y.var(ddof=1)) / y.size
    se = math.sqrt(va + vb)
    if se == 0:
        df = float(x.size + y.size - 2)
    else:
        df = (va + vb) ** 2 / (va**2 / (x.size - 1) + vb**2 / (y.size - 1))
    return MeanEstimate(float(x.mean() - y.mean()), se, df, int(x.size + y.size),
                        welch_parts=((int(x.size), _skew(x)[1]), (int(y.size), _skew(y)[1])))


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

    @property
    def rel_resolution(self) -> float:
        return self.resolution / abs(self.target) if self.target else self.resolution


def shortfall(estimate: float, interval, target: float, band=None, kind: str = "equals") -> float:
    """How many times too wide ``interval`` is to decide a test if ``estimate`` stays
    where it is (at most 1 once decided): on each side, the interval's extent from the
    estimate (skewness-corrected intervals are asymmetric) over the distance it must
    clear on that side. ``kind``:

    - "equals" (E = target; holds inside ``band``): decided by holding (both ends inside
      the band) or by failing (the end facing the target past it), whichever needs less;
    - "within" (the statement is the band): by the end facing the band edge;
    - "bound" (a one-sided inequality at ``target``; ``band`` unused): by the end facing
      the bound.

    An estimate on the edge (or on the bound) gives inf: no sample size settles a value
    that lies on the edge.

    >>> round(shortfall(0.9, (0.7, 1.1), 1.0, (0.8, 1.2), "within"), 6)  # 0.7 must reach 0.8: 0.2 over 0.1
    2.0
    >>> round(shortfall(1.1, (1.05, 1.4), 1.0, kind="bound"), 6)  # the lower end faces the bound
    0.5
    """
    check = ("equals", "within", "bound")
    if kind not in check:
        raise ValueError(f"kind must be one of {check}, got {kind!r}")
    est, (lo, hi) = estimate, interval

    def ratio(extent, room):
        return extent / room if room > 0 else math.inf

    def facing(edge):  # the end on the side of ``edge`` must not reach past it
        return ratio(hi - est, edge - est) if edge >= est else ratio(est - lo, est - edge)

    if kind == "bound":
        return facing(target)
    b_lo, b_hi = band
    inside = b_lo < est < b_hi
    hold = max(ratio(est - lo, est - b_lo), ratio(hi - est, b_hi - est)) if inside else math.inf
    if kind == "within":
        return hold if inside else (facing(b_hi) if est >= b_hi else facing(b_lo))
    return min(hold, facing(target)) if est != target else hold


def mean_equals(samples, target: float, alpha: float, tol: float, relative: bool = True,
                ok: Verdict = Verdict.HOLDS) -> TestResult:
    """E[X] = target, tolerance band target +- tol (times |target| if ``relative``)."""
    e = estimate(samples)
    half = tol * abs(target) if relative else tol
    p = e.p_two_sided(target)
    lo, hi = e.interval(alpha)
    if p < alpha:
        v = Verdict.FAILS
    else:
        v = ok if (lo >= target - half and hi <= target + half) else Verdict.INCONCLUSIVE
    return TestResult(v, e.mean, e.se, e.df, e.n, (lo, hi), p, alpha, float(target), (target - half, target + half),
                      detectable_deviation(e.se, e.df, alpha, skew_a=e.skew_a))


def mean_within(samples, target: float, alpha: float, tol: float, relative: bool = True,
                ok: Verdict = Verdict.HOLDS) -> TestResult:
    """|E[X] - target| <= tol (times |target| if ``relative``): a statement that itself
    allows a tolerance ("constant within 0.05"), so a mean inside the band, even one
    measurably off target, does not refute it. Holds when the (1 - alpha) interval lies
    inside the band; fails when it misses the band entirely (the data reject every value
    the statement allows); inconclusive otherwise. The p-value is twice the one-sided
    p-value of the nearer band edge, so that it is below alpha exactly when the check fails."""
    e = estimate(samples)
    half = tol * abs(target) if relative else tol
    lo, hi = e.interval(alpha)
    v = band_verdict(lo, hi, target - half, target + half, ok)
    p = min(1.0, 2 * min(e.p_upper(target + half), e.p_lower(target - half)))
    return TestResult(v, e.mean, e.se, e.df, e.n, (lo, hi), float(p), alpha, float(target),
                      (target - half, target + half), detectable_deviation(e.se, e.df, alpha, skew_a=e.skew_a), "within")


def inequality_verdict(lower: float, upper: float, bound: float, claim: str,
                       ok: Verdict = Verdict.HOLDS) -> Verdict:
    """Verdict of the claim ``value <claim> bound`` (claim one of ``<=``, ``<``, ``>=``,
    ``>``) from one-sided (1 - alpha) limits ``lower`` and ``upper`` of the value: ``ok``
    when the interval shows it, fails when the interval shows the opposite."""
    if claim in ("<=", "<"):
        if upper < bound or (claim == "<=" and upper == bound):
            return ok
        return Verdict.FAILS if lower > bound or (claim == "<" and lower == bound) else Verdict.INCONCLUSIVE
    if claim in (">=", ">"):
        if lower > bound or (claim == ">=" and lower == bound):
            return ok
        return Verdict.FAILS if upper < bound or (claim == ">" and upper == bound) else Verdict.INCONCLUSIVE
    raise ValueError(f"claim must be one of '<=', '<', '>=', '>', got {claim!r}")


def _bound_test(e: MeanEstimate, bound: float, alpha: float, claim: str) -> TestResult:
    lo, hi = e.interval(alpha, sides=1)
    p = e.p_upper(bound) if claim.startswith("<") else e.p_lower(bound)
    v = inequality_verdict(lo, hi, bound, claim)
    band = (-math.inf, bound) if claim.startswith("<") else (bound, math.inf)
    return TestResult(v, e.mean, e.se, e.df, e.n, (lo, hi), p, alpha, float(bound), band,
                      detectable_deviation(e.se, e.df, alpha, sides=1, skew_a=e.skew_a), "bound")


def mean_at_most(samples, bound: float, alpha: float) -> TestResult:
    """E[X] <= bound: fails when the one-sided t-test rejects it at alpha."""
    return _bound_test(estimate(samples), bound, alpha, "<=")


def mean_at_least(samples, bound: float, alpha: float) -> TestResult:
    """E[X] >= bound: fails when the one-sided t-test rejects it at alpha."""
    return _bound_test(estimate(samples), bound, alpha, ">=")


def variance_less(a, b, alpha: float) -> tuple[float, float, MeanEstimate, Verdict]:
    """Var(a) < Var(b) from independent samples, robust to non-normal data: a Welch
    comparison of the squared deviations (x - mean)^2 n/(n - 1), whose means are the
    sample variances. Returns (var_a, var_b, difference Var(b) - Var(a), verdict)."""
    d = []
    for name, s in (("a", a), ("b", b)):
        x = _replicates(s, name)
        d.append((x - x.mean()) ** 2 * x.size / (x.size - 1))
    diff = difference(d[1], d[0])
    lo, hi = diff.interval(alpha, sides=1)
    return float(d[0].mean()), float(d[1].mean()), diff, inequality_verdict(lo, hi, 0.0, ">")


def distance_lower_bound(x, y, alpha: float) -> tuple[float, list]:
    """One-sided (1 - alpha) lower confidence limit L on the Wasserstein distance W_2
    (and W_1) between the laws of two random objects X and Y, from k functionals that are
    1-Lipschitz in the metric of W_2. ``x`` and ``y`` are (replicates, k) arrays (a
    1-d array is one functional, k = 1): column j holds iid replicates of f_j(X), resp.
    f_j(Y), the two samples independent, each f_j oriented so that E f_j(X) >= E f_j(Y)
    is expected (a wrong orientation only loses power).

    Kantorovich-Rubinstein: W_1(X, Y) = sup over 1-Lipschitz f of E f(X) - E f(Y), and
    W_2 >= W_1 (Jensen on an optimal W_2 coupling). Per functional the Welch one-sided
    lower limit of E f_j(X) - E f_j(Y) at alpha / k (Bonferroni), and L = max(0, the
    largest limit): P(L > W_2) <= alpha. Returns (L, [(Welch estimate, lower limit) per
    functional]).

    >>> rng = np.random.default_rng(0)
    >>> L, parts = distance_lower_bound(rng.normal(1.0, 1, (400, 1)), rng.normal(0.0, 1, (400, 1)), 0.05)
    >>> 0.7 < L < 1.0  # W_2 of N(1, 1) and N(0, 1) is 1
    True
    """
    if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
        raise TypeError(f"x and y must be numpy arrays, got {type(x).__name__}, {type(y).__name__}")
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    if xs.ndim == 1:
        xs, ys = xs[:, None], ys[:, None]
    if xs.ndim != 2 or ys.ndim != 2 or xs.shape[1] != ys.shape[1]:
        raise ValueError(f"x and y must be (replicates, k) arrays of the same k, got shapes {xs.shape}, {ys.shape}")
    k = xs.shape[1]
    parts = []
    for j in range(k):
        e = difference(xs[:, j], ys[:, j])
        parts.append((e, e.interval(alpha / k, sides=1)[0]))
    return max(0.0, max(lo for _, lo in parts)), parts
