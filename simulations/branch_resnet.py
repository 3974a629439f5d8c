"""Bias-free ReLU residual networks with m-layer branches for the ZeroInit design
principles (ZeroInit/Fixup submission, Sec. 3) and the 1/2-scaling recurrence of its
related work: forward, hand-written backward to every weight, and plain SGD steps,
batched over independent networks, for numpy and CuPy.

Block l maps x -> s_out * (x + F_l(x)) with F_l(x) = W_{l,m} ReLU(... ReLU(W_{l,1} x))
(a ReLU after every branch layer but the last). ``s_out`` is 1 for ordinary residual
blocks, 1/2 for the printed related-work recurrence x_l = (x_{l-1} + F(x_{l-1}))/2 and
1/sqrt(2) for the recurrence its unrolling implies. Weights are (N, width, width).

ZeroInit (Sec. 3, steps 1-2): the last layer of every branch is 0 and the other m - 1
are He-initialized and scaled by L^(-1/(2m-2)), L the number of blocks.

>>> from simulations.core.backend import get_backend
>>> import numpy as np
>>> be = get_backend(seed=0)
>>> net = draw_branch_resnet(be, width=4, blocks=8, m=2, scheme="zeroinit", n_networks=1)
>>> x = be.normal((1, 3, 4))
>>> bool(np.allclose(branch_forward(net, x, np)["x"][-1], x))  # ZeroInit: the identity map
True
>>> round(zeroinit_branch_scale(blocks=16, m=3), 6)  # 16^(-1/4)
0.5
"""
from __future__ import annotations

import numpy as np

from .core.backend import Backend
from .plain_net import weight_variance
from .core.validation import check_choice, check_int, check_positive

__all__ = ["SCHEMES", "zeroinit_branch_scale", "draw_branch_resnet", "branch_forward", "branch_backward", "sgd_step"]

#: he: every branch layer He fan-in; zero_last: last layer 0, others He (no depth scaling);
#: zeroinit: last layer 0, others He times L^(-1/(2m-2)); he_linear_last: He then variance 1/n
#: on the last layer (branch gain kappa = 1, used by the 1/2-scaling checks).
SCHEMES = ("he", "zero_last", "zeroinit", "he_linear_last")


def zeroinit_branch_scale(blocks: int, m: int, power: float = 1.0) -> float:
    """L^(-power/(2m-2)); power 1 is ZeroInit's choice (Sec. 3)."""
    blocks = check_int("blocks", blocks, low=1)
    m = check_int("m", m, low=2, why="a branch with one layer has no layer to scale")
    return float(blocks) ** (-power / (2 * m - 2))


def draw_branch_resnet(be: Backend, width: int, blocks: int, m: int, scheme: str, n_networks: int = 1,
                       power: float = 1.0) -> list:
    """Weights [[W_{l,1}, ..., W_{l,m}] for l < blocks] under ``scheme``."""
    width = check_int("width", width, low=1)
    blocks = check_int("blocks", blocks, low=1)
    m = check_int("m", m, low=2, why="a branch with one layer has no layer to scale")
    check_choice("scheme", scheme, SCHEMES)
    n_networks = check_int("n_networks", n_networks, low=1)
    he = np.sqrt(weight_variance("he_fan_in", width, width))
    lam = zeroinit_branch_scale(blocks, m, power) if scheme == "zeroinit" else 1.0
    net = []
    for _ in range(blocks):
        layers = [be.normal((n_networks, width, width)) * (he * lam) for _ in range(m - 1)]
        if scheme in ("zero_last", "zeroinit"):
            last = be.xp.zeros((n_networks, width, width), dtype=be.dtype)
        elif scheme == "he_linear_last":
            last = be.normal((n_networks, width, width)) * np.sqrt(1.0 / width)
        else:
            last = be.normal((n_networks, width, width)) * he
        net.append(layers + [last])
    return net


def branch_forward(net, x, xp, s_out: float = 1.0) -> dict:
    """Block inputs x_l (l = 0..L), branch outputs F_l(x_l) and every branch layer's
    input and pre-activation (for the backward pass)."""
    s_out = check_positive("s_out", s_out)
    xs, Fs, cache = [x], [], []
    for layers in net:
        h, inputs, pres = xs[-1], [], []
        for j, W in enumerate(layers):
            inputs.append(h)
            pre = h @ xp.swapaxes(W, -1, -2)
            pres.append(pre)
            h = xp.maximum(pre, 0) if j < len(layers) - 1 else pre
        Fs.append(h)
        cache.append((inputs, pres))
        xs.append(s_out * (xs[-1] + h))
    return {"x": xs, "F": Fs, "cache": cache, "s_out": s_out}


def branch_backward(net, fwd: dict, dout, xp) -> dict:
    """Gradients of a loss with dloss/dx_L = ``dout`` (N, batch, width): dW (summed over
    the batch, (N, width, width) each) and dloss/dx_l for every block input."""
    s = fwd["s_out"]
    g = dout
    dWs = [None] * len(net)
    dxs = [None] * (len(net) + 1)
    dxs[-1] = g
    for l in reversed(range(len(net))):
        inputs, pres = fwd["cache"][l]
        g_block = s * g  # d/d(x_l + F_l)
        d = g_block
        grads = [None] * len(net[l])
        for j in reversed(range(len(net[l]))):
            if j < len(net[l]) - 1:
                d = d * (pres[j] > 0)
            grads[j] = xp.swapaxes(d, -1, -2) @ inputs[j]
            d = d @ net[l][j]
        dWs[l] = grads
        g = g_block + d
        dxs[l] = g
    return {"dW": dWs, "dx": dxs}


def sgd_step(net, grads, lr: float) -> list:
    """W <- W - lr dW for every weight (a new list; the input is not modified)."""
    lr = check_positive("lr", lr)
    return [[W - lr * dW for W, dW in zip(layers, g)] for layers, g in zip(net, grads)]
