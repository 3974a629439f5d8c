"""Theorem 2 (Sec. 5.1) and Figures 1-2 (Sec. 5.1, 6.1) of Defazio & Bottou: the
diagonal blocks G_l = J_l^T R_l J_l of the Gauss-Newton matrix against the scaling
factor, on random ReLU MLPs (width scaling) and on the strided LeNet.

Reading used (Sec. 2: 'we assume a batch-size of 1'): G_l is the per-sample block,
its average squared singular value ||G_l||_F^2 / P_l is averaged over the samples of
a batch, and the moments E[x^2], E[dx^2] are means over the batch and all entries;
the loss is z^T R z per sample with R iid N(0, 1) (Sec. 5.1).
"""
from __future__ import annotations

import math
import os

import numpy as np
from scipy import stats as sst

from simulations import get_backend
from simulations.relu_nets import draw_net, mlp_spec, scaling_vs_hessian
from .. import stats
from ..evidence import Evidence, Verdict
from ..judging import band_verdict, combine, judge_scaling, mc_alpha

H, HA, F, I = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
THM2_WIDTHS = (16, 32, 64, 128, 256)
THM2_LAYERS = (1, 2)  # interior layers: ReLU on both sides
#: Relative resolution required of the extrapolated limit (as for Theorem 1's check).
REQUIRED = 0.05
#: Exponent resolution of the O-term check: growth like width^0.5 or faster is detected.
ORDER_EXPONENT_RESOLUTION = 0.5


def thm2_networks(ctx, widths=THM2_WIDTHS, base: int = 200, batch: int = 32, classes: int = 10) -> dict:
    """Per width, per network and interior layer: Theorem 2's main term over the actual
    average squared singular value, and the residual (actual - main) in units of the
    printed O-term. Kaiming fan-in MLPs [w, w, 2w, w, 10], which meet the theorem's
    assumption ||Phi||_2^2 = O(1) for the network above each layer."""
    rows = []
    for i, w in enumerate(widths):
        be = get_backend(ctx.backend, seed=ctx.seed).spawn(4000 + i)
        spec = mlp_spec([w, w, 2 * w, w, classes])
        N = max(30, int(round(base * ctx.scale)))
        ratio, resid, dominance = [], [], []
        for _ in range(N):
            rec = scaling_vs_hessian(spec, draw_net(be, spec, "he_fan_in"), be.normal((batch, w)),
                                     be.normal((classes, classes)), be.xp)
            for l in THM2_LAYERS:
                actual = rec["blocks"][l, l]
                ratio.append(rec["theorem2"][l] / actual)
                resid.append((actual - rec["theorem2"][l]) / rec["order_term"][l])
                dominance.append(rec["theorem2"][l] / rec["order_term"][l])
        rows.append({"width": w, "networks": N, "ratio": np.array(ratio), "residual": np.array(resid),
                     "main_over_order": np.array(dominance)})
    return {"rows": rows}


def judge_thm2_mean(m, ctx, target: float = 1.0):
    """Averaged over random networks and losses, main term / actual -> target: the error
    of the mean vanishes with width and the limit c of mean(w) = c + a / w agrees with
    ``target`` (:func:`theory.judging.judge_scaling` with ``error="mean"``)."""
    return judge_scaling(m["rows"], "ratio", target, REQUIRED,
                         f"Kaiming fan-in ReLU MLPs [w, w, 2w, w, 10], layers {THM2_LAYERS}, batch 32, per-sample "
                         "Gauss-Newton blocks (exact trace formula); error of the mean over networks", error="mean")


def judge_thm2_order(m, ctx, extra_power: float = 0.0):
    """The printed error term: |actual - main| = O(n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2])),
    i.e. the RMS of the residual in units of that term stays bounded in width (fitted
    exponent <= 0). ``extra_power`` divides the O-term by n_{l+1}^extra_power (a
    perturbed, smaller error term)."""
    alpha = mc_alpha(1)
    widths, rms, ses = [], [], []
    for r in m["rows"]:
        x = r["residual"] * (2 * r["width"]) ** extra_power  # n_{l+1} = 2w (layer 1) and w (layer 2): same scaling
        sq = x**2
        widths.append(r["width"])
        rms.append(float(np.sqrt(sq.mean())))
        ses.append(float(sq.std(ddof=1) / math.sqrt(sq.size) / (2 * rms[-1])))
    fit = stats.fit_power_law(widths, rms, ses, alpha)
    verdict = F if fit.lo > 0 else (H if fit.hi < ORDER_EXPONENT_RESOLUTION else I)
    dom = [float(np.median(r["main_over_order"])) for r in m["rows"]]
    return Evidence(verdict=verdict, measured={"exponent": fit.exponent, "interval": [fit.lo, fit.hi]},
                    expected="exponent <= 0 (bounded)", margin=None, margin_unit="",
                    method=f"RMS over networks of (actual - main) / O-term, power-law fit over widths {widths}, "
                           f"alpha = {alpha:.2e}",
                    resolution=f"growth exponents >= {ORDER_EXPONENT_RESOLUTION} are detected",
                    details=[{"width": w, "rms_residual_in_O_units": e, "median_main_over_O": d}
                             for w, e, d in zip(widths, rms, dom)])


def lenet_measure(ctx, setups_per_init: int = 25, batch: int = 1024) -> dict:
    """The shared strided-LeNet setups of Figures 1-2 (all cores)."""
    from threadpoolctl import threadpool_limits

    from simulations.figures.defazio_bottou_lenet import lenet_setups

    per = max(5, int(round(setups_per_init * ctx.scale)))
    with threadpool_limits(os.cpu_count()):  # undo the catalogue's one-thread default
        return lenet_setups(ctx.seed, ctx.backend, 4 * per, batch, 32)


def judge_lenet_ratio(m, ctx, reading: str = "ratio_rho_in", target: float = 1.0, factor: float = 2.0):
    """Figure 1's 'close to 1', read as: per layer, the geometric mean of the ratio over
    the setups (pooled over the four inits) lies within a factor ``factor`` of
    ``target``. t-interval of the mean log ratio; holds if inside, fails if disjoint."""
    from simulations.figures.defazio_bottou_lenet import INITS, LAYERS

    alpha = mc_alpha(len(LAYERS))
    lo_b, hi_b = math.log(target / factor), math.log(target * factor)
    details, verdicts = [], []
    for l, name in enumerate(LAYERS):
        x = np.log(np.concatenate([m[f"{i}/{reading}"][:, l] for i in INITS]))
        mean, se = float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))
        t = float(sst.t.isf(alpha / 2, x.size - 1))
        lo, hi = mean - t * se, mean + t * se
        v = band_verdict(lo, hi, lo_b, hi_b)
        verdicts.append(v)
        details.append({"layer": name, "geometric_mean_ratio": math.exp(mean), "interval": [math.exp(lo), math.exp(hi)],
                        "setups": int(x.size), "verdict": v.value})
    verdict = combine(verdicts)
    bad = [d for d in details if d["verdict"] != "holds"]
    return Evidence(verdict=verdict, measured=(bad or details)[0], expected=f"within [{target / factor:.3g}, "
                    f"{target * factor:.3g}]", margin=None, margin_unit="",
                    method=f"strided LeNet, batch 1024, 32x32 N(0,1) inputs, loss z^T R z, {details[0]['setups']} "
                           f"setups over 4 inits; t-interval of the mean log ratio, alpha = {alpha:.2e} per layer",
                    resolution=f"largest interval half-width {max(math.log(d['interval'][1] / d['interval'][0]) / 2 for d in details):.3f} in log ratio",
                    counterexample=bad[0] if verdict == F else None, details=details)


def judge_fig2(m, ctx, flat: str = "geometric"):
    """Figure 2: the ``flat`` init's block diagonal is more nearly constant than each
    other init's. Per setup, spread = max - min over layers of log10 E[(G_l r)^2];
    Welch z-test of mean spread(other) - mean spread(flat) > 0 per other init."""
    from simulations.figures.defazio_bottou_lenet import INITS

    alpha = mc_alpha(len(INITS) - 1)
    zc = stats.z_crit(alpha)
    spread = {}
    for init in INITS:
        d = np.log10(np.diagonal(m[f"{init}/blocks"], axis1=1, axis2=2))
        spread[init] = d.max(1) - d.min(1)
    details, verdicts = [], []
    for other in INITS:
        if other == flat:
            continue
        a, b = spread[other], spread[flat]
        diff = float(a.mean() - b.mean())
        se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        z = diff / se
        verdicts.append(H if z > zc else (F if z < -zc else I))
        details.append({"other": other, "spread_other_decades": float(a.mean()), "spread_flat_decades": float(b.mean()),
                        "difference": diff, "se": se, "z": z, "verdict": verdicts[-1].value})
    verdict = combine(verdicts)
    worst = min(details, key=lambda d: d["z"])
    return Evidence(verdict=verdict, measured=worst, expected="spread(other) - spread(flat) > 0",
                    margin=worst["z"] - zc, margin_unit=f"standard errors beyond z = {zc:.2f} (weakest pair)",
                    method=f"strided LeNet setups of Figure 1, per-sample Gauss-Newton diagonal blocks, Welch z-test, "
                           f"alpha = {alpha:.2e} per pair",
                    resolution=f"smallest detectable spread difference {stats.resolution_factor(alpha) * max(d['se'] for d in details):.3f} decades",
                    counterexample=worst if verdict == F else None, details=details)
