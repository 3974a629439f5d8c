"""Synthetic claims with known truth, one per core judge, run through the real sequential
runner so that the looks, the alpha spending and the judge are calibrated together (the
other tests are calibrated in :mod:`.rates` and tests/theory/stats), with what every case
shares (:class:`Case`, :func:`synthetic_claim`; each paper's own cases are in its package,
``theory/<paper>/calibration_cases.py``). Each look's samples hold at least the tests'
minimum replicates. The truths:

- ``true``: exactly true, on its boundary where it has one; a ``fails`` is a false alarm;
- ``false_1x``: false by the resolution at the budget (the deviation the final look
  detects with probability ``POWER``; for fits with the Birge ratio's widening,
  :func:`birge_resolution`), past the band edge for band-aware judges, else
  past the point value or the band edge, whichever is further;
- ``outside_band``: just outside the tolerance band (a ``holds`` is a false confirmation);
- ``rms_boundary`` / ``rms_flat``: see :func:`_limit_rms_claim`;
- ``inside_off_centre_kx``: inside the band but off its centre, at k = 1, 4 and 16 times
  the budget (as ``--mc-scale k``); more data must never turn it false.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import integrate, optimize
from scipy import stats as st

from ..core import Block, Claim, Mutation, Row, Sampling, Verdict
from ..judges import judge_bounds, judge_comparison, judge_exponent, judge_limit, judge_means
from ..stats import MIN_POINT_REPLICATES, MIN_REPLICATES, detectable_deviation, plan_looks, power_law
from ..stats.power import POWER

__all__ = ["TRUTHS", "Case", "CASES", "synthetic_claim", "birge_resolution", "paper_cases", "all_cases"]

TRUTHS = ("true", "underpowered", "false_1x", "false_3x", "outside_band")


@dataclass(frozen=True)
class Case:
    """One judge under calibration: ``claim(truth, alpha)`` builds the synthetic claim."""

    name: str
    judge: str
    description: str
    claim: Callable[[str, float], Claim]
    truths: tuple = TRUTHS


def synthetic_claim(name, draw, judge, first, budget, params=None) -> Claim:
    """The claim ``calibration.<name>``: ``draw(ctx, block)`` sampled in blocks from
    ``first`` up to ``budget`` by the sequential runner, judged by ``judge(m, ctx)``."""
    return Claim(id=f"calibration.{name}", where="synthetic", statement=name, kind="identity",
                 recorded=Verdict.HOLDS, measure=Sampling(draw=draw, first=first, budget=budget), judge=judge,
                 params=params or {}, mutations=(Mutation("-", {}),))


def birge_resolution(se: float, alpha: float, dof: int) -> float:
    """Deviation of a fitted coefficient that a two-sided level-alpha test detects with
    probability ``POWER`` when, as in :func:`theory.stats.fits.wls`, the standard error is
    scaled by the Birge ratio sqrt(max(1, chi2_dof / dof)): the power averaged over the
    chi-square law of the residuals (normal coefficient, many replicates per point); the
    lack-of-fit branch (probability 0.01) is treated like the other, overstating the power
    by at most about 0.01 (the report shows the case's measured power)."""
    crit = float(st.norm.isf(alpha / 2))

    def power(d):
        def inner(q):
            b = math.sqrt(max(1.0, q / dof))
            return float(st.norm.sf(crit * b - d / se)) * float(st.chi2.pdf(q, dof))
        return integrate.quad(inner, 0, dof, limit=200)[0] + integrate.quad(inner, dof, np.inf, limit=200)[0]

    return float(optimize.brentq(lambda d: power(d) - POWER, 0.0, (crit + 40) * se))


N, P = MIN_REPLICATES, MIN_POINT_REPLICATES
#: A skewed replicate law (lognormal, sd of log 0.5, skewness 1.75) with mean 1.
_SIGMA = 0.5
_LN_SD = math.sqrt(math.exp(_SIGMA**2) - 1)
_BUDGET = 8  # blocks: looks at 1, 2, 4 and 8 blocks
_OFF_CENTRE = tuple(f"inside_off_centre_{k}x" for k in (1, 4, 16))


def _lognormal(be, n):
    return np.asarray(np.exp(_SIGMA * be.normal((n,)) - _SIGMA**2 / 2))


def _resolution(se, df, alpha, budget, parts=1):
    """The deviation the final look's test detects with probability POWER, at the level
    the runner gives it (the claim's alpha over the guard and the looks)."""
    return detectable_deviation(se, df, plan_looks(1, budget, 1.0).alpha(alpha) / parts)


def _scaled(truth: str, budget: int) -> tuple[int, int]:
    """(first, budget) in blocks: times k for ``inside_off_centre_kx`` (as --mc-scale k)."""
    k = int(truth.rpartition("_")[2][:-1]) if truth in _OFF_CENTRE else 1
    return k, k * budget


def _rows_claim(name: str, judge, scale: float = 1.0, shifts: tuple = (0.0, 0.0)) -> Claim:
    """Two rows of N lognormal replicates per block, row i times ``scale`` plus ``shifts[i]``."""
    def draw(ctx, block):
        return Block(tuple(Row({"row": i}, {"x": shifts[i] + scale * _lognormal(
            ctx.stream(f"calibration.{name}", i, block), N)}) for i in range(2)))

    return synthetic_claim(name, draw, judge, 1, _BUDGET)


def _means_judge(within: bool):
    return lambda m, ctx: judge_means(m.rows, lambda r: r["x"], lambda r: 1.0, ("row",), 0.1, "calibration", ctx,
                                      within=within)


def _mean_claim(truth: str, alpha: float) -> Claim:
    """E[X] = 1 per row (2 rows), tolerance +-0.1 (judge_means)."""
    dev = max(_resolution(_LN_SD / math.sqrt(N * _BUDGET), N * _BUDGET - 1, alpha, _BUDGET, 2), 0.1)
    scale = {"true": 1.0, "false_1x": 1.0 + dev, "outside_band": 1.0 + 0.1 * 1.02}[truth]
    return _rows_claim(f"mean.{truth}", _means_judge(False), scale=scale)


def _bound_claim(truth: str, alpha: float) -> Claim:
    """E[X] <= 1 per row (2 rows, judge_bounds); ``true`` sits on the bound."""
    res = _resolution(_LN_SD / math.sqrt(N * _BUDGET), N * _BUDGET - 1, alpha, _BUDGET, 2)
    return _rows_claim(f"bound.{truth}", lambda m, ctx: judge_bounds(
        m.rows, lambda r: r["x"], lambda r: 1.0, ("row",), "calibration", ctx, attainable=None),
        scale={"true": 1.0, "false_1x": 1.0 + res}[truth])


def _within_claim(truth: str, alpha: float) -> Claim:
    """|E[X] - 1| <= 0.1 per row (2 rows, judge_means with ``within``): the first row carries
    the truth (``true`` on the band edge), the second sits at the centre, so each rate is the
    first row's. The law is shifted, not scaled, so that its spread (and the resolution)
    does not depend on the truth."""
    res = _resolution(_LN_SD / math.sqrt(N * _BUDGET), N * _BUDGET - 1, alpha, _BUDGET, 2)
    shift = {"true": 0.1, "false_1x": 0.1 + res, "outside_band": 0.1 * (1 + 1e-6)}[truth]
    return _rows_claim(f"within.{truth}", _means_judge(True), shifts=(shift, 0.0))


def _comparison_claim(truth: str, alpha: float) -> Claim:
    """E[a] - E[b] > 0 (judge_comparison, Welch): unequal sizes (N and 2N per block) and
    spreads (2 and 0.5); ``true`` sits on the boundary 0."""
    na, nb, sa, sb = N, 2 * N, 2.0, 0.5
    va, vb = sa**2 / (na * _BUDGET), sb**2 / (nb * _BUDGET)
    df = (va + vb) ** 2 / (va**2 / (na * _BUDGET - 1) + vb**2 / (nb * _BUDGET - 1))
    diff = {"true": 0.0, "false_1x": -_resolution(math.sqrt(va + vb), df, alpha, _BUDGET)}[truth]

    def draw(ctx, block):
        be = ctx.stream("calibration.comparison", block)
        return Block((Row({"side": "a"}, {"x": np.asarray(diff + sa * be.normal((na,)))}),
                      Row({"side": "b"}, {"x": np.asarray(sb * be.normal((nb,)))})))

    def judge(m, ctx):
        return judge_comparison([({}, m.row(side="a")["x"], m.row(side="b")["x"])], ">", "calibration", ctx)

    return synthetic_claim(f"comparison.{truth}", draw, judge, 1, _BUDGET)


_WIDTHS = (8, 16, 32, 64, 128)
_EXP_BUDGET, _EXP_TOL, _EXP_SD = 16, 0.05, 0.3


def _exponent_claim(truth: str, alpha: float) -> Claim:
    """A fitted exponent (judge_exponent, power law over widths 8..128, lognormal noise,
    sd of log 0.3) equals the claimed -1 within +-0.05; off centre, the truth is -0.988."""
    x = np.log(_WIDTHS)
    n = P * _EXP_BUDGET
    res = birge_resolution(_EXP_SD / math.sqrt(n) / math.sqrt(np.sum((x - x.mean()) ** 2)),
                           plan_looks(1, _EXP_BUDGET, 1.0).alpha(alpha), len(_WIDTHS) - 2)
    first, budget = _scaled(truth, _EXP_BUDGET)
    p = -1.0 + (0.012 if truth in _OFF_CENTRE else
                {"true": 0.0, "false_1x": _EXP_TOL + res, "outside_band": _EXP_TOL * 1.02}[truth])

    def draw(ctx, block):
        return Block(tuple(Row({"width": w}, {"y": np.asarray(w**p * np.exp(
            _EXP_SD * ctx.stream("calibration.exponent", j, block).normal((P,)) - _EXP_SD**2 / 2))})
            for j, w in enumerate(_WIDTHS)))

    def judge(m, ctx):
        ys = [r["y"] for r in m.rows]
        fit = power_law([r.width for r in m.rows], [y.mean() for y in ys],
                        [y.std(ddof=1) / math.sqrt(y.size) for y in ys], point_df=min(y.size for y in ys) - 1)
        return judge_exponent([({}, fit)], 1, -1.0, _EXP_TOL, "calibration", ctx)

    return synthetic_claim(f"exponent.{truth}", draw, judge, first, budget)


_LIM_BUDGET, _LIM_TOL = 32, 0.02


def _w2_term() -> float:
    """The coefficient b of an unmodelled b / w^2 term whose fitted limit (c + a/w by
    weighted least squares, weights w as for spread w^-1/2) lies 60% of the band above 1."""
    w = np.asarray(_WIDTHS, float)
    X = np.stack([np.ones_like(w), 1 / w], 1)
    bias = np.linalg.solve(X.T @ (X * w[:, None]), X.T @ (w / w**2))[0]
    return 0.6 * _LIM_TOL / bias


def _limit_claim(truth: str, alpha: float) -> Claim:
    """X_w -> 1 as w grows, tolerance +-2% (judge_limit, error="mean"): mean(w) = c + 0.5/w
    (+ b/w^2 off centre, biasing the fitted limit by 60% of the band, as for
    defazio_bottou.thm1.networks), single networks spread as w^-1/2."""
    w = np.asarray(_WIDTHS, float)
    n = P * _LIM_BUDGET
    X = np.stack([np.ones_like(w), 1 / w], 1)
    se0 = math.sqrt(np.linalg.inv(X.T @ (X * (w * n)[:, None]))[0, 0])
    dev = _LIM_TOL + birge_resolution(se0, plan_looks(1, _LIM_BUDGET, 1.0).alpha(alpha), len(_WIDTHS) - 2)
    first, budget = _scaled(truth, _LIM_BUDGET)
    c, b = (1.0, _w2_term()) if truth in _OFF_CENTRE else (
        {"true": 1.0, "false_1x": 1.0 + dev, "outside_band": 1.0 + _LIM_TOL * 1.02}[truth], 0.0)

    def draw(ctx, block):
        return Block(tuple(Row({"width": wj}, {"v": np.asarray(c + 0.5 / wj + b / wj**2 + wj**-0.5 * ctx.stream(
            "calibration.limit", j, block).normal((P,)))}) for j, wj in enumerate(_WIDTHS)))

    def judge(m, ctx):
        return judge_limit(m.rows, "v", 1.0, _LIM_TOL, "calibration", ctx, error="mean")

    return synthetic_claim(f"limit.{truth}", draw, judge, first, budget)


def _limit_rms_claim(truth: str, alpha: float) -> Claim:
    """Both parts of judge_limit(error="rms"): the limit of the mean and the decay of the
    single networks' RMS error, fitted as A w^p; spread s w^p around 1 + b/w. ``false_1x``:
    the RMS error grows (p one resolution above 0); ``outside_band``: the limit just
    outside the band; ``rms_boundary`` / ``rms_flat``: p = -/+ a tenth of the exponent's
    standard error, with s = 0.01 and b = 0 (the limit part decided, the RMS part tested)."""
    n = P * _LIM_BUDGET
    x = np.log(_WIDTHS)
    se_slope = 1 / math.sqrt(2 * n) / math.sqrt(float(np.sum((x - x.mean()) ** 2)))
    res = birge_resolution(se_slope, plan_looks(1, _LIM_BUDGET, 1.0).alpha(alpha) / 2, len(_WIDTHS) - 2)
    p = {"true": -0.5, "rms_boundary": -0.1 * se_slope, "rms_flat": 0.1 * se_slope, "false_1x": res,
         "outside_band": -0.5}[truth]
    c = 1.0 + _LIM_TOL * 1.02 if truth == "outside_band" else 1.0
    spread, bias = (0.01, 0.0) if truth.startswith("rms_") else (1.0, 0.5)

    def draw(ctx, block):
        return Block(tuple(Row({"width": wj}, {"v": np.asarray(c + bias / wj + spread * wj**p * ctx.stream(
            "calibration.limit_rms", j, block).normal((P,)))}) for j, wj in enumerate(_WIDTHS)))

    def judge(m, ctx):
        return judge_limit(m.rows, "v", 1.0, _LIM_TOL, "calibration", ctx, error="rms")

    return synthetic_claim(f"limit_rms.{truth}", draw, judge, 1, _LIM_BUDGET)


_BANDED = ("true", "false_1x", "outside_band")
_ONE_SIDED = ("true", "false_1x")
CASES = (
    Case("mean", "judge_means", "E[X] = 1 per row (2 rows), lognormal replicates, tolerance +-0.1", _mean_claim,
         _BANDED),
    Case("bound", "judge_bounds", "E[X] <= 1 per row (2 rows), lognormal replicates", _bound_claim, _ONE_SIDED),
    Case("within", "judge_means", "|E[X] - 1| <= 0.1 per row (2 rows, ``within``), lognormal replicates",
         _within_claim, _BANDED),
    Case("comparison", "judge_comparison", "E[a] - E[b] > 0, Welch, unequal sizes and spreads", _comparison_claim,
         _ONE_SIDED),
    Case("exponent", "judge_exponent", "fitted exponent = -1 +- 0.05 over widths 8..128", _exponent_claim,
         _BANDED + _OFF_CENTRE),
    Case("limit", "judge_limit", "limit of mean(w) = c + a/w equals 1 +- 2%", _limit_claim, _BANDED + _OFF_CENTRE),
    Case("limit_rms", "judge_limit", "limit 1 +- 2% and the RMS error of single networks decays", _limit_rms_claim,
         ("true", "rms_boundary", "rms_flat", "false_1x", "outside_band")),
)


def paper_cases() -> tuple:
    """The cases of the papers' own judges: ``CASES`` of each paper package's
    ``calibration_cases`` module, found through the registry as its claims are (a paper
    without one has none)."""
    import importlib.util

    from ..core.registry import papers

    found = []
    for p in papers():
        name = f"theory.{p.key}.calibration_cases"
        if importlib.util.find_spec(name) is not None:
            found += importlib.import_module(name).CASES
    return tuple(found)


def all_cases() -> tuple:
    """The core judges' cases, then the papers'."""
    return CASES + paper_cases()
