"""Haar-random matrices kept as their Householder reflectors and applied unformed.

The ``reflectors`` construction of :func:`simulations.core.haar_orthogonal` draws
Stewart's (1980) reflectors and forms ``Q = H_1 ... H_k [D; 0]`` (p x k), which costs
(2/3) k^2 (3p - k) flops per matrix: more than one product with a batch of B < 2k/3
vectors, and on a GPU a chain of small launches (measured on an H100 in float64 at
width 4096: 31-40 ms per matrix, against 0.6 ms for the product with 1000 vectors).
:class:`HaarFactor` keeps the same reflectors, in blocks ``P_i = I - U_i S_i^{-1} U_i^T``
(the UT transform of Joffrain et al. 2006, as in
:func:`~simulations.core.random_matrices.q_from_reflectors`), and applies ``Q`` or
``Q^T`` to a batch of row vectors block by block:

    x P_i   = x - (x U_i) Z_i^T,      Z_i = U_i S_i^{-T},
    x P_i^T = x - (x Z_i) U_i^T,

each a pair of matrix products with one side of width ``b`` (the block): 4 B b (p - j0)
flops per block, 2 B k (2p - k) in all, the flops of a dense product with a square Q.
Building the blocks costs about 2 b p k flops, against (2/3) k^2 (3p - k) to form Q.

The law is that of ``haar_orthogonal(..., method="reflectors")`` with the same stream:
the reflectors are the same numbers, and :meth:`HaarFactor.dense` is that matrix to
the bit; products differ from products with the formed matrix by rounding only.

>>> import numpy as np
>>> from simulations.core.backend import get_backend
>>> from simulations.core.random_matrices import haar_orthogonal
>>> f = haar_factor(get_backend(seed=3), 2, 4, 7)
>>> v = haar_orthogonal(get_backend(seed=3), 2, 4, 7, method="reflectors")
>>> bool(np.array_equal(f.dense(), v)), f.shape
(True, (2, 4, 7))
>>> x = get_backend(seed=9).normal((2, 5, 7))
>>> bool(np.allclose(f.matmul_t(x), x @ v.swapaxes(1, 2), atol=1e-13))
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .backend import Backend
from .namespace import array_namespace
from .random_matrices import _draw_reflectors, _reflector_blocks, block_triangle_inverses, q_from_reflectors
from .validation import check_int

__all__ = ["APPLY_BLOCK", "HaarFactor", "haar_factor"]

#: Reflectors per block when a factor is applied. Any partition gives the same matrix;
#: on the 2-core CI machine (one thread, width 1000, 1000 vectors) 256 applied fastest
#: of 128 / 256 / 512, and a GPU favours wide blocks (wider products, fewer launches).
APPLY_BLOCK = 256


@dataclass(frozen=True)
class HaarFactor:
    """``reps`` Haar-random ``m x n`` matrices V held as reflectors (see the module).

    ``reflectors`` (reps, p, k) and ``signs`` (reps, k) are those of
    :func:`~simulations.core.random_matrices.q_from_reflectors`, p = max(m, n),
    k = min(m, n); V = Q^T when m <= n (orthonormal rows), V = Q otherwise.
    ``blocks`` holds ``(j0, U, Z)`` per block of reflectors, first to last.
    """

    m: int
    n: int
    reflectors: Any
    signs: Any
    blocks: tuple

    @property
    def shape(self) -> tuple:
        return (int(self.reflectors.shape[0]), self.m, self.n)

    @property
    def rows_orthonormal(self) -> bool:
        """Whether V's rows are orthonormal (m <= n); else its columns are."""
        return self.m <= self.n

    def dense(self):
        """V itself, shape (reps, m, n): the matrix ``haar_orthogonal`` returns."""
        xp = array_namespace(self.reflectors)
        q = q_from_reflectors(self.reflectors, self.signs, xp)
        return xp.swapaxes(q, -1, -2) if self.rows_orthonormal else q

    def matmul_t(self, x):
        """``x V^T`` for x of shape (reps, B, n), as (reps, B, m): the forward product."""
        return self._times_q(x) if self.rows_orthonormal else self._times_qt(x)

    def rmatmul(self, y):
        """``y V`` for y of shape (reps, B, m), as (reps, B, n): the backward product."""
        return self._times_qt(y) if self.rows_orthonormal else self._times_q(y)

    def _times_q(self, x):
        """``x Q`` for x (reps, B, p): ``(x P_1 ... P_r)[:, :k] D``."""
        xp = array_namespace(x, self.reflectors)
        y = xp.array(x, copy=True)
        for j0, u, z in self.blocks:
            tail = y[..., j0:]
            tail -= (tail @ u) @ xp.swapaxes(z, -1, -2)
        k = self.signs.shape[-1]
        return y[..., :k] * self.signs[:, None, :]

    def _times_qt(self, x):
        """``x Q^T`` for x (reps, B, k): ``[x D, 0] P_r^T ... P_1^T``."""
        xp = array_namespace(x, self.reflectors)
        reps, batch, k = x.shape
        y = xp.zeros((reps, batch, self.reflectors.shape[-2]), dtype=self.reflectors.dtype)
        y[..., :k] = x * self.signs[:, None, :]
        for j0, u, z in reversed(self.blocks):
            tail = y[..., j0:]
            tail -= (tail @ z) @ xp.swapaxes(u, -1, -2)
        return y


def haar_factor(be: Backend, reps: int, m: int, n: int, block: int | None = None) -> HaarFactor:
    """Draw ``reps`` Haar-random ``m x n`` matrices as :class:`HaarFactor`: the stream and
    the law of ``haar_orthogonal(be, reps, m, n, method="reflectors")``; ``block``
    reflectors per applied block (default :data:`APPLY_BLOCK`)."""
    reps, m, n = (check_int(name, v, low=1) for name, v in (("reps", reps), ("m", m), ("n", n)))
    block = APPLY_BLOCK if block is None else check_int("block", block, low=1)
    p, k = max(m, n), min(m, n)
    v, signs = _draw_reflectors(be, reps, p, k)
    xp = be.xp
    ranges = _reflector_blocks(k, block)
    blocks = []
    for (j0, j1), s_inv in zip(ranges, block_triangle_inverses(v, ranges, xp)):
        u = v[:, j0:, j0:j1]
        blocks.append((j0, u, u @ xp.swapaxes(s_inv, -1, -2)))
    return HaarFactor(m=m, n=n, reflectors=v, signs=signs, blocks=tuple(blocks))
