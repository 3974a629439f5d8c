"""WN networks: backward passes against finite differences, log-space norm bookkeeping,
10,000-block stacks, and float32 against float64 on the same draws; numpy and the strict
device stand-in."""
import math

import numpy as np
import pytest
from hypothesis import assume, given

from simulations import backward, build_mlp, build_resnet, forward, get_backend, layers_of, network_flops, to_host
from simulations.weightnorm.layers import wn_forward
from simulations.weightnorm.network import WNResidual
from tests.strategies import mlp_widths, seeds, small_blocks
from tests.support.precision import (
    U64,
    assert_float32,
    float32_tolerance,
    relative_error,
    rounded_backend,
    rounding_tolerance,
)

EPS = 1e-6


@given(seed=seeds)
def test_renormalized_norms_equal_direct_norms(backend_name, seed):
    be = get_backend(backend_name, seed=seed)
    ops = build_resnet(be, [6, 6], [5], [7], "proposed_orthogonal", n_networks=2)
    x = be.normal((2, 3, 6))
    a, b = forward(ops, x), forward(ops, x, renormalize=True)
    np.testing.assert_allclose(to_host(a.log_norms), to_host(b.log_norms), rtol=1e-12, atol=1e-12)
    e = be.normal((2, 3, 6))
    np.testing.assert_allclose(to_host(backward(ops, a, e)[0]), to_host(backward(ops, b, e)[0]), rtol=1e-12, atol=1e-12)


def _relu_margin(ops, tape) -> float:
    """The smallest |pre-activation| entering a ReLU in the recorded forward pass."""
    out = np.inf
    for op, cache in zip(ops, tape.caches):
        if isinstance(op, WNResidual):
            out = min(out, float(np.abs(to_host(wn_forward(op.fc1, cache[0], weight=cache[1]))).min()))
        elif op.relu:
            out = min(out, float(np.abs(to_host(wn_forward(op.layer, cache[0], weight=cache[1]))).min()))
    return out


def _network_fd(be, ops, x, e):
    """Directional derivatives of <e, output> along random v directions, every layer.
    Examples with a ReLU input within 1e-4 of its kink are skipped: a step of EPS = 1e-6
    along d moves pre-activations by ~1e-5 and may cross the kink, where a central
    difference is not a derivative (seed 1700748968, 4 blocks, on the stand-in: 2.4e-6)."""
    tape = forward(ops, x)
    assume(_relu_margin(ops, tape) > 1e-4)
    _, grads = backward(ops, tape, e, params=True)
    for layer, g in zip(layers_of(ops), grads):
        d = be.normal(layer.v.shape)
        v0 = layer.v.copy()
        fd = []
        for sign in (1.0, -1.0):
            layer.v[...] = v0 + sign * EPS * d
            fd.append(float((e * forward(ops, x).output).sum()))
        layer.v[...] = v0
        assert np.isclose((fd[0] - fd[1]) / (2 * EPS), float((g["v"] * d).sum()), rtol=1e-4, atol=1e-7)


@given(widths=mlp_widths(), seed=seeds)
def test_mlp_backward_matches_finite_differences(backend_name, widths, seed):
    be = get_backend(backend_name, seed=seed)
    ops = build_mlp(be, widths, "proposed_he", n_networks=2)
    _network_fd(be, ops, be.normal((2, 3, widths[0])), be.normal((2, 3, widths[-1])))


@given(B=small_blocks, seed=seeds)
def test_resnet_backward_matches_finite_differences(backend_name, B, seed):
    be = get_backend(backend_name, seed=seed)
    ops = build_resnet(be, [4, 6], [B], [5], "proposed_orthogonal", n_networks=2)
    _network_fd(be, ops, be.normal((2, 3, 4)), be.normal((2, 3, 6)))


def test_ten_thousand_blocks_stay_finite():
    be = get_backend(seed=1)
    ops = build_resnet(be, [8, 8], [10000], [8], "pytorch_default")
    tape = forward(ops, be.normal((1, 2, 8)), renormalize=True)
    lg, _ = backward(ops, tape, be.normal((1, 2, 8)))
    logs, lg = to_host(tape.log_norms), to_host(lg)
    assert np.all(np.isfinite(logs)) and np.all(np.isfinite(lg))
    # PyTorch's default grows as (19/18)^B: far beyond float64 without log space.
    assert float(np.mean(logs[..., -1])) > 100 > math.log(np.finfo(float).max) / 10


def test_renormalize_rejects_biases_and_params_need_a_plain_tape(backend_name):
    be = get_backend(backend_name, seed=5)
    x = be.normal((1, 8, 4))
    ops = build_mlp(be, [4, 5], "data_dependent", data=x)
    with pytest.raises(ValueError, match="renormalize=True needs zero biases"):
        forward(ops, x, renormalize=True)
    ops = build_mlp(be, [4, 5], "he")
    with pytest.raises(ValueError, match="params=True needs a tape recorded with renormalize=False"):
        backward(ops, forward(ops, x, renormalize=True), be.normal((1, 8, 5)), params=True)


@pytest.mark.parametrize("arch", ["mlp", "resnet"])
def test_factored_directions_give_the_reflectors_networks_to_rounding(backend_name, arch):
    """The same draws run unformed (``factored``) and formed (``reflectors``): forward
    log-norms, backward log-gradient-norms and parameter gradients agree to float64
    rounding, through layers that keep the factor (fan_out <= fan_in) and layers that form
    it; parameter gradients form every factor, after which the layer is dense.

    Tolerance: a layer of fan-ins/outs k <= p is k reflectors plus one product, each run
    evaluating it once forward and once backward, so the two runs differ by at most
    2 * rounding_tolerance(2 sum (k + 1), max p, U64) relative (tests/support/precision.py);
    |log a - log b| is that relative error for the norms."""
    runs, steps, width = {}, 0, 0
    for method in ("factored", "reflectors"):
        be = get_backend(backend_name, seed=8)
        ops = (build_mlp(be, [12, 20, 20, 9, 16], "proposed_orthogonal", 2, haar_method=method) if arch == "mlp"
               else build_resnet(be, [12, 16], [2], [10], "proposed_orthogonal", 2, haar_method=method))
        tape = forward(ops, be.normal((2, 5, 12)))
        lg, _ = backward(ops, tape, be.normal((2, 5, 16)))
        kept = sum(layer.factor is not None for layer in layers_of(ops))
        steps = 2 * sum(min(layer.shape[1:]) + 1 for layer in layers_of(ops))
        width = max(max(layer.shape[1:]) for layer in layers_of(ops))
        _, grads = backward(ops, tape, be.normal((2, 5, 16)), params=True)
        runs[method] = (kept, tape.log_norms, lg, tape.output, *(g["v"] for g in grads))
    assert runs["factored"][0] >= 2 and runs["reflectors"][0] == 0
    tol = 2 * rounding_tolerance(steps, width, U64)
    f, r = runs["factored"], runs["reflectors"]
    for a, b in zip(f[1:3], r[1:3]):  # log-norms
        assert np.abs(to_host(a) - to_host(b)).max() <= tol
    for a, b in zip(f[3:], r[3:]):  # output and parameter gradients
        assert relative_error(a, b) <= tol


def test_network_flops_counts_matmuls():
    ops = build_mlp(get_backend(), [3, 4, 5], "he", n_networks=2)
    assert network_flops(ops, batch=7, n_networks=2) == 2 * 2.0 * (3 * 4 + 4 * 5) * 7 * 2


@pytest.mark.parametrize("arch", ["mlp", "resnet"])
def test_float32_matches_float64_on_the_same_draws(backend_name, arch):
    """Forward log-norms and backward log-gradient-norms of L = 6 layers (MLP) or 3 blocks
    of two layers (ResNet) of width <= 32: |log r32 - log r64| is the relative error of a
    norm, within float32_tolerance(L, 32) (tests/support/precision.py), float32 throughout."""
    runs = {}
    for dtype, be in zip(("float64", "float32"), rounded_backend(backend_name, 3)):
        ops = (build_mlp(be, [16, 32, 24, 32, 20, 32, 16], "proposed_orthogonal", n_networks=3) if arch == "mlp"
               else build_resnet(be, [16, 32], [3], [24], "proposed_orthogonal", n_networks=3))
        tape = forward(ops, be.normal((3, 5, 16)), renormalize=True)
        lg, _ = backward(ops, tape, be.normal((3, 5, tape.output.shape[-1])))
        runs[dtype] = (tape.log_norms, lg, tape.output)
    assert_float32(runs["float32"], [layer.v for layer in layers_of(ops)])
    tol = float32_tolerance(6, 32)
    for a32, a64 in zip(runs["float32"], runs["float64"]):
        assert np.abs(to_host(a32).astype(float) - to_host(a64)).max() <= tol
