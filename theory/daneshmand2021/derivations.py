"""Does each checked step of Daneshmand et al. (2021) follow from the printed steps it
cites? The second question a proof step is judged on (the first, is it true, is the
claim's judge): each derivation takes the PRINTED forms of the cited steps (Eq. 1's unit
norm, Eq. 2's gap, Eq. 3's bound, Eq. 4, Eq. 5, Eq. 6, Sec. 3.3's hypothesis on H_0,
Theorem 3.6 of Hairer 2010 as the display cites it), derives what they give by sympy in
exact arithmetic, and compares it with the step as printed (or as corrected). Each
returns ``{"follows": bool, "why": str}`` (:attr:`theory.core.claims.Claim.derivation`);
:func:`with_derivation` attaches it, with the cited labels, to the claims of
:mod:`.catalogue`.

A step can be true and not follow: Corollary 3 as printed (exponent l) is not refuted by
the simulations, but Lemma 2 at l with Theorem 1 gives the exponent l - 1.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools

import sympy as sp

__all__ = ["DERIVATIONS", "with_derivation"]

K = "daneshmand2021."
_a, _l, _n, _d = sp.symbols("alpha l n d", positive=True)


def _thm1(ell):
    """Eq. 3's right side at index ``ell``, as printed: 2 (1 - 2 alpha/3)^ell + 3 n/(alpha sqrt d)."""
    return 2 * (1 - sp.Rational(2, 3) * _a) ** ell + 3 * _n / (_a * sp.sqrt(_d))


def _eq5(ell):
    """Eq. 5's right side, as printed, with the exponent ``ell``: 4 n (1 - 2 alpha/3)^ell + 6 n^2/(alpha sqrt d)."""
    return 4 * _n * (1 - sp.Rational(2, 3) * _a) ** ell + 6 * _n**2 / (_a * sp.sqrt(_d))


def _d_exponent(expr) -> sp.Expr:
    """The power of d that ``expr`` decays as (lim log expr / log d, d -> oo)."""
    return sp.limit(sp.log(expr) / sp.log(_d), _d, sp.oo)


def _result(follows: bool, why: str) -> dict:
    return {"follows": bool(follows), "why": why}


# --- Sec. 1's displays and rates, from Eq. 3 and Eq. 5 ---------------------------------------
@functools.lru_cache(maxsize=None)
def _intro_ratio_limit():
    return sp.limit(((1 - sp.Rational(2, 3) * sp.Rational(1, 2)) / (1 - sp.Rational(1, 2))) ** _l, _l, sp.oo)


def intro_rate_printed(ctx) -> dict:
    lim = _intro_ratio_limit()
    return _result(lim.is_finite is True,
                   f"Eq. 3's depth term 2 (1 - 2 alpha/3)^l over the display's (1 - alpha)^l tends to {lim} as l -> oo "
                   "(sympy, alpha = 1/2; any alpha in (0, 1)), so with A1's alpha the display is not implied by Eq. 3")


def intro_rate_corrected(ctx) -> dict:
    ap = sp.Rational(2, 3) * _a
    diff = sp.simplify(2 * (1 - ap) ** _l + 2 * _n / (ap * sp.sqrt(_d)) - _thm1(_l))
    return _result(diff == 0, f"with alpha' = 2 alpha/3, 2 (1 - alpha')^l + 2 n/(alpha' sqrt d) - Eq. 3 = {diff} "
                              "(sympy): the display is Eq. 3 renamed")


def _plateau(claimed) -> dict:
    limit = sp.limit(_thm1(_l).subs(_a, sp.Rational(1, 2)), _l, sp.oo)  # alpha fixed in (0, 1)
    p = _d_exponent(limit)
    return _result(p == claimed, f"Eq. 3's depth limit (l -> oo) is {sp.simplify(limit)} at alpha = 1/2, decaying as "
                                 f"d^({p}) (sympy); the step claims d^({claimed})")


def _radius(claimed, relation) -> dict:
    radius = sp.sqrt(sp.limit(_eq5(_l).subs(_a, sp.Rational(1, 2)), _l, sp.oo))
    p = _d_exponent(radius)
    ok = p == claimed if relation == "=" else p <= claimed
    return _result(ok, f"the root of Eq. 5's depth limit, the radius of the ball, is {sp.simplify(radius)} at alpha = "
                       f"1/2, decaying as d^({p}) (sympy); the step claims {'~' if relation == '=' else 'O'}"
                       f"(d^({claimed}))")


# --- Corollary 3 from Lemma 2 (Eq. 4) and Theorem 1 (Eq. 3) ----------------------------------
def _cor3(ell) -> dict:
    deduced = sp.expand(2 * _n * _thm1(_l - 1))  # Eq. 4 at l: 2 n E V(H_l), Eq. 3 at index l - 1 bounds E V(H_l)
    diff = sp.simplify(sp.expand(_eq5(ell)) - deduced)
    shown = "l" if ell == _l else "l - 1"
    return _result(diff == 0, f"Eq. 4 at index l needs E V(H_l), which Eq. 3 bounds at index l - 1: 2 n x Eq. 3(l - 1) "
                              f"minus Eq. 5 with exponent {shown} = {sp.simplify(-diff)} (sympy)")


# --- Lemma 2 at l = 0, A1, and the mean correction: from Eq. 1's unit norm and Eq. 2 ----------
def l0_printed(ctx) -> dict:
    h = sp.Symbol("h", positive=True)
    w2 = (h - 1) ** 2  # d = n = 1, H_0 = [h]: W H_0 ~ N(0, h^2), G ~ N(0, 1)
    bad = w2.subs(h, 2)
    return _result(False, f"Lemma 2's proof uses ||H_l||_F = 1, which Eq. 1 gives only for l >= 1; at l = 0 with "
                          f"H_0 = [h] (d = n = 1, V = 0) W_2^2 = {w2}, = {bad} > 0 = 2 n V at h = 2, so Eq. 4 at l = 0 "
                          "does not follow for an input of another norm")


def l0_corrected(ctx) -> dict:
    x, y = sp.symbols("x y", positive=True)
    step = sp.factor((x**2 - y**2) - (x - y) ** 2)  # (sqrt a - sqrt b)^2 <= a - b for a = x^2 >= b = y^2
    ok = sp.expand(step - 2 * y * (x - y)) == 0
    return _result(ok, f"for unit-Frobenius H (Eq. 1, l >= 1): (sqrt a - sqrt b)^2 <= |a - b| since (x^2 - y^2) - "
                       f"(x - y)^2 = {step} >= 0 for x >= y (sympy), and Cauchy-Schwarz sum |lam_i - 1/n| <= sqrt(n) "
                       "V(H), so W_2^2 <= sqrt(n) V <= 2 n V")


def _smin_squares():
    s = sp.symbols("s1:6", nonnegative=True)
    return sp.expand(sum(v**2 for v in s) - 5 * s[0] ** 2 - sum(v**2 - s[0] ** 2 for v in s[1:]))


def a1_printed(ctx) -> dict:
    if _smin_squares() != 0:
        raise ArithmeticError("the sum-of-squares identity behind sigma_min <= 1/sqrt(n) failed")
    return _result(False, "Eq. 1 makes ||H_k||_F^2 = sum sigma_i^2 = 1 for k >= 1, and sum sigma_i^2 - n "
                          "sigma_min^2 = sum (sigma_i^2 - sigma_min^2) >= 0 (sympy, n = 5), so sigma_min(H_k) <= "
                          "1/sqrt(n): an alpha independent of n contradicts the printed premises for n > 1/alpha^2")


def a1_corrected(ctx) -> dict:
    ok = _smin_squares() == 0
    return _result(ok, "sigma_min(H_k) <= 1/sqrt(n) follows from Eq. 1's ||H_k||_F = 1 by sum sigma_i^2 - n "
                       "sigma_min^2 = sum (sigma_i^2 - sigma_min^2) >= 0 (sympy), with equality iff every sigma_i is "
                       "equal, H^T H = I/n")


def _centred_gap_split() -> tuple:
    """At n = 3, for a symmetric G with G 1 = 0 and trace 1 (a centred H's normalized
    Gram, off-diagonals a, b free): ||G - I/n||^2 - ||G - P/(n-1)||^2 - ||P/(n-1) - I/n||^2
    (0: Pythagoras), and the floor ||P/(n-1) - I/n||^2."""
    a, b = sp.symbols("a b", real=True)
    c = -sp.Rational(1, 2) - a - b  # trace -2 (a + b + c) = 1
    G = sp.Matrix([[-a - b, a, b], [a, -a - c, c], [b, c, -b - c]])
    P = sp.eye(3) - sp.ones(3, 3) / 3
    sq = lambda A: sum(v**2 for v in A)  # noqa: E731
    return sp.expand(sq(G - sp.eye(3) / 3) - sq(G - P / 2) - sq(P / 2 - sp.eye(3) / 3)), sq(P / 2 - sp.eye(3) / 3)


def centred_printed(ctx) -> dict:
    split, floor = _centred_gap_split()
    return _result(False, f"with the mean correction H 1 = 0, and Eq. 2's V(H)^2 = ||G - P/(n-1)||^2 + {floor} at "
                          f"n = 3 (residual of the split {split}, sympy; 1/(n(n-1)) in general): the gap cannot "
                          "vanish, so 'the gap vanishes as with Eq. 1' does not follow")


def centred_corrected(ctx) -> dict:
    split, floor = _centred_gap_split()
    return _result(split == 0, f"V(H)^2 = ||G - P/(n-1)||^2 + ||P/(n-1) - I/n||^2 for centred H (Pythagoras: residual "
                               f"{split} at n = 3, sympy), so V^2 >= {floor} = 1/(n(n-1)) with equality iff G = "
                               "P/(n-1): orthogonality within the centred subspace is the best the chain can reach")


# --- Sec. 3.2's exact inverse, Sec. 3.3's sigma_min, Sec. 4.1's Gaussian law, Sec. 5.2 -------
def inverse_printed(ctx) -> dict:
    m = sp.Matrix(sp.symbols("m1:3", real=True))  # d = 2, n = 1 (Sec. 2.1: d >= n)
    det = sp.simplify((m * m.T).det())
    return _result(det != 0, f"for d > n, M M^T (d x d) has rank n: det(M M^T) = {det} at d = 2, n = 1 (sympy), so "
                             "(M M^T)^{-1/2} in place of Eq. 1's diagonal does not exist")


def _rational_orthogonal3() -> sp.Matrix:
    return sp.Matrix([[1, 2, 2], [2, 1, -2], [2, -2, 1]]) / 3


def inverse_corrected(ctx) -> dict:
    Q = _rational_orthogonal3()
    U, S, R = Q[:, :2], sp.diag(4, 1), sp.Matrix([[3, -4], [4, 3]]) / 5  # M = U S R^T, d = 3, n = 2
    M = U * S * R.T
    X = U * S.inv() * U.T  # the pseudo-inverse square root of M M^T
    ok = (X * X - (M * M.T).pinv()).applyfunc(sp.simplify) == sp.zeros(3, 3)
    gram = ((X * M).T * (X * M)).applyfunc(sp.simplify)
    return _result(ok and gram == sp.eye(2), f"M = U S V^T (d = 3, n = 2, exact rationals): X = U S^-1 U^T squares to "
                                             f"(M M^T)^+ and (X M)^T (X M) = {gram.tolist()} (sympy): the "
                                             "pseudo-inverse square root orthogonalizes")


def smin_printed(ctx) -> dict:
    signs = [sp.Matrix(2, 2, list(v)) for v in itertools.product((-1, 1), repeat=4)]
    singular = sum(1 for m in signs if m.det() == 0)
    return _result(False, f"Sec. 3.3's hypothesis (iid zero-mean unit-variance entries) admits random signs: "
                          f"{singular} of the {len(signs)} sign matrices at d = n = 2 are singular (exact), so "
                          "sigma_min(H_0) > sqrt(d) - sqrt(n) = 0 does not follow for every draw (only in expectation "
                          "or with high probability, for Gaussian entries)")


def gaussian_law(ctx) -> dict:
    n, d = 3, 2
    cov = sp.kronecker_product(sp.eye(n) / n, sp.eye(d) / d)  # vec(W H) given H^T H = I/n, W iid N(0, 1/d)
    ok = cov == sp.eye(n * d) / (n * d)
    return _result(ok, "vec(W H) ~ N(0, (H^T H) kron I_d/d); an orthogonal H with Eq. 1's unit norm has H^T H = I/n "
                       "(Eq. 2's V = 0), so the covariance is I/(n d), that of G/sqrt(n) (sympy at n = 3, d = 2)")


def orthogonal_weights(ctx) -> dict:
    c, s = sp.symbols("c s", real=True)
    Q = sp.Matrix([[c, -s], [s, c]])
    Hs = sp.Matrix(2, 2, sp.symbols("h1:5", real=True))
    diff = ((Q * Hs).T * (Q * Hs) - Hs.T * Hs).applyfunc(lambda e: sp.expand(sp.expand(e).subs(s**2, 1 - c**2)))
    return _result(diff == sp.zeros(2, 2), "(Q H)^T (Q H) = H^T Q^T Q H = H^T H for orthogonal Q (sympy, a 2 x 2 "
                                           "rotation), so Eq. 2's V(Q H) = V(H)")


# --- Eq. 6 ------------------------------------------------------------------------------------
def _v2(G) -> sp.Expr:
    """Eq. 2's V^2 for a Gram matrix G (n x n)."""
    n = G.shape[0]
    return sum(v**2 for v in (G / G.trace() - sp.eye(n) / n))


def _eq6_example(vprime: str, power) -> tuple:
    """H = U Sigma V^T (d = 2, n = 3, Sigma = diag(9, 4), exact), W = V' Sigma^power U^T / ||Sigma^(1/2)||_F as in
    Eq. 6 (``power`` -1/2 as printed), V' the slice of V (its first d rows) or I: (H, W H)."""
    V = _rational_orthogonal3()[:, :2]  # n x d, orthonormal columns
    U, S = sp.eye(2), sp.diag(9, 4)
    H = U * S * V.T
    Vp = V[:2, :] if vprime == "sliced" else sp.eye(2)
    W = Vp * sp.diag(*[sp.Integer(x) ** power for x in (9, 4)]) * U.T / sp.sqrt(sp.Integer(13))
    return H, W * H


def eq6_printed_decrease(ctx) -> dict:
    H, WH = _eq6_example("sliced", sp.Rational(-1, 2))
    a, b = sp.nsimplify(_v2(WH.T * WH)), sp.nsimplify(_v2(H.T * H))
    return _result(a < b, f"with V' the slice of V (not orthogonal), H = diag(9, 4) V^T (d = 2, n = 3, V from a "
                          f"rational orthogonal matrix): V(W H)^2 = {a} against V(H)^2 = {b} (sympy), so the decrease "
                          "does not follow from Eq. 6 as printed")


def _hoelder_d2() -> sp.Expr:
    s1, s2 = sp.symbols("s1 s2", positive=True)
    return sp.factor((s1 + s2) ** 2 * (s1**4 + s2**4) - (s1**2 + s2**2) ** 3)


def eq6_decrease_corrected(ctx) -> dict:
    f = _hoelder_d2()
    s1, s2 = sorted(f.free_symbols, key=str)
    ok = sp.expand(f - 2 * s1 * s2 * (s1 - s2) ** 2 * (s1**2 + s1 * s2 + s2**2)) == 0
    return _result(ok, "with an orthogonal V', (W H)^T (W H) is proportional to V Sigma V^T and H^T H = V Sigma^2 "
                         "V^T, so by Eq. 2 V(W H) <= V(H) iff (sum s^2)^3 <= (sum s)^2 sum s^4, Hoelder's inequality; "
                         f"at d = 2 the difference factors as {f} >= 0 (sympy)")


def eq6_strict_printed(ctx) -> dict:
    f = _hoelder_d2()
    s1, s2 = sorted(f.free_symbols, key=str)
    return _result(False, f"the Hoelder difference {f} (d = 2, sympy) vanishes at s1 = s2 (value "
                          f"{f.subs(s2, s1)}): where the nonzero singular values of H are equal, V(W H) = V(H), so the "
                          "strict decrease does not follow")


def eq6_equality(ctx) -> dict:
    f = _hoelder_d2()
    s1, s2 = sorted(f.free_symbols, key=str)
    zeros = sp.solve(sp.Eq(f, 0), s2)
    return _result(zeros == [s1], f"the Hoelder difference {f} (d = 2, sympy) is >= 0 and vanishes only at s2 = "
                                  f"{zeros}: equality exactly when Sigma = c I")


def eq6_orthogonal_printed(ctx) -> dict:
    _, WH = _eq6_example("identity", sp.Rational(-1, 2))
    rows = (WH * WH.T).applyfunc(sp.nsimplify)
    return _result(False, f"Eq. 6 as printed (Sigma^(-1/2), V' = I, Sigma = diag(9, 4)): (W H)(W H)^T = "
                          f"{rows.tolist()} (sympy), proportional to Sigma, not to I")


def eq6_orthogonal_corrected(ctx) -> dict:
    _, WH = _eq6_example("identity", -1)
    rows = (WH * WH.T).applyfunc(sp.nsimplify)
    ok = rows == rows[0, 0] * sp.eye(2)
    return _result(ok, f"with Sigma^-1, W H = V' V^T/||Sigma^(1/2)||_F and (W H)(W H)^T = {rows.tolist()} (sympy, "
                       "Sigma = diag(9, 4)): orthonormal rows up to scale")


# --- Sec. 3.2's drift display, from Hairer's theorem -------------------------------------------
def drift_printed(ctx) -> dict:
    """A 3-state chain (finite, irreducible, aperiodic: Hairer's Theorem 3.6 applies) and a
    start mu_0 != pi with mu_0 phi = pi phi: the display, constant 1, demands mu_l phi =
    pi phi at every l; one step moves it."""
    half = sp.Rational(1, 2)
    P = sp.Matrix([[half, half, 0], [0, half, half], [half, 0, half]])
    pi = (P.T - sp.eye(3)).nullspace()[0]
    pi = pi / sum(pi)
    phi = sp.Matrix([0, 1, 3])
    t = pi.dot(phi) / 3  # mu_0 = (1 - t) e_0 + t e_2 has mu_0 phi = pi phi
    mu0 = sp.Matrix([1 - t, 0, t])
    mu1 = (mu0.T * P).T
    d0, d1 = mu0.dot(phi) - pi.dot(phi), mu1.dot(phi) - pi.dot(phi)
    return _result(d1 == 0, f"on a 3-state chain where Hairer's theorem holds, a start with E phi(H_0) = E_pi phi "
                            f"(distance {d0}) has |E phi(H_1) - E_pi phi| = {abs(d1)} > 0 (exact), so the display "
                            "with constant 1 does not follow from Theorem 3.6, whose bound carries a constant "
                            "depending on the start")


#: claim id -> (cited steps, derivation)
DERIVATIONS = {
    K + "intro.rate_printed": (("Eq. 3",), intro_rate_printed),
    K + "intro.rate_corrected": (("Eq. 3",), intro_rate_corrected),
    K + "intro.plateau_inverse_width": (("Eq. 3",), lambda ctx: _plateau(-1)),
    K + "intro.plateau_inverse_sqrt_width": (("Eq. 3",), lambda ctx: _plateau(sp.Rational(-1, 2))),
    K + "intro.radius_inverse_width": (("Eq. 5",), lambda ctx: _radius(-1, "=")),
    K + "intro.radius_quarter": (("Eq. 5",), lambda ctx: _radius(sp.Rational(-1, 4), "<=")),
    K + "sec41.radius_printed": (("Eq. 5",), lambda ctx: _radius(sp.Rational(-1, 2), "<=")),
    K + "sec41.radius_corrected": (("Eq. 5",), lambda ctx: _radius(sp.Rational(-1, 4), "<=")),
    K + "cor3.index_printed": (("Eq. 3", "Eq. 4"), lambda ctx: _cor3(_l)),
    K + "cor3.index_corrected": (("Eq. 3", "Eq. 4"), lambda ctx: _cor3(_l - 1)),
    K + "cor3.bound": (("Eq. 3", "Eq. 4"), lambda ctx: _cor3(_l)),
    K + "lemma2.l0_printed": (("Eq. 1", "Eq. 2", "Eq. 4"), l0_printed),
    K + "lemma2.l0_corrected": (("Eq. 1", "Eq. 2", "Eq. 4"), l0_corrected),
    K + "a1.absolute_alpha_printed": (("Eq. 1", "Assumption A1"), a1_printed),
    K + "a1.alpha_le_inv_sqrt_n": (("Eq. 1", "Assumption A1"), a1_corrected),
    K + "sec21.mean_correction": (("Eq. 1", "Eq. 2"), centred_printed),
    K + "sec21.mean_correction_corrected": (("Eq. 1", "Eq. 2"), centred_corrected),
    K + "sec32.exact_inverse": (("Eq. 1",), inverse_printed),
    K + "sec32.exact_inverse_corrected": (("Eq. 1", "Eq. 2"), inverse_corrected),
    K + "sec32.drift_display_printed": (("Hairer (2010), Theorem 3.6",), drift_printed),
    K + "sec33.smin_printed": (("Sec. 3.3, H_0 with iid zero-mean unit-variance entries",), smin_printed),
    K + "lemma2.closed_form": (("Eq. 1", "Eq. 2"), gaussian_law),
    K + "sec52.orthogonal_weights": (("Eq. 2",), orthogonal_weights),
    K + "eq6.decrease_printed": (("Eq. 6", "Eq. 2"), eq6_printed_decrease),
    K + "eq6.decrease_corrected": (("Eq. 6", "Eq. 2"), eq6_decrease_corrected),
    K + "eq6.strict_printed": (("Eq. 6", "Eq. 2"), eq6_strict_printed),
    K + "eq6.equality_cases": (("Eq. 6", "Eq. 2"), eq6_equality),
    K + "eq6.orthogonal_output": (("Eq. 6",), eq6_orthogonal_printed),
    K + "eq6.orthogonal_output_corrected": (("Eq. 6",), eq6_orthogonal_corrected),
}


def with_derivation(claim):
    """``claim`` with its cited steps and derivation from :data:`DERIVATIONS` (unchanged
    when it has none)."""
    if claim.id not in DERIVATIONS:
        return claim
    cites, derivation = DERIVATIONS[claim.id]
    return dataclasses.replace(claim, cites=cites, derivation=derivation)
