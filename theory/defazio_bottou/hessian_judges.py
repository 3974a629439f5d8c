"""Judges of Theorem 2 (Sec. 5.1) and Figures 1-2 (Sec. 5.1, 6.1) of Defazio & Bottou,
on the records of :mod:`.hessian_checks`. The replicate is always one network (one
LeNet setup); a network's layers are separate rows with the alpha split over them.

What Theorem 2's printed O-term can and cannot say: per sample the main term over
the O-term scale is main / O = n_{l+1} E[dx_{l+1}^2] = ||dx_{l+1}||^2, which stays
bounded in width exactly when the theorem's assumption ||Phi||_2^2 = O(1) holds
(dx_{l+1} = Phi^T dz). So under its own assumption the main term is of the same
order as the error term: "actual - main = O(O-term)" holds for any main term of that
order (the claim's mutations show it), and the printed expansion fixes the order of
magnitude of the average squared singular value, not its constant: main / actual
stays of order one as width grows (:func:`judge_thm2_same_order`), which is all the
theorem implies; a ratio tending to 1 it does not imply.
"""
from __future__ import annotations

import math

import numpy as np

from simulations.relu_nets.lenet_experiment import INITS, LAYERS

from .. import stats
from ..core import Evidence, Verdict, band_verdict, combine
from ..core.evidence import bound_tightness
from ..judges import judge_median_comparison, tightest
from .mc_judges import per_group

__all__ = ["GROWTH_TOL", "judge_thm2_same_order", "judge_not_growing", "judge_thm2_order",
           "judge_thm2_main_over_order", "log_ratio_band", "judge_lenet_ratio", "judge_bias_index", "judge_fig2"]

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
#: "Does not grow with width" (exponent <= 0) cannot be shown exactly on a finite width
#: grid; it holds approximately when the growth exponent's upper limit is below this,
#: halfway to the next order the claims are told apart from (one more factor of width).
GROWTH_TOL = 0.5


def _fan_out(width: int, layer: int) -> int:
    """n_{l+1} of the interior layers of [w, w, 2w, w, 10]: 2w (layer 1), w (layer 2)."""
    return {1: 2 * width, 2: width}[layer]


def _layers(m) -> dict:
    out: dict = {}
    for r in m.rows:
        out.setdefault(r.layer, []).append(r)
    return out


def judge_not_growing(m, ctx, statistic, what: str, tol: float = GROWTH_TOL, method: str = "",
                      two_sided: bool = False):
    """Per layer, ``statistic(row)`` (one value per network) has a mean that does not
    grow with width: the growth exponent p over the width grid, the slope of log mean
    between the smallest and the largest width (the one WLS helper through those two
    points: Student-t with the replicates' degrees of freedom). A power law through
    every width is not used: the means approach their large-width value along a curve
    that is no power law (main / actual rises and levels off), its lack-of-fit test then
    rejects at some seeds, more often with more data, and the residual degrees of
    freedom (two) widen the interval past any decision; the intermediate widths are
    reported in the details. Fails when the exponent's
    interval lies above 0 (growth shown); holds approximately when it lies below ``tol``
    (growth faster than w^tol excluded; exponent <= 0 itself is not shown);
    inconclusive otherwise. With ``two_sided`` the mean neither grows nor decays (the
    same order of magnitude at every width): holds approximately when the interval lies
    within [-tol, tol], fails when it lies outside that band, inconclusive otherwise.

    One-sided, the evidence's ``tightness`` says how far the bound "does not grow" is
    from the data over the width grid: the data's upper limit on the growth from the
    smallest to the largest width, (w_max/w_min)^hi (hi the exponent's upper confidence
    limit), against the bound's 1 (:func:`~theory.core.evidence.bound_tightness`): a
    factor of 2 or more means that a bound shrinking by that factor across the grid
    (a smaller order) would still hold; below 1, that the data do not show the exact
    bound (the claim holds approximately)."""
    def one(rows, c):
        rows = sorted(rows, key=lambda r: r.width)
        widths = np.array([r.width for r in rows], float)
        ests = [stats.estimate(statistic(r)) for r in rows]
        ends = [ests[0], ests[-1]]
        fit = stats.power_law(widths[[0, -1]], [e.mean for e in ends], [e.se for e in ends], min(e.df for e in ends))
        lo, hi = fit.interval(1, c.alpha)
        p = fit.coef[1]
        if two_sided:
            v = band_verdict(lo, hi, -tol, tol, HA)
            margin = min(lo + tol, tol - hi) if v != F else -max(lo - tol, -tol - hi)
            short = stats.shortfall(p, (lo, hi), 0.0, (-tol, tol), "within") if v == INC else None
            expected = f"exponent of {what} within +-{tol:g} (the same order of magnitude at every width)"
            resolution = f"exponents outside +-{tol:g} are excluded when it holds approximately"
            tight = None
        else:
            v = F if lo > 0 else (HA if hi < tol else INC)
            margin = tol - hi if v != F else -lo
            # holding needs the upper end below tol, failing the lower end above 0: the larger
            # of the two distances from the estimate decides first
            room = max(tol - p, p)
            short = ((hi - lo) / 2 / room if room > 0 else math.inf) if v == INC else None
            expected = f"exponent of {what} <= 0 (bounded in width)"
            resolution = f"growth exponents above {tol:g} are excluded when it holds approximately"
            span = float(widths[-1] / widths[0])
            tight = bound_tightness(span ** hi, 1.0, "<=", {"widths": [int(widths[0]), int(widths[-1])],
                                                             "exponent_upper_limit": hi})
        return Evidence(
            verdict=v, measured={"exponent": float(p), "interval": [lo, hi],
                                 **{k: x for k, x in fit.summary(1, c.alpha).items() if k in ("se", "t_df")}},
            expected=expected, method=f"{method}; growth exponent of the mean of {what} from width "
            f"{int(widths[0])} to {int(widths[-1])} (means at {[int(x) for x in widths]} in the details), "
            f"alpha = {c.alpha:.2e}",
            resolution=f"{resolution} (interval half-width {(hi - lo) / 2:.3g})",
            margin=margin, margin_unit="exponent units to the band edge (negative: outside)",
            counterexample={"exponent_interval": [lo, hi]} if v == F else None,
            details=[{"width": int(wd), "mean": e.mean, "se": e.se, "n": e.n} for wd, e in zip(widths, ests)],
            shortfall=short, tightness=tight,
            plot={"kind": "power_law", "ylabel": what, "series": [
                {"label": what, "x": widths.tolist(), "y": [e.mean for e in ests], "se": [e.se for e in ests],
                 "exponent": float(p), "interval": [lo, hi]}]})

    return per_group(_layers(m), one, ctx, "layer")


def judge_thm2_same_order(m, ctx, extra_power: float = 0.0, tol: float = GROWTH_TOL):
    """Theorem 2 read at its true strength: under its assumption the printed O-term is
    of the main term's order, so the expansion says actual = main + O(main), the main
    term fixing the order of magnitude of the average squared singular value, not its
    constant. Per layer, the mean over networks of main / actual neither grows nor
    decays with width (exponent within +-``tol``); ``extra_power`` multiplies the main
    term by n_{l+1}^extra_power (a main term of another order: the mutation)."""
    def stat(r):
        return r["main"] / r["actual"] * _fan_out(r.width, r.layer) ** extra_power

    return judge_not_growing(m, ctx, stat, "main / actual", tol, _METHOD, two_sided=True)


_METHOD = "Kaiming fan-in ReLU MLPs [w, w, 2w, w, 10], batch 32, per-sample Gauss-Newton blocks; one value per network"


def judge_thm2_order(m, ctx, extra_power: float = 0.0, main_scale: float = 1.0, tol: float = GROWTH_TOL):
    """Theorem 2's error term: |actual - main| / O-term stays bounded in width, with
    O-term = n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2]). ``extra_power`` divides the
    O-term by n_{l+1}^extra_power (a smaller error term); ``main_scale`` multiplies the
    main term (0: no main term at all)."""
    def stat(r):
        return np.abs(r["actual"] - main_scale * r["main"]) / r["order"] * _fan_out(r.width, r.layer) ** extra_power

    return judge_not_growing(m, ctx, stat, "|actual - main| / O-term", tol, _METHOD)


def judge_thm2_main_over_order(m, ctx, extra_power: float = 0.0, tol: float = GROWTH_TOL):
    """main / O-term = n_{l+1} E[dx_{l+1}^2] stays bounded in width (the theorem's
    assumption ||Phi||_2^2 = O(1) at work): the main term is of the O-term's order."""
    def stat(r):
        return r["main"] / r["order"] * _fan_out(r.width, r.layer) ** extra_power

    return judge_not_growing(m, ctx, stat, "main / O-term", tol, _METHOD)


def log_ratio_band(items, target: float, factor: float, method: str, ctx, label: str = "layer") -> Evidence:
    """Per item (label, ratios of independent replicates): the geometric mean of the
    ratio lies within a factor ``factor`` of ``target`` (Student-t interval of the mean
    log ratio, alpha split over the items). Holds if every interval is inside the band,
    fails if one is disjoint from it, inconclusive otherwise."""
    alpha = ctx.split(len(items))
    band = (math.log(target / factor), math.log(target * factor))
    details, verdicts, rows, shortfalls = [], [], [], []
    for name, ratios in items:
        e = stats.estimate(np.log(ratios))
        lo, hi = e.interval(alpha)
        v = band_verdict(lo, hi, *band)
        verdicts.append(v)
        if v == INC:  # a band statement on the log scale; each end on its own side (asymmetric interval)
            shortfalls.append(stats.shortfall(e.mean, (lo, hi), math.log(target), band, "within"))
        details.append({label: name, "geometric_mean_ratio": math.exp(e.mean), "interval": [math.exp(lo), math.exp(hi)],
                        "replicates": e.n, "verdict": v.value})
        rows.append({"label": str(name), "mean": math.exp(e.mean), "interval": [math.exp(lo), math.exp(hi)],
                     "target": target, "band": [target / factor, target * factor]})
    verdict = combine(verdicts)

    def to_band(d) -> float:
        """Signed log-ratio distance of an interval to the band: a failing interval's
        nearer end outside it (negative); else the interval end nearest a band edge."""
        lo, hi = (math.log(x) for x in d["interval"])
        return -max(lo - band[1], band[0] - hi) if d["verdict"] == "fails" else min(lo - band[0], band[1] - hi)

    # the counterexample is a failing item (the one that misses the band most), never an inconclusive one
    failing = sorted((d for d in details if d["verdict"] == "fails"), key=to_band)
    bad = failing or [d for d in details if d["verdict"] != "holds"]
    margin = to_band(failing[0]) if failing else min(map(to_band, details))
    half = max(math.log(d["interval"][1] / d["interval"][0]) / 2 for d in details)
    return Evidence(
        verdict=verdict, measured=(bad or details)[0],
        expected=f"within [{target / factor:.3g}, {target * factor:.3g}]",
        method=f"{method}; Student-t interval of the mean log ratio, alpha = {alpha:.2e} per {label}",
        resolution=f"largest interval half-width {half:.3f} in log ratio (band half-width {math.log(factor):.3f})",
        margin=margin,
        margin_unit=f"log-ratio units to the band: when it fails, from the nearer interval end of the {label} that "
                    "misses the band most (negative); otherwise the smallest distance of an interval end inside the "
                    "band (negative: sticking out)",
        counterexample=bad[0] if verdict == F else None, details=details,
        shortfall=max(shortfalls) if verdict == INC and shortfalls else None,
        plot={"kind": "means", "rows": rows})


def judge_lenet_ratio(m, ctx, reading: str = "ratio_eq2", target: float = 1.0, factor: float = 2.0):
    """Figure 1's 'close to 1', read as: per layer, the geometric mean of the ratio
    (``reading``: "ratio_eq2", the numbered Eq. 2 that Figure 1 names; "ratio_rho_in" /
    "ratio_rho_out", the extrinsic display after it with rho_l / rho_{l+1}) over
    the setups (the four inits together, as the paper's 100 setups) lies within a factor
    ``factor`` of ``target``. Setups of different inits are independent; pooling the
    strata overstates the variance, so the interval is conservative."""
    items = [(name, np.concatenate([m.row(init=i)[reading][:, l] for i in INITS])) for l, name in enumerate(LAYERS)]
    n = len(items[0][1])
    return log_ratio_band(items, target, factor, f"strided LeNet, batch {m.meta['batch']}, {m.meta['size']}x"
                          f"{m.meta['size']} N(0,1) inputs, loss z^T R z, {n} setups over 4 inits", ctx)


def judge_bias_index(m, ctx, index: str = "input_index", target: float = 1.0, factor: float = 2.0):
    """Eq. 7: the bias scaling factor (``index`` "input_index" as printed, or
    "output_index") over the bias block's actual average squared singular value is
    within a factor ``factor`` of ``target`` in every interior layer (the reading of
    Figure 1's 'close to 1')."""
    items = [(r.layer, r[index] / r["actual"]) for r in m.rows]
    return log_ratio_band(items, target, factor, f"geometric-init ReLU MLPs [w, w, 2w, w, 10] at width "
                          f"{m.meta['width']}, batch {m.meta['batch']}, loss z^T R z; one network per replicate", ctx)


def _spread(blocks) -> np.ndarray:
    """Per setup: max - min over layers of log10 of the diagonal blocks (decades)."""
    d = np.log10(np.diagonal(blocks, axis1=1, axis2=2))
    return d.max(1) - d.min(1)


def judge_fig2(m, ctx, flat: str = "geometric"):
    """Figure 2: the ``flat`` init's block diagonal is more nearly constant than each
    other init's. Per setup, spread = max - min over layers of log10 E[(G_l r)^2]; per
    other init, median spread(other) - median spread(flat) > 0
    (:func:`theory.judges.judge_median_comparison`: distribution-free order-statistic
    intervals, so it decides from the 50 setups of Figure 1's first look where a Welch
    comparison needs 200 per init). The tightness is the factor by which the flat init's
    median spread could grow and stay below the other's (at the difference's lower
    limit), worst other init."""
    spread = {init: _spread(m.row(init=init)["blocks"]) for init in INITS}
    pairs = [({"other": other, "spread_other_decades": float(np.median(spread[other])),
               "spread_flat_decades": float(np.median(spread[flat]))}, spread[other], spread[flat])
             for other in INITS if other != flat]
    ev = judge_median_comparison(pairs, ">", "strided LeNet setups of Figure 1, per-sample Gauss-Newton diagonal "
                               "blocks; spread over layers of log10 E[(G_l r)^2] per setup (medians shown)", ctx,
                               what="spread_difference_decades")
    ev.expected = f"spread({flat}) < spread(each other init)"
    # how much flatter: the other init's spread, at the lower limit of the difference, over the flat one's
    ev.tightness = tightest(bound_tightness(d["spread_flat_decades"] + d["one_sided_limits"][0],
                                           d["spread_flat_decades"], ">", {"other": d["other"]}) for d in ev.details)
    ev.plot = {"kind": "means", "rows": [{"label": f"{d['other']} - {flat}", "mean": d["spread_difference_decades"],
                                          "interval": d["one_sided_limits"], "target": 0.0,
                                          "band": [0.0, max(1.0, 2 * d["spread_difference_decades"])]}
                                         for d in ev.details]}
    return ev
