"""Bias-free sequential ReLU networks of dense and convolutional layers, for numpy and
CuPy: the plain MLPs of the ZeroInit/Fixup checks (Sec. 2) and of Defazio & Bottou
(Sec. 3-6), and Defazio & Bottou's strided LeNet (Sec. 5.1, Figures 1-2), through one
forward and one backward pass.

A spec is a tuple of layers, each a dict ``{"kind": "fc", "in": n, "out": m}`` or
``{"kind": "conv", "in": C, "out": O, "k": k, "stride": s, "pad": p, "size": rho}``;
a ReLU follows every layer but the last, and a convolution's output is flattened
before a dense layer. Layer l has input x_l and pre-activation output y_l (y_l = W_l x_l,
x_{l+1} = ReLU(y_l); the paper's x_{l+1} = W_l x_l), and the output is z = y_{L-1}.

Activations carry any leading axes: ``(N, batch, n)`` with weights ``(N, out, in)`` is
an ensemble of N networks in one batched matmul per layer; ``(B, n)`` or
``(B, C, H, W)`` with unbatched weights is one network. The backward pass accepts probe
axes after the leading ones: dz of shape (B, K..., c) returns dy_l of shape
(B, K..., out_l), so K = c unit probes give every sample's output Jacobian at once.

>>> from simulations.core import get_backend
>>> import numpy as np
>>> be = get_backend(seed=0)
>>> Ws = draw_mlp(be, [5, 7, 3], "he_fan_in", n_networks=2)
>>> x = be.normal((2, 4, 5))
>>> z = mlp_forward(Ws, x)["z"]
>>> bool(np.allclose(mlp_forward(Ws, 3.0 * x)["z"], 3.0 * z))  # positively homogeneous
True
>>> spec = lenet_spec()
>>> [layer["kind"] for layer in spec], spec[2]["in"]
(['conv', 'conv', 'fc', 'fc', 'fc'], 400)
>>> net_forward(spec, draw_net(be, spec, "geometric"), be.normal((2, 3, 32, 32)))["z"].shape
(2, 10)
"""
from __future__ import annotations

import math

from ..core.backend import Backend
from ..core.namespace import array_namespace
from ..core.validation import (
    check_choice,
    check_finite,
    check_int,
    check_labels,
    check_positive,
    check_widths,
    entry_point,
)
from .conv import conv2d, conv2d_backward_input, conv_output_size

__all__ = ["WEIGHT_INITS", "weight_variance", "lenet_spec", "mlp_spec", "layer_geometry", "param_count", "draw_net",
           "draw_mlp", "net_forward", "net_backward", "layer_input_grad", "mlp_forward", "mlp_backward",
           "softmax_xent"]

WEIGHT_INITS = ("he_fan_in", "he_fan_out", "xavier", "geometric", "linear_fan_in")


def weight_variance(init: str, fan_in: int, fan_out: int, k: int = 1, c: float = 2.0) -> float:
    """E[W^2] of one layer: He fan-in 2/(n k^2), fan-out 2/(m k^2), Xavier
    2/((n+m)/2 k^2) (Defazio-Bottou Eq. 4-5), geometric c/(k sqrt(n m)) (Eq. 3),
    and linear fan-in 1/(n k^2) (no ReLU correction). A Python float, so that scaling a
    float32 draw by its square root keeps float32."""
    check_choice("init", init, WEIGHT_INITS)
    n = check_int("fan_in", fan_in, low=1)
    m = check_int("fan_out", fan_out, low=1)
    k = check_int("k", k, low=1)
    c = check_positive("c", c)
    return {"he_fan_in": 2 / (n * k * k), "he_fan_out": 2 / (m * k * k), "xavier": 2 / ((n + m) / 2 * k * k),
            "geometric": c / (k * math.sqrt(n * m)), "linear_fan_in": 1 / (n * k * k)}[init]


def lenet_spec(channels: int = 3, size: int = 32, classes: int = 10, widths=(6, 16, 120, 84)) -> tuple:
    """The strided LeNet: LeNet-5 with each 2x2 max-pool folded into a stride-2 5x5
    convolution (Defazio & Bottou, Sec. 5.1: 'strided rather than max-pooled'), no
    padding: 32 -> 14 -> 5 spatially, so the dense part is 400-120-84-10 as in LeNet-5."""
    channels = check_int("channels", channels, low=1)
    size = check_int("size", size, low=13, why="two stride-2 5x5 convolutions without padding need it")
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


def _dense_spec(Ws) -> tuple:
    """The spec of dense weights (..., out, in)."""
    return tuple({"kind": "fc", "in": int(W.shape[-1]), "out": int(W.shape[-2])} for W in Ws)


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


def draw_net(be: Backend, spec, init: str, c: float = 2.0, n_networks: int | None = None) -> list:
    """Gaussian weights with E[W^2] from :func:`weight_variance` (fan-in n_l and fan-out
    n_{l+1} in channels, kernel k_l); with ``n_networks`` every weight gets a leading
    network axis (dense layers only: an ensemble in one batched matmul)."""
    c = check_positive("c", c)
    lead = () if n_networks is None else (check_int("n_networks", n_networks, low=1),)
    out = []
    for layer in spec:
        k = layer.get("k", 1) if layer["kind"] == "conv" else 1
        shape = (layer["out"], layer["in"], k, k) if layer["kind"] == "conv" else (layer["out"], layer["in"])
        out.append(be.normal(lead + shape) * math.sqrt(weight_variance(init, layer["in"], layer["out"], k=k, c=c)))
    return out


def draw_mlp(be: Backend, widths, init: str, n_networks: int = 1) -> list:
    """Gaussian weights (N, out, in) of ``n_networks`` MLPs with the given widths."""
    return draw_net(be, mlp_spec(widths), init, n_networks=check_int("n_networks", n_networks, low=1))


def _features(layer: dict) -> int:
    """Number of trailing feature axes of a layer's output: (O, H, W) or (m,)."""
    return 3 if layer["kind"] == "conv" else 1


def _check_weights(spec, Ws) -> None:
    if len(Ws) != len(spec):
        raise ValueError(f"Ws must hold one weight per layer of the spec ({len(spec)}), got {len(Ws)}")
    check_finite("Ws", list(Ws))


@entry_point
def net_forward(spec, Ws, x, xp=None) -> dict:
    """Layer inputs x_l, pre-activations y_l and the output z = y_{L-1}: a ReLU follows
    every layer but the last, so z is the last layer's pre-activation (logits; no ReLU,
    no softmax). ``x`` and the weights ``Ws`` must be finite (a ValueError names them
    otherwise)."""
    xp = xp or array_namespace(x, Ws)
    _check_weights(spec, Ws)
    if spec and spec[0]["kind"] == "fc" and x.shape[-1] != spec[0]["in"]:
        raise ValueError(f"x must have {spec[0]['in']} features in its last axis (layer 0's fan-in), "
                         f"got shape {tuple(x.shape)}")
    check_finite("x", x)
    xs, ys = [], []
    h = x
    for i, (layer, W) in enumerate(zip(spec, Ws)):
        if layer["kind"] == "fc":
            if i and spec[i - 1]["kind"] == "conv":
                h = h.reshape(h.shape[:-3] + (-1,))
            if h.shape[-1] != layer["in"]:
                raise ValueError(f"layer {i} expects {layer['in']} inputs, got {h.shape[-1]}")
            xs.append(h)
            y = h @ xp.swapaxes(W, -1, -2)
        else:
            xs.append(h)
            y = conv2d(h, W, layer["stride"], layer["pad"], xp)
        ys.append(y)
        if i < len(spec) - 1:
            h = xp.maximum(y, 0)
    return {"x": xs, "y": ys, "z": ys[-1]}


def layer_input_grad(layer: dict, W, dy, hw, xp=None):
    """dL/dx of one layer from dL/dy: dy W for a dense layer, the transposed convolution
    for a convolution whose input has spatial size ``hw``."""
    if layer["kind"] == "fc":
        return dy @ W
    return conv2d_backward_input(dy, W, hw, layer["stride"], layer["pad"], xp)


@entry_point
def net_backward(spec, Ws, fwd: dict, dz, xp=None, input_grad: bool = True) -> dict:
    """dy_l = dL/dy_l and dx_l = dL/dx_l, given dz of shape (lead..., K..., c) (K...
    probe axes after the forward pass's leading axes, possibly none).
    ``input_grad=False`` skips dx_0 (dx[0] is None)."""
    xp = xp or array_namespace(dz, Ws)
    c = fwd["z"].shape[-1]
    if dz.shape[-1] != c or dz.ndim < fwd["z"].ndim:
        raise ValueError(f"dz must have shape (lead..., K..., {c}) like the output z {tuple(fwd['z'].shape)} "
                         f"(with any probe axes K before the last), got shape {tuple(dz.shape)}")
    check_finite("dz", dz)
    extra = dz.ndim - fwd["z"].ndim
    L = len(spec)
    dys, dxs = [None] * L, [None] * L
    dy = dz
    for i in reversed(range(L)):
        layer, W = spec[i], Ws[i]
        dys[i] = dy
        if i == 0 and not input_grad:
            break
        dx = layer_input_grad(layer, W, dy, fwd["x"][i].shape[-2:], xp)
        dxs[i] = dx
        if i > 0:
            y_prev = fwd["y"][i - 1]
            lead = y_prev.ndim - _features(spec[i - 1])
            mask = (y_prev > 0).reshape(y_prev.shape[:lead] + (1,) * extra + y_prev.shape[lead:])
            dy = dx.reshape(dx.shape[:lead + extra] + y_prev.shape[lead:]) * mask
    return {"dy": dys, "dx": dxs}


def mlp_forward(Ws, x, xp=None) -> dict:
    """:func:`net_forward` of the dense net with weights ``Ws`` (N, out, in): ReLU between
    layers, none after the last (``z`` = W_{L-1} x_{L-1}, the last pre-activation)."""
    return net_forward(_dense_spec(Ws), Ws, x, xp)


def mlp_backward(Ws, fwd: dict, dz, xp=None) -> dict:
    """:func:`net_backward` of the dense net with weights ``Ws``: dy_l, dx_l (w.r.t.
    layer inputs), given dz = dloss/dz of shape (N, batch, n_L); the per-sample weight
    gradient of layer l is dy_l x_l^T."""
    return net_backward(_dense_spec(Ws), Ws, fwd, dz, xp)


@entry_point
def softmax_xent(z, labels, xp=None):
    """Cross-entropy l = logsumexp(z) - z_y, softmax p, entropy H(p) and dl/dz = p - y,
    for z (N, batch, c), finite, and integer labels in [0, c) of shape (batch,) or
    (N, batch) (host or device)."""
    xp = xp or array_namespace(z)
    check_finite("z", z)
    check_labels("labels", labels, z.shape[-1])
    zmax = z.max(axis=-1, keepdims=True)
    e = xp.exp(z - zmax)
    s = e.sum(axis=-1, keepdims=True)
    p = e / s
    lse = (zmax + xp.log(s))[..., 0]
    onehot = xp.eye(z.shape[-1], dtype=z.dtype)[xp.asarray(labels)]
    loss = lse - (z * onehot).sum(axis=-1)
    logp = z - lse[..., None]
    entropy = -(p * logp).sum(axis=-1)
    return loss, p, entropy, p - onehot
