"""Haar draws kept as reflectors: the matrix they stand for is the ``reflectors`` draw of
the same stream to the bit, and their products equal products with that matrix to
rounding, for wide, square and tall shapes and any partition into blocks; float32 kept;
errors that name the parameter."""
import numpy as np
import pytest

from simulations import get_backend, haar_factor, haar_orthogonal, to_host
from tests.support.precision import U64, assert_float32, rounding_tolerance

SHAPES = [(3, 7), (7, 7), (9, 4), (1, 5), (5, 1)]


def _relative_bound(p: int, k: int) -> float:
    """k reflectors of length <= p, applied one block at a time or formed into Q first:
    each evaluation within rounding_tolerance(k, p, U64) (tests/support/precision.py)."""
    return 2 * rounding_tolerance(k, p, U64)


def _row_errors(a, b):
    a, b = to_host(a).astype(np.float64), to_host(b).astype(np.float64)
    return np.linalg.norm(a - b, axis=-1) / np.linalg.norm(b, axis=-1)


@pytest.mark.parametrize("m, n", SHAPES)
def test_dense_is_the_reflectors_draw_of_the_same_stream(backend_name, m, n):
    f = haar_factor(get_backend(backend_name, seed=6), 3, m, n)
    ref = haar_orthogonal(get_backend(backend_name, seed=6), 3, m, n, method="reflectors")
    assert f.shape == (3, m, n) and f.rows_orthonormal == (m <= n)
    np.testing.assert_array_equal(to_host(f.dense()), to_host(ref))


@pytest.mark.parametrize("block", [1, 2, 3, 256])
@pytest.mark.parametrize("m, n", SHAPES)
def test_products_equal_products_with_the_formed_matrix(backend_name, m, n, block):
    """x V^T and y V, unformed, against the formed V: within the rounding bound, for any
    partition of the reflectors into blocks (the partition changes only the rounding)."""
    be = get_backend(backend_name, seed=11)
    f = haar_factor(be.child("v"), 2, m, n, block=block)
    v = f.dense()
    x, y = be.child("x").normal((2, 6, n)), be.child("y").normal((2, 6, m))
    bound = _relative_bound(max(m, n), min(m, n))
    assert _row_errors(f.matmul_t(x), x @ v.swapaxes(-1, -2)).max() <= bound
    assert _row_errors(f.rmatmul(y), y @ v).max() <= bound


def test_a_wrong_sign_or_order_is_caught():
    """The product check can fail: applying the blocks in the transposed order, or
    dropping the signs D, moves the product far beyond the rounding bound."""
    be = get_backend(seed=2)
    f = haar_factor(be.child("v"), 1, 6, 6, block=2)
    x = be.child("x").normal((1, 4, 6))
    ref = x @ f.dense().swapaxes(-1, -2)
    bound = _relative_bound(6, 6)
    wrong_order = f._times_qt(x)  # x Q^T where x Q is meant
    unsigned = f._times_q(x) / f.signs[:, None, :]
    assert _row_errors(wrong_order, ref).max() > 1e3 * bound
    assert _row_errors(unsigned, ref).max() > 1e3 * bound


def test_float32_stays_float32(backend_name):
    be = get_backend(backend_name, seed=1, dtype="float32")
    f = haar_factor(be, 2, 5, 8)
    x, y = be.normal((2, 3, 8)), be.normal((2, 3, 5))
    assert_float32(f.dense(), f.matmul_t(x), f.rmatmul(y), [u for _, u, _ in f.blocks], [z for _, _, z in f.blocks])


@pytest.mark.parametrize("kwargs, match", [({"m": 0}, "m must be"), ({"block": 0}, "block must be"),
                                           ({"reps": 0}, "reps must be")])
def test_bad_input_names_the_parameter(kwargs, match):
    args = {"reps": 1, "m": 3, "n": 4} | kwargs
    with pytest.raises(ValueError, match=match):
        haar_factor(get_backend(), **args)
