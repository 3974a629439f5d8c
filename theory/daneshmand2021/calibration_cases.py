"""Calibration cases of this paper's own figure judges, which compose the core tests of
:mod:`theory.stats` with choices of their own (a window chosen on held-out data, a
switch-on width read from a sweep, a screen on which functionals to fit): each case runs
the judge itself on synthetic data with known truth, through the sequential runner.
``python -m theory calibrate`` finds ``CASES`` here through the registry, as it finds the
paper's claims (:func:`theory.calibration.cases.paper_cases`)."""
from __future__ import annotations

import math

import numpy as np

from simulations import get_backend

from ..calibration.cases import TRUTHS, Case, birge_resolution, synthetic_claim
from ..core import Block, Claim, Evidence, Row
from ..stats import MIN_REPLICATES, detectable_deviation, plan_looks
from .drift_judges import geometric_decay_fit
from .figure_judges import CORRECTION, judge_phase, judge_radius, width_design
from .montecarlo import boundary_width, confirm_rows

__all__ = ["CASES"]


# --- alpha <= max_rate from a geometric decay (daneshmand2021 drift_judges.geometric_decay_fit) ---
_DECAY_BLOCK, _DECAY_BUDGET, _DECAY_RATE, _DECAY_LAYERS = 250, 8, 0.85, 41


def _decay_paths(be, rho, runs):
    """Per chain V_l = 0.29 + 0.58 rho^(l - 3) (flat for l < 3) plus AR(1) noise across the
    layers of a chain (sd 0.05, lag-one correlation 0.8), like the BN chains' paths; and
    independent replicates of the stationary level 0.29 (sd 0.02)."""
    ell = np.arange(_DECAY_LAYERS)
    mean = 0.29 + 0.58 * rho ** np.clip(ell - 3, 0, None)
    z = np.asarray(be.normal((runs, _DECAY_LAYERS)))
    e = np.empty_like(z)
    e[:, 0] = 0.05 * z[:, 0]
    for k in range(1, _DECAY_LAYERS):
        e[:, k] = 0.8 * e[:, k - 1] + 0.6 * 0.05 * z[:, k]
    return mean + e, 0.29 + 0.02 * np.asarray(be.normal((runs,)))


def _decay_claim(truth: str, alpha: float) -> Claim:
    """The statement alpha <= 0.85 for a decay whose true rate is 0.85 (``true``: on the
    boundary, the worst case for a false alarm) or slower than claimed (alpha above 0.85
    by k resolutions of the slope, ``false_kx``). The resolution is the one-sided
    detectable deviation of the slope from the judge's own standard error on a reference
    draw at the budget. No truth lies just past the boundary: the ``holds`` rate of
    ``true`` (on the boundary) stands in for false confirmations there."""
    budget = 2 if truth == "underpowered" else _DECAY_BUDGET
    look_alpha = plan_looks(2, budget, 1.0).alpha(alpha)  # the runner's level per look
    # the reference draw: a numpy stream of its own, outside the runner's seeds
    path, ref = _decay_paths(get_backend("numpy", seed=12345), _DECAY_RATE, _DECAY_BLOCK * budget)
    r = geometric_decay_fit(path, ref, look_alpha, _DECAY_RATE)
    res = detectable_deviation(r["se"], r["t_df"], look_alpha)
    slope = math.log(_DECAY_RATE) + {"true": 0.0, "underpowered": 0.0, "false_1x": res, "false_3x": 3 * res}[truth]

    def draw(ctx, block):
        p, q = _decay_paths(ctx.stream("calibration.decay", block), math.exp(slope), _DECAY_BLOCK)
        return Block((Row({"row": 0}, {"path": p, "ref": q}),))

    def judge(m, ctx):
        row = m.row(row=0)
        r = geometric_decay_fit(row["path"], row["ref"], ctx.alpha, _DECAY_RATE)  # the claim's rule: pilot = half
        return Evidence(r["verdict"], r.get("slope"), f"alpha <= {_DECAY_RATE}", "calibration", None)

    return synthetic_claim(f"decay.{truth}", draw, judge, 2, budget)


# --- the switch-on width of a random pixel grows no faster than n^2 (daneshmand2021 judge_phase) ---
_PHASE_NS, _PHASE_C, _PHASE_RUNS = (4, 8, 16, 24, 32, 48), 0.7, 10
#: Steepness of the single-run probability in log d per n. ``steep``: sharp at small n and
#: a little softer at large n, like Figure 3's chains (where p jumps from 0 to 1 within a
#: factor 2 of d at most n). ``soft_up`` / ``soft_down``: shallow at large (small) n, so
#: that the sweep's d* lies further above t(n) as n grows (shrinks) and a judge that took d*
#: for t(n) would see a steeper (flatter) slope than the truth.
_PHASE_STEEP = {"steep": (10.0, 9.0, 8.0, 7.0, 6.0, 5.0), "soft_up": (10.0, 6.0, 3.0, 2.0, 1.5, 1.2),
                "soft_down": (1.2, 1.5, 2.0, 3.0, 6.0, 10.0)}

def _phase_resolution() -> float:
    """Width of the slope's interval when every bracket spans two factor-2 steps (one side
    drawn one step further out): 2 log 2 sum |L_i|. A slope this far past 2 is rejected
    whenever every bracket is shown that tight (both sides further out at one n would
    widen it by up to half as much again)."""
    x = np.log(_PHASE_NS)
    L = np.linalg.pinv(np.stack([np.ones_like(x), x], axis=1))[1]
    return 2 * math.log(2) * float(np.abs(L).sum())


def _phase_claim(truth: str, alpha: float) -> Claim:
    """Pixels lit when all 10 Bernoulli runs hold, with single-run probability
    p(n, d) = expit(k_n (log d - log t(n)) + logit(0.1^(1/10))), so that t(n) = 0.7 n^gamma
    is exactly the width where P(lit) = 0.1 (the judge's switch-on width); k_n from 10 at
    n = 4 (p from 0.1 to 0.99 over a factor 2 in d) to 5 at n = 48 (:data:`_PHASE_STEEP`).
    ``true``: gamma = 2, on the boundary of "<= 2";
    ``outside_band``: gamma = 2.01 (a ``holds`` is a false confirmation); ``false_kx``:
    gamma = 2 + k x the resolution (:func:`_phase_resolution`); ``inside_1x``: gamma = 2 -
    the resolution (power to say ``holds``); ``underpowered``: 40 fresh runs instead of 100;
    ``true_soft`` / ``outside_soft``: ``true`` and ``outside_band`` with soft transitions
    (``soft_up`` / ``soft_down``), where taking d* for t(n) errs."""
    res = _phase_resolution()
    gamma = {"true": 2.0, "underpowered": 2.0, "outside_band": 2.01, "false_1x": 2.0 + res,
             "false_3x": 2.0 + 3 * res, "inside_1x": 2.0 - res, "true_soft": 2.0, "outside_soft": 2.01}[truth]
    phase = {"true_soft": "soft_up", "outside_soft": "soft_down"}.get(truth, "steep")
    steep = dict(zip(_PHASE_NS, _PHASE_STEEP[phase]))
    confirm = 40 if truth == "underpowered" else 100
    q = 0.1 ** (1 / _PHASE_RUNS)
    widths = [2**k for k in range(1, 41)]  # wide enough for gamma = 2 + 3 x resolution at n = 48

    def p_run(n, d):
        return float(1 / (1 + math.exp(-(steep[n] * (math.log(d) - math.log(_PHASE_C * n**gamma))
                                           + math.log(q / (1 - q))))))

    def draw(ctx, block):
        u = ctx.host_stream("calibration.phase", block).host_rng
        rows = []
        for n in _PHASE_NS:
            col = []
            for d in (d for d in widths if d >= n):
                lit = bool(np.all(u.random(_PHASE_RUNS) < p_run(n, d)))
                col.append((d, lit))
                rows.append(Row({"n": n, "d": d, "role": "sweep"}, {"ratio": np.asarray([1.0 if lit else 0.0]),
                                                                     "fraction": np.asarray([1.0 if lit else 0.0]),
                                                                     "layers_run": np.asarray([1])}))
            rows += confirm_rows(n, boundary_width(col), widths, (confirm, confirm),
                                 lambda d, count, n=n: np.sum(u.random(count) < p_run(n, d)))
        return Block(tuple(rows), meta={"runs": _PHASE_RUNS, "depth": 1, "factor": 0.1})

    def judge(m, ctx):
        return judge_phase(m, ctx, exponent=2.0)

    return synthetic_claim(f"phase.{truth}", draw, judge, 1, 1)


# --- the W_2 radius of Table 1 decays no slower than d^p (daneshmand2021 judge_radius) ---
#: A block holds the fewest replicates a Welch comparison decides on (MIN_REPLICATES per side).
_RADIUS_WIDTHS, _RADIUS_BLOCK, _RADIUS_BUDGET, _RADIUS_P = (32, 64, 128, 256, 512), MIN_REPLICATES, 4, -0.25
#: Amplitudes of the three Lipschitz gaps D_j(d) at d = 32, where they are anchored (a
#: radius that decays more slowly than claimed is larger at the large widths). The
#: replicates' sd is (d/32)^-1/2 on each side, as for the chains' per-run averages; at the
#: boundary D/se is smallest at d = 32: 3.2, 2.2 and 1.6 at the first look (one block per
#: side), so the judge's screen (D above 3 standard errors at every width) drops
#: functionals there; 6.3, 4.4 and 3.2 at the budget (four blocks).
_RADIUS_AMPLITUDES = tuple(a * math.sqrt(20 / _RADIUS_BLOCK) for a in (0.95, 0.665, 0.475))


def _radius_sd(w):
    return (np.asarray(w, float) / 32) ** -0.5


def _radius_gaps(p: float) -> np.ndarray:
    """D_j(d) = a_j (d/32)^p exp(2 d^-c): an exact power law times a finite-width
    correction in the judge's own correction column d^-c (:data:`CORRECTION`, 1), per
    width (rows) and functional."""
    w = np.asarray(_RADIUS_WIDTHS, float)[:, None]
    return np.asarray(_RADIUS_AMPLITUDES)[None, :] * (w / 32) ** p * np.exp(2 * w ** -CORRECTION)


def _radius_resolution(alpha: float, budget: int) -> float:
    """Deviation r of the exponent above -0.25 that the strongest functional's fit detects
    with probability POWER at the budget, at the judge's alpha / 3 per functional,
    two-sided (it rejects from the interval's lower end): the slope's standard error from
    the known log-scale errors sd(d) sqrt(2/n)/D_0(d) of the law at -0.25 + r (a fixed
    point, found by iteration), widened as ``wls`` widens it, by the Birge ratio of the
    fit's 2 residual degrees of freedom (:func:`theory.calibration.cases.birge_resolution`; the Welch
    degrees of freedom, about 2n - 2, are taken as infinite)."""
    n = _RADIUS_BLOCK * budget
    w = np.asarray(_RADIUS_WIDTHS, float)
    X = width_design(w)
    look_alpha = plan_looks(1, budget, 1.0).alpha(alpha)  # the runner's level per look
    r = 0.0
    for _ in range(50):
        log_se = _radius_sd(w) * math.sqrt(2 / n) / _radius_gaps(_RADIUS_P + r)[:, 0]
        cov = np.linalg.inv(X.T @ (X / log_se[:, None] ** 2))
        r_new = birge_resolution(math.sqrt(cov[1, 1]), look_alpha / 3, len(w) - X.shape[1])
        if abs(r_new - r) < 1e-9:
            break
        r = r_new
    return r_new


def _radius_claim(truth: str, alpha: float) -> Claim:
    """The statement "W_2 of the laws is O(d^-0.25)" for laws whose three Lipschitz gaps
    (lower bounds on W_2) and whose mean conditional W_2^2 (an upper bound: (1.5 D_0)^2,
    lognormal replicates with log-sd 0.3) decay exactly as d^p (times exp(2/d), resp. its
    square). ``true``: p = -0.25, on the boundary (the worst case for a false alarm from the
    lower fits); ``false_kx``: p above it by k resolutions (:func:`_radius_resolution`);
    ``outside_band``: p = -0.24 (a ``holds`` from the upper fit is a false confirmation);
    ``underpowered``: one block, where the screen drops most functionals."""
    budget = 1 if truth == "underpowered" else _RADIUS_BUDGET
    res = _radius_resolution(alpha, budget)
    p = _RADIUS_P + {"true": 0.0, "underpowered": 0.0, "false_1x": res, "false_3x": 3 * res,
                     "outside_band": 0.01}[truth]
    gaps = _radius_gaps(p)
    sds = _radius_sd(_RADIUS_WIDTHS)

    def draw(ctx, block):
        rows = []
        for j, (w, g, sd) in enumerate(zip(_RADIUS_WIDTHS, gaps, sds)):
            be = ctx.stream("calibration.radius", j, block)
            x = g[None, :] + sd * np.asarray(be.normal((_RADIUS_BLOCK, len(g))))
            y = sd * np.asarray(be.normal((_RADIUS_BLOCK, len(g))))
            w2sq = (1.5 * g[0]) ** 2 * np.exp(0.3 * np.asarray(be.normal((_RADIUS_BLOCK,))) - 0.3**2 / 2)
            rows.append(Row({"width": w}, {"w2sq_avg": w2sq, "lip_x": x, "lip_y": y}))
        return Block(tuple(rows))

    def judge(m, ctx):
        return judge_radius(m, ctx, exponent=_RADIUS_P, relation="<=")

    return synthetic_claim(f"radius.{truth}", draw, judge, 1, budget)


CASES = (
    Case("decay", "geometric_decay_fit", f"alpha <= {_DECAY_RATE} for V_l decaying geometrically after a plateau, "
         "AR(1) noise across layers, window chosen on the first half of the chains (held out); 'true' sits on the "
         "boundary",
         _decay_claim, ("true", "underpowered", "false_1x", "false_3x")),
    Case("phase", "judge_phase", "switch-on width t(n) = 0.7 n^gamma of a pixel lit when 10 Bernoulli runs hold, "
         "grows no faster than n^2 (widths 2^k, n 4..48, 100 fresh runs at d* and d*/2); 'true' sits on the "
         "boundary gamma = 2, 'outside_band' at 2.01; the '_soft' truths with shallow transitions at large (small) n, "
         "where reading d* as t(n) errs",
         _phase_claim, TRUTHS + ("inside_1x", "true_soft", "outside_soft")),
    Case("radius", "judge_radius", f"W_2 of the laws O(d^{_RADIUS_P}) over widths 32..512: fails only from the "
         "width fits of three Lipschitz gaps (lower bounds, screened: D above 3 standard errors at every width), "
         "holds only from the fit of the mean conditional W_2^2 (an upper bound); 'true' sits on the boundary",
         _radius_claim),
)
