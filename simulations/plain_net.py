"""Bias-free ReLU MLPs and residual networks built from positively homogeneous pieces
(ZeroInit/Fixup, Sec. 2; Defazio & Bottou, Sec. 3-6), batched over independent
networks, for numpy and CuPy.

An MLP with widths [n_0, ..., n_L] computes y_l = W_l x_l, x_{l+1} = ReLU(y_l) for
l < L - 1, and outputs z = y_{L-1}. A residual network computes
x_{l+1} = x_l + s * W_{l,2} ReLU(W_{l,1} x_l) (two-layer branches, scalar s).
Weights are (N, fan_out, fan_in); activations (N, batch, width).

>>> from simulations.core.backend import get_backend
>>> be = get_backend(seed=0)
>>> Ws = draw_mlp(be, [5, 7, 3], "he_fan_in", n_networks=2)
>>> import numpy as np
>>> x = be.normal((2, 4, 5))
>>> z = mlp_forward(Ws, x, np)["z"]
>>> bool(np.allclose(mlp_forward(Ws, 3.0 * x, np)["z"], 3.0 * z))  # positively homogeneous
True
"""
from __future__ import annotations

import numpy as np

from .core.backend import Backend
from .core.validation import check_choice, check_int, check_positive, check_widths

__all__ = ["WEIGHT_INITS", "weight_variance", "draw_mlp", "mlp_forward", "mlp_backward", "softmax_xent",
           "resnet_forward", "draw_resnet", "resnet_backward_input"]

WEIGHT_INITS = ("he_fan_in", "he_fan_out", "xavier", "geometric", "linear_fan_in")


def weight_variance(init: str, fan_in: int, fan_out: int, k: int = 1, c: float = 2.0) -> float:
    """E[W^2] of one layer: He fan-in 2/(n k^2), fan-out 2/(m k^2), Xavier
    2/((n+m)/2 k^2) (Defazio-Bottou Eq. 4-5), geometric c/(k sqrt(n m)) (Eq. 3),
    and linear fan-in 1/(n k^2) (no ReLU correction)."""
    check_choice("init", init, WEIGHT_INITS)
    n = check_int("fan_in", fan_in, low=1)
    m = check_int("fan_out", fan_out, low=1)
    k = check_int("k", k, low=1)
    c = check_positive("c", c)
    return {"he_fan_in": 2 / (n * k * k), "he_fan_out": 2 / (m * k * k), "xavier": 2 / ((n + m) / 2 * k * k),
            "geometric": c / (k * np.sqrt(n * m)), "linear_fan_in": 1 / (n * k * k)}[init]


def draw_mlp(be: Backend, widths, init: str, n_networks: int = 1) -> list:
    """Gaussian weights of an MLP with the given widths."""
    widths = check_widths("widths", widths)
    if len(widths) < 2:
        raise ValueError(f"widths must have at least 2 entries (input and output), got {widths}")
    n_networks = check_int("n_networks", n_networks, low=1)
    return [be.normal((n_networks, m, n)) * np.sqrt(weight_variance(init, n, m))
            for n, m in zip(widths[:-1], widths[1:])]


def mlp_forward(Ws, x, xp) -> dict:
    """Layer inputs x_l (l = 0..L-1), pre-activations y_l and the output z."""
    xs, ys = [x], []
    for i, W in enumerate(Ws):
        y = xs[-1] @ xp.swapaxes(W, -1, -2)
        ys.append(y)
        if i < len(Ws) - 1:
            xs.append(xp.maximum(y, 0))
    return {"x": xs, "y": ys, "z": ys[-1]}


def mlp_backward(Ws, fwd: dict, dz, xp) -> dict:
    """Gradients dy_l, dx_l (w.r.t. layer inputs) and per-sample weight gradients
    dW_l = dy_l x_l^T, given dz = dloss/dz of shape (N, batch, n_L)."""
    L = len(Ws)
    dys, dxs = [None] * L, [None] * L
    dy = dz
    for i in reversed(range(L)):
        dys[i] = dy
        dxs[i] = dy @ Ws[i]
        if i > 0:
            dy = dxs[i] * (fwd["y"][i - 1] > 0)
    return {"dy": dys, "dx": dxs}


def softmax_xent(z, labels, xp):
    """Cross-entropy l = logsumexp(z) - z_y, softmax p, entropy H(p) and dl/dz = p - y,
    for z (N, batch, c) and integer labels (batch,)."""
    zmax = z.max(axis=-1, keepdims=True)
    e = xp.exp(z - zmax)
    s = e.sum(axis=-1, keepdims=True)
    p = e / s
    lse = (zmax + xp.log(s))[..., 0]
    onehot = xp.eye(z.shape[-1], dtype=z.dtype)[labels]
    loss = lse - (z * onehot).sum(axis=-1)
    logp = z - lse[..., None]
    entropy = -(p * logp).sum(axis=-1)
    return loss, p, entropy, p - onehot


def draw_resnet(be: Backend, width: int, blocks: int, hidden: int, init1: str, init2: str, n_networks: int = 1):
    """Weights (W_1, W_2) of ``blocks`` two-layer residual branches."""
    width = check_int("width", width, low=1)
    blocks = check_int("blocks", blocks, low=1)
    hidden = check_int("hidden", hidden, low=1)
    return [(be.normal((n_networks, hidden, width)) * np.sqrt(weight_variance(init1, width, hidden)),
             be.normal((n_networks, width, hidden)) * np.sqrt(weight_variance(init2, hidden, width)))
            for _ in range(blocks)]


def resnet_forward(blocks, x, xp, scale: float = 1.0, renormalize: bool = False) -> dict:
    """x_{l+1} = x_l + scale * W2 ReLU(W1 x_l); log ||x_l||^2 per sample (N, batch,
    blocks+1), tracked in log space when ``renormalize`` (the map is p.h., so scaling
    x_l by a constant scales everything after it by the same constant)."""
    xs, pres = [x], []
    log_sq = [xp.log((x * x).sum(axis=-1))]
    for W1, W2 in blocks:
        pres.append(xs[-1] @ xp.swapaxes(W1, -1, -2))
        h = xp.maximum(pres[-1], 0)
        nxt = xs[-1] + scale * (h @ xp.swapaxes(W2, -1, -2))
        sq = (nxt * nxt).sum(axis=-1)
        if renormalize:
            log_sq.append(log_sq[-1] + xp.log(sq / (xs[-1] * xs[-1]).sum(axis=-1)))
            nxt = nxt / xp.sqrt(sq)[..., None]
        else:
            log_sq.append(xp.log(sq))
        xs.append(nxt)
    return {"x": xs, "pre": pres, "log_sq_norm": xp.stack(log_sq, axis=-1)}


def resnet_backward_input(blocks, fwd: dict, dout, xp, scale: float = 1.0) -> list:
    """dloss/dx_l for every block input, given dout = dloss/dx_B (forward without
    ``renormalize``, whose stored activations are rescaled)."""
    grads = [dout]
    g = dout
    for (W1, W2), pre in zip(reversed(blocks), reversed(fwd["pre"])):
        g_branch = ((g @ W2) * (pre > 0)) @ W1
        g = g + scale * g_branch
        grads.append(g)
    return grads[::-1]
