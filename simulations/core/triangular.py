"""Inverses of batches of upper-triangular matrices, in matrix products on a GPU.

The reflector constructions of the Haar sampler (``q_from_reflectors`` in
:mod:`simulations.core.random_matrices`, and :mod:`simulations.core.haar_factor`) need
``S^{-1}`` for one upper-triangular ``S`` of order 128 or 256 per block of reflectors
(the UT transform of Joffrain et al. 2006). numpy's ``inv`` solves ``S X = I`` by LU
(getrf + getrs) matrix by matrix: 0.3 ms at order 128 and 1.5 ms at order 256 on the
2-core CPU (``benchmarks/results/cpu-2core-2026-11-24/``). CuPy's ``inv`` of a stack runs
cuBLAS's getrfBatched and getriBatched kernels, which are written for small matrices. On
an H100 (2026-11-24, float64) the factored WN MLP's draw at width 4096 took 1.49 s, where
its normals alone took 12 ms and its flops at the measured peak would take 4 ms. It made
328 such inverses (16 of order 256 in each of 19 square layers; 8 of order 256 and 16 of
order 128 in its 2048 -> 4096 layer): about 4.5 ms each, if they take the rest.

``method="doubling"`` uses batched products instead. Write ``S = [[A, B], [0, C]]``; then

    S^{-1} = [[A^{-1}, -A^{-1} B C^{-1}], [0, C^{-1}]].

Start from the reciprocals of the diagonal (blocks of order 1). For h = 1, 2, 4, ...,
every diagonal block of order 2h has inverted diagonal halves, and one pair of batched
products fills its corner: ceil(log2 n) levels of a few launches each, for any batch.
With N the power of two >= n (the matrix is padded with the identity), the products
cost (2/3) N^3 flops: twice LAPACK's trtri at a power of two, a quarter of the
8 n^3 / 3 of an inverse by LU and solve.

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

#: ``linalg_inv``: ``xp.linalg.inv`` (LU with partial pivoting, which on an upper-triangular
#: matrix pivots nowhere: LAPACK on numpy, cuBLAS's batched kernels on CuPy);
#: ``doubling``: the recursive doubling of the module text.
TRIANGULAR_INVERSE_METHODS = ("linalg_inv", "doubling")


def default_triangular_inverse(xp) -> str:
    """``linalg_inv`` on numpy (the numbers the Haar draws have always had), ``doubling``
    on any other namespace (CuPy, where the batched LU inverse is slow for order >= 128).

    >>> default_triangular_inverse(np)
    'linalg_inv'
    """
    return "linalg_inv" if xp is np else "doubling"


def upper_triangular_inverse(s, xp, method: str | None = None):
    """Inverse of each nonsingular upper-triangular matrix in ``s`` (..., n, n), in the
    namespace ``xp`` and dtype of ``s``; ``method`` from :data:`TRIANGULAR_INVERSE_METHODS`
    (default :func:`default_triangular_inverse`). Only the upper triangle of ``s`` is read
    by ``doubling``. A zero on the diagonal is not checked (a check would read the device):
    ``doubling`` then gives infinities, numpy's ``inv`` raises and CuPy's returns what its
    kernels left, so callers keep the diagonal away from zero."""
    method = default_triangular_inverse(xp) if method is None else method
    check_choice("method", method, TRIANGULAR_INVERSE_METHODS)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2]:
        raise ValueError(f"s: expected a stack of square matrices (..., n, n), got shape {tuple(s.shape)}")
    if s.dtype.kind != "f":
        raise ValueError(f"s: expected a floating dtype (float32 or float64), got {s.dtype}")
    if method == "linalg_inv":
        return xp.linalg.inv(s)
    return _doubling(s, xp)


def upper_triangular_inverses(mats: list, xp, method: str | None = None) -> list:
    """:func:`upper_triangular_inverse` of each array in ``mats``, with one call per
    distinct shape (the arrays of a shape are stacked), so a list of blocks costs a few
    batched calls rather than one per block. On numpy the result is the same, bit for
    bit, as inverting the arrays one by one (numpy's ``inv`` solves for a stack matrix by
    matrix, in a buffer of its own: a property of its implementation, tested here).

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
    """The recursive doubling of the module text on a stack ``s`` (..., n, n). The inverse
    is held as the stack of its diagonal blocks, (reps, blocks, h, h) at order h, so every
    step is a slice, a gather of the corners of the diagonal blocks of the padded ``s`` (one pair of
    adjacent index arrays) or a batched product."""
    *batch, n, _ = s.shape
    reps = int(np.prod(batch, dtype=np.int64))
    size = 1 << max(n - 1, 0).bit_length()  # the power of two >= n
    a = xp.zeros((reps, size, size), dtype=s.dtype)
    a[:, :n, :n] = xp.triu(xp.reshape(s, (reps, n, n)))
    if size > n:
        pad = xp.arange(n, size)
        a[:, pad, pad] = 1
    diag = xp.arange(size)
    inv = xp.reshape(1 / a[:, diag, diag], (reps, size, 1, 1))
    half = 1
    while half < size:
        blocks = size // (2 * half)
        pair = xp.arange(blocks)
        # B, the corner of each diagonal block of order 2h of a: (reps, blocks, h, h)
        by_block = xp.moveaxis(xp.reshape(a, (reps, blocks, 2 * half, blocks, 2 * half)), 3, 2)
        corner = by_block[:, pair, pair, :half, half:]
        first, second = inv[:, 0::2], inv[:, 1::2]  # A^{-1} and C^{-1}
        merged = xp.zeros((reps, blocks, 2 * half, 2 * half), dtype=a.dtype)
        merged[..., :half, :half] = first
        merged[..., half:, half:] = second
        merged[..., :half, half:] = -(first @ corner) @ second
        inv, half = merged, 2 * half
    return xp.reshape(xp.ascontiguousarray(inv[:, 0, :n, :n]), (*batch, n, n))
