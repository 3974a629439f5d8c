"""Bias-free ReLU residual networks with m-layer branches, batched over independent
networks, for numpy and CuPy: forward (norms in log space), hand-written backward to
every weight and the input, and plain SGD steps. The one residual net of the
ZeroInit/Fixup checks (Eq. 2's variance growth, the design principles of Sec. 3, the
related work's 1/2-scaling recurrence) and of the tests of Defazio & Bottou's nets.

Block l maps x -> s_out * (x + scale_l * F_l(x)) with F_l(x) = W_{l,m} ReLU(... ReLU(W_{l,1} x))
(a ReLU after every branch layer but the last, and none after the sum: the blocks are
pre-activation-free identity-plus-branch maps, so the network's output x_L is the last
block's sum, not rectified). ``s_out`` is 1 for ordinary residual blocks, 1/2 for the
printed related-work recurrence x_l = (x_{l-1} + F(x_{l-1}))/2 and 1/sqrt(2) for the
recurrence its unrolling implies; ``scale`` multiplies the branches: one number for
every block, or one per block (:func:`block_scales`: per-block scales eta_l, as in
residual nets whose l-th branch is scaled by eta_l). Weights are (N, fan_out, fan_in):
the first branch layer maps the width to the hidden width, the last maps it back.

ZeroInit (Sec. 3, steps 1-2): the last layer of every branch is 0 and the other m - 1
are He-initialized and scaled by L^(-1/(2m-2)), L the number of blocks.

>>> from simulations.core import get_backend
>>> import numpy as np
>>> be = get_backend(seed=0)
>>> net = draw_branch_resnet(be, width=4, blocks=8, m=2, scheme="zeroinit", n_networks=1)
>>> x = be.normal((1, 3, 4))
>>> bool(np.allclose(resnet_forward(net, x)["x"][-1], x))  # ZeroInit: the identity map
True
>>> round(zeroinit_branch_scale(blocks=16, m=3), 6)  # 16^(-1/4)
0.5
>>> he = draw_branch_resnet(be, width=4, blocks=3, m=2, scheme="he", n_networks=1)
>>> a = resnet_forward(he, x, scale=[0.5, 0.0, 0.0])["x"]  # only the first branch acts
>>> bool(np.allclose(a[3], a[1])), bool(np.allclose(a[1], resnet_forward(he[:1], x, scale=0.5)["x"][1]))
(True, True)
"""
from __future__ import annotations

import math
import numbers

from ..core.backend import Backend, to_host
from ..core.namespace import array_namespace, safe_log
from ..core.validation import check_choice, check_finite, check_int, check_positive, entry_point
from .sequential import WEIGHT_INITS, mlp_backward, mlp_forward, weight_variance

__all__ = ["BRANCH_SCHEMES", "zeroinit_branch_scale", "branch_inits", "draw_resnet", "draw_branch_resnet",
           "block_scales", "resnet_forward", "resnet_backward", "sgd_step"]

#: he: every branch layer He fan-in; zero_last: last layer 0, others He (no depth scaling);
#: zeroinit: last layer 0, others He times L^(-1/(2m-2)); he_linear_last: He then variance 1/n
#: on the last layer (branch gain kappa = 1, used by the 1/2-scaling checks).
BRANCH_SCHEMES = ("he", "zero_last", "zeroinit", "he_linear_last")


def zeroinit_branch_scale(blocks: int, m: int, power: float = 1.0) -> float:
    """L^(-power/(2m-2)); power 1 is ZeroInit's choice (Sec. 3)."""
    blocks = check_int("blocks", blocks, low=1)
    m = check_int("m", m, low=2, why="a branch with one layer has no layer to scale")
    return float(blocks) ** (-power / (2 * m - 2))


def branch_inits(scheme: str, m: int) -> tuple:
    """The per-layer inits of an m-layer branch under ``scheme`` ("zero": a zero matrix)."""
    check_choice("scheme", scheme, BRANCH_SCHEMES)
    last = {"he": "he_fan_in", "zero_last": "zero", "zeroinit": "zero", "he_linear_last": "linear_fan_in"}[scheme]
    return ("he_fan_in",) * (m - 1) + (last,)


def draw_resnet(be: Backend, width: int, blocks: int, inits=("he_fan_in", "he_fan_in"), hidden: int | None = None,
                n_networks: int = 1, gain: float = 1.0) -> list:
    """Weights [[W_{l,1}, ..., W_{l,m}] for l < blocks], m = len(inits): layer j is Gaussian
    with E[W^2] = gain^2 weight_variance(inits[j], fan_in, fan_out), or 0 for "zero";
    the branch's inner widths are ``hidden`` (default: ``width``)."""
    width = check_int("width", width, low=1)
    blocks = check_int("blocks", blocks, low=1)
    hidden = width if hidden is None else check_int("hidden", hidden, low=1)
    n_networks = check_int("n_networks", n_networks, low=1)
    if isinstance(inits, str) or not len(inits):
        raise ValueError(f"inits must be a non-empty sequence of names from {WEIGHT_INITS + ('zero',)}, got {inits!r}")
    for j, init in enumerate(inits):
        check_choice(f"inits[{j}]", init, WEIGHT_INITS + ("zero",))
    m = len(inits)
    dims = [width] + [hidden] * (m - 1) + [width]
    net = []
    for _ in range(blocks):
        layers = []
        for init, fan_in, fan_out in zip(inits, dims[:-1], dims[1:]):
            shape = (n_networks, fan_out, fan_in)
            if init == "zero":
                layers.append(be.xp.zeros(shape, dtype=be.dtype))
            else:
                layers.append(be.normal(shape) * (math.sqrt(weight_variance(init, fan_in, fan_out)) * gain))
        net.append(layers)
    return net


def draw_branch_resnet(be: Backend, width: int, blocks: int, m: int, scheme: str, n_networks: int = 1,
                       power: float = 1.0) -> list:
    """Square m-layer branches under ``scheme`` (BRANCH_SCHEMES): :func:`draw_resnet` with
    :func:`branch_inits` and ZeroInit's L^(-power/(2m-2)) on the non-zero layers."""
    m = check_int("m", m, low=2, why="a branch with one layer has no layer to scale")
    inits = branch_inits(scheme, m)
    blocks = check_int("blocks", blocks, low=1)
    gain = zeroinit_branch_scale(blocks, m, power) if scheme == "zeroinit" else 1.0
    return draw_resnet(be, width, blocks, inits, n_networks=n_networks, gain=gain)


def block_scales(scale, blocks: int) -> tuple:
    """The branch scale of each of ``blocks`` blocks: ``scale`` is one finite number for
    every block, or a sequence of ``blocks`` finite numbers (a list, a tuple, or a 1-D
    numpy or CuPy array, read from its own namespace), one per block. Python floats.

    >>> block_scales(0.5, 3), block_scales([1, 0.5, 0.25], 3)
    ((0.5, 0.5, 0.5), (1.0, 0.5, 0.25))
    >>> block_scales([1.0, 2.0], 3)
    Traceback (most recent call last):
    ...
    ValueError: scale must be a finite number or a sequence of 3 finite numbers (one per block), got [1.0, 2.0]
    """
    blocks = check_int("blocks", blocks, low=0)
    bad = ValueError(f"scale must be a finite number or a sequence of {blocks} finite numbers (one per block), "
                     f"got {' '.join(repr(scale).split())[:200]}")
    if isinstance(scale, numbers.Real) and not isinstance(scale, bool):
        values = (float(scale),) * blocks
    elif isinstance(scale, (str, bytes)) or not hasattr(scale, "__len__") or isinstance(scale, bool):
        raise bad
    else:
        if hasattr(scale, "ndim") and scale.ndim != 1:
            raise bad
        host = to_host(scale) if hasattr(scale, "ndim") else scale
        if len(host) != blocks:
            raise bad
        try:
            values = tuple(float(v) for v in host)
        except (TypeError, ValueError):
            raise bad from None
        if any(isinstance(v, bool) for v in host):
            raise bad
    if not all(math.isfinite(v) for v in values):
        raise bad
    return values


@entry_point
def resnet_forward(net, x, xp=None, scale=1.0, s_out: float = 1.0, renormalize: bool = False) -> dict:
    """Block inputs x_l (l = 0..L), branch outputs F_l(x_l), every branch's forward pass
    (:func:`simulations.relu_nets.mlp_forward`: its layers' inputs and pre-activations,
    for the backward pass) and log ||x_l||^2 per sample (N, batch, L + 1).

    x_{l+1} = s_out (x_l + scale_l F_l(x_l)): each branch ends in its last linear layer
    (no ReLU), and no ReLU follows the sum, so the output x_L is not rectified.
    ``scale`` is one branch scale for every block or one per block (:func:`block_scales`);
    the returned ``scale`` is the tuple of per-block scales.

    With ``renormalize`` every x_l is stored at unit norm and the log-norm accumulated in
    log space (the map is positively homogeneous: scaling x_l scales everything after it
    by the same factor), so thousands of blocks neither overflow nor underflow."""
    s_out = check_positive("s_out", s_out)
    scales = block_scales(scale, len(net))
    xp = xp or array_namespace(x)
    check_finite("x", x)
    xs, Fs, cache = [x], [], []
    log_sq = [safe_log((x * x).sum(axis=-1), xp)]
    for layers, c in zip(net, scales):
        branch = mlp_forward(layers, xs[-1], xp)
        h = branch["z"]
        Fs.append(h)
        cache.append(branch)
        nxt = xs[-1] + (h if c == 1 else c * h)
        if s_out != 1:
            nxt = s_out * nxt
        sq = (nxt * nxt).sum(axis=-1)
        if renormalize:
            log_sq.append(log_sq[-1] + safe_log(sq / (xs[-1] * xs[-1]).sum(axis=-1), xp))
            nxt = nxt / xp.sqrt(sq)[..., None]
        else:
            log_sq.append(safe_log(sq, xp))
        xs.append(nxt)
    return {"x": xs, "F": Fs, "cache": cache, "log_sq_norm": xp.stack(log_sq, axis=-1), "s_out": s_out,
            "scale": scales, "renormalized": renormalize}


@entry_point
def resnet_backward(net, fwd: dict, dout, xp=None, weights: bool = True) -> dict:
    """Gradients of a loss with dloss/dx_L = ``dout`` (N, batch, width): dloss/dx_l for
    every block input and, when ``weights``, dW (summed over the batch, shaped like
    the weights; else None). Needs a forward pass without ``renormalize``."""
    if fwd["renormalized"]:
        raise ValueError("resnet_backward needs a forward pass with renormalize=False (its activations are rescaled)")
    xp = xp or array_namespace(dout)
    check_finite("dout", dout)
    s, scales = fwd["s_out"], block_scales(fwd["scale"], len(net))
    g = dout
    dWs = [None] * len(net)
    dxs = [None] * (len(net) + 1)
    dxs[-1] = g
    for l in reversed(range(len(net))):
        c = scales[l]
        g_block = g if s == 1 else s * g  # d/d(x_l + scale_l F_l)
        branch = mlp_backward(net[l], fwd["cache"][l], g_block, xp)
        if weights:
            dWs[l] = [xp.swapaxes(dy, -1, -2) @ x for dy, x in zip(branch["dy"], fwd["cache"][l]["x"])]
            dWs[l] = dWs[l] if c == 1 else [c * dW for dW in dWs[l]]
        d = branch["dx"][0]
        g = g_block + (d if c == 1 else c * d)
        dxs[l] = g
    return {"dW": dWs if weights else None, "dx": dxs}


def sgd_step(net, grads, lr: float) -> list:
    """W <- W - lr dW for every weight (a new list; the input is not modified)."""
    lr = check_positive("lr", lr)
    check_finite("grads", grads)
    return [[W - lr * dW for W, dW in zip(layers, g)] for layers, g in zip(net, grads)]
