"""Bias-free ReLU networks (ZeroInit, Defazio-Bottou): homogeneity, Euler's identity,
gradients against finite differences, and clear errors."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import get_backend
from simulations.relu_nets import (draw_mlp, draw_resnet, mlp_backward, mlp_forward, resnet_backward,
                                   resnet_forward, softmax_xent, weight_variance)

from ..strategies import mlp_widths, seeds


@given(widths=mlp_widths(), seed=seeds)
@settings(deadline=None)
def test_euler_identity_for_block_inputs(widths, seed):
    """<dl/dx_i, x_i> = l - H(p) for every layer input of a bias-free ReLU net."""
    be = get_backend(seed=seed)
    Ws = draw_mlp(be, widths, "he_fan_in", 2)
    x = be.normal((2, 3, widths[0]))
    fwd = mlp_forward(Ws, x, np)
    labels = be.integers(0, widths[-1], 3)
    loss, p, ent, dz = softmax_xent(fwd["z"], labels, np)
    bwd = mlp_backward(Ws, fwd, dz, np)
    for xi, gi in zip(fwd["x"], bwd["dx"]):
        assert np.allclose((xi * gi).sum(-1), loss - ent, atol=1e-9)


def test_mlp_gradient_matches_finite_differences():
    be = get_backend(seed=5)
    Ws = draw_mlp(be, [4, 6, 3], "xavier", 1)
    x = be.normal((1, 2, 4))
    labels = np.array([0, 2])

    def loss_of(x_):
        return softmax_xent(mlp_forward(Ws, x_, np)["z"], labels, np)[0].sum()

    fwd = mlp_forward(Ws, x, np)
    g = mlp_backward(Ws, fwd, softmax_xent(fwd["z"], labels, np)[3], np)["dx"][0]
    eps = 1e-6
    num = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        num[idx] = (loss_of(x + d) - loss_of(x - d)) / (2 * eps)
    assert np.allclose(g, num, atol=1e-6)


def test_resnet_input_gradient_matches_finite_differences():
    be = get_backend(seed=6)
    net = draw_resnet(be, 5, 3, ("he_fan_in", "he_fan_in"), hidden=4)
    x = be.normal((1, 1, 5))
    v = be.normal((1, 1, 5))
    fwd = resnet_forward(net, x, np)
    g = resnet_backward(net, fwd, v, np)["dx"][0]
    eps = 1e-6
    num = np.array([((resnet_forward(net, x + eps * e, np)["x"][-1] - resnet_forward(net, x - eps * e, np)["x"][-1])
                     * v).sum() / (2 * eps) for e in np.eye(5)[:, None, None, :]])
    assert np.allclose(g.ravel(), num, atol=1e-6)


def test_renormalized_resnet_norms_stay_finite_for_thousands_of_blocks():
    be = get_backend(seed=1)
    net = draw_resnet(be, 8, 3000)
    out = resnet_forward(net, be.normal((1, 2, 8)), np, renormalize=True)
    assert np.all(np.isfinite(out["log_sq_norm"]))
    assert out["log_sq_norm"][..., -1].min() > 2 * 709  # 3^3000 would overflow float64 by far


@pytest.mark.parametrize("args,match", [
    (("kaiming", 3, 4), "init must be one of"),
    (("he_fan_in", 0, 4), "fan_in must be an integer >= 1"),
    (("geometric", 3, 4, 1, float("nan")), "c must be a finite number > 0"),
])
def test_weight_variance_errors(args, match):
    with pytest.raises(ValueError, match=match):
        weight_variance(*args)


def test_draw_errors():
    with pytest.raises(ValueError, match="widths must have at least 2 entries"):
        draw_mlp(get_backend(), [4], "he_fan_in")
    with pytest.raises(ValueError, match="widths\\[1\\] must be an integer >= 1"):
        draw_mlp(get_backend(), [4, -2], "he_fan_in")
