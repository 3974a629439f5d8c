"""The one Haar sampler: unchanged numbers from the LAPACK construction, the same Q from
the constructions that share a Gaussian matrix, the reflector construction's formation
step equal to LAPACK's, the Haar law of every construction by exact moments and an exact
entry law, float32 kept; the row laws."""
import math

import numpy as np
import pytest
from scipy import linalg, stats

from simulations import HAAR_METHODS, ROW_LAWS, get_backend, haar_orthogonal, sample_rows, to_host
from simulations.core.random_matrices import (
    GPU_HOUSEHOLDER_MAX_REPS,
    _draw_reflectors,
    default_haar_method,
    q_from_reflectors,
    reflector_draw_shapes,
)
from tests.support.precision import U64, assert_float32, float32_tolerance, rounded_backend, rounding_tolerance

#: Significance of each statistical test function below (split over its sub-tests).
ALPHA = 1e-6


def test_householder_numbers_are_unchanged():
    """Values of row_laws.haar_orthogonal before the restructure (seed 3), to rounding."""
    q = haar_orthogonal(get_backend(seed=3), 2, 3, 5, "householder")
    np.testing.assert_allclose(q[1, 2], [0.4678529449045863, 0.05436607158511899, 0.061392211190513496,
                                         0.17085008988041123, -0.8632492081650018], rtol=0, atol=1e-14)
    q = haar_orthogonal(get_backend(seed=3), 2, 4, 4, "householder")
    np.testing.assert_allclose(q[0, :, 1], [-0.16517688027416322, 0.9455456242055553, -0.07702735977834216,
                                            -0.269679173489907], rtol=0, atol=1e-14)


@pytest.mark.parametrize("m, n", [(3, 7), (7, 3), (5, 5), (1, 4)])
def test_both_constructions_give_the_same_q(backend_name, m, n):
    """Same Gaussian draws -> same positive-diagonal QR factor. The Q factor of G moves by
    at most ~ cond(G) times the backward error (k eps), so the bound is 10 k eps cond(G)."""
    q = {meth: to_host(haar_orthogonal(get_backend(backend_name, seed=9), 40, m, n, meth))
         for meth in ("householder", "cholesky")}
    g = to_host(get_backend(backend_name, seed=9).normal((40, max(m, n), min(m, n))))
    bound = 10 * min(m, n) * np.finfo(float).eps * np.linalg.cond(g)
    assert np.all(np.abs(q["householder"] - q["cholesky"]).max(axis=(1, 2)) <= bound)
    for a in q.values():
        gram = a @ a.swapaxes(1, 2) if m <= n else a.swapaxes(1, 2) @ a
        np.testing.assert_allclose(gram, np.broadcast_to(np.eye(min(m, n)), gram.shape), atol=1e-13)


@pytest.mark.parametrize("reps", [3, GPU_HOUSEHOLDER_MAX_REPS + 1])
def test_default_construction_follows_the_backend_and_batch(backend_name, reps):
    expected = ("reflectors" if backend_name == "numpy" else
                "householder" if reps <= GPU_HOUSEHOLDER_MAX_REPS else "cholesky")
    assert default_haar_method(get_backend(backend_name).name, reps) == expected
    np.testing.assert_array_equal(to_host(haar_orthogonal(get_backend(backend_name, seed=2), reps, 4, 4)),
                                  to_host(haar_orthogonal(get_backend(backend_name, seed=2), reps, 4, 4, expected)))


@pytest.mark.parametrize("reps, p, k", [(2, 7, 7), (1, 300, 130), (3, 260, 256), (1, 129, 1)])
def test_reflector_draw_shapes_are_the_draws_in_stream_order(backend_name, reps, p, k):
    """Drawing ``reflector_draw_shapes`` from a fresh copy of the stream gives the
    reflectors' entries below the diagonal, block by block, and nothing is left over: the
    next draw of both streams agrees (the benchmarks time these shapes as the sampler's
    own draws)."""
    be, twin = get_backend(backend_name, seed=4), get_backend(backend_name, seed=4)
    v, _ = _draw_reflectors(be, reps, p, k)
    v = to_host(v)
    for shape in reflector_draw_shapes(reps, p, k):
        j0 = p - shape[1]
        block = np.tril(to_host(twin.normal(shape)), -1)
        np.testing.assert_array_equal(np.tril(v[:, j0:, j0:j0 + shape[2]], -1), block)
    np.testing.assert_array_equal(to_host(be.normal((2,))), to_host(twin.normal((2,))))


@pytest.mark.parametrize("p, k", [(7, 7), (9, 4), (1, 1), (300, 130), (260, 260)])
def test_reflector_formation_equals_lapack(p, k):
    """The formation step of ``reflectors``, fed LAPACK's own Householder vectors of a
    Gaussian G (``scipy.linalg.qr(mode="raw")``; tau = 0 marks LAPACK's identity reflector),
    rebuilds LAPACK's positive-diagonal Q to rounding: the only difference between the
    two constructions is then where the reflectors come from, which is the theorem of
    the docstring (tested in law below). Sizes cross the 128-column block boundary.
    Both sides apply the same k reflectors of length <= p in floating point, each with a
    columnwise error of at most k gamma~_p ~ c k p u (Higham 2002, Lemma 19.3; c a small
    constant, taken as 10): the bound on their difference is 2 c k p u = 10 k p eps."""
    g = np.random.default_rng(p * 1000 + k).standard_normal((p, k))
    (raw, tau), r = linalg.qr(g, mode="raw")
    v = np.tril(raw, -1)[:, :k]
    v[np.arange(k), np.arange(k)] = 1.0
    v[:, tau == 0] = 0.0
    d = np.sign(np.diag(r[:k, :k]))
    q, r2 = np.linalg.qr(g)
    np.testing.assert_allclose(q_from_reflectors(v[None], d[None], np)[0], q * np.sign(np.diag(r2)),
                               rtol=0, atol=10 * k * p * np.finfo(float).eps)


@pytest.mark.parametrize("block", [1, 7, 64, 256, 300])
def test_reflector_formation_any_block_gives_the_same_q(backend_name, block):
    """The blocks of the formation only group the product of the same reflectors, so any
    ``block`` forms the same Q as the draw's partition (``REFLECTOR_BLOCK``) up to
    rounding: each applies k reflectors of length <= p, a column's error at most
    ``rounding_tolerance(k, p, U64)`` (``tests/support/precision.py``), so the two differ
    by at most twice that per column (a block wider than k is one block). Another block
    does change the bits (so the parameter is used), and the default is the partition of
    the draw, the numbers ``haar_orthogonal`` returns, to the bit."""
    reps, p, k = 2, 300, 260
    be = get_backend(backend_name, seed=11)
    v, d = _draw_reflectors(be, reps, p, k)
    xp = be.xp
    ref = to_host(q_from_reflectors(v, d, xp))
    np.testing.assert_array_equal(ref, to_host(haar_orthogonal(get_backend(backend_name, seed=11), reps, k, p,
                                                               "reflectors")).swapaxes(1, 2))
    q = to_host(q_from_reflectors(v, d, xp, block=block))
    assert np.linalg.norm(q - ref, axis=1).max() <= 2 * rounding_tolerance(k, p, U64)
    assert not np.array_equal(q, ref)


def test_reflector_formation_checks_its_block():
    v, d = _draw_reflectors(get_backend(seed=1), 1, 5, 3)
    for bad in (0, -2, 2.5, True):
        with pytest.raises(ValueError, match="block"):
            q_from_reflectors(v, d, np, block=bad)


def _haar_pvalues(q, q_rows):
    """Two-sided p-values of the Haar moments E tr(Q) = 0, E tr(Q)^2 = 1, E tr(Q^2) = 1
    (O(n), n >= 2; Diaconis & Shahshahani 1994) by z-tests of the sample means, and of a
    Kolmogorov-Smirnov test of the entries Q_11 against their exact law: a row of a Haar
    matrix is uniform on the sphere S^{n-1}, so (Q_11 + 1)/2 ~ Beta((n-1)/2, (n-1)/2)."""
    t = np.trace(q, axis1=1, axis2=2)
    moments = {"E tr Q = 0": (t, 0.0), "E tr(Q)^2 = 1": (t**2, 1.0),
               "E tr(Q^2) = 1": (np.trace(q @ q, axis1=1, axis2=2), 1.0)}
    out = {name: 2 * stats.norm.sf(abs(x.mean() - mu) / (x.std(ddof=1) / math.sqrt(x.size)))
           for name, (x, mu) in moments.items()}
    a = (q_rows.shape[-1] - 1) / 2
    out["KS Q_11"] = stats.kstest((q_rows[:, 0, 0] + 1) / 2, stats.beta(a, a).cdf).pvalue
    return out


@pytest.mark.parametrize("method", HAAR_METHODS)
def test_haar_law(backend_name, method):
    """Four tests at ALPHA / 4 each (z = 5.16) on 20,000 draws (standard errors 0.0071 for
    tr Q, 0.010 for the second moments): biases of 0.046 in E tr Q and 0.064 in the second
    moments are detected with probability 0.9; the unfixed QR's E tr Q = -1.27 surely
    (next test)."""
    be = get_backend(backend_name, seed=17)
    q = to_host(haar_orthogonal(be, 20000, 6, 6, method))
    rows = to_host(haar_orthogonal(be, 20000, 3, 7, method))
    p = _haar_pvalues(q, rows)
    assert min(p.values()) > ALPHA / 4, p


def test_reflectors_haar_law_across_a_block_boundary(backend_name):
    """``reflectors`` draws and forms Q in blocks of 128 columns; at k = 129 the last
    column is drawn and formed in a second block. 2,000 draws of 129 x 129 (4 batches):
    the four tests of ``_haar_pvalues`` (Q_11 ~ the Beta(64, 64) law of a coordinate of a
    uniform point on S^128) and the same entry law on the other side of the boundary
    (Q_{1,129}, Q_{129,129}), six tests at ALPHA / 6."""
    be = get_backend(backend_name, seed=23)
    q = np.concatenate([to_host(haar_orthogonal(be.child(i), 500, 129, 129, "reflectors")) for i in range(4)])
    p = list(_haar_pvalues(q, q).values())
    p += [stats.kstest((q[:, i, j] + 1) / 2, stats.beta(64, 64).cdf).pvalue for i, j in ((0, 128), (128, 128))]
    assert min(p) > ALPHA / 6, p


def test_haar_law_test_rejects_qr_without_the_sign_fix():
    g = get_backend(seed=17).normal((20000, 6, 6))
    q, _ = np.linalg.qr(g)  # LAPACK's Q alone is not Haar (Mezzadri 2007)
    p = _haar_pvalues(q, q[:, :3, :])
    assert p["E tr Q = 0"] < ALPHA / 4 and p["E tr(Q^2) = 1"] < ALPHA / 4


@pytest.mark.parametrize("method", HAAR_METHODS)
def test_float32_haar_matches_float64(backend_name, method):
    """Rounding G to float32 moves Q by ~ cond(G) u and the result is rounded once more:
    bound float32_tolerance(1, k) cond(G) (tests/support/precision.py)."""
    b64, b32 = rounded_backend(backend_name, 5)
    q64, q32 = (haar_orthogonal(b, 30, 12, 12, method) for b in (b64, b32))
    assert_float32(q32)
    g = to_host(get_backend(backend_name, seed=5).normal((30, 12, 12)))
    err = np.abs(to_host(q32).astype(float) - to_host(q64)).max(axis=(1, 2))
    assert np.all(err <= float32_tolerance(1, 12) * np.linalg.cond(g))


@pytest.mark.parametrize("law", ROW_LAWS)
def test_row_laws_shapes_and_dtypes(backend_name, law):
    be = get_backend(backend_name, seed=1, dtype="float32")
    r = sample_rows(law, be, 4, 3, 5)
    assert r.shape == (4, 3, 5)
    assert_float32(r)
