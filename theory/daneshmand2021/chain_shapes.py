"""The shape of two BN-chain curves of Daneshmand et al. (2021) judged as printed:
Sec. 3.3's 'log(V_l) linearly decreases for l = 1, ..., 20' (Figure 2, left) and
Sec. 3.1's 'almost aligned representation ... in deep layers' (vanilla chain).

The Figure 2 measurement draws the authors' setting (n = 4, d in {32, 512}, diagonal
spike 1e-6 with H_0[0, 0] = 1) on its own streams and keeps,
per run, the OLS slope of log V over layers 1..20 and over its four 5-layer stretches;
the vanilla chain of Figure 1 (d = 32, orthogonal inputs) is drawn on its own streams
to :data:`ALIGN_DEPTH` layers (:data:`VANILLA_DEEP`): Figure 1 stops at 50.
"""
from __future__ import annotations

import numpy as np

from simulations import initial_representation, simulate_chain

from .. import stats
from ..core import Block, Evidence, Row, Sampling, Verdict
from ..stats.bounded import bernstein_margin
from .figure_judges import abs_cos_profile, judge_sign
from .montecarlo import per_run_slope

__all__ = ["STRETCHES", "decay_shape_block", "DECAY_SHAPE", "judge_linear_decay", "ALIGN_DEPTH", "vanilla_deep_block",
           "VANILLA_DEEP", "judge_aligned"]

#: The four 5-layer stretches of layers 1..20.
STRETCHES = ((1, 5), (6, 10), (11, 15), (16, 20))


def decay_shape_block(ctx, block: int, widths=(32, 512), n: int = 4, depth: int = 20, runs: int = 200) -> Block:
    """Figure 2 (left), BN chains from the diagonal-spike H_0: per run, the OLS slope of
    log V(H_l) over layers 1..20 (``slope_all``) and over each stretch of
    :data:`STRETCHES` (``slope_1_5``, ...)."""
    rows = []
    for i, d in enumerate(widths):
        be = ctx.stream("daneshmand2021.decay_shape", i, block)
        rec = simulate_chain(be, initial_representation(be, "diagonal_spike", runs, d, n), depth, "bn")
        lg = np.log(rec.gap)
        vals = {"slope_all": per_run_slope(lg, range(1, 21))}
        for a, b in STRETCHES:
            vals[f"slope_{a}_{b}"] = per_run_slope(lg, range(a, b + 1))
        rows.append(Row({"d": d}, vals))
    return Block(rows, meta={"n": n, "depth": depth})


DECAY_SHAPE = Sampling(draw=decay_shape_block, first=1, budget=4, threads=1)


def judge_linear_decay(m, ctx, direction: str = "<", linear: bool = True, tol: float = 0.5,
                       upper_tol: float | None = None):
    """Sec. 3.3: log V(H_l) decreases over layers 1..20 (per-run slope s over 1..20
    below 0; ``direction=">"``: the mutation) and, if ``linear``, decreases linearly:
    every 5-layer stretch k falls at the overall rate, s_k = s, within the relative
    band (1 - tol) s >= s_k >= (1 + tol) s (s < 0). The band is the figure's
    resolution for 'linearly' on its log axis: a line whose local rate stays within
    half of its mean rate looks straight; a flat stretch (s_k near 0) or one falling
    twice as fast does not. Each side is a one-sided Student-t test of a per-run
    linear combination (s_k - (1 - tol) s < 0 and (1 + tol) s - s_k < 0), so no ratio
    of noisy slopes is formed; the stretch leaves the band (fails) when the data
    reject either side. ``upper_tol``: the upper side's tolerance alone (no stretch
    falls faster than (1 + upper_tol) s; None: ``tol``, one symmetric band as stated;
    another value is a mutation)."""
    if upper_tol is not None and (isinstance(upper_tol, bool) or not isinstance(upper_tol, (int, float))
                                  or not upper_tol >= 0):
        raise ValueError(f"upper_tol must be None or a number >= 0, got {upper_tol!r}")
    up = tol if upper_tol is None else upper_tol
    items = [({"d": r.d, "part": "decrease over 1..20"}, r["slope_all"]) for r in m.rows]
    if linear:
        for r in m.rows:
            s = r["slope_all"]
            for a, b in STRETCHES:
                sk = r[f"slope_{a}_{b}"]
                items.append(({"d": r.d, "part": f"layers {a}..{b} fall at >= {1 - tol:g} x the rate"},
                              sk - (1 - tol) * s))
                items.append(({"d": r.d, "part": f"layers {a}..{b} fall at <= {1 + up:g} x the rate"},
                              (1 + up) * s - sk))
    if direction != "<" and linear:
        raise ValueError("an increase (direction '>') is judged without the linearity part (linear=False)")
    method = (f"per-run OLS slopes of log V (layers 1..20{' and its 5-layer stretches' if linear else ''}), BN chain, "
              f"n = {m.meta['n']}, diagonal-spike H_0 (1e-6, H_0[0,0] = 1)"
              + ((f"; linearity band: each stretch within +-{tol:g} of the overall rate" if up == tol else
                  f"; linearity band: each stretch falls at {1 - tol:g} to {1 + up:g} x the overall rate")
                 if linear else ""))
    ev = judge_sign(items, direction, "E[slope of log V over 1..20]" + (" and the stretch-vs-overall combinations"
                                                                         if linear else ""), method, ctx)
    ev.details.append({"mean_slopes": {f"d={r.d}": {k: float(np.mean(r[k])) for k in r.data if k.startswith("slope")}
                                       for r in m.rows}})
    return ev


#: Depth of the vanilla chain for 'almost aligned ... in deep layers'.
ALIGN_DEPTH = 400


def vanilla_deep_block(ctx, block: int, d: int = 32, depth: int = ALIGN_DEPTH, runs: int = 200) -> Block:
    """Figure 1's vanilla chain (linear, d = 32, two orthogonal inputs) continued to
    ``depth`` layers: |cos| of the two samples at every layer, per run."""
    be = ctx.stream("daneshmand2021.vanilla_deep", block)
    rec = simulate_chain(be, initial_representation(be, "orthogonal", runs, d, 2), depth, "vanilla")
    return Block((Row({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": np.abs(rec.cos01)}),),
                 meta={"d": d, "depth": depth})


VANILLA_DEEP = Sampling(draw=vanilla_deep_block, first=1, budget=8, threads=1)


def judge_aligned(m, ctx, variant: str = "vanilla", threshold: float = 0.9, layer: int = ALIGN_DEPTH):
    """Sec. 3.1: the vanilla chain gives two orthogonal samples 'almost aligned'
    representations 'in deep layers': E[|cos|] at ``layer`` >= ``threshold``. 0.9 (an
    angle of 26 degrees) is the loosest reading of 'almost aligned': the BN panel's
    'nearly aligned' start has |cos| = 1 - 5e-7, and at |cos| = 0.9 the second sample
    still has 1 - 0.9^2 = 19% of its squared norm off the first one's direction. The
    sentence reports Figure 1, which stops at layer 50; for a product of Gaussian matrices
    |cos| tends to 1 as the depth grows, and :data:`ALIGN_DEPTH` is a deeper witness (the
    per-layer means are in the details).

    Deep in the chain |cos| piles up just below 1 with a thin tail towards 0 (sample
    skewness near -7), where Student-t limits miss their level (a sample that misses the
    tail has a high mean and a tiny spread); |cos| lies in [0, 1], so the limits are
    empirical-Bernstein ones (:func:`theory.stats.bernstein_limits`), valid for any law
    there: holds when the lower limit is above the threshold, fails when the upper one
    is below it."""
    r = m.row(variant=variant)
    x = r["abs_cos"]
    if not 0 <= layer < x.shape[1]:
        raise ValueError(f"layer must be in 0..{x.shape[1] - 1} (the layers drawn), got {layer!r}")
    alpha = ctx.split(1)
    raw = x[:, layer]
    if np.any(raw < 0) or np.any(raw > 1 + 1e-9):
        raise ValueError(f"|cos| at layer {layer} must lie in [0, 1] (up to rounding), got values in "
                         f"[{raw.min():.6g}, {raw.max():.6g}]")
    v = np.clip(raw, 0.0, 1.0)  # |cos| of rounded vectors can exceed 1 by an ulp
    lo, hi = stats.bernstein_limits(v, alpha)
    verdict = stats.inequality_verdict(lo, hi, threshold, ">=")
    row = {"variant": variant, "start": r.start, "layer": layer, "mean": float(v.mean()),
           "sd": float(v.std(ddof=1)), "runs": int(v.size), "one_sided_limits": [lo, hi], "verdict": verdict.value}
    margin = lo - threshold if verdict != Verdict.FAILS else hi - threshold  # negative unless it holds
    half = bernstein_margin(float(v.var(ddof=1)), int(v.size), alpha)
    return Evidence(
        verdict=verdict, measured={k: row[k] for k in ("layer", "mean", "sd", "runs", "one_sided_limits")},
        expected=f"E[|cos| at layer {layer}] >= {threshold:g}",
        method=f"independent chains, d = {m.meta['d']}, n = 2, linear activations; empirical-Bernstein "
               f"one-sided limits for a [0, 1] variable (Maurer & Pontil 2009), alpha = {alpha:.1e}",
        resolution=f"one-sided margin {half:.3g} of the limits at {v.size} runs",
        margin=margin, margin_unit="distance of the deciding limit from the threshold (in |cos|)",
        counterexample=row if verdict == Verdict.FAILS else None,
        details=[row, {"mean_abs_cos_by_layer": abs_cos_profile(x),
                       "fraction_of_runs_at_or_above_threshold": float(np.mean(v >= threshold))}],
        shortfall=(stats.shortfall(row["mean"], (lo, hi), threshold, kind="bound")
                   if verdict == Verdict.INCONCLUSIVE else None),
        plot={"kind": "means", "rows": [{"label": f"layer {layer}", "mean": row["mean"], "interval": [lo, hi],
                                         "target": threshold, "band": [threshold, 1.0]}]})
