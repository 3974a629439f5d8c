"""Random matrices whose rows follow a named law, drawn in batches.

Arpit et al. (2019), Theorems 1-2 (appendix Theorems 5-6), need rows
``R_i ~ P`` iid with ``P`` isotropic in R^n, or a Haar-random matrix with orthogonal
rows. The isotropic laws here differ in their radial part only; the controls are
not isotropic and exist to show that a check can reject.

All samplers return an array of shape ``(reps, m, n)``; nothing is normalized here.

>>> from simulations.core.backend import get_backend
>>> be = get_backend(seed=0)
>>> R = sample_rows("haar_orthogonal", be, reps=2, m=3, n=5)
>>> import numpy as np
>>> bool(np.allclose(R[0] @ R[0].T, np.eye(3)))
True
"""
from __future__ import annotations

import numpy as np

from .backend import Backend
from .triangular import upper_triangular_inverses
from .validation import check_choice, check_int

__all__ = ["ISOTROPIC_LAWS", "CONTROL_LAWS", "ROW_LAWS", "HAAR_METHODS", "sample_rows", "haar_orthogonal",
           "default_haar_method", "reflector_draw_shapes"]

#: Laws for which Theorems 1-2 are claimed (isotropic rows, or Haar orthogonal).
ISOTROPIC_LAWS = ("gaussian", "haar_orthogonal", "student_t3", "uniform_ball")
#: Non-isotropic laws: ``anisotropic_gaussian`` and ``shifted_gaussian`` must be
#: rejected; ``rademacher`` is not isotropic but sign-symmetric with identity
#: second moment, so Theorem 1's conclusion still holds for it (isotropy is
#: sufficient, not necessary).
CONTROL_LAWS = ("anisotropic_gaussian", "shifted_gaussian", "rademacher")
ROW_LAWS = ISOTROPIC_LAWS + CONTROL_LAWS
#: Constructions of the Haar sampler, all of the same law. ``householder`` and
#: ``cholesky`` give the same Q for the same Gaussian matrix; ``reflectors`` draws the
#: Householder vectors themselves and so uses a different (shorter) stream.
HAAR_METHODS = ("reflectors", "householder", "cholesky")
#: Columns per block of the compact WY formation in the ``reflectors`` construction
#: (128 was fastest of 64/128/256 at width 1000 on the 2-core CI machine).
REFLECTOR_BLOCK = 128


def haar_orthogonal(be: Backend, reps: int, m: int, n: int, method: str | None = None):
    """Haar-random ``m x n`` matrices with orthonormal rows (m <= n) or columns (m > n),
    batched over ``reps``: the one Haar sampler of the project.

    Every method returns, in law, the Q factor of the QR decomposition ``G = Q R`` of a
    Gaussian matrix ``G`` (p x k with p = max(m, n), k = min(m, n)) whose triangular
    factor has a positive diagonal. That Q is Haar distributed (Mezzadri 2007, Sec. 5:
    the positive-diagonal QR is unique, so ``O G`` has Q factor ``O Q`` for any fixed
    orthogonal ``O``).

    - ``"reflectors"`` (default on numpy): Stewart's (1980) construction. Householder QR
      of G applies reflectors ``H_j`` that send the j-th column of ``H_{j-1}...H_1 G``,
      below the diagonal, to a multiple of ``e_1``; by the rotation invariance of G that
      column is a fresh standard Gaussian vector of length p - j + 1, independent of
      ``H_1, ..., H_{j-1}``. So the reflectors are drawn directly, one Gaussian vector
      each (pk - k(k-1)/2 draws instead of pk), and ``Q = H_1 ... H_k [D; 0]`` with
      ``D = sign(diag R)`` is formed block by block in compact WY form
      (``H_j ... H_{j+b-1} = I - U S^{-1} U^T`` with ``S = diag(U^T U)/2 + striu(U^T U)``,
      the UT transform of Joffrain et al. 2006): (2/3) k^2 (3p - k) flops in matrix
      products (half of ``"householder"``: no factorization, only the formation of Q) plus
      about 128 p k for the blocks' Gram matrices;
    - ``"householder"`` (the CuPy default for a few matrices): LAPACK's (cuSOLVER's)
      Householder QR of G with the signs of R's diagonal folded into Q; (4/3) k^2 (3p - k)
      flops for a p x k matrix, the numbers this sampler gave before ``reflectors``;
    - ``"cholesky"`` (the CuPy default for large batches, :func:`default_haar_method`):
      shifted CholeskyQR3 (Fukaya et al. 2020) of the same G in float64, three passes of
      ``C = A^T A``, ``L = chol(C)``, ``A <- A L^{-T}``, the first with the diagonal shift
      ``11 (p k + k (k + 1)) u ||A||_F^2``; it is orthonormal to rounding for condition
      numbers of G up to about ``1 / (11 (p k + k^2) u)`` (1e11 for k = 100; a Gaussian
      matrix exceeds it with probability ~ k / 1e11). Every step is a batched matmul, Cholesky or solve: a
      few kernel launches for any number of matrices, where a batched Householder QR
      on a GPU is one cuSOLVER call per matrix. Flops per p x k matrix: three passes
      of 2 p k^2 (Gram) + k^3 / 3 (Cholesky) + 2 k^3 / 3 + 2 p k^2 (solve).

    >>> import numpy as np
    >>> from simulations.core.backend import get_backend
    >>> a = haar_orthogonal(get_backend(seed=5), 3, 4, 6)
    >>> b = haar_orthogonal(get_backend(seed=5), 3, 4, 6, method="householder")
    >>> c = haar_orthogonal(get_backend(seed=5), 3, 4, 6, method="cholesky")
    >>> bool(np.allclose(b, c, atol=1e-12)), bool(np.allclose(a @ a.swapaxes(1, 2), np.eye(4)))
    (True, True)
    """
    reps, m, n = (check_int(name, v, low=1) for name, v in (("reps", reps), ("m", m), ("n", n)))
    if method is None:
        method = default_haar_method(be.name, reps)
    check_choice("method", method, HAAR_METHODS)
    xp = be.xp
    tall = (n, m) if m <= n else (m, n)
    if method == "reflectors":
        q = _reflector_q(be, reps, *tall)
    else:
        g = be.normal((reps,) + tall)
        q = _householder_q(g, xp) if method == "householder" else _cholesky_q(g, xp)
    return xp.swapaxes(q, -1, -2) if m <= n else q


#: On CuPy, batches of at most this many matrices use ``householder`` (one cuSOLVER QR per
#: matrix), larger ones ``cholesky`` (a few batched launches for the whole batch).
GPU_HOUSEHOLDER_MAX_REPS = 16


def default_haar_method(backend: str, reps: int) -> str:
    """The Haar construction used when none is named: ``reflectors`` on numpy. On CuPy,
    ``householder`` for a few matrices and ``cholesky`` for a large batch: measured on an
    H100 (float64, one 1024 x 1024 matrix), cuSOLVER's QR took 5.0 ms, shifted CholeskyQR3
    16.2 ms and the reflector formation 10.5 ms, while a batched QR is one cuSOLVER call
    per matrix and CholeskyQR3 a fixed number of launches for any batch. The two give the
    same Q for the same Gaussian draw up to rounding (householder works in the working
    dtype, cholesky in float64), so the switch draws no other numbers; a network drawn in
    a batch of 16 and in one of 17 differs only in the last bits of the working dtype.

    >>> default_haar_method("numpy", 1), default_haar_method("cupy", 5), default_haar_method("cupy", 1000)
    ('reflectors', 'householder', 'cholesky')
    """
    if backend == "numpy":
        return "reflectors"
    return "householder" if reps <= GPU_HOUSEHOLDER_MAX_REPS else "cholesky"


def _draw_reflectors(be: Backend, reps: int, p: int, k: int):
    """Stewart's Householder vectors, unnormalized, as the columns of a lower-trapezoidal
    (reps, p, k) array, and the signs of R's diagonal (see :func:`haar_orthogonal`).

    Column j holds ``x + s ||x|| e_j`` below the diagonal, x a fresh Gaussian vector of
    length p - j and s = sign(x_0) (+1 at 0), so that its reflector sends x to
    ``-s ||x|| e_j``: R's diagonal entry is -s ||x||.
    """
    xp = be.xp
    v = xp.zeros((reps, p, k), dtype=be.dtype)
    for j0, j1 in _reflector_blocks(k):
        block = be.normal((reps, p - j0, j1 - j0))
        block[:, : j1 - j0, :] = xp.tril(block[:, : j1 - j0, :])
        v[:, j0:, j0:j1] = block
    idx = xp.arange(k)
    x0 = v[:, idx, idx]
    s = xp.where(x0 >= 0, 1, -1).astype(v.dtype)
    v[:, idx, idx] = x0 + s * xp.sqrt(xp.sum(v * v, axis=-2))
    return v, -s


def reflector_draw_shapes(reps: int, p: int, k: int) -> list:
    """Shapes of the normal draws of the ``reflectors`` construction of ``reps`` p x k
    matrices, in stream order: one ``(reps, p - j0, b)`` block per ``REFLECTOR_BLOCK``
    columns (the upper triangle of each block's top square is drawn and discarded).

    >>> reflector_draw_shapes(1, 300, 200)
    [(1, 300, 128), (1, 172, 72)]
    """
    return [(reps, p - j0, j1 - j0) for j0, j1 in _reflector_blocks(k)]


def _reflector_blocks(k: int, block: int = REFLECTOR_BLOCK) -> list:
    """Column ranges ``(j0, j1)`` of the ``block``-wide blocks of k reflectors, first to
    last (applied in the reverse; with the default block, also the blocks in which they
    are drawn)."""
    return [(j0, min(j0 + block, k)) for j0 in range(0, k, block)]


def _reflector_q(be: Backend, reps: int, p: int, k: int):
    v, d = _draw_reflectors(be, reps, p, k)
    return q_from_reflectors(v, d, be.xp)


def q_from_reflectors(v, d, xp, block: int = REFLECTOR_BLOCK):
    """``H_1 ... H_k [diag(d); 0]`` for the reflectors ``H_j = I - 2 v_j v_j^T / v_j^T v_j``
    held in the columns of the lower-trapezoidal ``v`` (reps, p, k), applied ``block``
    columns at a time from the last, in compact WY form (LAPACK's ``orgqr`` order): the
    block of columns j0:j1 is ``I - U S^{-1} U^T`` with ``U = v[j0:, j0:j1]`` and
    ``S = diag(U^T U) / 2 + striu(U^T U)`` (Joffrain et al. 2006), and it only touches rows
    and columns from j0 on. A zero column (probability 0) is the identity. The blocks'
    ``S^{-1}`` are computed together, a few batched calls for all blocks
    (:func:`~simulations.core.triangular.upper_triangular_inverses`: LAPACK on numpy,
    recursive doubling in matrix products elsewhere).

    Any ``block`` gives the same Q up to rounding (the blocks only group the reflectors'
    product); the default, ``REFLECTOR_BLOCK``, is the partition of the draw, and the
    numbers ``haar_orthogonal`` returns.

    >>> import numpy as np
    >>> v = np.array([[[1.0], [1.0]]])          # reflector across the line x = y
    >>> q_from_reflectors(v, np.array([[1.0]]), np)[0, :, 0].tolist()
    [0.0, -1.0]
    """
    block = check_int("block", block, low=1)
    reps, p, k = v.shape
    idx = xp.arange(k)
    q = xp.zeros((reps, p, k), dtype=v.dtype)
    q[:, idx, idx] = d
    blocks = _reflector_blocks(k, block)
    for (j0, j1), s_inv in zip(reversed(blocks), reversed(block_triangle_inverses(v, blocks, xp))):
        u = v[:, j0:, j0:j1]
        tail = q[:, j0:, j0:]
        tail -= u @ (s_inv @ (xp.swapaxes(u, -1, -2) @ tail))
    return q


def reflector_half_norms(v, xp):
    """``v_j^T v_j / 2`` per reflector column of v (reps, p, k); 1 for a zero column
    (probability 0), which :func:`ut_triangle` then makes the identity."""
    half = 0.5 * xp.sum(v * v, axis=-2)
    return xp.where(half == 0, 1, half)


def block_triangle_inverses(v, blocks, xp) -> list:
    """``S^{-1}`` of the :func:`ut_triangle` of each block ``v[:, j0:j1 columns]`` of the
    reflectors v, for the column ranges ``blocks`` ((j0, j1) pairs); all blocks in one
    call per block width (:func:`~simulations.core.triangular.upper_triangular_inverses`)."""
    half = reflector_half_norms(v, xp)
    return upper_triangular_inverses([ut_triangle(v[:, j0:, j0:j1], half[:, j0:j1], xp) for j0, j1 in blocks], xp)


def ut_triangle(u, half, xp):
    """``S = diag(U^T U) / 2 + striu(U^T U)`` for a block U (reps, p', b) of reflectors
    with ``half`` = diag(U^T U) / 2: their product is ``I - U S^{-1} U^T`` (Joffrain et
    al. 2006)."""
    s = xp.triu(xp.swapaxes(u, -1, -2) @ u, 1)
    b = xp.arange(u.shape[-1])
    s[:, b, b] = half
    return s


def _householder_q(g, xp):
    q, r = xp.linalg.qr(g)
    d = xp.sign(xp.diagonal(r, axis1=-2, axis2=-1))
    d = xp.where(d == 0, 1, d)
    return q * d[..., None, :]


def _cholesky_pass(a, xp, shift=None):
    """``a L^{-T}`` with ``L L^T = a^T a (+ shift I)``: one CholeskyQR pass."""
    c = xp.swapaxes(a, -1, -2) @ a
    if shift is not None:
        c = c + shift[..., None, None] * xp.eye(c.shape[-1], dtype=c.dtype)
    low = xp.linalg.cholesky(c)
    return xp.swapaxes(xp.linalg.solve(low, xp.swapaxes(a, -1, -2)), -1, -2)


def _cholesky_q(g, xp):
    """Shifted CholeskyQR3 in float64, rounded to g's dtype at the end (a float32 Q is
    then orthonormal to float32 rounding; working in float32 throughout would break down
    for condition numbers above ~1e3, common for Gaussian matrices of width >= 100)."""
    p, k = g.shape[-2:]
    a = g.astype(xp.float64)
    unit_roundoff = float(np.finfo(np.float64).eps) / 2
    shift = 11.0 * (p * k + k * (k + 1)) * unit_roundoff * xp.sum(a * a, axis=(-2, -1))
    q = _cholesky_pass(_cholesky_pass(_cholesky_pass(a, xp, shift), xp), xp)
    return q.astype(g.dtype)


def sample_rows(law: str, be: Backend, reps: int, m: int, n: int):
    """Draw ``reps`` matrices of shape ``(m, n)`` whose rows follow ``law``."""
    check_choice("law", law, ROW_LAWS)
    reps = check_int("reps", reps, low=1)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    xp = be.xp
    if law == "gaussian":
        return be.normal((reps, m, n))
    if law == "haar_orthogonal":
        return haar_orthogonal(be, reps, m, n)
    if law == "student_t3":
        # Gaussian scale mixture: isotropic, heavy-tailed radial part (3 d.o.f.).
        chi2 = xp.sum(be.normal((reps, m, 3)) ** 2, axis=-1, keepdims=True)
        return be.normal((reps, m, n)) / xp.sqrt(chi2 / 3)
    if law == "uniform_ball":
        g = be.normal((reps, m, n))
        g /= xp.linalg.norm(g, axis=-1, keepdims=True)
        return g * be.uniform((reps, m, 1)) ** (1.0 / n)
    if law == "rademacher":
        return xp.where(be.uniform((reps, m, n)) < 0.5, -1.0, 1.0).astype(be.dtype)
    if law == "anisotropic_gaussian":
        # Variance 4 along the first coordinate, 1 elsewhere.
        scale = xp.ones(n, dtype=be.dtype)
        scale[0] = 2.0
        return be.normal((reps, m, n)) * scale
    # shifted_gaussian: mean 0.5 / sqrt(n) along the all-ones direction.
    return be.normal((reps, m, n)) + 0.5 / n**0.5
