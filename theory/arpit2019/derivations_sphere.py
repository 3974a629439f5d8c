"""Do the displayed steps of Arpit et al. (2019), proof of Theorem 5 (App. C, Eq. 10-34),
follow from the printed steps they cite? The second question a
proof step is judged on (:attr:`theory.core.claims.Claim.derivation`; the first, is it
true, is the claim's judge).

Each ``*_derivation(ctx)`` derives the step by sympy from the PRINTED forms of the steps
it cites, wrong ones included, and compares it with the printed step (for a corrected
claim: with the corrected step). It returns ``follows`` (bool), ``why`` (a sentence
naming the steps, with what was found) and ``checks`` (each sub-derivation: ``step``,
``ok``, ``residual``). Everything is exact: symbolic n where sympy can, else exact
rationals and pi for n = 2..30. Eq. 5 and the proof of Theorem 6 are in
:mod:`.derivations_layer`, Theorems 7-8 in :mod:`.derivations_resnet`. Locations refer to
../shared/papers/arpit2019_weightnorm_resnet_init.txt.

>>> eq29_derivation(None)["follows"], eq29_corrected_derivation(None)["follows"]
(False, True)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy as sp

__all__ = [
    "found",
    "eq10_17_derivation",
    "eq18_derivation",
    "eq18_corrected_derivation",
    "eq19_21_derivation",
    "eq22_28_derivation",
    "eq29_derivation",
    "eq29_corrected_derivation",
    "eq31_34_derivation",
]

#: n > 0, integer: the dimension of Theorem 5's R_hat_i.
_N = sp.Symbol("n", integer=True, positive=True)
_HALF = sp.Rational(1, 2)
#: n = 2..30: the values of n the proof-step claims check numerically (exact here).
_NS = range(2, 31)


def found(checks: list, yes: str, no: str) -> dict:
    """The derivation's answer: ``follows`` when every check is ok; ``why`` is ``yes``
    then, ``no`` otherwise."""
    ok = all(c["ok"] for c in checks)
    return {"follows": ok, "why": yes if ok else no, "checks": checks}


def _check(step: str, residual) -> dict:
    """A sub-derivation whose residual must vanish (sympy 0, or a zero matrix)."""
    zero = residual == 0 if not isinstance(residual, sp.MatrixBase) else residual.is_zero_matrix
    return {"step": step, "ok": bool(zero), "residual": str(residual)[:200]}


# --- Eq. 10-17: the unit's expectation ---------------------------------------------------


def eq10_17_derivation(ctx) -> dict:
    """Eq. 13-17 from Theorem 5's v = ReLU(sqrt(2n/m) R_hat u) and Eq. 2's unit rows
    R_hat_i = R_i/||R_i||, in R^3: R_hat_i^T u = ||u|| cos theta (Eq. 13-14); the
    integrand depends on the direction of R_i only (R_i -> s R_i, s > 0, leaves R_hat_i
    unchanged: Eq. 15-16); max(0, k c)^2 = k^2 max(0, c)^2 for k = sqrt(2n/m) ||u|| > 0,
    on both signs of c = cos theta (Eq. 17). Eq. 11 is linearity; Eq. 12 (every unit has
    the same expectation) is a symmetry of the law, which the claim's Monte Carlo judges."""
    R = sp.Matrix(sp.symbols("R1:4", real=True))
    u = sp.Matrix(sp.symbols("u1:4", real=True))
    s, k = sp.symbols("s k", positive=True)
    norm = lambda v: sp.sqrt(v.dot(v))  # noqa: E731
    r_hat = R / norm(R)
    cos = R.dot(u) / (norm(R) * norm(u))
    c_pos, c_neg = sp.Symbol("c", positive=True), sp.Symbol("c", negative=True)
    checks = [
        _check("Eq. 13-14: R_hat_i^T u = ||u|| cos theta", sp.simplify(r_hat.dot(u) - norm(u) * cos)),
        _check("Eq. 15-16: R_hat_i of s R_i equals R_hat_i (s > 0)", sp.simplify((s * R) / norm(s * R) - r_hat)),
        _check(
            "Eq. 17, cos theta > 0: max(0, k c)^2 = k^2 max(0, c)^2",
            sp.simplify(sp.Max(0, k * c_pos) ** 2 - k**2 * sp.Max(0, c_pos) ** 2),
        ),
        _check(
            "Eq. 17, cos theta < 0: both sides 0", sp.simplify(sp.Max(0, k * c_neg) ** 2 - k**2 * sp.Max(0, c_neg) ** 2)
        ),
    ]
    return found(
        checks,
        "Eq. 13-17 follow from Theorem 5's layer and Eq. 2's unit rows (sympy in R^3: R_hat_i^T u = "
        "||u|| cos theta, the radial part drops out, max(0, k cos)^2 = k^2 max(0, cos)^2 for k > 0); Eq. 12 is "
        "a symmetry of the weight law, judged by the Monte Carlo of units 1 and m.",
        "a step of Eq. 13-17 does not follow: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


# --- Eq. 18: the angular density -----------------------------------------------------------


def _area(k, radius=1):
    """Surface area of the sphere of radius ``radius`` in R^k (the convention under which
    R_hat_i, a unit vector of R^n, lies on 'the unit n-dimensional sphere')."""
    return 2 * sp.pi ** (k * _HALF) / sp.gamma(k * _HALF) * radius ** (k - 1)


def _wallis_closed(k):
    """I_k = int_0^{pi/2} sin^k, any real k >= 0."""
    return sp.sqrt(sp.pi) * sp.gamma((k + 1) * _HALF) / (2 * sp.gamma(k * _HALF + 1))


@lru_cache(maxsize=None)
def _eq18_ratios() -> dict:
    """The text's argument before Eq. 18 ('the points at angle theta lie on an
    (n-1)-dimensional sphere of radius sin theta; the density is the ratio of its area to
    that of the unit n-dimensional sphere') in both conventions, against the printed
    (S_{n-1}/S_n) sin^{n-1} and the corrected (S_{n-1}/S_n) sin^{n-2}; and the mass of
    the density the argument gives."""
    t, n = sp.Symbol("theta", positive=True), _N
    argued = _area(n - 1, sp.sin(t)) / _area(n)  # the sphere in R^k: directions of R^n on the sphere of R^n
    nsphere = _area(n, sp.sin(t)) / _area(n + 1)  # the k-sphere in R^(k+1): 'unit n-sphere' lies in R^(n+1)
    ratio = _area(n - 1) / _area(n)
    return {
        "printed_over_argued": sp.simplify(ratio * sp.sin(t) ** (n - 1) / argued),
        "corrected_over_argued": sp.simplify(ratio * sp.sin(t) ** (n - 2) / argued),
        "printed_over_nsphere": sp.simplify(_area(n) / _area(n + 1) * sp.sin(t) ** (n - 1) / nsphere),
        "mass": sp.simplify(sp.gammasimp(_area(n - 1) * 2 * _wallis_closed(n - 2) / _area(n))),
    }


_EQ18_ARGUMENT = (
    "the text's argument read where its premise holds (R_hat_i uniform on the unit sphere of R^n, "
    "S_n = 2 pi^(n/2)/Gamma(n/2)): the points at angle theta form a sphere in R^(n-1) of radius sin "
    "theta, area S_(n-1) sin^(n-2) theta, so the density is (S_(n-1)/S_n) sin^(n-2) theta"
)


def eq18_derivation(ctx) -> dict:
    """Eq. 18 as printed, (S_{n-1}/S_n) sin^{n-1}, from the text before it (sympy, symbolic n)."""
    r = _eq18_ratios()
    checks = [
        _check(
            "Eq. 18 (printed) over the density the text's argument gives, sphere of R^n", r["printed_over_argued"] - 1
        )
    ]
    nsph = "the same" if r["printed_over_nsphere"] == 1 else "not the same"
    return found(
        checks,
        "Eq. 18 follows from " + _EQ18_ARGUMENT + ".",
        "Eq. 18 does not follow from " + _EQ18_ARGUMENT + f" (mass {r['mass']}); the printed density is "
        f"{r['printed_over_argued']} times that. It is {nsph} ratio of areas computed with the other "
        "convention (the k-sphere in R^(k+1)), where the unit n-sphere is not the sphere of directions of "
        "R^n: the printed exponent comes from mixing the two readings of 'n-dimensional sphere'.",
    )


def eq18_corrected_derivation(ctx) -> dict:
    """The corrected density (S_{n-1}/S_n) sin^{n-2} from the same argument, and its mass 1."""
    r = _eq18_ratios()
    checks = [
        _check("corrected density over the text's ratio of areas, sphere of R^n", r["corrected_over_argued"] - 1),
        _check("mass of the corrected density (Wallis closed form, gammasimp)", r["mass"] - 1),
    ]
    return found(
        checks,
        "The corrected density follows from " + _EQ18_ARGUMENT + "; its mass is 1 (sympy).",
        "The corrected density does not follow from the text's ratio of areas: "
        + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


# --- Eq. 19-21: the integral over [0, pi/2] ---------------------------------------------------


def eq19_21_derivation(ctx) -> dict:
    """Eq. 19-21 from Eq. 18's integrand |sin^{n-1}| max(0, cos)^2 (symbolic n): on
    (pi/2, pi) cos < 0 and it vanishes; on (0, pi/2) it is sin^{n-1} cos^2 (Eq. 19);
    cos^2 = 1 - sin^2 (Eq. 20); distributing gives sin^{n-1} - sin^{n+1} (Eq. 21)."""
    n, t = _N, sp.Symbol("theta")
    s = sp.Symbol("s", positive=True)  # sin theta on (0, pi)
    c_pos, c_neg = sp.Symbol("c", positive=True), sp.Symbol("c", negative=True)
    integrand = lambda c: sp.Abs(s) ** (n - 1) * sp.Max(0, c) ** 2  # noqa: E731
    checks = [
        _check("Eq. 19: Eq. 18's integrand on (pi/2, pi), cos < 0", integrand(c_neg)),
        _check("Eq. 19: on (0, pi/2) it is sin^(n-1) cos^2", sp.simplify(integrand(c_pos) - s ** (n - 1) * c_pos**2)),
        _check("Eq. 20: cos^2 = 1 - sin^2", sp.simplify(sp.cos(t) ** 2 - (1 - sp.sin(t) ** 2))),
        _check(
            "Eq. 21: sin^(n-1) (1 - sin^2) = sin^(n-1) - sin^(n+1)",
            sp.expand(s ** (n - 1) * (1 - s**2) - (s ** (n - 1) - s ** (n + 1))),
        ),
    ]
    return found(
        checks,
        "Eq. 19-21 follow from Eq. 18's integrand (sympy, symbolic n): it vanishes where cos < 0, "
        "and cos^2 = 1 - sin^2 splits it.",
        "a step of Eq. 19-21 does not follow from Eq. 18: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


# --- Eq. 22-29: Wallis products and the integral of Eq. 21 --------------------------------------


def _printed_product(last: int, first: int) -> Fraction:
    """first/(first+1) (first+2)/(first+3) ... over the factors k/(k+1) with k of first's
    parity and k <= last (the printed products; empty: 1)."""
    out = Fraction(1)
    for k in range(first, last + 1, 2):
        out *= Fraction(k, k + 1)
    return out


def _wallis_printed(j: int) -> sp.Expr:
    """I_j = int_0^{pi/2} sin^j as Eq. 23-28 print it: 2/3 4/5 ... (j-1)/j for odd j
    (Eq. 25), 1/2 3/4 ... (j-1)/j pi/2 for even j (Eq. 28; I_0 = pi/2, Eq. 27)."""
    if j % 2:
        return sp.Rational(_printed_product(j - 1, 2))
    return sp.Rational(_printed_product(j - 1, 1)) * sp.pi / 2


def eq22_28_derivation(ctx) -> dict:
    """Eq. 23-28 from Eq. 22: its boundary term -(1/n) sin^{n-1} cos vanishes at 0 and
    pi/2 (symbolic n >= 2), Eq. 24 and 27 give I_1 = 1 and I_0 = pi/2, and unrolling
    I_j = ((j-1)/j) I_{j-2} (Eq. 22 between the limits) gives the printed products for
    j = 1..31, exactly."""
    k, t = sp.Symbol("k", integer=True, nonnegative=True), sp.Symbol("theta")
    n = k + 2
    boundary = -(sp.sin(t) ** (n - 1)) * sp.cos(t) / n
    i1, i0 = sp.integrate(sp.sin(t), (t, 0, sp.pi / 2)), sp.integrate(sp.Integer(1), (t, 0, sp.pi / 2))
    unrolled = {0: i0, 1: i1}
    for j in range(2, 32):
        unrolled[j] = sp.Rational(j - 1, j) * unrolled[j - 2]
    bad = [j for j in range(1, 32) if sp.simplify(unrolled[j] - _wallis_printed(j)) != 0]
    checks = [
        _check("Eq. 22's boundary term at pi/2", boundary.subs(t, sp.pi / 2)),
        _check("Eq. 22's boundary term at 0 (n >= 2)", boundary.subs(t, 0)),
        _check("Eq. 24-25: -cos from 0 to pi/2 = 1", i1 - 1),
        _check("Eq. 27-28: int_0^{pi/2} 1 = pi/2", i0 - sp.pi / 2),
        {
            "step": "Eq. 23 and 26: Eq. 22 unrolled = the printed products, j = 1..31",
            "ok": not bad,
            "residual": f"first j where they differ: {bad[0]}" if bad else "0",
        },
    ]
    return found(
        checks,
        "Eq. 23-28 follow from Eq. 22: its boundary term vanishes at both limits and the recursion "
        "I_j = ((j-1)/j) I_(j-2) from I_1 = 1 and I_0 = pi/2 gives the printed products (exact, j = 1..31).",
        "a step of Eq. 23-28 does not follow from Eq. 22: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


def _eq29_printed(n: int, literal: bool = False) -> sp.Expr:
    """Eq. 29's right side as printed: (1/n) (2/3 4/5 ... (n-2)/(n-1)) for odd n and
    (1/n) (1/2 3/4 ... (n-2)/(n-1)) pi/2 otherwise; the products end at their own
    pattern ((n-3)/(n-2)), or ``literal``: with the printed last factor (n-2)/(n-1),
    outside the pattern, when it is not an empty product (:mod:`.sphere`)."""
    first = 2 if n % 2 else 1
    p = sp.Rational(_printed_product(n - 2, first))
    if literal and n - 2 >= first:
        p *= sp.Rational(n - 2, n - 1)
    return p / n * (1 if n % 2 else sp.pi / 2)


def _eq29_corrected(n: int) -> sp.Expr:
    """The corrected Eq. 29: I_{n-1}/(n+1) with the printed products of Eq. 23-28 and
    the parity labels of Eq. 3 (2/3 ... (n-2)/(n-1) for even n)."""
    return _wallis_printed(n - 1) / (n + 1)


@lru_cache(maxsize=None)
def _eq29_rows() -> list:
    """Per n = 2..30: Eq. 21's integral from the printed Eq. 23-28, I_{n-1} - I_{n+1};
    Eq. 29 as printed (both readings of its products); the corrected form; and the
    integral with Eq. 18's exponent corrected, I_{n-2} - I_n."""
    return [
        {
            "n": n,
            "from_eq23_28": _wallis_printed(n - 1) - _wallis_printed(n + 1),
            "printed": _eq29_printed(n),
            "printed_literal": _eq29_printed(n, literal=True),
            "corrected": _eq29_corrected(n),
            "corrected_exponent": _wallis_printed(n - 2) - _wallis_printed(n),
        }
        for n in _NS
    ]


def eq29_derivation(ctx) -> dict:
    """Eq. 29 as printed from Eq. 21's integral and the printed Eq. 23-28 (exact, n = 2..30)."""
    rows = _eq29_rows()
    bad = [
        r
        for r in rows
        if sp.simplify(r["printed"] - r["from_eq23_28"]) != 0
        and sp.simplify(r["printed_literal"] - r["from_eq23_28"]) != 0
    ]
    other = all(sp.simplify(r["printed"] - r["corrected_exponent"]) == 0 for r in rows)
    checks = [
        {
            "step": "Eq. 29 (either reading of its products) = I_(n-1) - I_(n+1) from Eq. 23-28, n = 2..30",
            "ok": not bad,
            "residual": f"first n: {bad[0]['n']}" if bad else "0",
        }
    ]
    b = bad[0] if bad else None
    return found(
        checks,
        "Eq. 29 follows from Eq. 21 and Eq. 23-28 (exact, n = 2..30).",
        ""
        if b is None
        else f"Eq. 29 does not follow from Eq. 21 and the printed Eq. 23-28, which give I_(n-1) - I_(n+1) = "
        f"I_(n-1)/(n+1) (prefactor 1/(n+1), I_(n-1) of the parity of n - 1): at n = {b['n']} they give "
        f"{b['from_eq23_28']}, Eq. 29 prints {b['printed']}. "
        + (
            "Its right side (products ended at their pattern) is I_(n-2) - I_n at every n = 2..30, the "
            "integral with Eq. 18's exponent corrected to n - 2: its error cancels Eq. 18's."
            if other
            else "Its right side is not the integral with Eq. 18's exponent corrected either."
        ),
    )


def eq29_corrected_derivation(ctx) -> dict:
    """The corrected Eq. 29, I_{n-1}/(n+1), from the printed Eq. 23-28 (exact, n = 2..30)."""
    bad = [r["n"] for r in _eq29_rows() if sp.simplify(r["corrected"] - r["from_eq23_28"]) != 0]
    return found(
        [
            {
                "step": "I_(n-1)/(n+1) = I_(n-1) - I_(n+1) from Eq. 23-28, n = 2..30",
                "ok": not bad,
                "residual": f"first n: {bad[0]}" if bad else "0",
            }
        ],
        "The corrected Eq. 29 follows from Eq. 21 and the printed Eq. 23-28: I_(n-1) - I_(n+1) = "
        "I_(n-1) (1 - n/(n+1)) (exact, n = 2..30).",
        "The corrected Eq. 29 does not follow from the printed Eq. 23-28.",
    )


# --- Eq. 31-34 ------------------------------------------------------------------------------


def _ratio_exact(n: int) -> sp.Expr:
    """S_{n-1}/S_n with S_k the sphere in R^k, exact."""
    return sp.gammasimp(_area(sp.Integer(n - 1)) / _area(sp.Integer(n)))


def eq31_34_derivation(ctx) -> dict:
    """Eq. 31 from the printed Eq. 21, 29 and 30 (same product P_n, same parity labels):
    (S_{n-1}/S_n)(1/n) P_n = 0.5 K_n / n; Eq. 32 = Eq. 12; Eq. 33-34: m (2n/m) ||u||^2
    0.5 K_n / n = K_n ||u||^2 (sympy, symbolic n, m, S_n, P_n). And whether the printed
    premises are right: (S_{n-1}/S_n) times Eq. 29's right side is 1/(2n), the true
    E[max(0, cos)^2], at every n = 2..30, while (S_{n-1}/S_n) times Eq. 21's integral is
    not (exact): two wrong premises whose errors cancel."""
    n, mm, u2, s1, s0, p = sp.symbols("n m u2 S_nm1 S_n P", positive=True)
    K = 2 * s1 / s0 * p
    checks = [
        _check("Eq. 31 from Eq. 21, 29, 30", sp.simplify(s1 / s0 * p / n - _HALF * K / n)),
        _check("Eq. 33-34 from Eq. 12 (= 32), 17 and 31", sp.simplify(mm * (2 * n / mm) * u2 * _HALF * K / n - K * u2)),
    ]
    rows = _eq29_rows()
    via_eq29 = all(sp.simplify(_ratio_exact(r["n"]) * r["printed"] - sp.Rational(1, 2 * r["n"])) == 0 for r in rows)
    via_eq21 = [
        r["n"] for r in rows if sp.simplify(_ratio_exact(r["n"]) * r["from_eq23_28"] - sp.Rational(1, 2 * r["n"])) == 0
    ]
    out = found(
        checks,
        "Eq. 31 follows from the printed Eq. 21, 29 and 30 (one product P_n, one set of parity labels) "
        "and Eq. 32-34 from Eq. 12, 17 and 31 (sympy). "
        + (
            f"Two of those premises are wrong and their errors cancel: (S_(n-1)/S_n) times Eq. 29's right side "
            f"is the true 1/(2n) at every n = 2..30, while (S_(n-1)/S_n) times Eq. 21's integral (Eq. 18's "
            f"exponent n - 1) is 1/(2n) at {'no n' if not via_eq21 else via_eq21} there, so Eq. 31 is right only "
            f"because Eq. 18's and Eq. 29's errors cancel."
            if via_eq29 and not via_eq21
            else "Its premises' values were not found to cancel."
        ),
        "Eq. 31-34 do not follow from the printed Eq. 12, 17, 21, 29 and 30: "
        + "; ".join(c["step"] for c in checks if not c["ok"]),
    )
    out["errors_cancel"] = bool(via_eq29 and not via_eq21)
    return out
