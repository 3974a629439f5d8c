"""Sec. 2 of the ZeroInit/Fixup submission, checked exactly in float64 on random
bias-free ReLU networks with a softmax cross-entropy head: Proposition 1, Theorem 1
(Eq. 3, 6-7), Theorem 2 (Eq. 4, 8-9) and the p.h. sets it names.

The text is a lossy extraction; the reconstructed formulas (stated in each claim):

- Eq. 3: ||dl/dx_{i-1}|| >= (l(z, y) - H(p)) / ||x_{i-1}||;
- Eq. 4: ||d l_avg/d theta_ph|| >= (1/M) sum_m (l_m - H(p_m)) / ||theta_ph|| =: G(theta_ph);
- Eq. 8: <d l_avg/d theta_ph, theta_ph> = (1/M) sum_m (l_m - H(p_m)).

All follow from Euler's identity for p.h. maps, <dl/dx, x> = <p - y, z> = l - H(p).
Each check compares two float64 computations of the same exact quantity, so its
tolerance is a rounding bound (``TOL``, relative), and its mutations move the
statement by ten times that bound. Networks with a width-1 layer are on the grid:
there Cauchy-Schwarz is an equality (a 1-d gradient is parallel to its input), so the
bounds bite and a factor of 1 + 1e-11 is seen.

>>> round(smallest_same_norm_counterexample(30)["gradient_linf"], 6)
0.880797
"""
from __future__ import annotations

import mpmath
import numpy as np

from simulations.core import check_choice
from simulations.relu_nets import draw_mlp, mlp_backward, mlp_forward, softmax_xent

from ..core.evidence import bound_tightness
from ..judges import judge_exact, tightest

__all__ = ["NETS", "LAMBDA", "NORMS", "TOL", "ph_measure", "smallest_same_norm_counterexample", "judge_prop1",
           "judge_thm1", "judge_directional", "judge_thm2", "judge_eq8"]

#: Widths of the random networks; the last entry is the number of classes c. The last
#: two have width-1 layers (block inputs and a weight matrix where the bounds are tight).
NETS = ((8, 16, 10), (4, 32, 32, 10), (16, 8, 8, 8, 5), (3, 64, 64, 64, 64, 10), (2, 2, 2, 3), (1, 1, 4, 3))
LAMBDA = 2.7  # the positive scale of Definitions 1-2
#: (gradient norm, input norm) pairs: the same norm on both sides, or a dual pair.
NORMS = {"l2": (2, 2), "l1": (1, 1), "linf": (np.inf, np.inf), "dual_linf_l1": (np.inf, 1), "dual_l1_linf": (1, np.inf)}
#: Relative rounding bound of the float64 comparisons (observed errors are ~1e-15).
TOL = 1e-12
NETWORKS, BATCH = 48, 8


def _norm(a, p):
    return np.linalg.norm(a, ord=p, axis=-1)


def ph_measure(ctx) -> dict:
    """Per architecture (``NETWORKS`` He networks, ``BATCH`` inputs each): outputs with
    the input and with one layer's weights scaled by LAMBDA; per sample the loss, the
    entropy and max z; per block input its gradient; per layer the batch-averaged
    weight gradient, its Frobenius norm, <dW, W> and ||W||."""
    rows = []
    for a, widths in enumerate(NETS):
        be = ctx.host_stream("zeroinit2019.ph", a)  # a deterministic check, computed on the host
        Ws = draw_mlp(be, widths, "he_fan_in", NETWORKS)
        x = be.normal((NETWORKS, BATCH, widths[0])) * 3.0
        labels = be.integers(0, widths[-1], BATCH)
        fwd = mlp_forward(Ws, x, np)
        k = 1 % len(Ws)
        z_x = mlp_forward(Ws, LAMBDA * x, np)["z"]
        z_w = mlp_forward([W * (LAMBDA if i == k else 1) for i, W in enumerate(Ws)], x, np)["z"]
        loss, p, ent, dz = softmax_xent(fwd["z"], labels, np)
        bwd = mlp_backward(Ws, fwd, dz, np)
        layers = []
        for i, W in enumerate(Ws):
            xi, gi = fwd["x"][i], bwd["dx"][i]
            dW = np.einsum("nbo,nbi->noi", bwd["dy"][i], xi) / BATCH  # d l_avg / d W_i
            layers.append({"layer": i, "x": xi, "g": gi, "G": np.linalg.norm(dW.reshape(NETWORKS, -1), axis=-1),
                           "inner_W": np.einsum("noi,noi->n", dW, W),
                           "W_norm": np.linalg.norm(W.reshape(NETWORKS, -1), axis=-1), "shape": W.shape[1:]})
        rows.append({"widths": widths, "z": fwd["z"], "z_x": z_x, "z_w": z_w, "scaled_layer": k, "loss": loss,
                     "entropy": ent, "layers": layers})
    return {"rows": rows, "cex": {d: smallest_same_norm_counterexample(d) for d in ctx.precisions}}


def smallest_same_norm_counterexample(dps: int) -> dict:
    """Theorem 1 with the max-norm on both sides, at ``dps`` digits: one bias-free layer
    f(x) = W x, W = [[1, 1], [0, 0]], x = (1, 1), c = 2 classes, label 2. Then
    l - H(p) = <p - y, z> = 2 p_1 and dl/dx = W^T (p - y) = (p_1, p_1), so
    ||dl/dx||_inf = p_1 < (l - H)/||x||_inf = 2 p_1 (dimensions 2 and 2: the smallest
    where the max-norm differs from its dual)."""
    with mpmath.workdps(dps):
        z1, z2 = mpmath.mpf(2), mpmath.mpf(0)
        p1 = 1 / (1 + mpmath.exp(z2 - z1))
        p2 = 1 - p1
        loss = -mpmath.log(p2)
        ent = -(p1 * mpmath.log(p1) + p2 * mpmath.log(p2))
        grad = (p1, p1)  # W^T (p - y) with p - y = (p1, p2 - 1) = (p1, -p1)
        lhs, rhs = max(abs(g) for g in grad), (loss - ent) / 1
        return {"W": [[1, 1], [0, 0]], "x": [1, 1], "label": 2, "gradient_linf": float(lhs),
                "bound_over_linf_x": float(rhs), "gap": lhs - rhs}


def judge_prop1(m, ctx, power: float = 1.0, input_power: float | None = None, weight_power: float | None = None):
    """Proposition 1: f(lam x) = lam^input_power f(x) for the composed network, and the
    weights of one layer form a p.h. set, f(x; lam W_k) = lam^weight_power f(x; W_k)
    (max error relative to max |f| <= TOL). Both degrees default to ``power`` (1, first
    degree); setting one alone perturbs that part alone. A failing row names the part(s)
    it fails by (``part``: "degree in the input", "degree in W_k"; each row checks both)."""
    powers = {"z_x": power if input_power is None else input_power,
              "z_w": power if weight_power is None else weight_power}
    split = {f"{k}_power": v for k, v in powers.items() if v != power}  # shown only where a part has its own degree
    checks = []
    for r in m["rows"]:
        peak = float(np.max(np.abs(r["z"])))
        err = {k: float(np.max(np.abs(r[k] - LAMBDA**powers[k] * r["z"]))) / peak for k in ("z_x", "z_w")}
        names = {"z_x": "degree in the input", "z_w": f"degree in W_{r['scaled_layer']}"}
        checks.append({"label": f"widths {r['widths']}: input and W_{r['scaled_layer']}",
                       "parts": {names[k]: err[k] <= TOL for k in ("z_x", "z_w")},
                       "measured": err, "expected": f"<= {TOL:g}", "counterexample": {"widths": r["widths"],
                                                                                      "power": power, **split, **err}})
    return judge_exact(checks, f"{NETWORKS} random He networks per architecture, lam = {LAMBDA}, float64",
                       f"{TOL:g} relative")


def _gap(r, entropy: float = 1.0):
    """Per sample l - entropy H(p) (``entropy`` 1 as printed: the mutations move H's
    coefficient alone)."""
    return r["loss"] - entropy * r["entropy"]


def judge_thm1(m, ctx, norm: str = "l2", factor: float = 1.0, entropy: float = 1.0):
    """Theorem 1 (Eq. 3) on every sample, network and block input:
    ||dl/dx_i||_q ||x_i||_p >= factor (l - entropy H(p)) with (q, p) = NORMS[norm] (the
    printed 'any valid norm' means q = p; ``entropy`` is 1 as printed). A row is informative when some sample has
    l - H > 0 (else the bound is vacuous); ``tightest`` is the smallest
    ||g||_q ||x||_p / (l - H) there (1 where the gradient is parallel to the input)."""
    check_choice("norm", norm, tuple(NORMS))
    q, p = NORMS[norm]
    checks, tights = [], []
    for r in m["rows"]:
        gap = _gap(r, entropy)
        for L in r["layers"]:
            prod = _norm(L["g"], q) * _norm(L["x"], p)
            viol = prod < factor * gap - TOL * (1 + r["loss"])
            pos = gap > TOL * (1 + r["loss"])
            tight = float(np.min(prod[pos] / gap[pos])) if np.any(pos) else None
            tights += _tightness(prod, factor * gap, pos, {"widths": str(r["widths"]), "block_input": L["layer"]})
            idx = np.unravel_index(np.argmax(factor * gap - prod), prod.shape)
            checks.append({"label": f"{r['widths']}, block input {L['layer']} (dim {L['x'].shape[-1]})",
                           "ok": not np.any(viol), "measured": {"tightest_ratio": tight, "violations": int(viol.sum())},
                           "expected": f">= {factor:g}", "informative": bool(np.any(pos)),
                           "counterexample": {"widths": r["widths"], "block_input": L["layer"], "norm": norm,
                                              "grad_norm_times_input_norm": float(prod[idx]),
                                              "factor_times_gap": float(factor * gap[idx])}})
    if norm == "linf":
        for d, c in m["cex"].items():
            ok = c["gradient_linf"] >= factor * c["bound_over_linf_x"] - TOL
            checks.insert(0, {"label": f"smallest counterexample W = [[1, 1], [0, 0]], x = (1, 1), label 2 "
                                       f"(mpmath, {d} digits)", "ok": bool(ok), "measured": c["gradient_linf"],
                           "expected": f">= {factor:g} x {c['bound_over_linf_x']:.6g}",
                           "counterexample": {k: v for k, v in c.items() if k != "gap"}})
    ev = judge_exact(checks, f"{NETWORKS} random He networks x {BATCH} inputs per architecture, (gradient, input) "
                     f"norms {NORMS[norm]}", f"deterministic; relative slack {TOL:g}")
    ev.tightness = tightest(tights)
    return ev


def _tightness(lhs, bound, where, row: dict) -> list:
    """The :func:`~theory.core.evidence.bound_tightness` of ``lhs >= bound`` at the
    informative entry (``where``) where lhs / bound is smallest (empty when none is)."""
    if not np.any(where):
        return []
    i = np.unravel_index(np.argmin(np.where(where, lhs / np.where(where, bound, 1.0), np.inf)), lhs.shape)
    return [bound_tightness(float(lhs[i]), float(bound[i]), ">=", row)]


def judge_directional(m, ctx, strict: bool = False, factor: float = 1.0):
    """The step before Eq. 7: ||dl/dx||_2 is at least the derivative of l along the unit
    vector x/||x||, which is (l - H)/||x|| (times ``factor``, 1 as printed). As printed
    ('must be greater than', ``strict``): fails where equality is attained, i.e. on
    width-1 block inputs with l - H > 0, where ||g|| |x| = g x exactly. Corrected (at
    least): every row holds and equality is attained (so the inequality cannot be made
    strict). A factor above 1 fails the rows where equality is attained; below 1 the
    rows hold but equality is no longer attained."""
    checks, equal, tights = [], [], []
    for r in m["rows"]:
        gap = _gap(r)
        for L in r["layers"]:
            prod = _norm(L["g"], 2) * _norm(L["x"], 2)
            pos = gap > TOL * (1 + r["loss"])
            tights += _tightness(prod, factor * gap, pos, {"widths": str(r["widths"]), "block_input": L["layer"]})
            bound = factor * gap[pos]
            rel = (prod[pos] - bound) / bound
            # the tolerance of the other judges, absolute in units of 1 + l, as a relative one: l - H
            # cancels where it is small, so its rounding is relative to l, not to l - H
            tol = TOL * (1 + np.broadcast_to(r["loss"], gap.shape)[pos]) / np.abs(bound)
            at_eq = bool(np.any(rel <= TOL)) and L["x"].shape[-1] == 1  # attained to 1e-12 relative somewhere
            if at_eq:
                equal.append({"widths": r["widths"], "block_input": L["layer"], "dim": 1,
                              "relative_excess": float(np.min(rel))})
            ok = bool(np.all(rel >= -tol)) and not (strict and at_eq)
            checks.append({"label": f"{r['widths']}, block input {L['layer']}", "ok": ok,
                           "measured": float(np.min(rel)) if rel.size else None,
                           "expected": "> 0" if strict else ">= 0 (relative excess)", "informative": bool(rel.size),
                           "counterexample": equal[-1] if (strict and at_eq) else None})
    checks.append({"label": "equality attained on a width-1 block input", "ok": bool(equal), "measured": len(equal),
                   "expected": ">= 1 row",
                   "counterexample": None if equal else {"factor": factor, "rows_at_equality": 0}})
    ev = judge_exact(checks, "Cauchy-Schwarz on random He networks: ||g||_2 ||x||_2 against <g, x> = l - H(p)",
                     f"relative slack {TOL:g}; a width-1 input makes the two sides equal exactly")
    ev.tightness = tightest(tights)
    return ev


def judge_thm2(m, ctx, factor: float = 1.0, entropy: float = 1.0):
    """Theorem 2 (Eq. 4, 9): for the p.h. set theta = W_i (Frobenius norm),
    ||d l_avg/d W_i|| ||W_i|| >= factor (1/M) sum_m (l_m - entropy H(p_m)) (``entropy``
    1 as printed). A 1 x 1 weight is a row where the two sides are equal."""
    checks, tights = [], []
    for r in m["rows"]:
        avg_gap = _gap(r, entropy).mean(-1)
        for L in r["layers"]:
            prod = L["G"] * L["W_norm"]
            viol = prod < factor * avg_gap - TOL * (1 + r["loss"].mean(-1))
            pos = avg_gap > TOL
            tights += _tightness(prod, factor * avg_gap, pos, {"widths": str(r["widths"]), "layer": L["layer"]})
            checks.append({"label": f"{r['widths']}, W_{L['layer']} {tuple(L['shape'])}", "ok": not np.any(viol),
                           "measured": {"tightest_ratio": float(np.min(prod[pos] / avg_gap[pos]))
                                        if np.any(pos) else None,
                                        "violations": int(viol.sum())},
                           "expected": f">= {factor:g}", "informative": bool(np.any(pos)),
                           "counterexample": {"widths": r["widths"], "layer": L["layer"]} if np.any(viol) else None})
    ev = judge_exact(checks, f"batch of {BATCH}, Frobenius norms, {NETWORKS} random He networks per architecture",
                     f"deterministic; relative slack {TOL:g}")
    ev.tightness = tightest(tights)
    return ev


def judge_eq8(m, ctx, factor: float = 1.0, entropy: float = 1.0):
    """Eq. 8: <d l_avg/d W_i, W_i> = factor (1/M) sum_m (l_m - entropy H(p_m)) per
    network and layer (``entropy`` 1 as printed), to TOL relative to 1 + mean loss
    (Euler's identity for the p.h. set W_i)."""
    checks = []
    for r in m["rows"]:
        avg_gap = _gap(r, entropy).mean(-1)
        scale = 1 + np.abs(r["loss"]).mean(-1)
        for L in r["layers"]:
            err = np.abs(L["inner_W"] - factor * avg_gap) / scale
            checks.append({"label": f"{r['widths']}, W_{L['layer']}", "ok": bool(np.all(err <= TOL)),
                           "measured": float(err.max()), "expected": f"<= {TOL:g}",
                           "counterexample": {"widths": r["widths"], "layer": L["layer"], "factor": factor,
                                              "relative_error": float(err.max())}})
    return judge_exact(checks, "Euler's identity for the p.h. set W_i on random He networks, float64",
                       f"{TOL:g} relative to 1 + mean loss")
