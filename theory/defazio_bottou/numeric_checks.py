"""Deterministic numerical checks of Defazio & Bottou: max-pooling's scaling factor
(Sec. 10, mpmath quadrature at two precisions), the diagonal Hessian block as the
Gauss-Newton block (Sec. 5.1, central differences on a ReLU net) and the scaling of
Theorem 2's printed error term under W_l -> t W_l and x_0 -> t x_0 (Sec. 5.1).
"""
from __future__ import annotations

import mpmath
import numpy as np

from simulations.core import check_choice
from simulations.relu_nets import draw_net, mlp_spec, net_backward, net_forward, param_count, scaling_vs_hessian

from ..core.claims import applies_only
from ..judges import judge_exact

__all__ = ["pool_measure", "judge_pool", "ggn_measure", "judge_ggn", "homogeneity_measure", "judge_homogeneity"]


def pool_measure(ctx) -> dict:
    """varsigma_out / varsigma_in of a 2 x 2 / 2 pooling on iid inputs, at both
    precisions: for MaxPool the gradient goes to the argmax (E[dx^2] = E[dy^2]/4), so
    the ratio is E[max^2] / E[x^2]; for AvgPool it is 1 + 3 E[x]^2 / E[x^2]. Inputs:
    N(0, 1) and ReLU(N(0, 1))."""
    out = {}
    for d in ctx.precisions:
        with mpmath.workdps(d):
            root2 = mpmath.sqrt(2)
            norm = 1 / mpmath.sqrt(2 * mpmath.pi)

            def f(x):  # x^2 times the density 4 Phi^3 phi of the max of 4 iid N(0, 1)
                return x * x * 4 * (mpmath.erfc(-x / root2) / 2) ** 3 * mpmath.exp(-x * x / 2) * norm

            neg, pos = mpmath.quad(f, [-mpmath.inf, 0]), mpmath.quad(f, [0, mpmath.inf])
            half = mpmath.mpf(1) / 2  # E[ReLU(N(0,1))^2]
            mean_relu_sq = 1 / (2 * mpmath.pi)  # E[ReLU(N(0,1))]^2
            out[d] = {"max/normal": neg + pos, "max/relu": pos / half,  # max of ReLUs = ReLU of the max
                      "avg/normal": mpmath.mpf(1), "avg/relu": 1 + 3 * mean_relu_sq / half,
                      "closed form 1 + sqrt(3)/pi": 1 + mpmath.sqrt(3) / mpmath.pi}
    return out


def judge_pool(meas, ctx, pool: str = "max", min_gap=0.1):
    """Sec. 10, 'max-pooling is not well-scaled by our theory': varsigma_out / varsigma_in
    differs from 1 (by more than ``min_gap``: one number, or one per input, "normal" and
    "relu") on N(0, 1) inputs and on ReLU outputs, the two precisions agreeing.
    ``pool="avg"`` is the contrast (well-scaled on zero-mean inputs)."""
    check_choice("pool", pool, ("max", "avg"))
    if isinstance(min_gap, dict) and set(min_gap) != {"normal", "relu"}:
        raise ValueError(f"min_gap must be a number or give one per input, 'normal' and 'relu', got {min_gap!r}")
    lo, hi = ctx.precisions
    checks = []
    for inp in ("normal", "relu"):
        a, b = meas[lo][f"{pool}/{inp}"], meas[hi][f"{pool}/{inp}"]
        need = min_gap[inp] if isinstance(min_gap, dict) else min_gap
        with mpmath.workdps(lo):
            agree = abs(a - b) < mpmath.mpf(10) ** (5 - lo)
            gap = float(abs(a - 1))
        checks.append({"label": f"{pool}-pool on {inp} inputs: varsigma ratio != 1", "ok": bool(agree and gap > need),
                       "measured": mpmath.nstr(a, 15), "expected": f"|ratio - 1| > {need}",
                       "counterexample": {"input": inp, "ratio": mpmath.nstr(a, 15)}})
    with mpmath.workdps(lo):
        closed = abs(meas[lo]["max/normal"] - meas[lo]["closed form 1 + sqrt(3)/pi"]) < mpmath.mpf(10) ** (5 - lo)
    checks.append({"label": "quadrature of E[max of 4 N(0,1)^2] = 1 + sqrt(3)/pi (closed form)", "ok": bool(closed),
                   "measured": mpmath.nstr(meas[lo]["max/normal"], 15), "expected": "1 + sqrt(3)/pi",
                   "informative": False})
    return judge_exact(checks, f"mpmath quadrature of the density of the max of 4 iid normals at {lo} and {hi} digits",
                       f"agreement to {lo - 5} digits")


def _hessian_blocks(spec, Ws, x, S, layer, eps=1e-4):
    """The Hessian block of z^T (S/2) z in W_layer by central differences of the
    gradient, and the Gauss-Newton block J^T S J (one input)."""
    def grad(W):
        Wl = [*Ws[:layer], W, *Ws[layer + 1:]]
        fwd = net_forward(spec, Wl, x)
        dy = net_backward(spec, Wl, fwd, fwd["z"] @ S)["dy"][layer]
        return (dy[0][:, None] * fwd["x"][layer][0][None, :]).ravel()

    P = param_count(spec[layer])
    H = np.empty((P, P))
    for j in range(P):
        E = np.zeros(P)
        E[j] = eps
        H[:, j] = (grad(Ws[layer] + E.reshape(Ws[layer].shape))
                   - grad(Ws[layer] - E.reshape(Ws[layer].shape))) / (2 * eps)
    fwd = net_forward(spec, Ws, x)
    c = spec[-1]["out"]
    phi = net_backward(spec, Ws, fwd, np.eye(c)[None], input_grad=False)["dy"][layer][0]  # (c, out)
    J = np.einsum("ko,i->koi", phi, fwd["x"][layer][0]).reshape(c, -1)
    return H, J.T @ S @ J


def ggn_measure(ctx) -> dict:
    """Per layer of a small He fan-in ReLU MLP [6, 8, 7, 5] and one input, the
    finite-difference Hessian block and the Gauss-Newton block."""
    be = ctx.host_stream("defazio_bottou.ggn")  # finite differences in float64 on the host
    spec = mlp_spec([6, 8, 7, 5])
    Ws = draw_net(be, spec, "he_fan_in")
    x = be.normal((1, 6))
    R = be.normal((5, 5))
    return {l: _hessian_blocks(spec, Ws, x, R + R.T, l) for l in range(len(spec))}


def judge_ggn(meas, ctx, scale: float = 1.0, tol: float = 1e-7):
    """Sec. 5.1: the diagonal Hessian block of W_l equals G_l = J_l^T R_l J_l: relative
    max difference below ``tol`` (the loss is quadratic in W_l on each linear region,
    so central differences are exact up to rounding). ``scale`` multiplies G_l."""
    checks = []
    for l, (H, Gl) in meas.items():
        err = float(np.abs(H - scale * Gl).max() / np.abs(Gl).max())
        checks.append({"label": f"layer {l}: Hessian block = J^T R J", "ok": err < tol, "measured": err,
                       "expected": f"< {tol:g}", "counterexample": {"layer": l, "relative_max_difference": err}})
    return judge_exact(checks, "central differences (step 1e-4) of the exact gradient of z^T R z in W_l, one input, "
                       "against J_l^T (R + R^T) J_l, float64", f"relative max difference < {tol:g}")


def homogeneity_measure(ctx, t: float = 10.0, layer: int = 1) -> dict:
    """Theorem 2's terms for one He fan-in MLP [64, 64, 128, 64, 10] and one input
    (batch size 1), as given, with W_layer scaled by t, and with x_0 scaled by t."""
    be = ctx.stream("defazio_bottou.homogeneity")
    spec = mlp_spec([64, 64, 128, 64, 10])
    Ws = draw_net(be, spec, "he_fan_in")
    x = be.normal((1, 64))
    R = be.normal((10, 10))
    cases = {"as drawn": (Ws, x), f"W_{layer} x {t:g}": ([*Ws[:layer], t * Ws[layer], *Ws[layer + 1:]], x),
             f"x_0 x {t:g}": (Ws, t * x)}
    out = {}
    for name, (W, xx) in cases.items():
        rec = scaling_vs_hessian(spec, W, xx, R)
        ex = float(np.mean(net_forward(spec, W, xx)["x"][layer] ** 2))
        n_l, n_out = spec[layer]["in"], spec[layer]["out"]
        ex_out = float(np.mean(net_forward(spec, W, xx)["y"][layer] ** 2))  # x_{l+1} = W_l x_l (Sec. 5.1)
        out[name] = {"actual": float(rec["blocks"][layer, layer]), "main": float(rec["theorem2"][layer]),
                     "printed": float(rec["order_term"][layer]), "corrected": n_l * ex**2 / n_out,
                     "n_l / n_{l+1}": n_l / n_out, "E[x_l^2]": ex, "E[x_{l+1}^2]": ex_out}
    return out


def _o_scale(v: dict, variant: str, degrees) -> float:
    """The O-term scale of one case: the measured ``variant``, or with ``degrees`` (a, b)
    n_l / n_{l+1} E[x_l^2]^a E[x_{l+1}^2]^b (printed (2, -1), corrected (2, 0))."""
    if degrees is None:
        return v[variant]
    a, b = degrees
    return v["n_l / n_{l+1}"] * v["E[x_l^2]"] ** a * v["E[x_{l+1}^2]"] ** b


@applies_only("variant", degrees=("corrected",))
def judge_homogeneity(meas, ctx, variant: str = "printed", tol: float = 1e-9, degrees=None):
    """Sec. 5.1, 'its precise value depends on properties of the remainder of the
    network above the current layer': (actual - main) / O-term must not change when
    only the layer's own weights W_l (or the input x_0) are rescaled, since the
    remainder above is unchanged (the net is positively homogeneous: actual and the
    main term are). ``variant`` "printed": O = n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2]);
    "corrected": O' = n_l E[x_l^2]^2 / n_{l+1}. ``degrees`` (a, b), with variant
    "corrected" only (its degrees are (2, 0); the printed O-term's are (2, -1)), replaces
    the O-term by n_l E[x_l^2]^a E[x_{l+1}^2]^b / n_{l+1} (for mutations: a + b is its
    degree in x_0 / 2, b its degree in W_l / 2)."""
    check_choice("variant", variant, ("printed", "corrected"))
    base = meas["as drawn"]
    ref = (base["actual"] - base["main"]) / _o_scale(base, variant, degrees)
    checks = []
    for name, v in meas.items():
        if name == "as drawn":
            continue
        val = (v["actual"] - v["main"]) / _o_scale(v, variant, degrees)
        rel = abs(val / ref - 1)
        checks.append({"label": f"{name}: (actual - main) / O unchanged", "ok": rel < tol, "measured": val,
                       "expected": ref, "counterexample": {"rescaling": name, "(actual - main)/O": val,
                                                           "as drawn": ref, "ratio": val / ref}})
    return judge_exact(checks, "one He fan-in MLP [64, 64, 128, 64, 10], one input, layer 1; exact Gauss-Newton block "
                       "(trace formula), float64", f"relative change < {tol:g}")
