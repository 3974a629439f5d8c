"""Do the displayed steps of Arpit et al. (2019) about one layer follow from the printed
steps they cite? Sec. 3's backward recursion (Eq. 4-5) and the proof of Theorem 6 (App.
C, Eq. 35-41), as :mod:`.derivations_sphere`: each ``*_derivation(ctx)`` derives the step
by sympy from the PRINTED forms of the cited steps, wrong ones included, and returns
``follows``, ``why`` and ``checks``.

>>> eq5_derivation(None)["follows"], eq5_corrected_derivation(None)["follows"]
(False, True)
"""

from __future__ import annotations

import sympy as sp

from . import proof_ranges as ranges
from .derivations_sphere import found

__all__ = [
    "eq35_36_derivation",
    "eq35_36_corrected_derivation",
    "eq39_41_derivation",
    "eq5_derivation",
    "eq5_corrected_derivation",
]

_HALF = sp.Rational(1, 2)


def _check(step: str, residual) -> dict:
    """A sub-derivation whose residual must vanish (sympy 0, or a zero matrix)."""
    zero = residual == 0 if not isinstance(residual, sp.MatrixBase) else residual.is_zero_matrix
    return {"step": step, "ok": bool(zero), "residual": str(residual)[:200]}


# --- Eq. 35-41: Theorem 6 --------------------------------------------------------------------


def eq35_36_derivation(ctx) -> dict:
    """Eq. 35's sum_{i=1}^{n} R_hat_i u_i from Theorem 6's v = sqrt(2) (R_hat^T u) * z,
    u in R^m, R_hat in R^(m x n): at (m, n) = (2, 1) it drops u_2's row, at (2, 3) it
    needs a u_3 that does not exist."""
    cases = ranges.eq35_measure(ctx)["cases"]
    checks = []
    for c in cases:
        label = f"Eq. 35's sum to n = R_hat^T u at (m, n) = ({c['m']}, {c['n']})"
        if c["printed"] is None:
            checks.append({"step": label, "ok": False, "residual": f"undefined: needs u_{c['m'] + 1}"})
        else:
            checks.append(_check(label, sp.simplify(c["printed"] - c["target"])))
    return found(
        checks,
        "Eq. 35 follows from Theorem 6's v.",
        "Eq. 35-36 do not follow from Theorem 6's v = sqrt(2) (R_hat^T u) * z with u in R^m: R_hat^T u = "
        "sum_(i=1..m) R_hat_i u_i over the m rows, while the printed sum to n "
        + "; ".join(
            f"{'is undefined' if 'undefined' in c['residual'] else 'differs by ' + c['residual']} at "
            f"{c['step'].split(' at ')[1]}"
            for c in checks
            if not c["ok"]
        )
        + ".",
    )


def eq35_36_corrected_derivation(ctx) -> dict:
    """Eq. 35-39 with i over the m rows and j over the n entries, from Theorem 6's v
    (three cases, symbolic R, u, z): Eq. 35-36 and 39 by expansion
    (:func:`.proof_ranges._eq35_residual`), Eq. 37-38 with z_j iid Bernoulli(1/2)
    independent of R (E[z_j^2] = 1/2: 2 (1/2) ||R_hat^T u||^2 = ||R_hat^T u||^2)."""
    checks = []
    for c in ranges.eq35_measure(ctx)["cases"]:
        at = f" at (m, n) = ({c['m']}, {c['n']})"
        checks.append(_check("sum_(i=1..m) R_hat_i u_i = R_hat^T u" + at, sp.simplify(c["corrected"] - c["target"])))
        for part in ("eq35", "eq36", "eq39"):
            checks.append(
                _check(f"Eq. {part[2:]}" + at, ranges._eq35_residual(c, "corrected", part, "2", ("1", "n"), "1"))
            )
        w, z = c["target"], c["z"]
        expected_z = sp.expand(2 * sum((w[j] ** 2 * z[j] ** 2 for j in range(c["n"])), sp.Integer(0)))
        checks.append(
            _check(
                "Eq. 37-38: E_z over z_j^2 -> 1/2" + at,
                sp.expand(expected_z.subs({zj**2: _HALF for zj in z}) - w.dot(w)),
            )
        )
    return found(
        checks,
        "With i over the m rows and j over the n entries, Eq. 35-39 follow from Theorem 6's v (sympy, "
        "(m, n) = (2, 1), (2, 3), (3, 2); Eq. 37-38 with E[z_j^2] = 1/2, z independent of R_hat).",
        "a corrected step of Eq. 35-39 does not follow: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


def eq39_41_derivation(ctx) -> dict:
    """Eq. 39-41 and the text after Eq. 41 from Eq. 38 and Eq. 2's unit rows (sympy,
    three rows in R^2): the expansion (Eq. 39), ||R_hat_i|| = 1 (Eq. 40's ||u||^2 when i
    runs over u's m entries), R_hat_i^T R_hat_j = cos phi_ij (Eq. 41); orthonormal rows
    give cos phi = 0 (two rows in R^3); cos phi is odd under R_j -> -R_j, which leaves an
    isotropic law unchanged, so E[cos phi] = 0."""
    R = sp.Matrix(3, 2, lambda i, j: sp.Symbol(f"R{i + 1}{j + 1}", real=True))
    u = sp.Matrix(sp.symbols("u1:4", real=True))
    rows = [R[i, :] / sp.sqrt(R[i, :].dot(R[i, :])) for i in range(3)]
    w = sum((rows[i] * u[i] for i in range(3)), sp.zeros(1, 2))
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]
    expansion = sum((u[i] ** 2 * rows[i].dot(rows[i]) for i in range(3)), sp.Integer(0)) + sum(
        (u[i] * u[j] * rows[i].dot(rows[j]) for i, j in pairs), sp.Integer(0)
    )
    cos = lambda a, b: a.dot(b) / sp.sqrt(a.dot(a) * b.dot(b))  # noqa: E731
    Q = sp.Matrix([[1, 2, 2], [2, 1, -2]]) / 3  # orthonormal rows
    checks = [
        _check("Eq. 39: ||sum_i R_hat_i u_i||^2 expanded", sp.simplify(w.dot(w) - expansion)),
        _check("Eq. 40: ||R_hat_i||^2 = 1", sp.simplify(rows[0].dot(rows[0]) - 1)),
        _check("Eq. 41: R_hat_i^T R_hat_j = cos phi_ij", sp.simplify(rows[0].dot(rows[1]) - cos(R[0, :], R[1, :]))),
        _check("orthonormal rows: cos phi = 0", Q[0, :].dot(Q[1, :])),
        _check("cos phi odd under R_j -> -R_j", sp.simplify(cos(R[0, :], -R[1, :]) + cos(R[0, :], R[1, :]))),
    ]
    return found(
        checks,
        "Eq. 39-41 and the text after Eq. 41 follow from Eq. 38 and Eq. 2's unit rows (sympy): the "
        "expansion, ||R_hat_i|| = 1, R_hat_i^T R_hat_j = cos phi_ij, cos phi = 0 for orthonormal rows and "
        "odd under a sign flip that leaves an isotropic law unchanged (mean 0). Eq. 40's ||u||^2 needs the sum "
        "over u's m entries, not the printed 1..n (arpit2019.thm6.proof.eq35_36); the cross term this claim "
        "checks is the same under either range.",
        "a step of Eq. 39-41 does not follow from Eq. 38: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )


# --- Eq. 4-5: the backward recursion -----------------------------------------------------------


def _eq5_forms(n_l: int, n_next: int, gains=None) -> dict:
    """Eq. 4 in denominator layout through Eq. 1's a^{l+1} = g * W_hat ReLU(a^l) (on a
    cell of fixed mask 1(a^l) = M), symbolic: the true dl/da^l, the corrected form
    M * W_hat^T (g * delta) and the printed g * M * (W_hat^T delta) (None when g and M
    differ in length)."""
    W = sp.Matrix(n_next, n_l, lambda i, j: sp.Symbol(f"W{i + 1}{j + 1}", real=True))
    a = sp.Matrix(sp.symbols(f"a1:{n_l + 1}", real=True))
    M = sp.Matrix(sp.symbols(f"M1:{n_l + 1}", real=True))
    g = sp.Matrix(gains if gains is not None else sp.symbols(f"g1:{n_next + 1}", positive=True))
    delta = sp.Matrix(sp.symbols(f"d1:{n_next + 1}", real=True))
    a_next = sp.diag(*g) * W * sp.diag(*M) * a
    true = a_next.jacobian(a).T * delta
    corrected = M.multiply_elementwise(W.T * g.multiply_elementwise(delta))
    printed = g.multiply_elementwise(M).multiply_elementwise(W.T * delta) if n_l == n_next else None
    return {"true": true, "corrected": corrected, "printed": printed}


def _eq5_checks(variant: str) -> list:
    checks = []
    for n_l, n_next, gains in ((2, 2, None), (3, 2, None), (2, 2, (sp.Symbol("c", positive=True),) * 2)):
        f = _eq5_forms(n_l, n_next, gains)
        label = f"Eq. 5 ({variant}) from Eq. 1 and 4, n_l = {n_l}, n_(l+1) = {n_next}" + (
            ", gains c 1" if gains else ""
        )
        if f[variant] is None:
            checks.append({"step": label, "ok": False, "residual": "undefined: g^(l+1) and 1(a^l) differ in length"})
        else:
            checks.append(_check(label, sp.simplify(f[variant] - f["true"])))
    return checks


def eq5_derivation(ctx) -> dict:
    """Eq. 5 as printed from Eq. 1 and Eq. 4 (sympy)."""
    checks = _eq5_checks("printed")
    return found(
        checks,
        "Eq. 5 follows from Eq. 1 and 4.",
        "Eq. 5 does not follow from Eq. 1 and Eq. 4: the chain rule through a^{l+1} = g^{l+1} * W_hat h^l + "
        "b gives 1(a^l) * W_hat^T (g^{l+1} * dl/da^{l+1}); the printed form differs for unequal gains and is "
        "undefined for unequal widths ("
        + "; ".join(c["step"].split(", ", 1)[1] + ": " + c["residual"][:60] for c in checks if not c["ok"])
        + "), and agrees only for constant gains c 1.",
    )


def eq5_corrected_derivation(ctx) -> dict:
    """The corrected Eq. 5 from Eq. 1 and Eq. 4 (sympy)."""
    checks = _eq5_checks("corrected")
    return found(
        checks,
        "The corrected Eq. 5, 1(a^l) * W_hat^T (g^{l+1} * dl/da^{l+1}), follows from Eq. 1 and Eq. 4 "
        "(denominator layout, sympy, equal and unequal widths).",
        "The corrected Eq. 5 does not follow: " + "; ".join(c["step"] for c in checks if not c["ok"]),
    )
