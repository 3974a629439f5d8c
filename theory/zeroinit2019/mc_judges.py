"""Judges of the Monte-Carlo claims of the ZeroInit/Fixup submission. Each applies the
claimed constants (``params``) to a :class:`~theory.core.records.Samples` record from
:mod:`.montecarlo`, with the alpha of the look in ``ctx``."""
from __future__ import annotations

import math

import numpy as np

from .. import stats
from ..core import Evidence, Verdict, band_verdict, combine
from ..core.evidence import bound_tightness
from ..judges import judge_bounds, judge_comparison, judge_exponent, judge_means, tightest
from . import montecarlo as mc
from .lsuv_checks import slope_evidence
from .tightness import difference_tightness

__all__ = ["TOL", "EXPONENT_TOLERANCE", "judge_eq5", "judge_logits_symmetric", "judge_growth",
           "judge_variance_fixed_input", "judge_eq2_step", "judge_half", "judge_one_step", "judge_few_steps",
           "judge_naive_growth", "judge_output_scale", "judge_bn_linear"]

H, F, INC = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
#: Relative tolerance of the exact-in-expectation checks: shown within 5%.
TOL = 0.05
#: Exponent tolerance of every power law of this paper; also the band (in nats) of
#: 'independent of depth' for log variance ratios.
EXPONENT_TOLERANCE = 0.05


def judge_eq5(m, ctx, shift: float = 0.0, eq5_shift: float | None = None):
    """Eq. 10: E[l - max z] >= shift, and Eq. 5 in product form:
    E[G(W) ||W|| - (max z - log c)] >= eq5_shift (``shift`` 0 as printed; ``eq5_shift``
    None: the same as ``shift``, a number moves Eq. 5's bound alone), per architecture:
    one-sided Student-t per row (row = architecture x part)."""
    eq5_shift = shift if eq5_shift is None else eq5_shift
    rows = [{"widths": str(r.widths), "part": part, "x": r[part]} for r in m.rows for part in ("eq10", "eq5")]
    ev = judge_bounds(rows, lambda r: r["x"], lambda r: shift if r["part"] == "eq10" else eq5_shift, ("widths", "part"),
                      f"random He MLPs, inputs N(0, {m.meta['input_scale']:g}^2 I), per-network means over "
                      f"{m.meta['batch']} inputs of the label-averaged loss", ctx, claim=">=", what="E[difference]")
    ev.expected = {"eq10": f"E[l] - E[max z] >= {shift:g}", "eq5": f"E[G ||W||] - (E[max z] - log c) >= {eq5_shift:g}"}
    rhs = {"eq10": lambda r: float(r["max_z"].mean()) + shift,
           "eq5": lambda r: float(r["max_z"].mean()) - math.log(r.widths[-1]) + eq5_shift}
    ev.tightness = difference_tightness(ev.details, [rhs[part](r) for r in m.rows for part in ("eq10", "eq5")],
                                        ("widths", "part"))
    return ev


def judge_logits_symmetric(m, ctx, shift: float = 0.0):
    """App. A.2 before Eq. 10: with iid zero-mean symmetric weights the logits have a
    symmetric law with mean 0: E[z] = 0 (in units of each network's RMS logit, which is
    unchanged when the weights change sign) and P(z > 0) = 1/2, i.e. E[sign z] = 0,
    within +-TOL (``shift`` moves the claimed values, for mutation). A failing row names
    its part (``part``: "E[z] = 0" or "P(z > 0) = 1/2")."""
    rows = [{"widths": str(r.widths), "moment": k, "x": r[f"z_{k}"]} for r in m.rows for k in ("mean", "sign")]
    ev = judge_means(rows, lambda r: r["x"], lambda r: shift, ("widths", "moment"), TOL,
                     "random He MLPs, mean and sign balance of the logits over the batch and the classes per network",
                     ctx, relative=False)
    parts = {"mean": "E[z] = 0", "sign": "P(z > 0) = 1/2"}
    for d in ev.details:
        if d.get("verdict") == "fails":
            d["part"] = parts[d["moment"]]
    if isinstance(ev.counterexample, dict) and "moment" in ev.counterexample:
        ev.name_part(parts[ev.counterexample["moment"]])
    return ev


def _growth_rows(m, branches, key, target):
    out = []
    for r in m.rows:
        if r.branch not in branches:
            continue
        for l in range(1, m.meta["blocks"] + 1):
            out.append({"branch": r.branch, "kappa": r.kappa, "block": l, "x": r[f"{key}_{l}"], "t": target(r, l)})
    return out


def judge_growth(m, ctx, base_factor: float | None = 2.0, branches=("he_fan_in",), scale: float = 1.0):
    """E||x_l||^2 = (scale b)^l ||x_0||^2 for l = 1..blocks and each of ``branches``
    (labels of ``montecarlo.GROWTH_BRANCHES``): ``base_factor`` 2 is Eq. 2's doubling
    (ZeroInit submission, Sec. 2); None uses each branch's own 1 + kappa."""
    rows = _growth_rows(m, branches, "ratio",
                        lambda r, l: (scale * (1 + r.kappa if base_factor is None else base_factor)) ** l)
    return judge_means(rows, lambda r: r["x"], lambda r: r["t"], ("branch", "block"), TOL,
                       f"Monte Carlo, residual branches W2 ReLU(W1 x) ({_branch_inits(branches)}), width "
                       f"{m.meta['width']}, one network per replicate", ctx)


def _branch_inits(branches) -> str:
    inits = {label: pair for label, pair, _ in mc.GROWTH_BRANCHES}
    return "; ".join(f"{b}: W1 {inits[b][0]}, W2 {inits[b][1]}" for b in branches)


def judge_variance_fixed_input(m, ctx, scale: float = 1.0, base_factor: float | None = None, offset: float = -1.0):
    """With x_0 fixed, Var[x_l] = E||x_l - x_0||^2 (E x_l = x_0) = ((1 + kappa)^l - 1)
    ||x_0||^2, per branch and block (``scale`` multiplies the growth factor). The
    mutations: ``base_factor`` replaces 1 + kappa by a number (2: Eq. 2's printed
    doubling), ``offset`` the '- 1' (0: the printed Theta(2^l) Var[x_0] with Var[x_0]
    read as ||x_0||^2, i.e. the second moment's law)."""
    rows = _growth_rows(m, ("he_fan_in", "linear_fan_in"), "dev",
                        lambda r, l: (scale * (1 + r.kappa if base_factor is None else base_factor)) ** l + offset)
    return judge_means(rows, lambda r: r["x"], lambda r: r["t"], ("branch", "block"), TOL,
                       f"Monte Carlo over the weights with a fixed input direction, width {m.meta['width']}", ctx)


def judge_eq2_step(m, ctx, kappa_scale: float = 1.0, cross: float = 0.0):
    """The total-variance step before Eq. 2 and its first equality: per block,
    E||F(x_{l-1})||^2 / ||x_{l-1}||^2 = kappa (the p.h. pull-out; relative tolerance) and
    the cross term 2 E<x_{l-1} - x_0, F(x_{l-1})> = 0 (E[F | x] = 0), shown within
    TOL of the increment kappa (1 + kappa)^(l-1) ||x_0||^2, from block 2 on (at block 1
    the cross term is 0 by construction, x_0 - x_0 = 0: no test). ``kappa_scale``
    multiplies the stated kappa; ``cross`` is the stated value of cross term /
    increment (0: it vanishes; another value is a mutation)."""
    rows = _growth_rows(m, ("he_fan_in", "linear_fan_in"), "kappa", lambda r, l: kappa_scale * r.kappa)
    for r in rows:
        r["part"] = "kappa"
    for r in _growth_rows(m, ("he_fan_in", "linear_fan_in"), "cross", lambda r, l: cross):
        if r["block"] == 1:
            continue
        inc = r["kappa"] * (1 + r["kappa"]) ** (r["block"] - 1)
        rows.append({**r, "x": r["x"] / inc, "part": "cross / increment", "t": cross})
    alpha_rows = len(rows)
    kap = [r for r in rows if r["part"] == "kappa"]
    cross_rows = [r for r in rows if r["part"] != "kappa"]
    sub = type(ctx)(ctx.run, ctx.alpha * len(kap) / alpha_rows, ctx.look, ctx.looks)
    a = judge_means(kap, lambda r: r["x"], lambda r: r["t"], ("branch", "block", "part"), TOL,
                    "Monte Carlo, fixed input direction, one network per replicate", sub)
    sub2 = type(ctx)(ctx.run, ctx.alpha * len(cross_rows) / alpha_rows, ctx.look, ctx.looks)
    b = judge_means(cross_rows, lambda r: r["x"], lambda r: r["t"], ("branch", "block", "part"), TOL,
                    "cross term over the increment", sub2, relative=False)
    a.verdict = combine([a.verdict, b.verdict])
    a.details += b.details
    a.plot["rows"] += b.plot["rows"]
    a.counterexample = a.counterexample or b.counterexample
    a.shortfall = max(x for x in (a.shortfall, b.shortfall, 0.0) if x is not None)  # kept only if inconclusive
    a.method += f"; cross term rows: absolute tolerance +-{TOL:g} of the increment"
    return a


def judge_half(m, ctx, recurrence: str = "half", per_block: float = 1.0):
    """E||x_l||^2 / ||x_0||^2 = per_block^l for l = 1..blocks (per_block 1: constant
    variance; the exact value is s^2 (1 + kappa) = 2 s^2 per block)."""
    r = m.row(recurrence=recurrence)
    rows = [{"block": l, "x": r["ratio"][:, l - 1]} for l in range(1, m.meta["blocks"] + 1)]
    s = {"half": 0.5, "sqrt_half": 2**-0.5}[recurrence]
    return judge_means(rows, lambda row: row["x"], lambda row: per_block ** row["block"], ("block",), TOL,
                       f"Monte Carlo, x_l = s (x_(l-1) + F(x_(l-1))), s = {s:.4f}, kappa = 1 branches, width "
                       f"{m.meta['width']}", ctx)


def _power_fit(rows, key, x_label):
    xs = [float(r.labels[x_label]) for r in rows]
    est = [stats.estimate(r[key]) for r in rows]
    fit = stats.power_law(xs, [e.mean for e in est], [e.se for e in est], point_df=min(e.df for e in est))
    return xs, est, fit


def judge_one_step(m, ctx, exponent: float = -1.0):
    """After one SGD step from ZeroInit the branch scale ||F_l(x_l)|| / ||x_l|| goes like
    L^exponent (m = 2 and 3): fitted power law of the per-depth means."""
    fits, series = [], []
    for mm in (2, 3):
        xs, est, fit = _power_fit(m.select(m=mm), "scale", "depth")
        fits.append(({"m": mm}, fit))
        series.append({"label": f"m = {mm}", "x": xs, "y": [e.mean for e in est], "se": [e.se for e in est],
                       "exponent": float(fit.coef[1]), "interval": list(fit.interval(1, ctx.split(2)))})
    return judge_exponent(fits, 1, exponent, EXPONENT_TOLERANCE,
                          f"ZeroInit residual nets, width {m.meta['width']}, one SGD step (lr {m.meta['lr']}) on "
                          "l = <g, x_L> with |g| = 1, branch scale per network averaged over blocks and inputs", ctx,
                          plot={"kind": "power_law", "series": series, "xlabel": "blocks L",
                                "ylabel": "||F_l(x)|| / ||x||"})


def judge_few_steps(m, ctx, scheme: str = "zeroinit", band: float = EXPONENT_TOLERANCE, shift: float = 0.0):
    """'The variance is independent of depth even after a few updates': for every depth
    L, the difference of mean log(||x_L||^2/||x_0||^2) from the shallowest depth lies
    within shift +- band nats (Welch intervals; holds: every interval inside; fails:
    some interval outside the band entirely)."""
    rows = m.select(scheme=scheme)
    base = rows[0]
    alpha = ctx.split(len(rows) - 1)
    details, verdicts, short = [], [], []
    for r in rows[1:]:
        d = stats.difference(r["log_ratio"], base["log_ratio"])
        lo, hi = d.interval(alpha)
        v = band_verdict(lo, hi, shift - band, shift + band)
        verdicts.append(v)
        if v == INC:
            short.append(stats.shortfall(d.mean, (lo, hi), shift, (shift - band, shift + band), "within"))
        details.append({"depth": r.depth, "shallowest": base.depth, "difference": d.mean, "interval": [lo, hi],
                        "welch_df": d.df, "mean_log_ratio": float(r["log_ratio"].mean()), "verdict": v.value})
    verdict = combine(verdicts)
    worst = max(details, key=lambda d: abs(d["difference"] - shift))
    return Evidence(
        verdict=verdict, measured=worst, expected=f"difference within {shift:g} +- {band:g} nats",
        margin=min(min(d["interval"][0] - (shift - band), shift + band - d["interval"][1]) for d in details),
        margin_unit="nats from the band edge to the nearest interval end (negative: outside)",
        method=f"{scheme} residual nets (m = 2, width {m.meta['width']}), {m.meta['steps']} SGD steps at lr "
               f"{m.meta['lr']} on l = <g, x_L>; difference of mean log variance ratio from depth {base.depth}, "
               f"Welch intervals at alpha = {alpha:.2e} each",
        resolution=f"largest interval half-width {max((d['interval'][1] - d['interval'][0]) / 2 for d in details):.3g} "
                   f"nats (band +-{band:g})",
        counterexample=next((d for d in details if d["verdict"] == "fails"), None), details=details,
        shortfall=max(short) if verdict == INC and short else None,
        plot={"kind": "means", "rows": [{"label": f"L = {d['depth']} minus L = {d['shallowest']}",
                                         "mean": d["difference"], "interval": d["interval"], "target": 0.0,
                                         "band": [shift - band, shift + band]} for d in details]})


def judge_naive_growth(m, ctx, direction: str = ">", by: float = 0.0):
    """Zeroing only the last branch layers (no depth scaling): after a few SGD steps the
    mean log variance ratio grows with depth, E[r(2L)] - E[r(L)] > ``by`` (0 as stated;
    a positive value is the mutation 'explodes already at small depth') for every
    doubling (Welch, one-sided; ``direction`` "<" is the mirror mutation). Each row is
    the part "L = a to b"; ``tightness`` is that of the bound ``by`` against the
    one-sided limit of the weakest doubling."""
    rows = m.select(scheme="zero_last")
    pairs = [({"deeper": b.depth, "shallower": a.depth}, b["log_ratio"], a["log_ratio"] + by)
             for a, b in zip(rows, rows[1:])]
    ev = judge_comparison(pairs, direction, "zero-last-layer residual nets (m = 2, no depth scaling), "
                          f"{m.meta['steps']} SGD steps, mean log(||x_L||^2/||x_0||^2) at depth 2L minus at L"
                          + (f", minus {by:g} nats" if by else ""), ctx, what="increase")
    for d in ev.details:
        d["increase"] += by  # the measured increase itself; the limits stay those of increase - by
        d["one_sided_limits"] = [x + by for x in d["one_sided_limits"]]
        d["part"] = f"L = {d['shallower']} to {d['deeper']}"
    worst = next(d for d in ev.details if d["deeper"] == ev.measured["deeper"])
    ev.measured = {k: v for k, v in worst.items() if k not in ("verdict", "part")}
    ev.expected = f"increase {direction} {by:g} nats per doubling"
    side = 0 if direction == ">" else 1
    ev.tightness = tightest(bound_tightness(d["one_sided_limits"][side], by, direction,
                                            {"shallower": d["shallower"], "deeper": d["deeper"]}) for d in ev.details)
    top = max(d["one_sided_limits"][1] for d in ev.details)
    ev.plot = {"kind": "means",
               "rows": [{"label": f"L = {d['deeper']} minus L = {d['shallower']}", "mean": d["increase"],
                         "interval": d["one_sided_limits"], "target": by,
                         "band": [by, top] if direction == ">" else [-top, by]} for d in ev.details]}
    return ev


def judge_output_scale(m, ctx, exponent: float = 0.0, at_init: float = 0.0):
    """Principle (a) under ZeroInit: z = ``at_init`` (0) exactly at initialization
    (fails unless max |z_init - at_init| = 0; another value is a mutation), and after a
    few SGD steps E[max_i z_i] does not depend on depth: the mean of the families'
    log-log slopes in depth is ``exponent`` (0) within +-EXPONENT_TOLERANCE. Each part
    names itself in a failing counterexample ("depth exponent ...", "z at initialization")."""
    r = m.rows[0]
    init = float(np.max(np.abs(r["max_z_init"])))
    off = float(np.max(np.abs(np.asarray(r["max_z_init"], float) - at_init)))
    ev = slope_evidence(r["slope"], r["max_z"], m.meta["depths"], exponent, EXPONENT_TOLERANCE, ctx,
                        f"ZeroInit classifiers (width {m.meta['width']}, scalar biases and multiplier, "
                        f"zero classifier), {m.meta['steps']} SGD steps at lr {m.meta['lr']} on random-label batches; "
                        "one replicate = one network per depth sharing random numbers", "E[max_i z_i]")
    ev.name_part("depth exponent of E[max z] after the SGD steps")  # only where the depth exponent failed
    ev.details.append({"part": "z at initialization", "quantity": "max |z| at initialization", "value": init,
                       "expected": at_init, "verdict": "holds" if off == 0.0 else "fails"})
    if off != 0.0:
        ev.fail_part({"part": "z at initialization", "max_abs_z_at_init": init, "stated": at_init,
                      "max_abs_deviation": off}, replace=True)
    return ev


def judge_bn_linear(m, ctx, exponent: float = 1.0):
    """BatchNorm reduces the growth to a linear one: Var[x_l] - Var[x_0] ~ l^exponent
    (mean of per-network log-log slopes)."""
    r = m.rows[0]
    return slope_evidence(r["slope"], r["at"], m.meta["depths"], exponent, EXPONENT_TOLERANCE, ctx,
                          f"BatchNorm ResNets (pre-activation BN-ReLU-W1-BN-ReLU-W2 branches, He weights, width "
                          f"{m.meta['width']}, batch statistics over {m.meta['batch']} inputs)", "Var[x_l] - Var[x_0]")

