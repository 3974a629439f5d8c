"""2-D convolutions (k x k kernels, stride, zero padding) for numpy and CuPy, as
im2col plus one matrix multiply, with hand-written backward passes.

Layout: activations (B, C, H, W), kernels (O, C, k, k), as in Defazio & Bottou's
Sec. 2 (n_l channels of size rho_l x rho_l; fan-in n_l k_l^2). Leading batch axes
are flattened, so any (..., C, H, W) works.

y[b, o, p, q] = sum_{c, i, j} W[o, c, i, j] x_pad[b, c, s p + i, s q + j]

>>> import numpy as np
>>> x = np.arange(16.0).reshape(1, 1, 4, 4)
>>> conv2d(x, np.ones((1, 1, 2, 2)), stride=2, pad=0)[0, 0]
array([[10., 18.],
       [42., 50.]])
"""
from __future__ import annotations

from ..core.namespace import array_namespace
from ..core.validation import check_finite, check_int, entry_point

__all__ = ["conv_output_size", "patches", "conv2d", "conv2d_backward_input", "conv2d_weight_grad"]


def conv_output_size(size: int, k: int, stride: int = 1, pad: int = 0) -> int:
    """floor((size + 2 pad - k) / stride) + 1, with errors that name the parameter."""
    size = check_int("size", size, low=1)
    k = check_int("k", k, low=1)
    stride = check_int("stride", stride, low=1)
    pad = check_int("pad", pad, low=0, high=k - 1, why="padding of k or more only adds zero outputs")
    if size + 2 * pad < k:
        raise ValueError(f"k must be <= size + 2 pad = {size + 2 * pad}, got k = {k}")
    return (size + 2 * pad - k) // stride + 1


def _pad(x, pad: int, xp):
    if pad == 0:
        return x
    widths = [(0, 0)] * (x.ndim - 2) + [(pad, pad), (pad, pad)]
    return xp.pad(x, widths)


@entry_point
def patches(x, k: int, stride: int, pad: int, xp=None):
    """im2col: (B, C, H, W) -> (B, Ho Wo, C k k), one row per output position."""
    xp = xp or array_namespace(x)
    if x.ndim != 4:
        raise ValueError(f"x must have shape (B, C, H, W), got shape {tuple(x.shape)}")
    check_finite("x", x)
    B, C, H, W = x.shape
    ho, wo = conv_output_size(H, k, stride, pad), conv_output_size(W, k, stride, pad)
    xp_ = _pad(x, pad, xp)
    cols = xp.empty((B, C, k, k, ho, wo), dtype=x.dtype)
    for i in range(k):
        for j in range(k):
            cols[:, :, i, j] = xp_[:, :, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride]
    return cols.reshape(B, C * k * k, ho * wo).transpose(0, 2, 1), (ho, wo)


def _flat(x):
    lead = x.shape[:-3]
    return x.reshape((-1,) + x.shape[-3:]), lead


@entry_point
def conv2d(x, W, stride: int = 1, pad: int = 0, xp=None):
    """Forward convolution of x (..., C, H, W) with kernels W (O, C, k, k), both finite."""
    xp = xp or array_namespace(x, W)
    if W.ndim != 4 or W.shape[2] != W.shape[3]:
        raise ValueError(f"W must have shape (O, C, k, k), got {tuple(W.shape)}")
    if x.shape[-3] != W.shape[1]:
        raise ValueError(f"x has {x.shape[-3]} channels but W expects C = {W.shape[1]}")
    check_finite("x", x)
    check_finite("W", W)
    xf, lead = _flat(x)
    cols, (ho, wo) = patches(xf, W.shape[2], stride, pad, xp)
    y = cols @ W.reshape(W.shape[0], -1).T  # (B, Ho Wo, O)
    return y.transpose(0, 2, 1).reshape(lead + (W.shape[0], ho, wo))


@entry_point
def conv2d_backward_input(dy, W, in_hw: tuple, stride: int = 1, pad: int = 0, xp=None):
    """dL/dx given dL/dy (..., O, Ho, Wo), finite: the transposed convolution (col2im)."""
    xp = xp or array_namespace(dy, W)
    check_finite("dy", dy)
    check_finite("W", W)
    dyf, lead = _flat(dy)
    B, O, ho, wo = dyf.shape
    _, C, k, _ = W.shape
    H, Wd = in_hw
    dyl = xp.ascontiguousarray(dyf.transpose(0, 2, 3, 1)).reshape(-1, O)  # (B Ho Wo, O): channels last
    dx = xp.zeros((B, H + 2 * pad, Wd + 2 * pad, C), dtype=dy.dtype)
    for i in range(k):
        for j in range(k):  # one (B Ho Wo, O) x (O, C) product per kernel offset
            dx[:, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride] += (
                (dyl @ W[:, :, i, j]).reshape(B, ho, wo, C))
    dx = dx[:, pad:pad + H, pad:pad + Wd].transpose(0, 3, 1, 2)
    return dx.reshape(lead + (C, H, Wd))


@entry_point
def conv2d_weight_grad(dy, x, k: int, stride: int = 1, pad: int = 0, xp=None, per_sample: bool = False):
    """dL/dW = sum_b dy_b^T patches(x_b), shape (O, C, k, k); per sample (B, O, C, k, k)
    when ``per_sample``. dy and x share their leading axes."""
    xp = xp or array_namespace(dy, x)
    check_finite("dy", dy)
    check_finite("x", x)
    xf, _ = _flat(x)
    dyf, _ = _flat(dy)
    cols, _ = patches(xf, k, stride, pad, xp)  # (B, P, Ck^2)
    B, O = dyf.shape[:2]
    d = dyf.reshape(B, O, -1) @ cols  # (B, O, C k k)
    shape = (O, xf.shape[1], k, k)
    return d.reshape((B,) + shape) if per_sample else d.sum(0).reshape(shape)

