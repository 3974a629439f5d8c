"""Checks of the ZeroInit/Fixup submission (ICLR 2019): Proposition 1, Theorems 1-2
(Eq. 3-5, 10-11) on random bias-free ReLU networks with a softmax cross-entropy head,
and Eq. 2's variance growth of residual networks.

The text is a lossy extraction; reconstructed formulas (stated in each claim):
- Eq. 3: ||dl/dx_{i-1}|| >= (l(z, y) - H(p)) / ||x_{i-1}||;
- Eq. 4: G(theta_ph) = ||d l_avg / d theta_ph|| >= (1/M) sum_m (l_m - H(p_m)) / ||theta_ph||;
- Eq. 5 with Eq. 10: E[l] >= E[max_i z_i], so E[G ||theta_ph||] >= E[max_i z_i] - log(c);
- Eq. 2: Var[x_{l+1}] = (1 + kappa) Var[x_l] with kappa = E||F(x)||^2 / ||x||^2, which the
  paper takes to be 1 ("Var[F(x_l) | x_l] about the same as Var[x_l]"), giving 2^l.

All follow from Euler's identity for p.h. maps, <dl/dx, x> = <p - y, z> = l - H(p).
"""
from __future__ import annotations

import math

import numpy as np

from simulations import get_backend
from simulations.relu_nets import draw_mlp, draw_resnet, mlp_backward, mlp_forward, resnet_forward, softmax_xent
from .. import stats
from ..evidence import Evidence, Verdict
from ..judging import judge_exact, judge_means, mc_alpha

H, F = Verdict.HOLDS, Verdict.FAILS
#: (widths) of the random networks; the last entry is the number of classes c.
NETS = ((8, 16, 10), (4, 32, 32, 10), (16, 8, 8, 8, 5), (3, 64, 64, 64, 64, 10), (2, 2, 2, 3))
LAMBDA = 2.7  # the positive scale of Definitions 1-2
NORMS = {"l2": (2, 2), "l1": (1, 1), "linf": (np.inf, np.inf), "dual_linf_l1": (np.inf, 1), "dual_l1_linf": (1, np.inf)}


def _norm(a, p):
    return np.linalg.norm(a.reshape(a.shape[:-1] + (-1,)) if a.ndim else a, ord=p, axis=-1)


def ph_measure(ctx, base: int = 200, batch: int = 8) -> dict:
    """Per architecture: homogeneity errors, and per sample and layer: l - H(p),
    <dl/dx_i, x_i>, the norms of x_i and dl/dx_i, and per layer the batch-averaged
    weight gradient with its Frobenius norm."""
    rows = []
    for a, widths in enumerate(NETS):
        be = get_backend(ctx.backend, seed=ctx.seed).spawn(2019_0000 + a)
        N = max(30, int(round(base * ctx.scale)))
        Ws = draw_mlp(be, widths, "he_fan_in", N)
        x = be.normal((N, batch, widths[0])) * 3.0
        labels = be.integers(0, widths[-1], batch)
        fwd = mlp_forward(Ws, x, np)
        # outputs with the input, and with one layer's weights, scaled by LAMBDA
        z_x = mlp_forward(Ws, LAMBDA * x, np)["z"]
        z_w = mlp_forward([W * (LAMBDA if i == 1 % len(Ws) else 1) for i, W in enumerate(Ws)], x, np)["z"]
        loss, p, ent, dz = softmax_xent(fwd["z"], labels, np)
        bwd = mlp_backward(Ws, fwd, dz, np)
        layers = []
        for i in range(len(Ws)):
            xi, gi = fwd["x"][i], bwd["dx"][i]
            dW_avg = np.einsum("nbo,nbi->noi", bwd["dy"][i], xi) / batch  # d l_avg / d W_i
            layers.append({"layer": i, "x": xi, "g": gi, "inner": (gi * xi).sum(-1),
                           "inner_W": np.einsum("nbo,nbi,noi->nb", bwd["dy"][i], xi, Ws[i]),
                           "G": np.linalg.norm(dW_avg.reshape(N, -1), axis=-1),
                           "W_norm": np.linalg.norm(Ws[i].reshape(N, -1), axis=-1)})
        rows.append({"widths": widths, "networks": N, "z": fwd["z"], "z_x": z_x, "z_w": z_w, "loss": loss, "entropy": ent,
                     "zmax": fwd["z"].max(-1), "layers": layers, "classes": widths[-1]})
    return {"rows": rows}


def judge_prop1(m, ctx, power: float = 1.0):
    """Proposition 1: f(lam x) = lam^power f(x) for the composed p.h. network, and the
    weights of one layer form a p.h. set (max error relative to max |f| <= 1e-12, the
    float64 rounding of a few dozen products and sums)."""
    checks = []
    for r in m["rows"]:
        scale = LAMBDA**power
        peak = float(np.max(np.abs(r["z"])))
        err = {k: float(np.max(np.abs(r[k] - scale * r["z"]))) / peak for k in ("z_x", "z_w")}
        checks.append({"label": f"widths {r['widths']}: input and one layer's weights",
                       "ok": max(err.values()) <= 1e-12, "measured": {"input": err["z_x"], "weights": err["z_w"]},
                       "expected": "<= 1e-12", "counterexample": {"widths": r["widths"], "power": power, **err}})
    return judge_exact(checks, f"random He networks, lam = {LAMBDA}, float64", "1e-12 relative")


def judge_thm1(m, ctx, norm: str = "l2", factor: float = 1.0):
    """Theorem 1 (Eq. 3) on every sample, network and block input:
    ||dl/dx_i||_q >= factor * (l - H(p)) / ||x_i||_p with (q, p) = NORMS[norm]; the
    printed 'any valid norm' means q = p. Deterministic: one violation is a counterexample."""
    q, p = NORMS[norm]
    checks, worst = [], None
    for r in m["rows"]:
        gap = r["loss"] - r["entropy"]
        for L in r["layers"]:
            xn = _norm(L["x"], p)
            lhs = _norm(L["g"], q)
            rhs = factor * gap / np.where(xn > 0, xn, 1)
            euler = float(np.max(np.abs(L["inner"] - gap)) / max(1.0, float(np.max(np.abs(gap)))))
            # compare ||g|| ||x|| with factor (l - H): rounding of l - H is ~1e-15 (1 + l)
            viol = lhs * xn < factor * gap - 1e-12 * (1 + r["loss"])
            if np.any(viol):
                idx = np.unravel_index(np.argmax(rhs - lhs), lhs.shape)
                cex = {"widths": r["widths"], "layer": L["layer"], "norm": norm, "lhs": float(lhs[idx]),
                       "rhs": float(rhs[idx]), "euler_error": euler}
                worst = worst or cex
            checks.append({"label": f"{r['widths']}, block input {L['layer']}", "ok": not np.any(viol)
                           and euler < 1e-9, "measured": float(np.min(lhs - rhs)), "expected": ">= 0",
                           "euler_identity_error": euler, "violations": int(np.sum(viol)),
                           "counterexample": worst})
    return judge_exact(checks, f"{sum(r['networks'] for r in m['rows'])} random He networks x 8 inputs per "
                       f"architecture, norms (q, p) = {NORMS[norm]}", "deterministic; relative slack 1e-12")


def judge_thm2(m, ctx, factor: float = 1.0):
    """Theorem 2 (Eq. 4): for the p.h. set theta = W_i (Frobenius norm),
    ||d l_avg / d W_i|| >= factor * mean_m (l_m - H(p_m)) / ||W_i||."""
    checks = []
    for r in m["rows"]:
        avg_gap = (r["loss"] - r["entropy"]).mean(-1)
        for L in r["layers"]:
            rhs = factor * avg_gap / L["W_norm"]
            viol = L["G"] * L["W_norm"] < factor * avg_gap - 1e-12 * (1 + r["loss"].mean(-1))
            checks.append({"label": f"{r['widths']}, W_{L['layer']}", "ok": not np.any(viol),
                           "measured": float(np.min(L["G"] - rhs)), "expected": ">= 0", "violations": int(viol.sum()),
                           "counterexample": {"widths": r["widths"], "layer": L["layer"]} if np.any(viol) else None})
    return judge_exact(checks, "batch of 8, Frobenius norms, random He networks", "deterministic")


def judge_eq5(m, ctx, shift: float = 0.0):
    """Eq. 10 and Eq. 5 (reconstructed): E[l] >= E[max_i z_i] and
    E[G ||W_last||] >= E[max_i z_i] - log(c) (+ shift, for mutation), one-sided t-tests."""
    alpha = mc_alpha(2 * len(m["rows"]))
    zc = stats.z_crit(2 * alpha)
    details, ok = [], True
    for r in m["rows"]:
        last = r["layers"][-1]
        for name, diff in (("E[l] - E[max z]", (r["loss"] - r["zmax"]).mean(-1) - shift),
                           ("E[G ||W||] - (E[max z] - log c)",
                            last["G"] * last["W_norm"] - (r["zmax"].mean(-1) - math.log(r["classes"])) - shift)):
            mean, se = float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(diff.size))
            passed = mean + zc * se >= 0
            ok &= passed
            details.append({"widths": r["widths"], "quantity": name, "mean": mean, "se": se, "holds": passed})
    bad = [d for d in details if not d["holds"]]
    return Evidence(verdict=H if ok else F, measured=bad[0] if bad else details[0], expected=">= 0",
                    margin=None, margin_unit="", method="random He networks, per-network batch means",
                    resolution=f"one-sided z = {zc:.2f}", counterexample=bad[0] if bad else None, details=details)


def growth_measure(ctx, width: int = 32, base: int = 12000, blocks: int = 3) -> dict:
    """E||x_{l}||^2 / ||x_0||^2 for two-layer residual branches, per block count, for
    He on both layers (kappa = 2) and He then 1/n (kappa = 1)."""
    out = {}
    for j, (init2, kappa) in enumerate((("he_fan_in", 2.0), ("linear_fan_in", 1.0))):
        be = get_backend(ctx.backend, seed=ctx.seed).spawn(2019_1000 + j)
        N = max(100, int(round(base * ctx.scale)))
        ratios = []
        for start in range(0, N, 500):
            n = min(500, N - start)
            net = draw_resnet(be, width, blocks, ("he_fan_in", init2), n_networks=n)
            x0 = be.normal((n, 1, width))
            fwd = resnet_forward(net, x0, np)
            ratios.append(np.exp(fwd["log_sq_norm"][:, 0, :] - fwd["log_sq_norm"][:, 0, :1]))
        out[init2] = {"ratio": np.concatenate(ratios), "kappa": kappa}
    return {"rows": out, "width": width, "blocks": blocks}


def judge_growth(m, ctx, base_factor: float | None = 2.0, branch: str = "he_fan_in"):
    """E||x_l||^2 = b^l ||x_0||^2 for l = 1..blocks. ``base_factor`` 2.0 is Eq. 2 as
    printed; None uses the corrected 1 + kappa of the branch."""
    r = m["rows"][branch]
    b = 1 + r["kappa"] if base_factor is None else base_factor
    rows = [{"blocks": l, "x": r["ratio"][:, l]} for l in range(1, m["blocks"] + 1)]
    return judge_means(rows, lambda row: row["x"], lambda row: b ** row["blocks"], ("blocks",), 0.05,
                       f"Monte Carlo, residual branch W2 ReLU(W1 x), W1 He fan-in, W2 {branch}, width {m['width']}")
