"""Synthetic claims with known truth, one per judge, run through the real sequential
runner so that the looks, the alpha spending and the judge are calibrated together.

Each :class:`Case` builds a :class:`~theory.core.claims.Claim` whose Monte-Carlo
measurement draws from a law whose truth is known exactly, for a given ``truth``:

- ``true``: the statement is exactly true and the budget resolves the tolerance;
- ``underpowered``: exactly true, but the budget cannot resolve the tolerance;
- ``false_1x`` / ``false_3x``: false by one / three times the resolution at the
  budget (the deviation the final look detects with probability ``POWER``), or by the
  tolerance where that is larger (a smaller deviation lies inside the band, where
  ``holds`` is a right answer and the sequential check stops there);
- ``outside_band``: the quantity lies just outside the tolerance band (a ``holds``
  here is a false confirmation);
- ``rms_boundary`` / ``rms_flat`` (the ``limit_rms`` case only): the RMS error of single
  networks decays a tenth of a standard error of its fitted exponent too slowly to be
  seen (true, a ``fails`` is a false alarm), or does not decay at all and grows by as
  little (false, a ``holds`` is a false confirmation); the spread is small there, so
  the limit part decides and the RMS part is what is tested.

The measured rates answer: how often does the judge say ``fails`` for a true
statement (false alarm, at most the claim's alpha), ``holds`` for one outside its band
(false confirmation, at most alpha), and ``fails`` at 1x the resolution (power, at
least ``POWER``)?
"""
from __future__ import annotations

import math

import numpy as np

from ..core import Block, Claim, Evidence, Row, Verdict
from ..judges import judge_bounds, judge_comparison, judge_exponent, judge_limit, judge_means
from ..stats import (detectable_deviation, detectable_noncentrality, distance_lower_bound, goodness_of_fit,
                     mean_within, plan_looks, power_law)
from .case_base import TRUTHS, Case, birge_resolution, synthetic_claim

__all__ = ["TRUTHS", "Case", "CASES", "paper_cases", "all_cases"]

#: A skewed replicate law (lognormal, sd of log 0.5) with mean 1: sd and skewness like
#: the per-network ratios of the catalogue.
_SIGMA = 0.5
_LN_SD = math.sqrt(math.exp(_SIGMA**2) - 1)


def _lognormal(be, n):
    return np.asarray(np.exp(_SIGMA * be.normal((n,)) - _SIGMA**2 / 2))


# --- E[X] = target, per row (judge_means) -----------------------------------------------
_MEAN_ROWS, _MEAN_BLOCK, _MEAN_BUDGET, _MEAN_TOL = 2, 25, 32, 0.1


def _final_resolution(sd, n, alpha, rows, first, budget, sides=2):
    looks = plan_looks(first, budget, 1.0).looks
    return detectable_deviation(sd / math.sqrt(n), n - 1, alpha / looks / rows, sides=sides)


def _mean_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _MEAN_BUDGET
    n = _MEAN_BLOCK * budget
    res = _final_resolution(_LN_SD, n, alpha, _MEAN_ROWS, 1, budget)
    dev = max(res, _MEAN_TOL)
    mu = {"true": 1.0, "underpowered": 1.0, "false_1x": 1.0 + dev, "false_3x": 1.0 + 3 * dev,
          "outside_band": 1.0 + _MEAN_TOL * 1.02}[truth]

    def draw(ctx, block):
        return Block(tuple(Row({"row": i}, {"x": mu * _lognormal(ctx.stream("calibration.mean", i, block), _MEAN_BLOCK)})
                           for i in range(_MEAN_ROWS)))

    def judge(m, ctx):
        return judge_means(m.rows, lambda r: r["x"], lambda r: 1.0, ("row",), _MEAN_TOL, "calibration", ctx)

    return synthetic_claim(f"mean.{truth}", draw, judge, 1, budget)


# --- E[X] <= bound, per row (judge_bounds) -----------------------------------------------
def _bound_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _MEAN_BUDGET
    n = _MEAN_BLOCK * budget
    res = _final_resolution(_LN_SD, n, alpha, _MEAN_ROWS, 1, budget, sides=1)
    # The bound is 1; true: the mean sits *at* the bound (the worst case for a false alarm)
    # except when asked to show it holds (power to confirm: below by 3x the resolution).
    mu = {"true": 1.0, "underpowered": 1.0, "false_1x": 1.0 + res, "false_3x": 1.0 + 3 * res,
          "outside_band": 1.0 + 1e-9}[truth]

    def draw(ctx, block):
        return Block(tuple(Row({"row": i}, {"x": mu * _lognormal(ctx.stream("calibration.bound", i, block), _MEAN_BLOCK)})
                           for i in range(_MEAN_ROWS)))

    def judge(m, ctx):
        return judge_bounds(m.rows, lambda r: r["x"], lambda r: 1.0, ("row",), "calibration", ctx, attainable=None)

    return synthetic_claim(f"bound.{truth}", draw, judge, 1, budget)


# --- |E[X] - 1| <= tol, a statement with its own tolerance (stats.mean_within) ------------
_WITHIN_TOL = 0.1


def _within_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _MEAN_BUDGET
    n = _MEAN_BLOCK * budget
    res = _final_resolution(_LN_SD, n, alpha, 1, 1, budget)
    # true: the mean sits on the band edge (the worst case for a false alarm); false_kx:
    # outside the band by k resolutions; outside_band: just outside (holds is false there).
    # The law is shifted, not scaled, so that its spread (and the resolution) does not
    # depend on the truth.
    shift = {"true": _WITHIN_TOL, "underpowered": _WITHIN_TOL, "false_1x": _WITHIN_TOL + res,
             "false_3x": _WITHIN_TOL + 3 * res, "outside_band": _WITHIN_TOL * (1 + 1e-6)}[truth]

    def draw(ctx, block):
        return Block((Row({"row": 0}, {"x": shift + _lognormal(ctx.stream("calibration.within", block), _MEAN_BLOCK)}),))

    def judge(m, ctx):
        t = mean_within(m.row(row=0)["x"], 1.0, ctx.alpha, _WITHIN_TOL, relative=False)
        return Evidence(t.verdict, t.estimate, 1.0, "calibration", t.resolution,
                        shortfall=(t.interval[1] - t.interval[0]) / 2 / _WITHIN_TOL)

    return synthetic_claim(f"within.{truth}", draw, judge, 1, budget)


# --- E[a] - E[b] > 0 (judge_comparison, Welch) -------------------------------------------
def _comparison_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _MEAN_BUDGET
    na, nb = 10, 25  # unequal sizes and variances per block: Welch-Satterthwaite matters
    sa, sb = 2.0, 0.5
    n_a, n_b = na * budget, nb * budget
    se = math.sqrt(sa**2 / n_a + sb**2 / n_b)
    df = (sa**2 / n_a + sb**2 / n_b) ** 2 / ((sa**2 / n_a) ** 2 / (n_a - 1) + (sb**2 / n_b) ** 2 / (n_b - 1))
    looks = plan_looks(1, budget, 1.0).looks
    res = detectable_deviation(se, df, alpha / looks, sides=1)
    # claim: E[a] - E[b] > 0. "true" sits at the boundary 0 (a holds there is false, a fails
    # is false too: both count); false_kx: below 0 by k resolutions (power to reject).
    diff = {"true": 0.0, "underpowered": 0.0, "false_1x": -res, "false_3x": -3 * res, "outside_band": 0.0}[truth]

    def draw(ctx, block):
        be = ctx.stream("calibration.comparison", block)
        return Block((Row({"side": "a"}, {"x": np.asarray(diff + sa * be.normal((na,)))}),
                      Row({"side": "b"}, {"x": np.asarray(sb * be.normal((nb,)))})))

    def judge(m, ctx):
        return judge_comparison([({}, m.row(side="a")["x"], m.row(side="b")["x"])], ">", "calibration", ctx)

    return synthetic_claim(f"comparison.{truth}", draw, judge, 1, budget)


# --- a fitted exponent equals the claimed one (judge_exponent via power_law) ----------------
_WIDTHS = (8, 16, 32, 64, 128)
_EXP_BLOCK, _EXP_BUDGET, _EXP_TOL, _EXP_SD = 20, 16, 0.05, 0.3


def _exponent_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _EXP_BUDGET
    n = _EXP_BLOCK * budget
    # se of the fitted slope with known per-point log-scale errors sd/sqrt(n)
    x = np.log(_WIDTHS)
    se_slope = _EXP_SD / math.sqrt(n) / math.sqrt(np.sum((x - x.mean()) ** 2))
    looks = plan_looks(1, budget, 1.0).looks
    res = detectable_deviation(se_slope, n - 1, alpha / looks)
    dev = max(res, _EXP_TOL)
    p = {"true": -0.5, "underpowered": -0.5, "false_1x": -0.5 + dev, "false_3x": -0.5 + 3 * dev,
         "outside_band": -0.5 + _EXP_TOL * 1.02}[truth]

    def draw(ctx, block):
        rows = []
        for j, w in enumerate(_WIDTHS):
            be = ctx.stream("calibration.exponent", j, block)
            rows.append(Row({"width": w}, {"y": np.asarray(w**p * np.exp(_EXP_SD * be.normal((_EXP_BLOCK,))
                                                                          - _EXP_SD**2 / 2))}))
        return Block(tuple(rows))

    def judge(m, ctx):
        ws = [r.width for r in m.rows]
        means = [float(r["y"].mean()) for r in m.rows]
        ses = [float(r["y"].std(ddof=1) / math.sqrt(r["y"].size)) for r in m.rows]
        fit = power_law(ws, means, ses, point_df=min(r["y"].size for r in m.rows) - 1)
        return judge_exponent([({}, fit)], 1, -0.5, _EXP_TOL, "calibration", ctx)

    return synthetic_claim(f"exponent.{truth}", draw, judge, 1, budget)


# --- X_w -> target as w grows (judge_limit) ---------------------------------------------
_LIM_BLOCK, _LIM_BUDGET, _LIM_TOL = 20, 32, 0.02


def _limit_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _LIM_BUDGET
    n = _LIM_BLOCK * budget
    w = np.asarray(_WIDTHS, float)
    sd = 1.0 / np.sqrt(w)  # single networks converge: spread ~ w^-1/2
    X = np.stack([np.ones_like(w), 1 / w], 1)
    cov = np.linalg.inv(X.T @ (X / (sd**2 / n)[:, None]))
    looks = plan_looks(1, budget, 1.0).looks
    res = detectable_deviation(math.sqrt(cov[0, 0]), n - 1, alpha / looks / 2)
    dev = max(res, _LIM_TOL)
    c = {"true": 1.0, "underpowered": 1.0, "false_1x": 1.0 + dev, "false_3x": 1.0 + 3 * dev,
         "outside_band": 1.0 + _LIM_TOL * 1.02}[truth]

    def draw(ctx, block):
        rows = []
        for j, (wj, sj) in enumerate(zip(_WIDTHS, sd)):
            be = ctx.stream("calibration.limit", j, block)
            rows.append(Row({"width": wj}, {"v": np.asarray(c + 0.5 / wj + sj * be.normal((_LIM_BLOCK,)))}))
        return Block(tuple(rows))

    def judge(m, ctx):
        return judge_limit(m.rows, "v", 1.0, _LIM_TOL, "calibration", ctx, error="mean")

    return synthetic_claim(f"limit.{truth}", draw, judge, 1, budget)


# --- X_w -> target and each network converges (judge_limit, error="rms") -------------------
#: Spread of single networks in the two boundary truths of the RMS part: small, so that the
#: limit part is decided and only the RMS part is tested.
_RMS_EDGE_SPREAD = 0.01


def _limit_rms_claim(truth: str, alpha: float) -> Claim:
    """Both parts of ``judge_limit(error="rms")``: the limit of the mean and the decay of
    the single networks' RMS error around the target, fitted as A w^p. The spread of
    single networks is s w^p around the mean 1 + b/w; ``false_kx``: the RMS error grows
    (p = k resolutions of the fitted exponent above 0) while the mean still converges;
    ``outside_band``: the limit sits just outside the tolerance band while the spread
    decays; ``rms_boundary`` / ``rms_flat``: p = -/+ a tenth of the exponent's standard
    error, with s = 0.01 and b = 0 (the RMS error is the spread alone)."""
    budget = 1 if truth == "underpowered" else _LIM_BUDGET
    n = _LIM_BLOCK * budget
    looks = plan_looks(1, budget, 1.0).looks
    # log-scale error of an RMS of n Gaussian deviations is about 1/sqrt(2 n); the slope's
    # se over log-widths follows, and each part gets alpha / 2 (two-sided interval).
    x = np.log(_WIDTHS)
    se_slope = 1 / math.sqrt(2 * n) / math.sqrt(float(np.sum((x - x.mean()) ** 2)))
    res = birge_resolution(se_slope, alpha / 2 / looks, len(_WIDTHS) - 2)
    p = {"true": -0.5, "rms_boundary": -0.1 * se_slope, "rms_flat": 0.1 * se_slope, "underpowered": -0.5,
         "false_1x": res, "false_3x": 3 * res, "outside_band": -0.5}[truth]
    c = 1.0 + _LIM_TOL * 1.02 if truth == "outside_band" else 1.0
    spread, bias = (_RMS_EDGE_SPREAD, 0.0) if truth.startswith("rms_") else (1.0, 0.5)

    def draw(ctx, block):
        rows = []
        for j, wj in enumerate(_WIDTHS):
            be = ctx.stream("calibration.limit_rms", j, block)
            rows.append(Row({"width": wj}, {"v": np.asarray(c + bias / wj + spread * wj**p
                                                            * be.normal((_LIM_BLOCK,)))}))
        return Block(tuple(rows))

    def judge(m, ctx):
        return judge_limit(m.rows, "v", 1.0, _LIM_TOL, "calibration", ctx, error="rms")

    return synthetic_claim(f"limit_rms.{truth}", draw, judge, 1, budget)


# --- category counts against a law (goodness_of_fit) ---------------------------------------
_GOF_P = np.full(8, 1 / 8)
_GOF_BLOCK, _GOF_BUDGET, _GOF_W = 400, 16, 0.1


def _gof_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _GOF_BUDGET
    n = _GOF_BLOCK * budget
    looks = plan_looks(1, budget, 1.0).looks
    w_res = math.sqrt(detectable_noncentrality(_GOF_P.size - 1, alpha / looks) / n)
    dev = max(w_res, _GOF_W)
    w = {"true": 0.0, "underpowered": 0.0, "false_1x": dev, "false_3x": 3 * dev, "outside_band": _GOF_W * 1.02}[truth]
    # a deviation of Cohen's w along a fixed contrast (+ on even, - on odd categories)
    contrast = np.where(np.arange(8) % 2 == 0, 1.0, -1.0)
    probs = _GOF_P * (1 + w * contrast)

    def draw(ctx, block):
        be = ctx.stream("calibration.gof", block)
        u = be.host_rng.random(_GOF_BLOCK)
        return Block((Row({"row": 0}, {"code": np.searchsorted(np.cumsum(probs), u).clip(0, 7)}),))

    def judge(m, ctx):
        counts = np.bincount(m.row(row=0)["code"], minlength=8)
        stat, p, w_r, v = goodness_of_fit(counts, _GOF_P, ctx.alpha, _GOF_W)
        return Evidence(v, p, "uniform", "calibration", w_r, shortfall=w_r / _GOF_W)

    return synthetic_claim(f"gof.{truth}", draw, judge, 1, budget)


# --- W_2(X, Y) <= b rejected from a lower confidence limit (stats.distance_lower_bound) ---
_W2_BLOCK, _W2_BUDGET, _W2_BOUND = 25, 16, 0.5


def _w2_lower_claim(truth: str, alpha: float) -> Claim:
    budget = 1 if truth == "underpowered" else _W2_BUDGET
    n = _W2_BLOCK * budget
    looks = plan_looks(1, budget, 1.0).looks
    # Welch difference of two samples of n, sd 1 each: the resolution of the one-sided limit.
    res = detectable_deviation(math.sqrt(2 / n), 2 * n - 2, alpha / looks, sides=1)
    # X ~ N(shift, 1) against Y ~ N(0, 1) (identity functional): W_2 = shift exactly.
    # true: W_2 sits on the bound b (the worst case for a false alarm); false_kx: above
    # it by k resolutions.
    shift = {"true": _W2_BOUND, "underpowered": _W2_BOUND, "false_1x": _W2_BOUND + res,
             "false_3x": _W2_BOUND + 3 * res}[truth]

    def draw(ctx, block):
        be = ctx.stream("calibration.w2_lower", block)
        return Block((Row({"row": 0}, {"x": shift + np.asarray(be.normal((_W2_BLOCK,))),
                                       "y": np.asarray(be.normal((_W2_BLOCK,)))}),))

    def judge(m, ctx):
        r = m.row(row=0)
        lower, _ = distance_lower_bound(r["x"], r["y"], ctx.alpha)
        v = Verdict.FAILS if lower > _W2_BOUND else Verdict.INCONCLUSIVE
        return Evidence(v, lower, f"W_2 <= {_W2_BOUND}", "calibration", None)

    return synthetic_claim(f"w2_lower.{truth}", draw, judge, 1, budget)


CASES = (
    Case("mean", "judge_means", "E[X] = 1 per row (2 rows), lognormal replicates (skewness 1.75), 25 per block, "
         f"tolerance +-{_MEAN_TOL}", _mean_claim),
    Case("bound", "judge_bounds", "E[X] <= 1 per row (2 rows), lognormal replicates; 'true' sits at the bound",
         _bound_claim, ("true", "underpowered", "false_1x", "false_3x")),
    Case("within", "mean_within", f"|E[X] - 1| <= {_WITHIN_TOL}, lognormal replicates; 'true' sits on the band edge",
         _within_claim),
    Case("comparison", "judge_comparison", "E[a] - E[b] > 0, Welch, unequal sizes (10, 25 per block) and spreads "
         "(2, 0.5); 'true' sits at the boundary 0", _comparison_claim, ("true", "underpowered", "false_1x", "false_3x")),
    Case("exponent", "judge_exponent", "fitted exponent = -0.5 over widths 8..128, lognormal noise, tolerance "
         f"+-{_EXP_TOL}", _exponent_claim),
    Case("limit", "judge_limit", f"limit of mean(w) = c + a/w equals 1, tolerance +-{_LIM_TOL}", _limit_claim),
    Case("limit_rms", "judge_limit", f"limit of mean(w) = c + a/w equals 1 (tolerance +-{_LIM_TOL}) and the RMS "
         "error of single networks decays (fitted exponent < 0); 'false_kx': the RMS error grows; 'rms_boundary' / "
         "'rms_flat': exponent -/+ 0.1 se, the RMS part at its boundary", _limit_rms_claim,
         ("true", "rms_boundary", "rms_flat", "underpowered", "false_1x", "false_3x", "outside_band")),
    Case("gof", "goodness_of_fit", f"8 categories against the uniform law, required Cohen's w {_GOF_W}", _gof_claim),
    Case("w2_lower", "distance_lower_bound", f"W_2(N(s, 1), N(0, 1)) = s <= {_W2_BOUND} rejected only from a lower "
         "confidence limit on W_2 (the rejection side of the Wasserstein claims); 'true' sits on the bound",
         _w2_lower_claim, ("true", "underpowered", "false_1x", "false_3x")),
)


def paper_cases() -> tuple:
    """The cases of the papers' own judges: ``CASES`` of each paper package's
    ``calibration_cases`` module, found through the registry as its claims are (a paper
    without one has none)."""
    import importlib
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
