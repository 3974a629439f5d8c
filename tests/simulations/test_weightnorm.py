"""Hand-written vector-Jacobian products against central finite differences."""
import numpy as np
from hypothesis import given

from simulations import WNLinear, backward, build_mlp, build_resnet, forward, get_backend, layers_of, wn_forward, wn_vjp

from ..strategies import layer_shapes, mlp_widths, seeds, small_blocks

EPS = 1e-6


def _fd(f, x, direction):
    return (f(x + EPS * direction) - f(x - EPS * direction)) / (2 * EPS)


@given(shape=layer_shapes(), seed=seeds)
def test_wn_layer_vjp_matches_finite_differences(shape, seed):
    N, batch, n_in, n_out = shape
    rng = np.random.default_rng(seed)
    layer = WNLinear(rng.normal(size=(N, n_out, n_in)), rng.normal(size=(N, n_out)), rng.normal(size=(N, n_out)))
    h = rng.normal(size=(N, batch, n_in))
    delta = rng.normal(size=(N, batch, n_out))
    dh, g = wn_vjp(layer, h, delta, np)

    def loss(**kw):
        lay = WNLinear(kw.get("v", layer.v), kw.get("g", layer.g), kw.get("b", layer.b))
        return float(np.sum(delta * wn_forward(lay, kw.get("h", h), np)))

    for name, val, grad in (("h", h, dh), ("v", layer.v, g["v"]), ("g", layer.g, g["g"]), ("b", layer.b, g["b"])):
        d = rng.normal(size=val.shape)
        fd = _fd(lambda x: loss(**{name: x}), val, d)
        assert np.isclose(fd, np.sum(grad * d), rtol=1e-5, atol=1e-7), name


def _network_fd(ops, x, e, seed):
    tape = forward(ops, x, np)
    _, grads = backward(ops, tape, e, np, params=True)
    rng = np.random.default_rng(seed)
    for layer, g in zip(layers_of(ops), grads):
        d = rng.normal(size=layer.v.shape)
        v0 = layer.v.copy()

        def loss(v):
            layer.v[...] = v
            return float(np.sum(e * forward(ops, x, np).output))

        fd = _fd(loss, v0, d)
        layer.v[...] = v0
        assert np.isclose(fd, np.sum(g["v"] * d), rtol=1e-4, atol=1e-7)


@given(widths=mlp_widths(), seed=seeds)
def test_mlp_backward_matches_finite_differences(widths, seed):
    be = get_backend(seed=seed)
    ops = build_mlp(be, widths, "proposed_he", n_networks=2)
    _network_fd(ops, be.normal((2, 3, widths[0])), be.normal((2, 3, widths[-1])), seed)


@given(B=small_blocks, seed=seeds)
def test_resnet_backward_matches_finite_differences(B, seed):
    be = get_backend(seed=seed)
    ops = build_resnet(be, [4, 6], [B], [5], "proposed_orthogonal", n_networks=2)
    _network_fd(ops, be.normal((2, 3, 4)), be.normal((2, 3, 6)), seed)
