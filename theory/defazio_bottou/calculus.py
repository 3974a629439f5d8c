"""The second-moment calculus of Defazio & Bottou (scaling factors, geometric init),
in sympy, under the assumptions of their Sec. 3 (iid entries, gradients uncorrelated
with activations, symmetric zero-mean weights, zero biases).

A state is (n, rho, q, g): channels, spatial size, the forward second moment
q = E[x^2] and the backward one g = E[dx^2]. Operations:

- ``relu``: q/2 forward and g/2 backward (half of the symmetric entries are zeroed);
- ``scale(a)``: x -> a x multiplies q and g by a^2;
- ``conv(m, k, w2)``: k x k convolution (stride 1, same padding) to m channels with
  E[W^2] = w2: q' = n k^2 w2 q and, going back, g = m k^2 w2 g'.

Definitions: activation scaling varsigma = n rho^2 g q (Eq. 1); layer scaling
gamma = varsigma / (m n k^2 E[W^2]^2) (Eq. 2) and its extrinsic form
n k^2 rho^2 q^2 g' / q' (the un-numbered display after Eq. 2).

>>> n, m, k, q, g, rho = sp.symbols("n m k q g rho", positive=True)
>>> s = State(n, rho, q, g)
>>> sp.simplify(varsigma(after_relu(s)) - varsigma(s))  # Table 1: ReLU keeps varsigma
0
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

__all__ = ["State", "varsigma", "after_relu", "after_scale", "conv_forward_q", "gamma_intrinsic",
           "gamma_extrinsic", "geometric_w2", "kaiming_fan_in_w2", "kaiming_fan_out_w2", "xavier_w2", "INITS",
           "layer_gammas", "bottleneck_main_branch"]


@dataclass(frozen=True)
class State:
    """Channels n, spatial size rho, E[x^2] = q and E[dx^2] = g at one point of the net."""

    n: sp.Expr
    rho: sp.Expr
    q: sp.Expr
    g: sp.Expr


def varsigma(s: State) -> sp.Expr:
    """Eq. 1: varsigma = n rho^2 E[dx^2] E[x^2]."""
    return s.n * s.rho**2 * s.g * s.q


def after_relu(s: State) -> State:
    """State after a ReLU given the state before it: q_after = q/2 forward, and
    backward g_before = g_after / 2 (half the gradient entries are masked), so
    g_after = 2 g."""
    return State(s.n, s.rho, s.q / 2, 2 * s.g)


def after_scale(s: State, a) -> State:
    """State after x -> a x: q_after = a^2 q; backward g_before = a^2 g_after."""
    return State(s.n, s.rho, s.q * a**2, s.g / a**2)


def conv_forward_q(n, k, w2, q):
    """Forward second moment after a k x k conv with fan-in n and E[W^2] = w2."""
    return n * k**2 * w2 * q


def gamma_intrinsic(s: State, m, k, w2) -> sp.Expr:
    """Eq. 2: gamma = varsigma / (n_{l+1} n_l k^2 E[W^2]^2)."""
    return varsigma(s) / (m * s.n * k**2 * w2**2)


def gamma_extrinsic(s: State, m, k, w2) -> sp.Expr:
    """The extrinsic form: n k^2 rho^2 E[x^2]^2 E[dx_{l+1}^2] / E[x_{l+1}^2], with
    the output moments given by the conv rule (g_out from g = m k^2 w2 g_out)."""
    q_out = conv_forward_q(s.n, k, w2, s.q)
    g_out = s.g / (m * k**2 * w2)
    return s.n * k**2 * s.rho**2 * s.q**2 * g_out / q_out


def geometric_w2(n, m, k, c=2):
    """Eq. 3: E[W^2] = c / (k sqrt(n m))."""
    return c / (k * sp.sqrt(n * m))


def kaiming_fan_in_w2(n, m, k, c=2):
    """Eq. 4 (fan-in): 2 / (n k^2)."""
    return sp.Integer(c) / (n * k**2)


def kaiming_fan_out_w2(n, m, k, c=2):
    """Eq. 4 (fan-out): 2 / (m k^2)."""
    return sp.Integer(c) / (m * k**2)


def xavier_w2(n, m, k, c=2):
    """Eq. 5: 2 / ((n + m)/2 k^2)."""
    return sp.Integer(c) / (sp.Rational(1, 2) * (n + m) * k**2)


INITS = {"geometric": geometric_w2, "kaiming_fan_in": kaiming_fan_in_w2, "kaiming_fan_out": kaiming_fan_out_w2,
         "xavier": xavier_w2}


def layer_gammas(widths, init, k=1, c=None, rho=1, q0=1, g_last=1):
    """gamma_l of every conv/linear layer of the ReLU net x -> C_L(relu(...C_0(x))),
    with the given channel widths [n_0, ..., n_L], propagating q forward and g backward
    by the rules above (exact rationals / surds). ``init``: a key of INITS, or a function
    (n, m, k[, c]) -> E[W^2] of the same form. ``k``: one kernel size for every layer,
    or one per layer [k_0, ..., k_{L-1}] (Eq. 2 and 3 take each layer's own k_l).

    >>> layer_gammas([3, 6, 16], "geometric", k=[5, 1])  # Sec. 6: varsigma / c^2 in every layer, any k_l
    [10*sqrt(3), 10*sqrt(3)]
    """
    w2_fn = INITS[init] if isinstance(init, str) else init
    L = len(widths) - 1
    ks = [k] * L if isinstance(k, (int, sp.Integer)) else list(k)
    if len(ks) != L:
        raise ValueError(f"k must be one kernel size or one per layer ({L}), got {k!r}")
    w2 = [w2_fn(sp.Integer(widths[i]), sp.Integer(widths[i + 1]), sp.Integer(ks[i]),
                *(() if c is None else (c,))) for i in range(L)]
    q = [sp.Integer(q0)]
    for i in range(L):  # layer i: conv on x_i, then ReLU (none after the last layer)
        out = conv_forward_q(widths[i], ks[i], w2[i], q[-1])
        q.append(out / 2 if i < L - 1 else out)
    g = [None] * (L + 1)
    g[L] = sp.Integer(g_last)
    for i in reversed(range(L)):
        g_conv_out = g[i + 1] / 2 if i < L - 1 else g[i + 1]  # back through the ReLU: halved
        g[i] = widths[i + 1] * ks[i]**2 * w2[i] * g_conv_out
    return [sp.nsimplify(sp.simplify(gamma_intrinsic(State(widths[i], rho, q[i], g[i]), widths[i + 1], ks[i], w2[i])))
            for i in range(L)]


def bottleneck_main_branch(n, m, w, beta, q, final_scalar_sq=None, conv_c=None, three=3):
    """Sec. 11.1 main branch as printed (x_0 .. x_8), then our reading of "the final
    sequence mirrors the initial operation with a downscaling convolution": ReLU,
    sqrt(2/beta) x, + b, 1x1 conv to m with c = beta; then the fixed scalar
    sqrt(m/(beta n)) of x_9 (or ``final_scalar_sq`` for its square). ``conv_c`` (the
    convolutions' numerator, printed beta) and ``three`` (the 3 of sqrt(2/(3 beta)))
    stand in for printed constants. Returns the forward second moments of every step."""
    cv = beta if conv_c is None else conv_c
    out = {"x": q}
    out["x0"] = beta * q                                # sqrt(beta) x
    out["x2"] = 2 / beta * out["x0"] / 2                 # ReLU then sqrt(2/beta)
    out["x4"] = conv_forward_q(n, 1, geometric_w2(n, w, 1, cv), out["x2"])   # 1x1 to w, c = beta
    out["x6"] = 2 / (three * beta) * out["x4"] / 2       # ReLU then sqrt(2/(3 beta))
    out["x8"] = conv_forward_q(w, 3, geometric_w2(w, w, 3, cv), out["x6"])   # 3x3 to w, c = beta
    out["mirror"] = conv_forward_q(w, 1, geometric_w2(w, m, 1, cv), 2 / beta * out["x8"] / 2)
    s2 = m / (beta * n) if final_scalar_sq is None else final_scalar_sq
    out["x9"] = s2 * out["mirror"]                      # printed: sqrt(m/(beta n)) x
    return {k_: sp.simplify(v) for k_, v in out.items()}
