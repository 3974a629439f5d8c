"""Convolutions: forward against a direct loop, backward passes as exact adjoints and
against finite differences, float32 against float64, and errors that name the
parameter; numpy and the strict device stand-in."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import conv2d, conv2d_backward_input, conv2d_weight_grad, conv_output_size, get_backend, to_host
from tests.strategies import conv_shapes, seeds
from tests.support.precision import assert_float32, float32_tolerance, relative_error, rounded_backend


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


def _draw(shape, seed, name="numpy"):
    B, C, O, size, k, stride, pad = shape
    be = get_backend(name, seed=seed)
    return be, be.normal((B, C, size, size)), be.normal((O, C, k, k)), size, k, stride, pad


@given(shape=conv_shapes(), seed=seeds)
@settings(deadline=None)
def test_forward_matches_direct_loop(backend_name, shape, seed):
    _, x, W, _, _, stride, pad = _draw(shape, seed, backend_name)
    np.testing.assert_allclose(to_host(conv2d(x, W, stride, pad)), _direct(to_host(x), to_host(W), stride, pad),
                               atol=1e-12)


@given(shape=conv_shapes(), seed=seeds)
@settings(deadline=None)
def test_backward_passes_are_adjoints(backend_name, shape, seed):
    """<conv(x, W), dy> = <x, conv^T(dy)> = <W, dW(dy, x)> (the conv is bilinear)."""
    be, x, W, size, k, stride, pad = _draw(shape, seed, backend_name)
    y = conv2d(x, W, stride, pad)
    dy = be.normal(y.shape)
    lhs = float((y * dy).sum())
    dx = conv2d_backward_input(dy, W, (size, size), stride, pad)
    dW = conv2d_weight_grad(dy, x, k, stride, pad)
    assert np.isclose(lhs, float((x * dx).sum()), rtol=1e-10, atol=1e-10)
    assert np.isclose(lhs, float((W * dW).sum()), rtol=1e-10, atol=1e-10)
    per = conv2d_weight_grad(dy, x, k, stride, pad, per_sample=True)
    np.testing.assert_allclose(to_host(per.sum(0)), to_host(dW), atol=1e-12)


def test_weight_gradient_matches_finite_differences(backend_name):
    be = get_backend(backend_name, seed=3)
    x, W = be.normal((2, 2, 7, 7)), be.normal((3, 2, 3, 3))
    dy = be.normal(conv2d(x, W, 2, 1).shape)
    g = to_host(conv2d_weight_grad(dy, x, 3, 2, 1))
    eps = 1e-6
    for idx in [(0, 0, 0, 0), (2, 1, 2, 1), (1, 0, 1, 2)]:
        e = np.zeros(W.shape)
        e[idx] = eps
        e = be.asarray(e)
        fd = float(((conv2d(x, W + e, 2, 1) - conv2d(x, W - e, 2, 1)) * dy).sum()) / (2 * eps)
        assert np.isclose(fd, g[idx], rtol=1e-6)


def test_leading_axes_are_flattened(backend_name):
    be = get_backend(backend_name, seed=1)
    x, W = be.normal((2, 3, 2, 6, 6)), be.normal((4, 2, 3, 3))
    y = conv2d(x, W, 1, 1)
    assert y.shape == (2, 3, 4, 6, 6)
    np.testing.assert_allclose(to_host(y[1, 2]), to_host(conv2d(x[1, 2][None], W, 1, 1)[0]), atol=1e-12)


def test_float32_matches_float64_on_the_same_draws(backend_name):
    """One convolution of fan-in C k^2 = 27 and its two backward passes: within
    float32_tolerance(1, 27) of float64, relative per sample."""
    out = {}
    for be in rounded_backend(backend_name, 2):
        x, W = be.normal((4, 3, 9, 9)), be.normal((5, 3, 3, 3))
        y = conv2d(x, W, 2, 1)
        dy = be.normal(y.shape)
        out[be.dtype] = (y, conv2d_backward_input(dy, W, (9, 9), 2, 1), conv2d_weight_grad(dy, x, 3, 2, 1))
    assert_float32(out[np.float32])
    for a32, a64 in zip(out[np.float32], out[np.float64]):
        assert relative_error(a32.reshape(a32.shape[0], -1), a64.reshape(a64.shape[0], -1)) <= float32_tolerance(1, 27)


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
        conv2d(np.zeros((1, 3, 5, 5)), np.zeros((2, 4, 3, 3)))
    with pytest.raises(ValueError, match=r"W must have shape \(O, C, k, k\)"):
        conv2d(np.zeros((1, 3, 5, 5)), np.zeros((2, 3, 3)))
