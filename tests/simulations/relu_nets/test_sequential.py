"""Bias-free sequential ReLU nets (ZeroInit, Defazio-Bottou): homogeneity, Euler's
identity, gradients against finite differences, ensembles against single networks,
float32 against float64, and clear errors; numpy and the strict device stand-in."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import (
    draw_mlp,
    draw_net,
    get_backend,
    lenet_spec,
    mlp_backward,
    mlp_forward,
    mlp_spec,
    net_backward,
    net_forward,
    softmax_xent,
    to_host,
    weight_variance,
)
from tests.strategies import mlp_widths, seeds
from tests.support.precision import assert_float32, float32_tolerance, relative_error, rounded_backend


@given(widths=mlp_widths(), seed=seeds)
@settings(deadline=None)
def test_euler_identity_for_block_inputs(backend_name, widths, seed):
    """<dl/dx_i, x_i> = l - H(p) for every layer input of a bias-free ReLU net."""
    be = get_backend(backend_name, seed=seed)
    Ws = draw_mlp(be, widths, "he_fan_in", 2)
    x = be.normal((2, 3, widths[0]))
    fwd = mlp_forward(Ws, x)
    labels = be.integers(0, widths[-1], 3)
    loss, p, ent, dz = softmax_xent(fwd["z"], labels)
    bwd = mlp_backward(Ws, fwd, dz)
    for xi, gi in zip(fwd["x"], bwd["dx"]):
        np.testing.assert_allclose(to_host((xi * gi).sum(-1)), to_host(loss - ent), atol=1e-9)


def test_mlp_gradient_matches_finite_differences(backend_name):
    be = get_backend(backend_name, seed=5)
    Ws = draw_mlp(be, [4, 6, 3], "xavier", 1)
    x = be.normal((1, 2, 4))
    labels = np.array([0, 2])

    def loss_of(x_):
        return float(softmax_xent(mlp_forward(Ws, x_)["z"], labels)[0].sum())

    fwd = mlp_forward(Ws, x)
    g = to_host(mlp_backward(Ws, fwd, softmax_xent(fwd["z"], labels)[3])["dx"][0])
    eps = 1e-6
    for idx in np.ndindex(x.shape):
        d = np.zeros(x.shape)
        d[idx] = eps
        d = be.asarray(d)
        assert np.isclose((loss_of(x + d) - loss_of(x - d)) / (2 * eps), g[idx], atol=1e-6)


def test_ensemble_equals_networks_one_at_a_time(backend_name):
    """A leading network axis is N networks in one batched matmul per layer: the same
    numbers as each network alone (unbatched weights), probe axes included."""
    be = get_backend(backend_name, seed=8)
    spec = mlp_spec([5, 7, 6, 3])
    Ws = draw_net(be, spec, "he_fan_in", n_networks=4)
    x = be.normal((4, 9, 5))
    fwd = net_forward(spec, Ws, x)
    dz = be.normal((4, 9, 3))
    bwd = net_backward(spec, Ws, fwd, dz)
    for k in range(4):
        one = net_forward(spec, [W[k] for W in Ws], x[k])
        np.testing.assert_allclose(to_host(one["z"]), to_host(fwd["z"][k]), rtol=1e-12, atol=1e-12)
        probes = be.asarray(np.broadcast_to(np.eye(3), (9, 3, 3)).copy())
        phi = net_backward(spec, [W[k] for W in Ws], one, probes)["dy"][1]  # (9, 3, 6): dz/dy_1 per sample
        np.testing.assert_allclose(to_host((dz[k][:, :, None] * phi).sum(1)), to_host(bwd["dy"][1][k]),
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("arch", ["mlp", "lenet"])
def test_float32_matches_float64_on_the_same_draws(backend_name, arch):
    """Outputs and input gradients within float32_tolerance(L, n) of float64, with L the
    depth and n the largest fan-in (LeNet's fc1 has 400; its convolutions 150)."""
    out = {}
    for be in rounded_backend(backend_name, 4):
        spec = mlp_spec([16, 64, 64, 64, 10]) if arch == "mlp" else lenet_spec(size=20)
        Ws = draw_net(be, spec, "he_fan_in", n_networks=3 if arch == "mlp" else None)
        x = be.normal((3, 5, 16) if arch == "mlp" else (3, 3, 20, 20))
        fwd = net_forward(spec, Ws, x)
        bwd = net_backward(spec, Ws, fwd, be.normal(fwd["z"].shape))
        out[be.dtype] = (fwd["z"], bwd["dx"][0], fwd["x"], bwd["dy"])
    r32, r64 = out[np.float32], out[np.float64]
    assert_float32(r32, Ws)
    depth, width = (4, 64) if arch == "mlp" else (5, 400)
    assert relative_error(r32[0], r64[0]) <= float32_tolerance(depth, width)
    assert relative_error(r32[1].reshape(3, -1), r64[1].reshape(3, -1)) <= float32_tolerance(depth, width)


@pytest.mark.parametrize("args,match", [
    (("kaiming", 3, 4), "init must be one of"),
    (("he_fan_in", 0, 4), "fan_in must be an integer >= 1"),
    (("geometric", 3, 4, 1, float("nan")), "c must be a finite number > 0"),
])
def test_weight_variance_errors(args, match):
    with pytest.raises(ValueError, match=match):
        weight_variance(*args)


def test_weight_variance_is_a_python_float():
    assert type(weight_variance("geometric", 3, 5)) is float  # a numpy scalar would promote float32 draws


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="widths must have at least 2 entries"):
        draw_mlp(get_backend(), [4], "he_fan_in")
    with pytest.raises(ValueError, match="widths\\[1\\] must be an integer >= 1"):
        draw_mlp(get_backend(), [4, -2], "he_fan_in")
    with pytest.raises(ValueError, match="n_networks must be an integer >= 1"):
        draw_mlp(get_backend(), [4, 2], "he_fan_in", n_networks=0)
    with pytest.raises(ValueError, match="size must be an integer >= 13, got 8"):
        lenet_spec(size=8)
    spec = mlp_spec([4, 3])
    with pytest.raises(ValueError, match="x must have 4 features in its last axis"):
        net_forward(spec, draw_net(get_backend(seed=0), spec, "xavier"), np.zeros((2, 5)))
