"""ZeroInit's design principles (Sec. 3) and the related-work 1/2-scaling recurrence
(Sec. 6) of the ZeroInit/Fixup submission, by Monte Carlo of bias-free ReLU residual
networks with m-layer branches (:mod:`simulations.relu_nets.resnet`).

Setup of the SGD checks: the paper's premise 'the error signal passing to the branch
is O(1)' is realized by the linear loss l = mean_b <g, x_L> with g ~ N(0, I/n) fixed
per network (so dl/dx_l = g at initialization), inputs x_0 ~ N(0, I/n) (||x_0|| ~ 1),
fresh inputs at every step and for the final measurement, plain SGD.

Reconstructed from the lossy text (Sec. 3): the m - 1 non-zero branch layers are
scaled by L^(-1/(2m-2)) so that a branch's output after one update is O(1/L) times its
input; the related work prints x_l = (x_{l-1} + F(x_{l-1}))/2 but unrolls it as
x_l = 0.5^(l/2) x_0 + sum_i 0.5^((l-i+1)/2) F_i(x_{i-1}), which is the 1/sqrt(2) recurrence.
"""
from __future__ import annotations

import math

import numpy as np

from simulations import get_backend
from simulations.relu_nets import draw_branch_resnet, resnet_backward, resnet_forward, sgd_step
from .. import stats
from ..evidence import Evidence, Verdict
from ..judging import band_verdict, combine, judge_exact, judge_means, mc_alpha

H, F, I = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
ONE_STEP_DEPTHS = (4, 8, 16, 32, 64, 128, 256)
FEW_STEP_DEPTHS = (2, 4, 8, 16, 32)
#: Exponent resolution: deviations of 0.05 in a fitted exponent are resolved.
EXPONENT_TOLERANCE = 0.05
S_OUT = {"half": 0.5, "sqrt_half": 2 ** -0.5}


def _train(be, net, steps: int, lr: float, width: int, batch: int, N: int):
    g = be.normal((N, 1, width)) / math.sqrt(width)
    for _ in range(steps):
        x = be.normal((N, batch, width)) / math.sqrt(width)
        fwd = resnet_forward(net, x, be.xp)
        net = sgd_step(net, resnet_backward(net, fwd, be.xp.broadcast_to(g / batch, x.shape), be.xp)["dW"], lr)
    x = be.normal((N, batch, width)) / math.sqrt(width)
    fwd = resnet_forward(net, x, be.xp)
    for a in fwd["x"]:
        if not np.all(np.isfinite(a)):
            raise FloatingPointError("training diverged: lower lr, steps or depths")
    return fwd


def one_step_measure(ctx, width: int = 32, batch: int = 32, base: int = 40, lr: float = 1.0) -> dict:
    """Per m and depth L: per network, mean over blocks and inputs of ||F_l(x_l)|| / ||x_l||
    after one SGD step from ZeroInit."""
    rows = []
    for m in (2, 3):
        for j, L in enumerate(ONE_STEP_DEPTHS):
            be = get_backend(ctx.backend, seed=ctx.seed).spawn(2019_2000 + 100 * m + j)
            N = max(10, int(round(base * ctx.scale)))
            fwd = _train(be, draw_branch_resnet(be, width, L, m, "zeroinit", N), 1, lr, width, batch, N)
            r = np.mean([(np.linalg.norm(Fl, axis=-1) / np.linalg.norm(xl, axis=-1)).mean(-1)
                         for Fl, xl in zip(fwd["F"], fwd["x"][:-1])], axis=0)
            rows.append({"m": m, "depth": L, "scale": r})
    return {"rows": rows, "width": width, "lr": lr}


def judge_one_step(m, ctx, exponent: float = -1.0):
    """The branch scale after one update goes like L^exponent: the fitted exponent's
    interval must contain ``exponent`` (fails if it excludes it); holds when the interval
    is narrower than +-EXPONENT_TOLERANCE, else inconclusive."""
    alpha = mc_alpha(2)
    details, verdicts = [], []
    for mm in (2, 3):
        rows = [r for r in m["rows"] if r["m"] == mm]
        Ls = [r["depth"] for r in rows]
        means = [float(r["scale"].mean()) for r in rows]
        ses = [float(r["scale"].std(ddof=1) / math.sqrt(r["scale"].size)) for r in rows]
        fit = stats.fit_power_law(Ls, means, ses, alpha)
        ok = fit.lo <= exponent <= fit.hi
        v = (H if fit.hi - fit.lo <= 2 * EXPONENT_TOLERANCE else I) if ok else F
        verdicts.append(v)
        details.append({"m": mm, "exponent": fit.exponent, "interval": [fit.lo, fit.hi], "claimed": exponent,
                        "verdict": v.value, "scale_by_depth": dict(zip(Ls, means))})
    verdict = combine(verdicts)
    return Evidence(verdict=verdict, measured={d["m"]: d["exponent"] for d in details}, expected=exponent,
                    margin=None, margin_unit="", method=f"ZeroInit residual nets, width {m['width']}, one SGD step "
                    f"(lr {m['lr']}) on l = <g, x_L>, depths {ONE_STEP_DEPTHS}, power-law fit, alpha = {alpha:.2e}",
                    resolution=f"exponent intervals up to +-{EXPONENT_TOLERANCE}", details=details,
                    counterexample=next((d for d in details if d["verdict"] == "fails"), None))


def few_steps_measure(ctx, width: int = 32, batch: int = 32, base: int = 40, steps: int = 3, lr: float = 0.1) -> dict:
    """Per scheme (zeroinit, zero_last) and depth: per network log(||x_L||^2/||x_0||^2)
    averaged over inputs, after ``steps`` SGD updates (m = 2)."""
    rows = []
    for k, scheme in enumerate(("zeroinit", "zero_last")):
        for j, L in enumerate(FEW_STEP_DEPTHS):
            be = get_backend(ctx.backend, seed=ctx.seed).spawn(2019_3000 + 100 * k + j)
            N = max(10, int(round(base * ctx.scale)))
            fwd = _train(be, draw_branch_resnet(be, width, L, 2, scheme, N), steps, lr, width, batch, N)
            ratio = (np.log((fwd["x"][-1] ** 2).sum(-1)) - np.log((fwd["x"][0] ** 2).sum(-1))).mean(-1)
            rows.append({"scheme": scheme, "depth": L, "log_ratio": ratio})
    return {"rows": rows, "steps": steps, "lr": lr, "width": width}


def judge_few_steps(m, ctx, scheme: str = "zeroinit", band: float = EXPONENT_TOLERANCE):
    """'The variance is independent of depth even after a few updates': for every depth
    L, the difference of mean log(||x_L||^2/||x_0||^2) from the shallowest depth lies
    within +-``band`` nats (holds: every interval inside; fails: some interval outside
    the band entirely; else inconclusive)."""
    rows = [r for r in m["rows"] if r["scheme"] == scheme]
    alpha = mc_alpha(len(rows) - 1)
    zc = stats.z_crit(alpha)
    base = rows[0]["log_ratio"]
    details, verdicts = [], []
    for r in rows[1:]:
        d = float(r["log_ratio"].mean() - base.mean())
        se = math.sqrt(r["log_ratio"].var(ddof=1) / r["log_ratio"].size + base.var(ddof=1) / base.size)
        lo, hi = d - zc * se, d + zc * se
        v = band_verdict(lo, hi, -band, band)
        verdicts.append(v)
        details.append({"depth": r["depth"], "shallowest": rows[0]["depth"], "difference": d, "interval": [lo, hi],
                        "mean_log_ratio": float(r["log_ratio"].mean()), "verdict": v.value})
    verdict = combine(verdicts)
    worst = max(details, key=lambda d: abs(d["difference"]))
    return Evidence(verdict=verdict, measured=worst, expected=f"difference within +-{band} nats",
                    margin=None, margin_unit="",
                    method=f"{scheme} residual nets (m = 2, width {m['width']}), {m['steps']} SGD steps at lr "
                           f"{m['lr']} on l = <g, x_L>, depths {FEW_STEP_DEPTHS}; difference of mean log variance "
                           f"ratio from depth {rows[0]['depth']}, z-intervals at alpha = {alpha:.2e} each",
                    resolution=f"largest interval half-width {max(d['interval'][1] - d['difference'] for d in details):.3g} "
                               f"nats (band +-{band})",
                    counterexample=worst if verdict == F else None, details=details)


def half_scaling_measure(ctx, width: int = 64, blocks: int = 6, base: int = 8000) -> dict:
    """Per recurrence (1/2 and 1/sqrt(2)), kappa = 1 branches (He, then variance 1/n):
    ||x_l||^2/||x_0||^2 per network and block, and the largest relative error of the
    unrolled form x_l = 0.5^(l/2) x_0 + sum_i 0.5^((l-i+1)/2) F_i(x_{i-1})."""
    out = {}
    for k, (name, s) in enumerate(S_OUT.items()):
        be = get_backend(ctx.backend, seed=ctx.seed).spawn(2019_4000 + k)
        N = max(200, int(round(base * ctx.scale)))
        ratios, unroll = [], 0.0
        for start in range(0, N, 500):
            n = min(500, N - start)
            fwd = resnet_forward(draw_branch_resnet(be, width, blocks, 2, "he_linear_last", n),
                                 be.normal((n, 1, width)), be.xp, s_out=s)
            sq = np.stack([(a**2).sum(-1)[:, 0] for a in fwd["x"]], 1)
            ratios.append(sq / sq[:, :1])
            for l in range(1, blocks + 1):
                pred = 0.5 ** (l / 2) * fwd["x"][0] + sum(0.5 ** ((l - i + 1) / 2) * fwd["F"][i - 1]
                                                          for i in range(1, l + 1))
                err = np.abs(pred - fwd["x"][l]).max() / np.abs(fwd["x"][l]).max()
                unroll = max(unroll, float(err))
        out[name] = {"ratio": np.concatenate(ratios), "unroll_error": unroll}
    return {"rows": out, "blocks": blocks, "width": width}


def judge_half_variance(m, ctx, recurrence: str = "half", per_block: float = 1.0):
    """E||x_l||^2 / ||x_0||^2 = per_block^l for l = 1..blocks (per_block 1: constant
    variance; the exact value is s^2 (1 + kappa) = 2 s^2)."""
    r = m["rows"][recurrence]
    rows = [{"block": l, "x": r["ratio"][:, l]} for l in range(1, m["blocks"] + 1)]
    return judge_means(rows, lambda row: row["x"], lambda row: per_block ** row["block"], ("block",), 0.05,
                       f"Monte Carlo, x_l = s (x_(l-1) + F(x_(l-1))), s = {S_OUT[recurrence]:.4f}, kappa = 1 branches, "
                       f"width {m['width']}")


def judge_unrolling(m, ctx, recurrence: str = "half"):
    """The printed unrolled form holds to rounding (1e-12 relative) for the recurrence."""
    err = m["rows"][recurrence]["unroll_error"]
    return judge_exact([{"label": f"recurrence s = {S_OUT[recurrence]:.4f}", "ok": err <= 1e-12, "measured": err,
                         "expected": "<= 1e-12 (relative, max over nets, blocks, entries)",
                         "counterexample": {"recurrence": recurrence, "max_relative_error": err}}],
                       "direct evaluation on random residual nets, float64", "1e-12 relative")
