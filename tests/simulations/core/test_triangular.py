"""Inverses of upper-triangular matrices: the recursive doubling in products equals
``linalg.inv`` to rounding, with a residual as small as LAPACK's (orders 1 to 256, powers
of two and not, any batch shape), keeps float32, reads only the upper triangle, and needs
no host read; a list is inverted one call per shape and, on numpy, bit for bit as one by
one; the residual check fails on a sign error in the merge; errors name the parameter."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulations import get_backend, to_host
from simulations.core.random_matrices import reflector_half_norms, ut_triangle
from simulations.core.triangular import default_triangular_inverse, upper_triangular_inverse, upper_triangular_inverses
from tests.strategies import seeds, triangle_orders
from tests.support.strict_device import host_reads

U = {"float64": 2.0**-53, "float32": 2.0**-24}


def _triangles(be, batch: tuple, n: int):
    """The UT triangles S of a block of n Stewart reflectors of length n + 5, as the Haar
    sampler inverts them (``ut_triangle``), batch shape ``batch``."""
    v = be.xp.tril(be.normal((*batch, n + 5, n)))
    v = be.xp.reshape(v, (-1, n + 5, n))
    s = ut_triangle(v, reflector_half_norms(v, be.xp), be.xp)
    return be.xp.reshape(s, (*batch, n, n))


def _residuals(t, s, dtype: str):
    """||T S - I||_F / (u ||T||_F ||S||_F) per matrix of the batch: the residual in units of
    the rounding of one product (u the unit roundoff of ``dtype``)."""
    t, s = to_host(t).astype(np.float64), to_host(s).astype(np.float64)
    r = np.linalg.norm(t @ s - np.eye(s.shape[-1]), axis=(-2, -1))
    return r / (U[dtype] * np.linalg.norm(t, axis=(-2, -1)) * np.linalg.norm(s, axis=(-2, -1)))


def _as_small_as_lapacks(t, s, dtype: str) -> bool:
    """The residual of ``t`` is at most 4 times LAPACK's on the same triangles (computed in
    the same dtype), or 4 units when LAPACK's is below one: measured, the doubling's is
    about LAPACK's (no theorem bounds the residual of inversion by products of computed
    inverses; Du Croz & Higham 1992 bound the forward error)."""
    ref = _residuals(np.linalg.inv(to_host(s)), s, dtype)
    return bool(np.all(_residuals(t, s, dtype) <= 4 * np.maximum(ref, 1.0)))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 100, 128, 129, 256])
def test_doubling_equals_linalg_inv_to_rounding(n, dtype):
    be = get_backend(seed=n, dtype=dtype)
    s = _triangles(be, (3,), n)
    t = upper_triangular_inverse(s, np, method="doubling")
    ref = upper_triangular_inverse(s.astype(np.float64), np, method="linalg_inv")
    assert t.dtype == s.dtype and t.shape == s.shape and np.array_equal(np.triu(t), t)
    assert _as_small_as_lapacks(t, s, dtype)
    cond = np.linalg.cond(s.astype(np.float64))
    err = np.linalg.norm(t - ref, axis=(-2, -1)) / np.linalg.norm(ref, axis=(-2, -1))
    assert np.all(err <= 8 * n * U[dtype] * cond)


@given(n=triangle_orders, seed=seeds, batch=st.sampled_from([(), (1,), (2, 3)]))
def test_doubling_any_order_and_batch_shape(n, seed, batch):
    be = get_backend(seed=seed)
    s = _triangles(be, batch, n)
    t = upper_triangular_inverse(s, np, method="doubling")
    assert t.shape == s.shape and _as_small_as_lapacks(t, s, "float64")


def test_a_sign_error_in_the_merge_fails_the_residual_check():
    """The check the tests rely on can fail: the top corner of the last merge with the
    wrong sign (``+A^-1 B C^-1``) is far outside the bound."""
    s = _triangles(get_backend(seed=2), (2,), 64)
    t = upper_triangular_inverse(s, np, method="doubling")
    bad = t.copy()
    bad[:, :32, 32:] *= -1
    assert _as_small_as_lapacks(t, s, "float64") and not _as_small_as_lapacks(bad, s, "float64")


def test_doubling_reads_only_the_upper_triangle():
    s = _triangles(get_backend(seed=4), (2,), 9)
    noisy = s + np.tril(get_backend(seed=5).normal(s.shape), -1)
    np.testing.assert_array_equal(upper_triangular_inverse(noisy, np, method="doubling"),
                                  upper_triangular_inverse(s, np, method="doubling"))


def test_default_is_linalg_inv_on_numpy_and_doubling_on_the_device(backend_name):
    be = get_backend(backend_name, seed=7)
    s = _triangles(be, (4,), 40)
    before = host_reads()
    t = upper_triangular_inverse(s, be.xp)
    assert host_reads() == before  # counted on the strict stand-in only: no read of the device
    method = default_triangular_inverse(be.xp)
    assert method == ("linalg_inv" if backend_name == "numpy" else "doubling")
    assert _as_small_as_lapacks(t, s, "float64")
    host = upper_triangular_inverse(to_host(s), np, method=method)
    np.testing.assert_allclose(to_host(t), host, rtol=0, atol=1e-12 * np.abs(host).max())


@pytest.mark.parametrize("method", ["linalg_inv", "doubling"])
def test_a_list_is_inverted_per_shape_in_order(method):
    be = get_backend(seed=8)
    mats = [_triangles(be, (2,), n) for n in (5, 3, 128, 5, 256, 5, 1, 128)]
    out = upper_triangular_inverses(mats, np, method)
    assert [o.shape for o in out] == [m.shape for m in mats]
    for o, m in zip(out, mats):
        np.testing.assert_array_equal(o, upper_triangular_inverse(m[None], np, method)[0])
    if method == "linalg_inv":  # stacking changes no bit: numpy inverts a stack matrix by matrix
        for o, m in zip(out, mats):
            np.testing.assert_array_equal(o, np.linalg.inv(m))
    assert upper_triangular_inverses([], np, method) == []


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "lu"}, "method"),
    ({"s": np.ones((2, 3, 4))}, "s: expected a stack of square matrices"),
    ({"s": np.ones(3)}, "s: expected"),
    ({"s": np.array([[[2, 1], [0, 4]]])}, "s: expected a floating dtype"),
])
def test_bad_input_names_the_parameter(kwargs, match):
    args = {"s": np.eye(3)[None], "xp": np, **kwargs}
    with pytest.raises(ValueError, match=match):
        upper_triangular_inverse(**args)
