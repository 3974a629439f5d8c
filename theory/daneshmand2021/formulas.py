"""Closed forms of Daneshmand et al. (2021), evaluated at stated precision.

Every mpmath function takes ``dps``, works in ``mp.workdps`` with guard digits and
returns a value rounded to ``dps`` digits; none touches the global precision.

Wasserstein-2 of Lemma 2 given H: the rows of W H are iid N(0, C/d) with
C = H^T H (trace 1) and the rows of G/sqrt(n) are iid N(0, I_n/(n d)), so
(Bures-Wasserstein, d independent rows)

    W_2^2(W H, G/sqrt(n) | H) = tr C + 1 - 2 tr (C/n)^{1/2} = sum_i (sqrt(lam_i) - 1/sqrt(n))^2

over the eigenvalues lam_i of C. Since (sqrt a - sqrt b)^2 <= |a - b|,
this is <= sum_i |lam_i - 1/n| <= sqrt(n) V(H) <= 2 n V(H).

>>> float(theorem1_bound(0.5, 10, 4, 1024, dps=20))
0.7846830598316652
>>> float(w2sq_given_gram([0.25, 0.25, 0.25, 0.25], dps=30))  # orthogonal H: W H is exactly G/sqrt(n)
0.0
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from simulations.core import check_int, check_positive

from ..judges import exact_constant

__all__ = ["theorem1_bound", "corollary3_bound", "width_limit_gaps", "ball_radius", "w2sq_given_gram",
           "w2sq_from_spectra", "w2sq_generic", "w2sq_empirical", "chi_violation_probability",
           "chi_lower_tail", "chi_mean", "centered_floor_symbolic", "frobenius_identity_symbolic",
           "W2_OVER_SQRTN_V_MAX", "w2_over_nv_cap"]

_GUARD = 10


def _rounded(x, dps: int):
    """x rounded to dps decimal digits (unary plus rounds to the working precision)."""
    with mpmath.workdps(dps):
        return +x


def theorem1_bound(alpha, ell: int, n: int, d: int, dps: int = 50, plateau_power: float = 0.5,
                   plateau_term: bool = True):
    """Right side of Theorem 1, Eq. 3: 2 (1 - 2 alpha/3)^ell + 3 n / (alpha sqrt(d)).

    ``plateau_power`` and ``plateau_term`` exist for mutation tests only.
    """
    alpha = check_positive("alpha", float(alpha))
    ell = check_int("ell", ell, low=0)
    n = check_int("n", n, low=1)
    d = check_int("d", d, low=n, why="the paper assumes width d >= batch size n")
    with mpmath.workdps(dps + _GUARD):
        a = mpmath.mpf(alpha)
        out = 2 * (1 - 2 * a / 3) ** ell
        if plateau_term:
            out += 3 * n / (a * mpmath.mpf(d) ** mpmath.mpf(plateau_power))
    return _rounded(out, dps)


def ball_radius(n, alpha, d):
    """Radius of the W_2 ball the paper proves: the root of Corollary 3's width term,
    sqrt(6 n^2 / (alpha sqrt(d))) (Sec. 4.1, Eq. 5; the intro's second display has the
    same n^2 / (alpha sqrt(width))). A sympy expression in its arguments (symbols or
    numbers)."""
    return sp.sqrt(6 * sp.sympify(n) ** 2 / (sp.sympify(alpha) * sp.sqrt(d)))


def width_limit_gaps(q1, layers: int, dps: int = 50) -> list:
    """V(H_1), ..., V(H_(layers+1)) of Eq. 1's chain (linear activations) at batch size
    n = 2 in the limit d -> oo, where it is deterministic, from sigma_min(H_1)^2 = q1 in
    (0, 1/2] (the smaller eigenvalue of H_1^T H_1; every q1 is reached from some H_0).

    Given H_k (unit Frobenius, Gram C = H_k^T H_k), the rows x_i of W_k H_k are iid
    N(0, C) up to W's variance, which BN removes, and BN scales each to norm 1/sqrt(d), so
    H_(k+1)^T H_(k+1) = (1/d) sum_i x_i x_i^T/||x_i||^2 -> E[x x^T/||x||^2] as d -> oo (law
    of large numbers, n fixed). In C's eigenbasis, C = diag(a, b) with a + b = 1, that is
    diag(sqrt a, sqrt b)/(sqrt a + sqrt b) (from int_0^pi dphi/(a cos^2 + b sin^2) =
    pi/sqrt(ab); the off-diagonal vanishes by symmetry). With V = sqrt(2) |a - 1/2| (Eq. 2):
    V_(k+1) = V_k/(1 + 2 sqrt(ab)) = V_k/(1 + 2 sqrt(1/4 - V_k^2/2)) (no cancellation at
    any depth), and b = 1/2 - V/sqrt(2) grows along the chain, so sigma_min(H_k) >= sqrt(q1)
    for every k >= 1.

    >>> [round(float(v), 6) for v in width_limit_gaps("1/4", 2, dps=20)]
    [0.353553, 0.189469, 0.096499]
    """
    layers = check_int("layers", layers, low=0)
    with mpmath.workdps(dps + _GUARD):
        c = exact_constant(q1)
        if not (c.is_Rational and 0 < c <= sp.Rational(1, 2)):
            raise ValueError(f"q1 (sigma_min(H_1)^2 at n = 2) must be a rational in (0, 1/2], got {q1!r}")
        q = mpmath.mpf(c.p) / c.q
        v = mpmath.sqrt(2) * (mpmath.mpf(1) / 2 - q)
        out = [v]
        for _ in range(layers):
            v = v / (1 + 2 * mpmath.sqrt(mpmath.mpf(1) / 4 - v * v / 2))
            out.append(v)
    return [_rounded(x, dps) for x in out]


def corollary3_bound(alpha, ell: int, n: int, d: int, dps: int = 50, plateau_term: bool = True):
    """Right side of Corollary 3, Eq. 5: 4 n (1 - 2 alpha/3)^ell + 6 n^2 / (alpha sqrt(d))."""
    return _rounded(2 * n * theorem1_bound(alpha, ell, n, d, dps + _GUARD, plateau_term=plateau_term), dps)


def w2sq_given_gram(eigenvalues, dps: int = 50, reference_scale: float = 1.0):
    """sum_i (sqrt(lam_i / tr) - 1/sqrt(n))^2 for the eigenvalues of C = H^T H.
    ``reference_scale`` multiplies the reference 1/sqrt(n) (1: G/sqrt(n) as in Lemma 2;
    another value is a mutation of the closed form)."""
    lam = [mpmath.mpf(x) for x in np.asarray(eigenvalues, dtype=float).ravel()]
    if not lam or min(lam) < 0:
        raise ValueError("eigenvalues must be a non-empty list of non-negative numbers")
    n = len(lam)
    with mpmath.workdps(dps + _GUARD):
        tr = mpmath.fsum(lam)
        if tr == 0:
            raise ValueError("eigenvalues must not all be zero (H = 0)")
        ref = 1 / mpmath.sqrt(n)
        if reference_scale != 1:
            ref = ref * mpmath.mpf(reference_scale)
        out = mpmath.fsum((mpmath.sqrt(x / tr) - ref) ** 2 for x in lam)
    return _rounded(out, dps)


def w2sq_from_spectra(eigs) -> np.ndarray:
    """The same closed form in float64, vectorized over leading axes of ``eigs``
    (..., n), each row the trace-one spectrum of a Gram matrix (Monte-Carlo use)."""
    eigs = np.clip(np.asarray(eigs, float), 0, None)
    return np.sum((np.sqrt(eigs) - 1 / np.sqrt(eigs.shape[-1])) ** 2, axis=-1)


def w2sq_generic(H) -> float:
    """The same distance by the generic Bures formula on the full (d n) x (d n)
    covariances, with scipy's matrix square root (an independent evaluation)."""
    from scipy.linalg import sqrtm

    H = np.asarray(H, dtype=float)
    d, n = H.shape
    C = H.T @ H / np.sum(H * H)
    A = np.kron(np.eye(d), C / d)  # Cov(vec_row(W H))
    B = np.eye(d * n) / (n * d)  # Cov(vec(G / sqrt(n)))
    rA = sqrtm(A)
    cross = sqrtm(rA @ B @ rA)
    return float(np.real(np.trace(A) + np.trace(B) - 2 * np.trace(cross)))


def w2sq_empirical(X, Y) -> float:
    """Exact W_2^2 between two equal-size empirical measures (rows of X and Y, flattened
    samples), by optimal assignment (scipy's linear_sum_assignment). Biased upward as an
    estimate of the W_2^2 between the underlying laws."""
    from scipy.optimize import linear_sum_assignment

    X = np.asarray(X, float).reshape(len(X), -1)
    Y = np.asarray(Y, float).reshape(len(Y), -1)
    if X.shape != Y.shape:
        raise ValueError(f"X and Y must hold the same number of samples of one dimension, got {X.shape}, {Y.shape}")
    cost = np.sum(X * X, 1)[:, None] + np.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T
    rows, cols = linear_sum_assignment(cost)
    return float(cost[rows, cols].mean())


def chi_violation_probability(d: int, dps: int = 50):
    """P(sigma_min(H_0) < sqrt(d) - sqrt(n)) for n = 1 and iid N(0, 1) entries: the
    column norm is chi_d, so this is P(chi^2_d < (sqrt(d) - 1)^2), a regularized gamma."""
    d = check_int("d", d, low=1)
    with mpmath.workdps(dps + _GUARD):
        x = (mpmath.sqrt(d) - 1) ** 2 / 2
        out = mpmath.gammainc(mpmath.mpf(d) / 2, 0, x, regularized=True)
    return _rounded(out, dps)


def chi_lower_tail(d: int, x: float, dps: int = 50):
    """P(chi_d <= x) for chi_d the norm of d iid N(0, 1) (0 for x <= 0): the regularized
    lower incomplete gamma P(d/2, x^2/2).

    >>> float(chi_lower_tail(2, 1.0, dps=20)) == float(1 - mpmath.exp(-0.5))
    True
    """
    d = check_int("d", d, low=1)
    if x <= 0:
        return mpmath.mpf(0)
    with mpmath.workdps(dps + _GUARD):
        out = mpmath.gammainc(mpmath.mpf(d) / 2, 0, mpmath.mpf(x) ** 2 / 2, regularized=True)
    return _rounded(out, dps)


def chi_mean(d: int, dps: int = 50):
    """E[sigma_min(H_0)] for n = 1: E[chi_d] = sqrt(2) Gamma((d+1)/2) / Gamma(d/2)."""
    d = check_int("d", d, low=1)
    with mpmath.workdps(dps + _GUARD):
        out = mpmath.sqrt(2) * mpmath.exp(mpmath.loggamma(mpmath.mpf(d + 1) / 2) - mpmath.loggamma(mpmath.mpf(d) / 2))
    return _rounded(out, dps)


def centered_floor_symbolic(scale=1) -> sp.Expr:
    """||P/(n-1) - I/n||_F^2 - scale/(n(n-1)) for symbolic n, P = I - 11^T/n (0 = proved
    for the stated floor, ``scale`` = 1; another scale, taken as an exact rational, is a
    mutation and leaves a non-zero residual).

    P/(n-1) - I/n has diagonal 1/(n(n-1)) (n entries) and off-diagonal -1/(n(n-1))
    (n(n-1) entries).

    >>> centered_floor_symbolic(1.04)
    -1/(25*n*(n - 1))
    """
    n = sp.Symbol("n", integer=True, positive=True)
    diag = (1 - 1 / n) / (n - 1) - 1 / n
    off = -1 / (n * (n - 1))
    return sp.simplify(n * diag**2 + n * (n - 1) * off**2 - exact_constant(scale) / (n * (n - 1)))


def frobenius_identity_symbolic(scale_power=sp.Rational(1, 2)) -> sp.Expr:
    """||BN(M)/d^scale_power||_F^2 - 1 for symbolic d (0 = proved for Eq. 1's 1/sqrt(d)):
    each of the d rows of BN(M) has unit norm, so the squared Frobenius norm is
    d/d^(2 scale_power). Another power (an exact rational) is a mutation and leaves a
    non-zero residual.

    >>> frobenius_identity_symbolic(0.501)
    -1 + d**(-1/500)
    """
    d = sp.Symbol("d", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    return sp.simplify(sp.summation(sp.Integer(1), (k, 1, d)) / d ** (2 * exact_constant(scale_power)) - 1)


#: The largest W_2^2 / (sqrt(n) V) over trace-one spectra of any n, max_s 2 s sqrt((1 - s)/(1 + s))
#: at s = (sqrt(5) - 1)/2 = 0.600566 (k equal eigenvalues, s = sqrt(k/n), give W_2^2 = 2 - 2 s and
#: sqrt(n) V = sqrt(1 - s^2)/s; no spectrum exceeded it in optimizer searches up to n = 200).
W2_OVER_SQRTN_V_MAX = (math.sqrt(5) - 1) * math.sqrt((3 - math.sqrt(5)) / (1 + math.sqrt(5)))


def w2_over_nv_cap(n: int) -> float:
    """An upper bound on W_2^2 / (n V) over unit-Frobenius H of width n: 0 at n = 1 (V = 0
    and W_2^2 = 0), sqrt(2) - 1 at n = 2 (rank one), W2_OVER_SQRTN_V_MAX / sqrt(n) above
    (0.347 at n = 3, 0.150 at n = 16). A bound row W_2^2 <= c n V with c at or above it
    cannot fail."""
    if n == 1:
        return 0.0
    return math.sqrt(2) - 1 if n == 2 else W2_OVER_SQRTN_V_MAX / math.sqrt(n)
