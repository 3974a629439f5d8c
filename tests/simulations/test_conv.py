"""Convolutions: forward against a direct loop, backward passes as exact adjoints and
against finite differences, and errors that name the parameter."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations import get_backend
from simulations.relu_nets import conv2d, conv2d_backward_input, conv2d_weight_grad, conv_output_size

from ..strategies import conv_shapes, seeds


def _direct(x, W, stride, pad):
    B, C, H, Wd = x.shape
    O, _, k, _ = W.shape
    xp_ = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = conv_output_size(H, k, stride, pad), conv_output_size(Wd, k, stride, pad)
    y = np.zeros((B, O, ho, wo))
    for p in range(ho):
        for q in range(wo):
            win = xp_[:, :, p * stride:p * stride + k, q * stride:q * stride + k]
            y[:, :, p, q] = np.einsum("bcij,ocij->bo", win, W)
    return y


def _draw(shape, seed):
    B, C, O, size, k, stride, pad = shape
    be = get_backend(seed=seed)
    return be, be.normal((B, C, size, size)), be.normal((O, C, k, k)), size, k, stride, pad


@given(shape=conv_shapes(), seed=seeds)
@settings(deadline=None)
def test_forward_matches_direct_loop(shape, seed):
    _, x, W, _, _, stride, pad = _draw(shape, seed)
    assert np.allclose(conv2d(x, W, stride, pad, np), _direct(x, W, stride, pad), atol=1e-12)


@given(shape=conv_shapes(), seed=seeds)
@settings(deadline=None)
def test_backward_passes_are_adjoints(shape, seed):
    """<conv(x, W), dy> = <x, conv^T(dy)> = <W, dW(dy, x)> (the conv is bilinear)."""
    be, x, W, size, k, stride, pad = _draw(shape, seed)
    y = conv2d(x, W, stride, pad, np)
    dy = be.normal(y.shape)
    lhs = float((y * dy).sum())
    dx = conv2d_backward_input(dy, W, (size, size), stride, pad, np)
    dW = conv2d_weight_grad(dy, x, k, stride, pad, np)
    assert np.isclose(lhs, float((x * dx).sum()), rtol=1e-10, atol=1e-10)
    assert np.isclose(lhs, float((W * dW).sum()), rtol=1e-10, atol=1e-10)
    per = conv2d_weight_grad(dy, x, k, stride, pad, np, per_sample=True)
    assert np.allclose(per.sum(0), dW)


def test_weight_gradient_matches_finite_differences():
    be = get_backend(seed=3)
    x, W = be.normal((2, 2, 7, 7)), be.normal((3, 2, 3, 3))
    dy = be.normal(conv2d(x, W, 2, 1, np).shape)
    g = conv2d_weight_grad(dy, x, 3, 2, 1, np)
    eps = 1e-6
    for idx in [(0, 0, 0, 0), (2, 1, 2, 1), (1, 0, 1, 2)]:
        Wp, Wm = W.copy(), W.copy()
        Wp[idx] += eps
        Wm[idx] -= eps
        fd = ((conv2d(x, Wp, 2, 1, np) - conv2d(x, Wm, 2, 1, np)) * dy).sum() / (2 * eps)
        assert np.isclose(fd, g[idx], rtol=1e-6)


def test_leading_axes_are_flattened():
    be = get_backend(seed=1)
    x, W = be.normal((2, 3, 2, 6, 6)), be.normal((4, 2, 3, 3))
    y = conv2d(x, W, 1, 1, np)
    assert y.shape == (2, 3, 4, 6, 6)
    assert np.allclose(y[1, 2], conv2d(x[1, 2][None], W, 1, 1, np)[0])


@pytest.mark.parametrize("kwargs, match", [
    ({"size": 4, "k": 0}, "k must be an integer >= 1"),
    ({"size": 4, "k": 3, "stride": 0}, "stride must be an integer >= 1"),
    ({"size": 4, "k": 3, "pad": 3}, r"pad must be an integer in \[0, 2\]"),
    ({"size": 2, "k": 5}, "k must be <= size"),
])
def test_bad_geometry_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        conv_output_size(**kwargs)


def test_channel_mismatch_is_an_error():
    with pytest.raises(ValueError, match="channels"):
        conv2d(np.zeros((1, 3, 5, 5)), np.zeros((2, 4, 3, 3)), xp=np)
    with pytest.raises(ValueError, match=r"W must have shape \(O, C, k, k\)"):
        conv2d(np.zeros((1, 3, 5, 5)), np.zeros((2, 3, 3)), xp=np)
