"""numpy is the default; CuPy runs the same code path when a GPU is present."""
import numpy as np
import pytest

from simulations import build_resnet, cupy_available, forward, get_backend, to_host

gpu = pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")


def test_float32_is_selectable():
    be = get_backend(seed=0, dtype="float32")
    ops = build_resnet(be, [5, 5], [2], [6], "proposed_orthogonal")
    assert forward(ops, be.normal((1, 2, 5)), np).output.dtype == np.float32


def test_same_seed_same_draws():
    assert np.array_equal(get_backend(seed=4).normal((3,)), get_backend(seed=4).normal((3,)))


@pytest.mark.gpu
@gpu
def test_cupy_matches_numpy_in_distribution():
    """Streams differ across backends, so parity is statistical: the squared-norm
    identity E||h^B||^2 = (1+1/B)^B ||x||^2 is checked on both with the same test."""
    from theory.stats import mean_test

    for name in ("numpy", "cupy"):
        be = get_backend(name, seed=11)
        ops = build_resnet(be, [16, 16], [4], [24], "proposed_orthogonal", n_networks=4000)
        t = forward(ops, be.normal((4000, 1, 16)), be.xp, renormalize=True)
        r = to_host(be.xp.exp(2 * (t.log_norms[:, 0, -1] - t.log_norms[:, 0, 0])))
        assert mean_test(r, 1.25**4, alpha=1e-6, required=0.05).verdict.value == "holds"
