"""Iterative orthogonalization, Daneshmand et al. (2021), Sec. 5.2, Eq. 6.

With a batch of n >= d samples and the thin SVD H = U Sigma V^T (U: d x d,
V: n x d), Eq. 6 sets

    W = V' Sigma^{-1/2} U^T / ||Sigma^{1/2}||_F,

where V' (d x d) is "an orthogonal matrix obtained by slicing V". Variants:

- ``"printed"``: V' = the first d rows of V, exactly as printed (a slice of a matrix
  with orthonormal columns is not orthogonal in general);
- ``"orthogonal"``: V' = I_d, an orthogonal choice (any orthogonal V' gives the same
  Gram matrix (W H)^T (W H) = V Sigma V^T / tr(Sigma));
- ``"flipped"``: V' = -I_d, the other sign of the same choice;
- ``"whitening"``: V' = I_d and Sigma^{-1} instead of Sigma^{-1/2}, which makes the
  rows of W H orthonormal up to scale.

``power`` replaces the variant's exponent of Sigma (-1/2, or -1 for ``"whitening"``):
W H = V' Sigma^{1 + power} V^T / ||Sigma^{1/2}||_F, whose rows are orthonormal up to
scale only at power = -1 (for mutation tests; None keeps the variant's exponent).

The SVD fixes each pair (u_k, v_k) only up to a common sign, which leaves the sliced
V' (``"printed"``) unchanged but flips row k of W H for V' = +-I. So that V' = +-I
mean one matrix on every platform (LAPACK's and cuSOLVER's signs are unspecified),
the signs are fixed explicitly: each right singular vector v_k has a nonnegative
entry sum. For H >= 0 (after a ReLU) the top one is then >= 0 entrywise
(Perron-Frobenius), so row 1 of W H is >= 0 with V' = I and <= 0 with V' = -I.

>>> import numpy as np
>>> H = np.random.default_rng(0).standard_normal((3, 8))
>>> W = eq6_weight(H, "whitening")
>>> G = (W @ H) @ (W @ H).T
>>> bool(np.allclose(G / G[0, 0], np.eye(3)))
True
"""
from __future__ import annotations

import math
import numbers

from ..core.namespace import array_namespace, eps
from ..core.validation import check_choice, check_finite, entry_point

__all__ = ["EQ6_VARIANTS", "eq6_weight"]

EQ6_VARIANTS = ("printed", "orthogonal", "flipped", "whitening")


@entry_point
def eq6_weight(H, variant: str = "printed", xp=None, power: float | None = None):
    """The d x d matrix W of Eq. 6 for H of shape (..., d, n), n >= d, full row rank
    (numerically: every singular value above max(d, n) eps times the largest, the rank
    tolerance of ``numpy.linalg.matrix_rank``). ``power``: the exponent of Sigma (None:
    the variant's, -1 for ``"whitening"``, -1/2 otherwise; a finite real number).

    >>> import numpy as np
    >>> H = np.random.default_rng(0).standard_normal((2, 5))
    >>> bool(np.array_equal(eq6_weight(H, "whitening", power=-1.0), eq6_weight(H, "whitening")))
    True
    """
    check_choice("variant", variant, EQ6_VARIANTS)
    if power is not None:
        if isinstance(power, bool) or not isinstance(power, numbers.Real) or not math.isfinite(power):
            raise ValueError(f"power must be None or a finite real number, got {power!r}")
        power = float(power)
    xp = xp or array_namespace(H)
    H = xp.asarray(H)
    if H.ndim < 2:
        raise ValueError(f"H must have shape (..., d, n), got shape {H.shape}")
    d, n = H.shape[-2:]
    if n < d:
        raise ValueError(f"n (columns of H) must be >= d = {d} for Eq. 6 (a batch at least as large as the width), "
                         f"got n = {n}")
    check_finite("H", H)
    U, s, Vt = xp.linalg.svd(H, full_matrices=False)  # U (d, d), s (d,), Vt (d, n)
    if not bool(xp.all(s > s[..., :1] * (max(d, n) * eps(s)))):
        raise ValueError("H must have full row rank d (Sigma must be invertible in Eq. 6)")
    signs = xp.where(Vt.sum(axis=-1) < 0, -1.0, 1.0).astype(H.dtype)  # v_k summing to >= 0
    U, Vt = U * signs[..., None, :], Vt * signs[..., :, None]
    if variant == "printed":
        Vp = xp.swapaxes(Vt, -1, -2)[..., :d, :]
    else:
        Vp = xp.broadcast_to(xp.eye(d, dtype=H.dtype) * (-1.0 if variant == "flipped" else 1.0),
                             H.shape[:-2] + (d, d))
    if power is None:
        power = -1.0 if variant == "whitening" else -0.5
    scale = xp.sqrt(s.sum(axis=-1))[..., None, None]  # ||Sigma^{1/2}||_F
    return (Vp * (s ** power)[..., None, :]) @ xp.swapaxes(U, -1, -2) / scale
