"""Residual nets with m-layer branches (ZeroInit principles, 1/2-scaling): weight
gradients against finite differences, the unrolled recurrence, SGD and errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations import get_backend
from simulations.relu_nets import (draw_branch_resnet, resnet_backward as branch_backward, resnet_forward,
                                   sgd_step, zeroinit_branch_scale)

from ..strategies import seeds


@given(seed=seeds, m=st.integers(2, 3), s_out=st.sampled_from([1.0, 0.5, 2 ** -0.5]))
@settings(deadline=None, max_examples=15)
def test_weight_gradients_match_finite_differences(seed, m, s_out):
    be = get_backend(seed=seed)
    net = draw_branch_resnet(be, 5, 3, m, "he", 1)
    x = be.normal((1, 4, 5))
    g = be.normal((1, 1, 5))

    def loss(n):
        return float((resnet_forward(n, x, np, s_out=s_out)["x"][-1] * g).sum())

    fwd = resnet_forward(net, x, np, s_out=s_out)
    grads = branch_backward(net, fwd, np.broadcast_to(g, x.shape), np)
    eps = 1e-6
    for l, j, idx in ((0, 0, (0, 1, 2)), (2, m - 1, (0, 4, 0)), (1, m - 1, (0, 3, 3))):
        plus = [[W.copy() for W in layers] for layers in net]
        minus = [[W.copy() for W in layers] for layers in net]
        plus[l][j][idx] += eps
        minus[l][j][idx] -= eps
        fd = (loss(plus) - loss(minus)) / (2 * eps)
        assert np.isclose(fd, grads["dW"][l][j][idx], rtol=1e-5, atol=1e-8)
    # input gradient: <dx_0, x> direction derivative
    fd_x = (float((resnet_forward(net, x * (1 + eps), np, s_out=s_out)["x"][-1] * g).sum()) -
            float((resnet_forward(net, x * (1 - eps), np, s_out=s_out)["x"][-1] * g).sum())) / (2 * eps)
    assert np.isclose(fd_x, float((grads["dx"][0] * x).sum()), rtol=1e-5, atol=1e-8)


def test_zeroinit_scale_and_first_step_only_moves_last_layers():
    assert zeroinit_branch_scale(64, 2) == pytest.approx(1 / 8)  # L^(-1/2)
    assert zeroinit_branch_scale(64, 4) == pytest.approx(64 ** (-1 / 6))
    be = get_backend(seed=4)
    net = draw_branch_resnet(be, 6, 4, 3, "zeroinit", 2)
    x = be.normal((2, 5, 6))
    fwd = resnet_forward(net, x, np)
    grads = branch_backward(net, fwd, np.ones_like(x), np)["dW"]
    assert all(np.all(g[0] == 0) and np.all(g[1] == 0) and np.any(g[2] != 0) for g in grads)
    new = sgd_step(net, grads, 0.1)
    assert np.all(net[0][2] == 0) and not np.all(new[0][2] == 0)


@pytest.mark.parametrize("call, match", [
    (lambda be: draw_branch_resnet(be, 4, 2, 1, "he"), "m must be an integer >= 2"),
    (lambda be: draw_branch_resnet(be, 4, 0, 2, "he"), "blocks must be an integer >= 1"),
    (lambda be: draw_branch_resnet(be, 4, 2, 2, "fixup"), "scheme must be one of"),
    (lambda be: sgd_step([], [], -1.0), "lr must be a finite number > 0"),
    (lambda be: resnet_forward([], np.zeros((1, 1, 2)), np, s_out=0.0), "s_out must be a finite number > 0"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend(seed=0))
