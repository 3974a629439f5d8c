"""Random matrices whose rows follow a named law, drawn in batches.

Arpit et al. (2019), Theorems 1-2 (appendix Theorems 5-6), need rows
``R_i ~ P`` iid with ``P`` isotropic in R^n, or a Haar-random matrix with orthogonal
rows. The isotropic laws here differ in their radial part only; the controls are
not isotropic and exist to show that a check can reject.

All samplers return an array of shape ``(reps, m, n)``; nothing is normalized here.

>>> from simulations.backend import get_backend
>>> be = get_backend(seed=0)
>>> R = sample_rows("haar_orthogonal", be, reps=2, m=3, n=5)
>>> import numpy as np
>>> bool(np.allclose(R[0] @ R[0].T, np.eye(3)))
True
"""
from __future__ import annotations

from .backend import Backend
from .validation import check_choice, check_int

__all__ = ["ISOTROPIC_LAWS", "CONTROL_LAWS", "ROW_LAWS", "sample_rows", "haar_orthogonal"]

#: Laws for which Theorems 1-2 are claimed (isotropic rows, or Haar orthogonal).
ISOTROPIC_LAWS = ("gaussian", "haar_orthogonal", "student_t3", "uniform_ball")
#: Non-isotropic laws: ``anisotropic_gaussian`` and ``shifted_gaussian`` must be
#: rejected; ``rademacher`` is not isotropic but sign-symmetric with identity
#: second moment, so Theorem 1's conclusion still holds for it (isotropy is
#: sufficient, not necessary).
CONTROL_LAWS = ("anisotropic_gaussian", "shifted_gaussian", "rademacher")
ROW_LAWS = ISOTROPIC_LAWS + CONTROL_LAWS


def haar_orthogonal(be: Backend, reps: int, m: int, n: int):
    """Haar-random ``m x n`` matrices with orthonormal rows (m <= n) or columns (m > n).

    QR of a Gaussian matrix with the signs of R's diagonal folded into Q
    (Mezzadri 2007), batched over ``reps``.
    """
    xp = be.xp
    tall = (n, m) if m <= n else (m, n)
    g = be.normal((reps,) + tall)
    q, r = xp.linalg.qr(g)
    d = xp.sign(xp.diagonal(r, axis1=-2, axis2=-1))
    d = xp.where(d == 0, 1, d)
    q = q * d[..., None, :]
    return xp.swapaxes(q, -1, -2) if m <= n else q


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
