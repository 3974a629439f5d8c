"""Backends and streams on numpy and on the strict device stand-in; CuPy runs the same
code path when a GPU is present."""
import numpy as np
import pytest

from simulations import build_resnet, cupy_available, forward, get_backend, to_host
from simulations.core import stream_key

gpu = pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")


def test_same_stream_same_draws_on_either_backend(backend_name):
    a, b = get_backend(backend_name, seed=4), get_backend(backend_name, seed=4)
    assert np.array_equal(to_host(a.child(3, "x").normal((3,))), to_host(b.child(3, "x").normal((3,))))
    assert not np.array_equal(to_host(a.child(3).normal((3,))), to_host(a.child(4).normal((3,))))
    u = to_host(a.uniform((1000,), -2.0, 3.0))
    assert u.min() >= -2.0 and u.max() < 3.0
    assert isinstance(a.integers(0, 5, 4), np.ndarray)  # host integers on every backend


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_draws_and_describe_follow_the_working_dtype(backend_name, dtype):
    be = get_backend(backend_name, seed=1, dtype=dtype)
    assert be.normal((2, 2)).dtype == np.dtype(dtype) and be.uniform((2,)).dtype == np.dtype(dtype)
    assert be.asarray(np.ones(2)).dtype == np.dtype(dtype)
    d = be.child("a", 2).describe()
    assert d["backend"] == backend_name and d["dtype"] == dtype and d["key"] == [stream_key("a"), 2]


def test_stream_key_names_and_errors():
    assert stream_key(7) == 7 and stream_key("thm1") == stream_key("thm1") != stream_key("thm2")
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="key parts must be non-negative integers or strings"):
            stream_key(bad)


@pytest.mark.gpu
@gpu
def test_cupy_matches_numpy_in_distribution():
    """Streams differ across backends, so parity is statistical: the squared-norm
    identity E||h^B||^2 = (1+1/B)^B ||x||^2 is checked on both with the same test."""
    from theory.stats import mean_equals

    for name in ("numpy", "cupy"):
        be = get_backend(name, seed=11)
        ops = build_resnet(be, [16, 16], [4], [24], "proposed_orthogonal", n_networks=16000)
        t = forward(ops, be.normal((16000, 1, 16)), renormalize=True)
        r = to_host(be.xp.exp(2 * (t.log_norms[:, 0, -1] - t.log_norms[:, 0, 0])))
        assert mean_equals(r, 1.25**4, alpha=1e-6, tol=0.05).verdict.value == "holds"


def test_parallel_fills_called_from_many_threads_match_serial():
    """Threads that draw at once (Figure 1's networks side by side) share the filler pool:
    more callers than filler threads neither deadlock nor mix their streams."""
    from concurrent.futures import ThreadPoolExecutor

    from simulations.core.backend import CHUNK, set_fill_threads, standard_normal

    def draw(i):
        return standard_normal(np.random.default_rng(i), (3, CHUNK), np.float64)

    serial = [draw(i) for i in range(8)]
    previous = set_fill_threads(2)  # an xdist worker's share, restored below
    try:
        with ThreadPoolExecutor(8) as pool:
            threaded = list(pool.map(draw, range(8)))
    finally:
        set_fill_threads(previous)
    assert all(np.array_equal(a, b) for a, b in zip(serial, threaded))
    assert not np.array_equal(serial[0], serial[1])

