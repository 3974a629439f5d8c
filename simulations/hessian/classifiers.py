"""Residual softmax classifiers at initialization and the spectral norm of their loss
Hessian, for the synthetic counterpart of Table 1 of the ZeroInit/Fixup submission
(Sec. 4.1): the models, their loss, gradient and exact Hessian-vector products by the
R-operator (:mod:`simulations.hessian.layers`), numpy and CuPy through the backend; the
spectral norm itself comes from :mod:`simulations.hessian.spectral`.

A model is a list of layers ending in the classifier (a bias-free :class:`Linear`);
the loss is the mean softmax cross-entropy over the batch, one value per network.
Table 1 used pre-activation WideResNets (width 1), so the dense analogue is
pre-activation too: blocks x -> s_out (x + F(x)) with the branch
F = Linear o ReLU [o norm] o Linear o ReLU [o norm] (m = 2 linear layers), and
[norm ->] ReLU before the classifier. Schemes:

- ``baseline``: He fan-in everywhere, s_out = 1 ('traditional initialization');
- ``half_scaling``: the same weights with s_out = sqrt(1/2) (the related work's recurrence of the
  ZeroInit submission, Sec. 5, whose extraction prints '1/2': the unrolling 0.5^(l/2) beside it
  and the cited works fix the square root);
- ``lsuv``: orthonormal weights, then every linear layer rescaled in forward order
  until its output has unit variance on the data batch (Mishkin & Matas 2015;
  tolerance 0.1, at most 10 rescalings per layer);
- ``batchnorm``: norm = BN -> per-feature affine (gain 1, shift 0), full-batch
  statistics as in the paper's runs, He weights;
- ``zeroinit``: Figure 1 (right) and Sec. 3 step 3: a scalar bias (0) before each linear
  layer and each ReLU, a scalar multiplier (1) and a scalar bias (0) at the branch's
  end; the last branch layer and the classifier at 0, the first branch layer He scaled
  by L^(-1/2) (L^(-1/(2m-2)) with m = 2);
- ``zeroinit_weights``: ZeroInit's steps 1-2 only (no scalar multipliers or biases).

>>> from simulations.core import get_backend
>>> be = get_backend(seed=0)
>>> x, y = synthetic_batch(be, n_networks=2, batch=16, width=4, classes=3)
>>> model = build_classifier(be, "zeroinit", width=4, blocks=3, classes=3, n_networks=2, data=x)
>>> loss, grads = loss_and_grad(model, x, y)
>>> [round(float(v), 6) for v in loss]  # the zero classifier: log(3) for every network
[1.098612, 1.098612]
"""
from __future__ import annotations

import math

from ..core.backend import Backend
from ..core.namespace import array_namespace
from ..core.random_matrices import haar_orthogonal
from ..core.validation import check_choice, check_finite, check_int, check_labels, check_positive, entry_point
from ..relu_nets.sequential import softmax_xent, weight_variance
from .layers import BatchNorm, Linear, ReLU, ResidualBlock, Scale, Shift, parameters, run_backward, run_forward

__all__ = ["TABLE1_SCHEMES", "build_classifier", "synthetic_batch", "loss_and_grad", "hvp", "lsuv_calibrate"]

TABLE1_SCHEMES = ("baseline", "half_scaling", "lsuv", "batchnorm", "zeroinit", "zeroinit_weights")


def synthetic_batch(be: Backend, n_networks: int, batch: int, width: int, classes: int):
    """Inputs x_0 ~ N(0, I_width) of shape (N, batch, width) and uniform random labels
    (N, batch), one independent batch per network (the synthetic stand-in for the
    paper's first 1024 CIFAR-10/SVHN images)."""
    n_networks = check_int("n_networks", n_networks, low=1)
    batch = check_int("batch", batch, low=1)
    width = check_int("width", width, low=1)
    classes = check_int("classes", classes, low=2)
    labels = be.xp.asarray(be.integers(0, classes, (n_networks, batch)))
    return be.normal((n_networks, batch, width)), labels


def _he(be, N, fan_out, fan_in, gain=1.0):
    return Linear(be.normal((N, fan_out, fan_in)) * (gain * math.sqrt(weight_variance("he_fan_in", fan_in, fan_out))))


def _orthonormal(be, N, fan_out, fan_in):
    """Haar orthonormal rows or columns: the transpose of a Haar (fan_in x fan_out) matrix."""
    return Linear(be.xp.swapaxes(haar_orthogonal(be, N, fan_in, fan_out), -1, -2))


@entry_point
def build_classifier(be: Backend, scheme: str, width: int, blocks: int, classes: int, n_networks: int = 1,
                     data=None) -> list:
    """The layers of a ``scheme`` network with ``blocks`` residual blocks (module text).
    ``data`` (the input batch) is required by ``lsuv`` only."""
    check_choice("scheme", scheme, TABLE1_SCHEMES)
    width = check_int("width", width, low=1)
    blocks = check_int("blocks", blocks, low=1)
    classes = check_int("classes", classes, low=2)
    N = check_int("n_networks", n_networks, low=1)
    xp, dt = be.xp, be.dtype

    def const(value, features=1):
        return xp.full((N, 1, features), value, dtype=dt)

    bn = scheme == "batchnorm"

    def norm(features):  # BatchNorm and its affine part (gain 1, shift 0)
        return [BatchNorm(), Scale(const(1.0, features)), Shift(const(0.0, features))] if bn else []

    def bias():  # ZeroInit's scalar bias (Figure 1, right)
        return [Shift(const(0.0))] if scheme == "zeroinit" else []

    def dense(fan_out, gain=1.0):
        if scheme == "lsuv":
            return _orthonormal(be, N, fan_out, width)
        return _he(be, N, fan_out, width, gain)

    layers = []
    for _ in range(blocks):
        if scheme.startswith("zeroinit"):
            first = dense(width, gain=blocks ** -0.5)
            last = Linear(xp.zeros((N, width, width), dtype=dt))
            tail = [Scale(const(1.0))] + bias() if scheme == "zeroinit" else []
            branch = bias() + [ReLU()] + bias() + [first] + bias() + [ReLU()] + bias() + [last] + tail
        else:
            branch = norm(width) + [ReLU(), dense(width)] + norm(width) + [ReLU(), dense(width)]
        layers.append(ResidualBlock(branch, 2**-0.5 if scheme == "half_scaling" else 1.0))
    layers += norm(width) + bias() + [ReLU()] + bias()
    if scheme.startswith("zeroinit"):
        layers.append(Linear(xp.zeros((N, classes, width), dtype=dt)))
    else:
        layers.append(dense(classes))
    if scheme == "lsuv":
        if data is None:
            raise ValueError("data must be the input batch (N, batch, width) for scheme 'lsuv'")
        check_finite("data", data)
        lsuv_calibrate(layers, data, xp)
    return layers


@entry_point
def lsuv_calibrate(layers, x, xp=None, tol: float = 0.1, max_iter: int = 10):
    """LSUV's second step (Mishkin & Matas 2015, Alg. 1): in forward order, divide each
    linear layer's weights by the standard deviation of its output on the batch ``x``
    until |Var - 1| < ``tol`` (at most ``max_iter`` times); per network. A network whose
    layer output is identically 0 on the batch (every unit feeding it dead after a ReLU)
    keeps that layer's weights: no scale changes a zero output, and dividing by its zero
    standard deviation would make the weights NaN. In place; returns the output of
    ``layers``."""
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    xp = xp or array_namespace(x)
    check_finite("x", x)
    for layer in layers:
        if isinstance(layer, Linear):
            for _ in range(max_iter):
                var = xp.var(layer.forward(x, None, None, xp)[0], axis=(1, 2))
                if bool(xp.all((xp.abs(var - 1.0) < tol) | (var == 0))):
                    break
                layer.params[0] = layer.params[0] / xp.sqrt(xp.where(var > 0, var, 1.0))[:, None, None]
        if isinstance(layer, ResidualBlock):
            x = layer.s_out * (x + lsuv_calibrate(layer.branch, x, xp, tol, max_iter))
        else:
            x = layer.forward(x, None, None, xp)[0]
    return x


def _xent(z, labels, rz, xp):
    """Mean softmax cross-entropy per network, its logit gradient and R{gradient}
    (the per-sample cross-entropy of :func:`simulations.relu_nets.softmax_xent`)."""
    B = z.shape[1]
    loss, p, _, dz = softmax_xent(z, labels, xp)
    rdz = None if rz is None else p * (rz - xp.sum(p * rz, axis=-1, keepdims=True)) / B
    return xp.mean(loss, axis=1), dz / B, rdz


def check_batch(model, x, labels) -> None:
    """``x`` (N, batch, width) finite and ``labels`` integers in [0, classes), classes
    the output width of the model's classifier (its last layer)."""
    if getattr(x, "ndim", None) != 3:
        raise ValueError(f"x must have shape (N, batch, width), got shape {tuple(getattr(x, 'shape', ()))}")
    check_finite("x", x)
    check_labels("labels", labels, int(model[-1].params[0].shape[-2]))


@entry_point
def loss_and_grad(model, x, labels, xp=None):
    """Loss per network (N,) and the gradient, one array per parameter; ``x`` finite and
    ``labels`` in range (:func:`check_batch`)."""
    xp = xp or array_namespace(x)
    check_batch(model, x, labels)
    z, _, caches = run_forward(model, x, None, None, xp)
    loss, dz, _ = _xent(z, labels, None, xp)
    return loss, run_backward(model, caches, dz, None, None, xp)[2]


@entry_point
def hvp(model, x, labels, v, xp=None) -> list:
    """H v for the loss Hessian H with respect to every parameter, ``v`` a list shaped
    like :func:`simulations.hessian.layers.parameters` (one forward and one backward R-pass)."""
    xp = xp or array_namespace(x, v)
    shapes = [tuple(p.shape) for p in parameters(model)]
    if not isinstance(v, (list, tuple)) or [tuple(getattr(a, "shape", ())) for a in v] != shapes:
        got = [tuple(getattr(a, "shape", ())) for a in v] if isinstance(v, (list, tuple)) else type(v).__name__
        raise ValueError(f"v must be a list of {len(shapes)} arrays shaped like parameters(model) {shapes}, got {got}")
    check_batch(model, x, labels)
    check_finite("v", list(v))
    z, rz, caches = run_forward(model, x, None, v, xp)
    _, dz, rdz = _xent(z, labels, rz, xp)
    return run_backward(model, caches, dz, rdz, v, xp)[3]
