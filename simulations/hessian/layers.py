"""Layers with exact Hessian-vector products by Pearlmutter's R-operator (Pearlmutter
1994, the method the ZeroInit/Fixup submission cites in Sec. 4.1), for numpy and CuPy.

Every layer maps activations of shape (N, batch, features), N independent networks
side by side, and carries its parameters with a leading network axis. Each layer has
two passes, both with an optional tangent:

- ``forward(x, rx, v, xp) -> (y, ry, cache)``: the output and its directional
  derivative R{y} along the parameter direction ``v`` (and the input tangent ``rx``);
- ``backward(dy, rdy, v, cache, xp) -> (dx, rdx, grads, rgrads)``: the gradients of the
  loss and their directional derivatives R{.}, which are the Hessian-vector products.

With ``rx = v = rdy = None`` the passes are plain forward and backward passes. ReLU
networks are piecewise linear, so the R-pass of a ReLU uses the fixed mask (its second
derivative is zero off the kinks, a null set).

>>> import numpy as np
>>> lin = Linear(np.ones((1, 2, 3)))
>>> y, ry, cache = lin.forward(np.ones((1, 4, 3)), None, None, np)
>>> y.shape, ry is None
((1, 4, 2), True)
"""
from __future__ import annotations

__all__ = ["Linear", "ReLU", "Scale", "Shift", "BatchNorm", "ResidualBlock", "run_forward", "run_backward",
           "parameters", "set_parameters"]


def _sum_to(a, shape, xp):
    """Sum ``a`` over the axes where ``shape`` (a parameter's shape) has size 1."""
    axes = tuple(i for i, (s, t) in enumerate(zip(shape, a.shape)) if s == 1 and t != 1)
    return xp.sum(a, axis=axes, keepdims=True) if axes else a


class Linear:
    """y = x W^T with W of shape (N, out, in); no bias (Sec. 2's p.h. layers)."""

    def __init__(self, W):
        self.params = [W]

    def forward(self, x, rx, v, xp):
        W = self.params[0]
        y = x @ xp.swapaxes(W, -1, -2)
        ry = None
        if rx is not None or v is not None:
            ry = 0.0
            if rx is not None:
                ry = rx @ xp.swapaxes(W, -1, -2)
            if v is not None:
                ry = ry + x @ xp.swapaxes(v[0], -1, -2)
        return y, ry, (x, rx)

    def backward(self, dy, rdy, v, cache, xp):
        W = self.params[0]
        x, rx = cache
        dW = xp.swapaxes(dy, -1, -2) @ x
        dx = dy @ W
        if rdy is None:
            return dx, None, [dW], None
        rdW = xp.swapaxes(rdy, -1, -2) @ x
        if rx is not None:
            rdW = rdW + xp.swapaxes(dy, -1, -2) @ rx
        rdx = rdy @ W
        if v is not None:
            rdx = rdx + dy @ v[0]
        return dx, rdx, [dW], [rdW]


class ReLU:
    """Elementwise max(x, 0)."""

    params: list = []

    def forward(self, x, rx, v, xp):
        mask = x > 0
        return x * mask, (None if rx is None else rx * mask), mask

    def backward(self, dy, rdy, v, cache, xp):
        return dy * cache, (None if rdy is None else rdy * cache), [], None if rdy is None else []


class Scale:
    """y = x * g with g broadcast over batch (and features when g is (N, 1, 1)): the
    scalar multiplier of ZeroInit's Figure 1 (right), or BatchNorm's per-feature gain."""

    def __init__(self, g):
        self.params = [g]

    def forward(self, x, rx, v, xp):
        g = self.params[0]
        ry = None
        if rx is not None or v is not None:
            ry = (0.0 if rx is None else rx * g) + (0.0 if v is None else x * v[0])
        return x * g, ry, (x, rx)

    def backward(self, dy, rdy, v, cache, xp):
        g = self.params[0]
        x, rx = cache
        dg = _sum_to(dy * x, g.shape, xp)
        if rdy is None:
            return dy * g, None, [dg], None
        rdx = rdy * g + (0.0 if v is None else dy * v[0])
        rdg = _sum_to(rdy * x + (0.0 if rx is None else dy * rx), g.shape, xp)
        return dy * g, rdx, [dg], [rdg]


class Shift:
    """y = x + b with b broadcast like :class:`Scale`: ZeroInit's scalar biases."""

    def __init__(self, b):
        self.params = [b]

    def forward(self, x, rx, v, xp):
        ry = None
        if rx is not None or v is not None:
            ry = (xp.zeros_like(x) if rx is None else rx) + (0.0 if v is None else v[0])
        return x + self.params[0], ry, None

    def backward(self, dy, rdy, v, cache, xp):
        shape = self.params[0].shape
        db = _sum_to(dy, shape, xp)
        if rdy is None:
            return dy, None, [db], None
        return dy, rdy, [db], [_sum_to(rdy, shape, xp)]


class BatchNorm:
    """Per-feature normalization with the statistics of the whole batch (axis 1), as in
    the paper's Table 1 runs ('batch statistics ... using all 1024'); no parameters (add
    :class:`Scale`/:class:`Shift` for the affine part)."""

    params: list = []

    def __init__(self, eps: float = 1e-5):
        self.eps = eps

    def forward(self, x, rx, v, xp):
        c = x - xp.mean(x, axis=1, keepdims=True)
        s = xp.sqrt(xp.mean(c * c, axis=1, keepdims=True) + self.eps)
        y = c / s
        ry = rs = None
        if rx is not None:
            rc = rx - xp.mean(rx, axis=1, keepdims=True)
            rs = xp.mean(c * rc, axis=1, keepdims=True) / s
            ry = (rc - y * rs) / s
        return y, ry, (y, s, ry, rs)

    def backward(self, dy, rdy, v, cache, xp):
        y, s, ry, rs = cache
        m_dy_y = xp.mean(dy * y, axis=1, keepdims=True)
        a = dy - xp.mean(dy, axis=1, keepdims=True) - y * m_dy_y
        if rdy is None:
            return a / s, None, [], None
        ra = rdy - xp.mean(rdy, axis=1, keepdims=True) - y * xp.mean(rdy * y, axis=1, keepdims=True)
        if ry is not None:
            ra = ra - ry * m_dy_y - y * xp.mean(dy * ry, axis=1, keepdims=True)
            return a / s, (ra - a * rs / s) / s, [], []
        return a / s, ra / s, [], []


class ResidualBlock:
    """y = s_out * (x + branch(x)); the branch is a list of layers."""

    def __init__(self, branch: list, s_out: float = 1.0):
        self.branch = branch
        self.s_out = s_out

    @property
    def params(self) -> list:
        """The branch's parameters (derived, so it never goes stale)."""
        return parameters(self.branch)

    def forward(self, x, rx, v, xp):
        f, rf, caches = run_forward(self.branch, x, rx, v, xp)
        y = self.s_out * (x + f)
        ry = None
        if rf is not None or rx is not None:
            ry = self.s_out * ((0.0 if rx is None else rx) + (0.0 if rf is None else rf))
        return y, ry, caches

    def backward(self, dy, rdy, v, cache, xp):
        g = self.s_out * dy
        rg = None if rdy is None else self.s_out * rdy
        dx, rdx, grads, rgrads = run_backward(self.branch, cache, g, rg, v, xp)
        return g + dx, (None if rdy is None else rg + rdx), grads, rgrads


def parameters(layers) -> list:
    """Every parameter array of ``layers`` in order (the flat parameter list)."""
    return [p for layer in layers for p in layer.params]


def set_parameters(layers, values) -> None:
    """Replace every parameter of ``layers`` (in place) by ``values``, a list shaped like
    :func:`parameters` (e.g. for finite differences)."""
    values = list(values)
    if len(values) != len(parameters(layers)):
        raise ValueError(f"values must hold {len(parameters(layers))} arrays, got {len(values)}")
    i = 0
    for layer in layers:
        k = len(layer.params)
        if isinstance(layer, ResidualBlock):
            set_parameters(layer.branch, values[i:i + k])
        elif k:
            layer.params = list(values[i:i + k])
        i += k


def _split(v, layers):
    out, i = [], 0
    for layer in layers:
        k = len(layer.params)
        out.append(None if v is None else v[i:i + k])
        i += k
    return out


def run_forward(layers, x, rx, v, xp):
    """Forward (and tangent) pass through ``layers``; ``v`` is the flat direction list.
    Only the listed layers are applied, nothing after the last: the Table 1 models of
    :func:`~simulations.hessian.build_classifier` end in a bias-free ``Linear`` (logits;
    the softmax is in the loss)."""
    caches = []
    for layer, vl in zip(layers, _split(v, layers)):
        x, rx, c = layer.forward(x, rx, vl, xp)
        caches.append(c)
    return x, rx, caches


def run_backward(layers, caches, dy, rdy, v, xp):
    """Backward (and R-) pass; returns dx, R{dx} and the flat gradient lists."""
    grads, rgrads = [], []
    for layer, vl, c in reversed(list(zip(layers, _split(v, layers), caches))):
        dy, rdy, g, rg = layer.backward(dy, rdy, vl, c, xp)
        grads = g + grads
        rgrads = None if rg is None else rg + rgrads
    return dy, rdy, grads, rgrads
