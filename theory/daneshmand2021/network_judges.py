"""Judges of Daneshmand et al. (2021) for single steps and whole networks beyond the
linear BN chain: the one-step drift behind Eq. 3 (a reconstruction), layer
normalization (Sec. 6), the authors' Figure 6 panels (ReLU MLP and ConvNet), the
initial gap of Figure 4 (left) and Footnote 2. Three-way verdicts as everywhere:
one-sided Student-t limits for signs, equivalence bands for ratios, and
counterexamples for statements about every draw.
"""
from __future__ import annotations

import math

import numpy as np

from simulations.core import check_choice

from .. import stats
from ..core import Evidence, Verdict, combine
from ..core.evidence import bound_tightness
from ..judges import judge_bounds, judge_comparison, judge_exact, tightest, undecided_shortfall
from .figure_judges import judge_sign
from .mc_judges import max_gap, sub_context

__all__ = ["judge_one_step", "judge_layer_norm", "judge_fig6", "judge_depth_constancy", "judge_fig4a",
           "judge_footnote2"]

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE


def judge_one_step(m, ctx, drift_term: bool = True, contraction: float = 2 / 3):
    """Reconstructed one-step drift (Sec. 3.2's drift condition with L = V; Appendix
    Eq. 12 is not transcribed): E[V(H_+) | H] <= (1 - (2/3) sigma_min(H)) V(H) + 2 n/sqrt(d)
    for fixed H, the constants that iterate to Eq. 3 (K/(2 alpha/3) = 3 n/(alpha sqrt d)).
    Informative where the bound is below sqrt(1 - 1/n). ``contraction``: the constant
    2/3 of sigma_min (another value is a mutation); ``drift_term=False`` drops 2 n/sqrt(d)."""
    def bound(r):
        gap, smin = float(r["gap_H"][0]), float(r["smin_H"][0])
        return (1 - contraction * smin) * gap + (2 * r.n / math.sqrt(r.d) if drift_term else 0.0)

    return judge_bounds(m.rows, lambda r: r["gap_next"], bound, ("n", "d", "kind"),
                        "one BN layer from fixed H (same H in every block), one weight draw per replicate", ctx,
                        attainable=lambda r: max_gap(r.n), what="E[V(H_+) | H]")


def judge_layer_norm(m, ctx, direction: str = ">", tol: float = 1e-10, path_difference: float = 0.0,
                     change: float = 0.0):
    """Sec. 6 (Lubana et al.): layer normalization (each sample scaled to unit norm over
    its features, no centring) does not orthogonalize: driven by the same weights, its
    |cos| path equals the vanilla chain's (column scaling keeps cosines), so from
    orthogonal inputs |cos| keeps rising: at the last layer above its value at layer
    ``rise_from`` (10; at layer 0 it is exactly 0, and a rise from there cannot fail).
    ``direction="<"`` (the mirror mutation): it falls; ``change`` (0 as stated; a
    mutation): it rises by at least that much. ``path_difference``: the stated largest
    |cos_LN - cos_vanilla| over all runs and layers (0: equal paths, as stated; another
    value is a mutation), matched within +-tol (float64 rounding)."""
    check_choice("direction", direction, ("<", ">"))
    r = m.rows[0]
    sub = sub_context(ctx, 2)
    worst = float(np.max(r["max_path_difference"]))
    start = m.meta["rise_from"]
    shift = f" - {change:g}" if change else ""
    ev = judge_sign([({"d": r.d, "from_layer": start}, r["ln_rise"] - change)], direction,
                    f"E[|cos| at layer {m.meta['depth']} - at layer {start}{shift}]",
                    f"LN chain from orthogonal inputs (n = 2, d = {r.d}), same weights as a vanilla chain", sub)
    ident = abs(worst - path_difference) <= tol
    row = {"part": "same |cos| path as the vanilla chain", "max_difference": worst, "ok": ident}
    if path_difference != 0:
        row["stated"] = path_difference
    ev.details.append(row)
    if not ident:
        ev.fail_part({"part": row["part"], "max |cos_LN - cos_vanilla|": worst, "stated": path_difference},
                     replace=True)
    return ev


def judge_fig6(m, ctx, bn: str = "bn_centered_relu", vanilla: str = "vanilla_relu", bn_direction: str = "<",
               flat_tol: float = 0.05, flat_log_tol: float | None = None, flat_target: float = 0.0,
               vanilla_direction: str = ">", below: str = ">"):
    """Appendix Figure 6 and Sec. 6: for vanilla networks the gap increases with depth
    (last - first > 0; ``vanilla_direction="<"`` is a mutation); with BN it decreases
    (last - first < 0; ``bn_direction=">"`` is the mutation) and stabilizes at a level
    constant in depth (mean over layers 25..30 minus mean over 20..25 = flat_target, 0 as
    stated, within +-flat_tol, in units of V, whose range is [0, sqrt(1 - 1/n)]: the figure's
    resolution; a drift inside the band does not refute the statement, so the part fails
    only when the data put it outside), below the vanilla gap at the last layer (Welch:
    vanilla - BN ``below`` 0; ``below="<"``, BN above vanilla, is a mutation). Each
    part's label follows its direction. With ``flat_log_tol`` the level is judged
    relative to itself: per network log(mean V over 25..30) - log(mean V over 20..25) =
    log(1 + flat_target) within +-flat_log_tol (``flat_target`` != 0 is a mutation: a
    level still changing by that fraction over five layers)."""
    for name, value in (("bn_direction", bn_direction), ("vanilla_direction", vanilla_direction), ("below", below)):
        check_choice(name, value, ("<", ">"))
    sub = sub_context(ctx, 4)
    a, b = m.row(variant=bn), m.row(variant=vanilla)
    grow = judge_sign([({"variant": vanilla}, b["last"] - b["first"])], vanilla_direction, "E[V(H_L) - V(H_0)]",
                      "vanilla", sub)
    fall = judge_sign([({"variant": bn}, a["last"] - a["first"])], bn_direction, "E[V(H_L) - V(H_0)]", "BN", sub)
    if flat_log_tol is None:
        flat = stats.mean_within(a["late"] - a["early"], flat_target, sub.alpha, flat_tol, relative=False, ok=H)
        flat_what = "late - early"
        band_text = f"{flat_target:g} within +-{flat_tol:g}" if flat_target else f"within +-{flat_tol:g}"
    else:
        flat = stats.mean_within(np.log(a["late"]) - np.log(a["early"]), math.log1p(flat_target), sub.alpha,
                                 flat_log_tol, relative=False, ok=H)
        flat_what, band_text = "log(late) - log(early)", f"{math.log1p(flat_target):g} within +-{flat_log_tol:g}"
    last = judge_comparison([({"layer": m.meta["depth"]}, b["last"], a["last"])], below, "V at the last layer", sub,
                            what="vanilla_minus_bn")
    verdict = combine([grow.verdict, fall.verdict, flat.verdict, last.verdict])
    details = ([{"part": f"vanilla gap {'grows' if vanilla_direction == '>' else 'shrinks'}", **d}
                for d in grow.details]
               + [{"part": f"BN gap {'falls' if bn_direction == '<' else 'rises'}", **d} for d in fall.details]
               + [{"part": f"BN gap constant in depth ({flat_what})", "relative_change":
                   float(np.mean(a["late"]) / np.mean(a["early"]) - 1), **flat.row()}]
               + [{"part": f"BN {'below' if below == '>' else 'above'} vanilla", **d} for d in last.details])
    return Evidence(
        verdict=verdict, measured={"bn_first": float(a["first"].mean()), "bn_last": float(a["last"].mean()),
                                   "vanilla_first": float(b["first"].mean()), "vanilla_last": float(b["last"].mean())},
        expected="vanilla gap grows; BN gap falls to a depth-independent level below it",
        method=f"{a['first'].size} networks per variant; one-sided Student-t for the changes, a Student-t "
               f"equivalence test for {flat_what} ({band_text}), Welch for the comparison; "
               f"alpha = {sub.alpha:.1e} per part",
        resolution=f"{flat_what} interval half-width {(flat.interval[1] - flat.interval[0]) / 2:.3g}",
        counterexample=next((d for d in details if d.get("verdict") == "fails"), None), details=details,
        shortfall=undecided_shortfall((grow, fall, flat, last), verdict),
        plot={"kind": "means", "rows": [
            {"label": "vanilla: last - first", "mean": grow.details[0]["mean"],
             "interval": grow.details[0]["one_sided_limits"], "target": 0.0,
             "band": [0.0, max(0.0, grow.details[0]["one_sided_limits"][1])]},
            {"label": "BN: last - first", "mean": fall.details[0]["mean"],
             "interval": fall.details[0]["one_sided_limits"],
             "target": 0.0, "band": [min(0.0, fall.details[0]["one_sided_limits"][0]), 0.0]},
            {"label": f"BN: {flat_what}", "mean": flat.estimate, "interval": list(flat.interval), "target": 0.0,
             "band": list(flat.band)}]})


def judge_depth_constancy(m, ctx, variant: str = "bn", log_tol: float = math.log(2), ratio: float = 1.0):
    """Sec. 6: the BN gap 'stabilizes at a term that is constant with regard to depth',
    judged past Figure 6's 30 layers: per network log(mean V over the last five layers of
    ``m.meta["deep"]``) - log(mean V over layers 25..30) = log(``ratio``) (1: constant, as
    stated; another value is a mutation) within +-``log_tol`` (a factor 2 over the 30
    further layers, the resolution the Figure 6 claims use over the figure's 30 layers).
    Student-t equivalence test: holds inside the band, fails when the interval lies
    outside it."""
    a = m.row(variant=variant)
    x = np.log(a["deep"]) - np.log(a["late"])
    t = stats.mean_within(x, math.log(ratio), ctx.alpha, log_tol, relative=False, ok=H)
    deep = m.meta["deep"]
    row = {"part": f"level over layers {deep - 5}..{deep} against 25..30 (log ratio)",
           "level_25_30": float(np.mean(a["late"])), f"level_{deep - 5}_{deep}": float(np.mean(a["deep"])),
           "ratio_of_means": float(np.mean(a["deep"]) / np.mean(a["late"])), **t.row()}
    return Evidence(
        verdict=t.verdict, measured={k: row[k] for k in row if k not in ("part",)},
        expected=f"log(level {deep - 5}..{deep}) - log(level 25..30) = {math.log(ratio):g} within +-{log_tol:.3g}",
        method=f"{x.size} BN networks continued from Figure 6's 30 layers to {deep}; per network the log ratio of the "
               f"mean V over layers {deep - 5}..{deep} to that over 25..30, Student-t equivalence test, alpha = "
               f"{ctx.alpha:.1e}",
        resolution=f"log-ratio interval half-width {(t.interval[1] - t.interval[0]) / 2:.3g}",
        counterexample=row if t.verdict == F else None, details=[row],
        shortfall=t.shortfall if t.verdict == INC else None,
        plot={"kind": "means", "rows": [{"label": f"BN: log(level {deep - 5}..{deep} / level 25..30)",
                                         "mean": t.estimate, "interval": list(t.interval), "target": math.log(ratio),
                                         "band": list(t.band)}]})


def judge_fig4a(m, ctx, direction: str = ">", compare: str = "total"):
    """Figure 4 (left), red curve: the initial orthogonality gap of the last hidden
    layer grows with depth (15 -> 75): per network, V at depth 75 minus at depth 15
    (``compare="total"``). ``compare="pace"`` (a mutation: the gap grows at a pace that
    does not slow with depth): the growth over the deeper half (45 -> 75) minus that over
    the shallower half (15 -> 45), > 0."""
    check_choice("direction", direction, ("<", ">"))
    check_choice("compare", compare, ("total", "pace"))
    depths = m.meta["depths"]
    r = m.rows[0]
    first, mid, last = depths[0], depths[len(depths) // 2], depths[-1]
    g = {L: r[f"gap_depth_{L}"] for L in (first, mid, last)}
    if compare == "total":
        item = ({"depths": f"{first} -> {last}"}, g[last] - g[first])
        what = f"E[V(last hidden layer, depth {last}) - V(depth {first})]"
    else:
        item = ({"depths": f"({mid} -> {last}) - ({first} -> {mid})"}, (g[last] - g[mid]) - (g[mid] - g[first]))
        what = f"E[growth of V over depths {mid} -> {last} - growth over {first} -> {mid}]"
    ev = judge_sign([item], direction, what,
                    f"random vanilla ReLU MLPs, width {m.meta['d']}, batch {m.meta['n']}, Gaussian inputs", ctx)
    ev.details.append({"mean_gap_by_depth": {L: float(r[f"gap_depth_{L}"].mean()) for L in depths}})
    return ev


def judge_footnote2(m, ctx, variant="orthogonal", max_log10_cond: float = 6.0):
    """Footnote 2: in a ReLU MLP initialized by Eq. 6, H_l stays nearly orthogonal, so
    Sigma_l is invertible at every layer. Per V' reading (``variant``: one name, or a
    tuple of names for a statement about every one of them, e.g. 'any orthogonal V''):
    every network keeps cond(H_l) <= 10^max_log10_cond over all layers (a singular
    Sigma_l, or a condition number beyond that, is a counterexample)."""
    variants = (variant,) if isinstance(variant, str) else tuple(variant)
    checks = []
    for v in variants:
        for k, r in enumerate(m[v]):
            worst = max(r["log10_cond"]) if r["log10_cond"] else 0.0
            ok = r["singular_at"] is None and worst <= max_log10_cond
            checks.append({"label": f"V' {v}, network {k}: max log10 cond(H_l) over layers 2..{m['layers']}",
                           "ok": ok, "measured": worst, "expected": f"<= {max_log10_cond:g}, never singular",
                           "counterexample": {"V'": v, "network": k, "singular_at_layer": r["singular_at"],
                                              "log10_cond": worst}})
    ev = judge_exact(checks, f"{m['runs']} ReLU MLPs per V', width {m['d']}, batch {m['n']} (3 x width, as the "
                     f"authors' improved_init), layer 1 Gaussian, Eq. 6 ({', '.join(variants)} V') from layer 2; "
                     "float64 SVD, signs fixed (each v_k sums to >= 0)",
                     "a singular Sigma_l (s_min <= d eps s_max) or cond beyond the threshold is a counterexample")
    # the largest condition number reached against the threshold (infinite where Sigma_l turned singular)
    rows = [c["counterexample"] for c in checks]
    ev.tightness = tightest([bound_tightness(10.0 ** r["log10_cond"], 10.0 ** max_log10_cond, "<=",
                                             {"V'": r["V'"], "network": r["network"]})
                             for r in rows if r["singular_at_layer"] is None])
    return ev
