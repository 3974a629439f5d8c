"""WN initialization schemes: data-dependent statistics, PyTorch's gain, the Haar
construction passed through, and errors that name the parameter."""
import numpy as np
import pytest

from simulations import (
    INIT_SCHEMES,
    WNLinear,
    build_mlp,
    build_resnet,
    get_backend,
    haar_factor,
    haar_orthogonal,
    layers_of,
    to_host,
)
from tests.support.precision import assert_float32


def test_data_dependent_init_standardizes_preactivations(backend_name):
    be = get_backend(backend_name, seed=5)
    x = be.normal((2, 64, 10))
    ops = build_mlp(be, [10, 12, 12], "data_dependent", n_networks=2, data=x)
    layer = ops[0].layer
    v, g, b, x = (to_host(a) for a in (layer.v, layer.g, layer.b, x))
    a = np.matmul(x, np.swapaxes(v / np.linalg.norm(v, axis=-1, keepdims=True), -1, -2)) * g[:, None] + b[:, None]
    assert np.allclose(a.mean(axis=1), 0, atol=1e-10) and np.allclose(a.std(axis=1), 1)


def test_pytorch_default_gain_is_row_norm(backend_name):
    (op,) = build_mlp(get_backend(backend_name, seed=2), [9, 5], "pytorch_default")
    np.testing.assert_allclose(to_host(op.layer.g), np.linalg.norm(to_host(op.layer.v), axis=-1))


@pytest.mark.parametrize("method", [None, "reflectors", "householder", "cholesky"])
def test_orthogonal_directions_come_from_the_haar_sampler(backend_name, method):
    (op,) = build_mlp(get_backend(backend_name, seed=4), [6, 6], "proposed_orthogonal", 2, haar_method=method)
    ref = haar_orthogonal(get_backend(backend_name, seed=4), 2, 6, 6, method)
    np.testing.assert_array_equal(to_host(op.layer.v), to_host(ref))


def test_factored_directions_are_the_reflectors_draw(backend_name):
    """``haar_method="factored"`` draws what ``reflectors`` draws, from the same stream:
    a layer with fan_out <= fan_in keeps it unformed until ``v`` is read, a wider one
    forms it at once (WN needs its row norms)."""
    ops = build_mlp(get_backend(backend_name, seed=4), [6, 6, 9], "proposed_orthogonal", 2, haar_method="factored")
    twin = get_backend(backend_name, seed=4)
    square, wide = (op.layer for op in ops)
    assert square.factor is not None and wide.factor is None and square.shape == (2, 6, 6)
    for layer, (m, n) in ((square, (6, 6)), (wide, (9, 6))):
        np.testing.assert_array_equal(to_host(layer.v), to_host(haar_orthogonal(twin, 2, m, n, "reflectors")))
    assert square.factor is None  # read once, the dense array is the layer's from then on


@pytest.mark.parametrize("init", INIT_SCHEMES)
def test_every_scheme_keeps_float32(backend_name, init):
    be = get_backend(backend_name, seed=1, dtype="float32")
    x = be.normal((2, 8, 4))
    layers = layers_of(build_resnet(be, [4, 6], [2], [5], init, n_networks=2, data=x))
    assert_float32([[layer.v, layer.g, layer.b] for layer in layers])


@pytest.mark.parametrize("widths,match", [
    ([4, -1], r"widths\[1\] must be an integer >= 1"),
    ([4, 2.5], r"widths\[1\] must be an integer >= 1"),
    ([4], "at least 2 entries"),
    ("44", "widths must be a sequence"),
])
def test_bad_widths(widths, match):
    with pytest.raises(ValueError, match=match):
        build_mlp(get_backend(), widths, "he")


@pytest.mark.parametrize("call, match", [
    (lambda be: build_mlp(be, [3, 3], "xavier"), "init must be one of"),
    (lambda be: build_mlp(be, [3, 3], "he", n_networks=0), "n_networks must be an integer >= 1"),
    (lambda be: build_resnet(be, [4, 4], [0], [4], "proposed_orthogonal"), r"blocks\[0\] must be an integer >= 1"),
    (lambda be: build_resnet(be, [4, 4], [2], [[4]], "proposed_orthogonal"), r"hidden\[0\] must list 2 widths"),
    (lambda be: build_mlp(be, [3, 3], "data_dependent"), "init='data_dependent' needs data"),
    (lambda be: build_mlp(be, [3, 3], "data_dependent", data=np.full((1, 4, 3), np.nan)), "data must be finite"),
    (lambda be: build_mlp(be, [3, 3], "proposed_orthogonal", haar_method="qr"), "method must be one of"),
    (lambda be: WNLinear(g=be.normal((1, 3)), b=be.normal((1, 3))), "exactly one of v"),
    (lambda be: WNLinear(v=be.normal((1, 3, 4)), g=be.normal((1, 3)), b=be.normal((1, 3)),
                         factor=haar_factor(be, 1, 3, 4)), "exactly one of v"),
    (lambda be: WNLinear(g=be.normal((1, 5)), b=be.normal((1, 5)), factor=haar_factor(be, 1, 5, 4)),
     "orthonormal rows"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend())
