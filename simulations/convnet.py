"""Bias-free sequential ReLU networks of convolutional and dense layers (one network
per call, a batch of inputs), for numpy and CuPy: Defazio & Bottou's strided LeNet
(Sec. 5.1, Figures 1-2) and plain MLPs in the same code path.

A spec is a tuple of layers, each a dict ``{"kind": "conv", "in": C, "out": O, "k": k,
"stride": s, "pad": p}`` or ``{"kind": "fc", "in": n, "out": m}``; a ReLU follows every
layer but the last, and the activation is flattened before the first dense layer.
Layer l has input x_l and pre-activation output y_l (the paper's x_{l+1} = W_l x_l).

The backward pass accepts probe axes: dz of shape (B, K..., c) returns dy_l of shape
(B, K..., out_l), so K = c unit probes give every sample's output Jacobian at once.

>>> from simulations.core.backend import get_backend
>>> be = get_backend(seed=0)
>>> spec = lenet_spec()
>>> [layer["kind"] for layer in spec], spec[2]["in"]
(['conv', 'conv', 'fc', 'fc', 'fc'], 400)
>>> Ws = draw_net(be, spec, "geometric")
>>> net_forward(spec, Ws, be.normal((2, 3, 32, 32)))["z"].shape
(2, 10)
"""
from __future__ import annotations

import numpy as np

from .core.backend import Backend
from .conv import conv2d, conv2d_backward_input, conv_output_size
from .plain_net import weight_variance
from .core.validation import check_int, check_positive, check_widths

__all__ = ["lenet_spec", "mlp_spec", "draw_net", "net_forward", "net_backward", "param_count", "layer_geometry"]


def lenet_spec(channels: int = 3, size: int = 32, classes: int = 10, widths=(6, 16, 120, 84)) -> tuple:
    """The strided LeNet: LeNet-5 with each 2x2 max-pool folded into a stride-2 5x5
    convolution (Defazio & Bottou, Sec. 5.1: 'strided rather than max-pooled'), no
    padding: 32 -> 14 -> 5 spatially, so the dense part is 400-120-84-10 as in LeNet-5."""
    channels = check_int("channels", channels, low=1)
    classes = check_int("classes", classes, low=1)
    c1, c2, f1, f2 = check_widths("widths", widths)
    s1 = conv_output_size(size, 5, 2, 0)
    s2 = conv_output_size(s1, 5, 2, 0)
    return ({"kind": "conv", "in": channels, "out": c1, "k": 5, "stride": 2, "pad": 0, "size": size},
            {"kind": "conv", "in": c1, "out": c2, "k": 5, "stride": 2, "pad": 0, "size": s1},
            {"kind": "fc", "in": c2 * s2 * s2, "out": f1}, {"kind": "fc", "in": f1, "out": f2},
            {"kind": "fc", "in": f2, "out": classes})


def mlp_spec(widths) -> tuple:
    """Dense ReLU layers with the given widths [n_0, ..., n_L]."""
    widths = check_widths("widths", widths)
    if len(widths) < 2:
        raise ValueError(f"widths must have at least 2 entries (input and output), got {widths}")
    return tuple({"kind": "fc", "in": n, "out": m} for n, m in zip(widths[:-1], widths[1:]))


def layer_geometry(layer: dict) -> dict:
    """Fan-in channels n_l, kernel k_l, input spatial size rho_l and output size."""
    if layer["kind"] == "fc":
        return {"n": layer["in"], "k": 1, "rho_in": 1, "rho_out": 1}
    rho = layer["size"]
    return {"n": layer["in"], "k": layer["k"], "rho_in": rho,
            "rho_out": conv_output_size(rho, layer["k"], layer["stride"], layer["pad"])}


def param_count(layer: dict) -> int:
    """Number of weights of a layer (biases are omitted, as in the paper's Figure 2)."""
    k = layer.get("k", 1) if layer["kind"] == "conv" else 1
    return layer["out"] * layer["in"] * k * k


def draw_net(be: Backend, spec, init: str, c: float = 2.0) -> list:
    """Gaussian weights with E[W^2] from :func:`simulations.plain_net.weight_variance`
    (fan-in n_l and fan-out n_{l+1} in channels, kernel k_l)."""
    c = check_positive("c", c)
    out = []
    for layer in spec:
        k = layer.get("k", 1) if layer["kind"] == "conv" else 1
        shape = (layer["out"], layer["in"], k, k) if layer["kind"] == "conv" else (layer["out"], layer["in"])
        out.append(be.normal(shape) * np.sqrt(weight_variance(init, layer["in"], layer["out"], k=k, c=c)))
    return out


def net_forward(spec, Ws, x, xp=np) -> dict:
    """Layer inputs x_l, pre-activations y_l and the output z = y_{L-1}."""
    xs, ys = [], []
    h = x
    for i, (layer, W) in enumerate(zip(spec, Ws)):
        if layer["kind"] == "fc":
            h = h.reshape(h.shape[0], -1)
            if h.shape[1] != layer["in"]:
                raise ValueError(f"layer {i} expects {layer['in']} inputs, got {h.shape[1]}")
            xs.append(h)
            y = h @ W.T
        else:
            xs.append(h)
            y = conv2d(h, W, layer["stride"], layer["pad"], xp)
        ys.append(y)
        if i < len(spec) - 1:
            h = xp.maximum(y, 0)
    return {"x": xs, "y": ys, "z": ys[-1]}


def net_backward(spec, Ws, fwd: dict, dz, xp=np, input_grad: bool = True) -> dict:
    """dy_l = dL/dy_l and dx_l = dL/dx_l, given dz of shape (B, K..., c) (K... probe
    axes, possibly none). ``input_grad=False`` skips dx_0 (dx[0] is None)."""
    extra = dz.ndim - 2
    L = len(spec)
    dys, dxs = [None] * L, [None] * L
    dy = dz
    for i in reversed(range(L)):
        layer, W = spec[i], Ws[i]
        dys[i] = dy
        if i == 0 and not input_grad:
            break
        if layer["kind"] == "fc":
            dx = dy @ W
        else:
            hw = fwd["x"][i].shape[-2:]
            dx = conv2d_backward_input(dy, W, hw, layer["stride"], layer["pad"], xp)
        dxs[i] = dx
        if i > 0:
            y_prev = fwd["y"][i - 1]
            mask = (y_prev > 0).reshape(y_prev.shape[:1] + (1,) * extra + y_prev.shape[1:])
            dy = dx.reshape(dx.shape[:1 + extra] + y_prev.shape[1:]) * mask
    return {"dy": dys, "dx": dxs}
