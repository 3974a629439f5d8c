"""Residual nets with m-layer branches (ZeroInit principles, Eq. 2, 1/2-scaling): weight
and input gradients against finite differences, ZeroInit's first step, deep stacks in
log space, float32 against float64, and errors; numpy and the strict device stand-in."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import (
    draw_branch_resnet,
    draw_resnet,
    get_backend,
    resnet_backward,
    resnet_forward,
    sgd_step,
    to_host,
    zeroinit_branch_scale,
)
from tests.strategies import residual_branches, seeds
from tests.support.precision import assert_float32, float32_tolerance, relative_error, rounded_backend

EPS = 1e-6


def _shifted(net, l, j, idx, delta, xp):
    """A copy of ``net`` with W_{l,j}[idx] moved by delta."""
    out = [[W.copy() for W in layers] for layers in net]
    e = np.zeros(out[l][j].shape)
    e[idx] = delta
    out[l][j] = out[l][j] + xp.asarray(e)
    return out


@given(seed=seeds, branch=residual_branches())
@settings(deadline=None, max_examples=15)
def test_gradients_match_finite_differences(backend_name, seed, branch):
    m, s_out, scale, hidden = branch
    be = get_backend(backend_name, seed=seed)
    net = draw_resnet(be, 5, 3, ("he_fan_in",) * m, hidden=hidden)
    x = be.normal((1, 4, 5))
    g = be.normal((1, 1, 5))

    def loss(n, x_=x):
        return float((resnet_forward(n, x_, s_out=s_out, scale=scale)["x"][-1] * g).sum())

    fwd = resnet_forward(net, x, s_out=s_out, scale=scale)
    grads = resnet_backward(net, fwd, be.xp.broadcast_to(g, x.shape))
    for l, j in ((0, 0), (2, m - 1), (1, m - 1)):
        idx = (0,) + tuple(k % s for k, s in zip((4, 3), net[l][j].shape[1:]))
        fd = (loss(_shifted(net, l, j, idx, EPS, be.xp)) - loss(_shifted(net, l, j, idx, -EPS, be.xp))) / (2 * EPS)
        assert np.isclose(fd, to_host(grads["dW"][l][j])[idx], rtol=1e-5, atol=1e-8)
    fd_x = (loss(net, x * (1 + EPS)) - loss(net, x * (1 - EPS))) / (2 * EPS)  # along x itself
    assert np.isclose(fd_x, float((grads["dx"][0] * x).sum()), rtol=1e-5, atol=1e-8)
    no_w = resnet_backward(net, fwd, be.xp.broadcast_to(g, x.shape), weights=False)
    assert no_w["dW"] is None and np.array_equal(to_host(no_w["dx"][0]), to_host(grads["dx"][0]))


def test_zeroinit_scale_and_first_step_only_moves_last_layers(backend_name):
    assert zeroinit_branch_scale(64, 2) == pytest.approx(1 / 8)  # L^(-1/2)
    assert zeroinit_branch_scale(64, 4) == pytest.approx(64 ** (-1 / 6))
    be = get_backend(backend_name, seed=4)
    net = draw_branch_resnet(be, 6, 4, 3, "zeroinit", 2)
    x = be.normal((2, 5, 6))
    grads = resnet_backward(net, resnet_forward(net, x), be.xp.ones_like(x))["dW"]
    dW = [[to_host(a) for a in g] for g in grads]
    assert all(np.all(g[0] == 0) and np.all(g[1] == 0) and np.any(g[2] != 0) for g in dW)
    new = sgd_step(net, grads, 0.1)
    assert np.all(to_host(net[0][2]) == 0) and not np.all(to_host(new[0][2]) == 0)


def test_renormalized_norms_stay_finite_for_thousands_of_blocks():
    be = get_backend(seed=1)
    net = draw_resnet(be, 8, 3000)
    out = resnet_forward(net, be.normal((1, 2, 8)), renormalize=True)
    assert np.all(np.isfinite(out["log_sq_norm"]))
    assert out["log_sq_norm"][..., -1].min() > 2 * 709  # 3^3000 would overflow float64 by far
    with pytest.raises(ValueError, match="needs a forward pass with renormalize=False"):
        resnet_backward(net, out, be.normal((1, 2, 8)))


def test_renormalized_log_norms_equal_direct_ones(backend_name):
    be = get_backend(backend_name, seed=3)
    net = draw_resnet(be, 6, 5, ("he_fan_in", "he_fan_in", "xavier"), hidden=9, n_networks=2)
    x = be.normal((2, 3, 6))
    a, b = (resnet_forward(net, x, s_out=0.7, renormalize=r)["log_sq_norm"] for r in (False, True))
    np.testing.assert_allclose(to_host(a), to_host(b), rtol=1e-12)


def test_float32_matches_float64_on_the_same_draws(backend_name):
    """Block outputs and input gradients of L = 6 blocks of two layers of width 32: within
    float32_tolerance(2 L, 32) of float64 (tests/support/precision.py)."""
    out = {}
    for be in rounded_backend(backend_name, 6):
        net = draw_branch_resnet(be, 32, 6, 2, "he_linear_last", n_networks=2)
        fwd = resnet_forward(net, be.normal((2, 4, 32)), s_out=2 ** -0.5)
        bwd = resnet_backward(net, fwd, be.normal((2, 4, 32)))
        out[be.dtype] = (fwd["x"][-1], bwd["dx"][0], fwd["log_sq_norm"], bwd["dW"])
    assert_float32(out[np.float32], net)
    tol = float32_tolerance(12, 32)
    assert relative_error(out[np.float32][0], out[np.float64][0]) <= tol
    assert relative_error(out[np.float32][1], out[np.float64][1]) <= tol
    assert np.abs(to_host(out[np.float32][2]) - to_host(out[np.float64][2])).max() <= 2 * tol


@pytest.mark.parametrize("call, match", [
    (lambda be: draw_branch_resnet(be, 4, 2, 1, "he"), "m must be an integer >= 2"),
    (lambda be: draw_branch_resnet(be, 4, 0, 2, "he"), "blocks must be an integer >= 1"),
    (lambda be: draw_branch_resnet(be, 4, 2, 2, "fixup"), "scheme must be one of"),
    (lambda be: draw_resnet(be, 4, 2, ("he_fan_in", "kaiming")), r"inits\[1\] must be one of"),
    (lambda be: draw_resnet(be, 4, 2, ()), "inits must be a non-empty sequence"),
    (lambda be: draw_resnet(be, 4, 2, hidden=0), "hidden must be an integer >= 1"),
    (lambda be: sgd_step([], [], -1.0), "lr must be a finite number > 0"),
    (lambda be: resnet_forward([], np.zeros((1, 1, 2)), s_out=0.0), "s_out must be a finite number > 0"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend(seed=0))
