"""Inverses of batches of upper-triangular matrices, in matrix products on a GPU.

The reflector constructions of the Haar sampler (``q_from_reflectors`` in
:mod:`simulations.core.random_matrices`, and :mod:`simulations.core.haar_factor`) need
``S^{-1}`` for one upper-triangular ``S`` of order 128 or 256 per block of reflectors
(the UT transform of Joffrain et al. 2006). On numpy, LAPACK inverts each one (getrf +
getri) in well under a millisecond. CuPy's batched ``inv`` calls cuBLAS's
getrfBatched/getriBatched, which are written for small matrices, and reads their status
arrays back to the host after each of the two calls. On an H100 (2026-11-24, float64,
width 4096, 20 layers of 16 blocks of order 256) the factored WN MLP's draw took 1.49 s,
where its normals alone took 12 ms and its flops at the measured peak would take 4 ms:
about 4.6 ms for each of its 320 inverses, if they take the rest.

``method="doubling"`` avoids both. Write ``S = [[A, B], [0, C]]``; then

    S^{-1} = [[A^{-1}, -A^{-1} B C^{-1}], [0, C^{-1}]].

Start from the reciprocals of the diagonal (blocks of order 1). For h = 1, 2, 4, ...,
every diagonal block of order 2h has inverted diagonal halves, and one pair of batched
products fills its corner. That makes ceil(log2 n) levels of a few launches each, for
any batch, about n^3 / 3 flops in all (as LAPACK's trtri), and no read back to the host.
A matrix whose order is not a power of two is padded with the identity.

>>> import numpy as np
>>> s = np.triu(np.arange(1.0, 10.0).reshape(3, 3)) + 2 * np.eye(3)
>>> t = upper_triangular_inverse(s[None], np, method="doubling")[0]
>>> bool(np.allclose(t @ s, np.eye(3), atol=1e-15)), bool(np.array_equal(np.triu(t), t))
(True, True)
"""
from __future__ import annotations

import numpy as np

from .validation import check_choice

__all__ = ["TRIANGULAR_INVERSE_METHODS", "default_triangular_inverse", "upper_triangular_inverse",
           "upper_triangular_inverses"]

#: ``lapack``: ``xp.linalg.inv`` (LU with partial pivoting, which on an upper-triangular
#: matrix pivots nowhere); ``doubling``: the recursive doubling of the module text.
TRIANGULAR_INVERSE_METHODS = ("lapack", "doubling")


def default_triangular_inverse(xp) -> str:
    """``lapack`` on numpy (the numbers the Haar draws have always had), ``doubling``
    on any other namespace (CuPy, where the batched LU inverse is slow for order >= 128).

    >>> default_triangular_inverse(np)
    'lapack'
    """
    return "lapack" if xp is np else "doubling"


def upper_triangular_inverse(s, xp, method: str | None = None):
    """Inverse of each nonsingular upper-triangular matrix in ``s`` (..., n, n), in the
    namespace ``xp`` and dtype of ``s``; ``method`` from :data:`TRIANGULAR_INVERSE_METHODS`
    (default :func:`default_triangular_inverse`). Only the upper triangle of ``s`` is read
    by ``doubling``; a zero on the diagonal gives infinities there (``lapack`` raises),
    so callers keep the diagonal away from zero."""
    method = default_triangular_inverse(xp) if method is None else method
    check_choice("method", method, TRIANGULAR_INVERSE_METHODS)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2]:
        raise ValueError(f"s: expected a stack of square matrices (..., n, n), got shape {tuple(s.shape)}")
    if method == "lapack":
        return xp.linalg.inv(s)
    return _doubling(s, xp)


def upper_triangular_inverses(mats: list, xp, method: str | None = None) -> list:
    """:func:`upper_triangular_inverse` of each array in ``mats``, with one call per
    distinct shape (the arrays of a shape are stacked), so a list of blocks costs a few
    batched calls rather than one per block. On numpy the result is the same, bit for
    bit, as inverting the arrays one by one (LAPACK inverts a stack matrix by matrix).

    >>> a, b = np.diag([2.0, 4.0]), np.array([[1.0, 1.0], [0.0, 1.0]])
    >>> [m.tolist() for m in upper_triangular_inverses([a, b, np.eye(1)], np)]
    [[[0.5, 0.0], [0.0, 0.25]], [[1.0, -1.0], [0.0, 1.0]], [[1.0]]]
    """
    out: list = [None] * len(mats)
    shapes: dict = {}
    for i, m in enumerate(mats):
        shapes.setdefault(tuple(m.shape), []).append(i)
    for idx in shapes.values():
        inv = upper_triangular_inverse(xp.stack([mats[i] for i in idx]), xp, method)
        for j, i in enumerate(idx):
            out[i] = inv[j]
    return out


def _doubling(s, xp):
    """The recursive doubling of the module text on a stack ``s`` (..., n, n)."""
    *batch, n, _ = s.shape
    reps = int(np.prod(batch, dtype=np.int64))
    size = 1 << max(n - 1, 0).bit_length()  # the power of two >= n
    a = xp.zeros((reps, size, size), dtype=s.dtype)
    a[:, :n, :n] = xp.triu(xp.reshape(s, (reps, n, n)))
    pad = xp.arange(n, size)
    a[:, pad, pad] = 1
    diag = xp.arange(size)
    t = xp.zeros_like(a)
    t[:, diag, diag] = 1 / a[:, diag, diag]
    half = 1
    while half < size:
        blocks = size // (2 * half)
        pair = xp.arange(blocks)
        shape = (reps, blocks, 2 * half, blocks, 2 * half)
        a4, t4 = xp.reshape(a, shape), xp.reshape(t, shape)
        # the diagonal blocks of order 2h: [[A^-1, 0], [0, C^-1]] in t, B in a; each (blocks, reps, h, h)
        corner = -(t4[:, pair, :half, pair, :half] @ a4[:, pair, :half, pair, half:]) @ t4[:, pair, half:, pair, half:]
        t4[:, pair, :half, pair, half:] = corner
        t = xp.reshape(t4, (reps, size, size))
        half *= 2
    return xp.reshape(t[:, :n, :n], (*batch, n, n))
