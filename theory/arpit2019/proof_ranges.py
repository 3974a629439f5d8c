"""Exact checks of the index ranges of the proof of Theorem 6 of Arpit et al. (2019),
Eq. 35-36 and 39: the sum over the rows of R_hat, Eq. 35's factor 2, Eq. 36's range of j
and Eq. 39's expansion, in symbolic small cases (:func:`judge_eq35`). Moved out of
:mod:`.proof_steps`; the catalogue imports them from here.
"""
from __future__ import annotations

import sympy as sp

from simulations.core import check_choice

from ..core.claims import applies_only
from ..judges import exact_constant, judge_exact

__all__ = ["EQ35_PARTS", "eq35_measure", "judge_eq35"]


#: The parts of Eq. 35-39 :func:`judge_eq35` can check: the sum over the rows (per case),
#: Eq. 35's factor 2, Eq. 36's range of j and Eq. 39's expansion.
EQ35_PARTS = ("sum", "eq35", "eq36", "eq39")


def eq35_measure(ctx) -> dict:
    """Symbolic R (m x n), u (length m) and z (length n) for (m, n) = (2, 1), (2, 3),
    (3, 2): the printed sum_{i=1}^{n} R_hat_i u_i, the corrected sum_{i=1}^{m}, and
    R_hat^T u."""
    out = []
    for mm, n in ((2, 1), (2, 3), (3, 2)):
        R = sp.Matrix(mm, n, lambda i, j: sp.Symbol(f"R{i + 1}{j + 1}", real=True))
        u = sp.Matrix(mm, 1, lambda i, _: sp.Symbol(f"u{i + 1}", real=True))
        z = sp.Matrix(n, 1, lambda j, _: sp.Symbol(f"z{j + 1}", real=True))
        target = R.T * u
        printed = None if n > mm else sum((R[i, :].T * u[i] for i in range(n)), sp.zeros(n, 1))
        corrected = sum((R[i, :].T * u[i] for i in range(mm)), sp.zeros(n, 1))
        out.append({"m": mm, "n": n, "R": R, "u": u, "z": z, "target": target, "printed": printed,
                    "corrected": corrected})
    return {"cases": out}


def _eq35_residual(c, variant: str, part: str, factor: str, j_range, cross: str):
    """The residual of one step in one case, w = sum_i R_hat_i u_i (i over the rows of
    ``variant``: 1..m corrected, 1..n printed), or None when the step needs an entry that
    does not exist:

    - "eq35": ||v||^2 - factor ||w * z||^2 with v = sqrt(2) z * (R_hat^T u);
    - "eq36": ||w * z||^2 - sum_{j = j_range} w_j^2 z_j^2 (ends text in m, n);
    - "eq39": ||w||^2 - sum_i u_i^2 ||R_hat_i||^2 - cross sum_{i != k} u_i u_k R_hat_i^T R_hat_k."""
    w, z, R, u = c[variant], c["z"], c["R"], c["u"]
    if w is None:
        return None
    wz = w.multiply_elementwise(z)
    if part == "eq35":
        v = sp.sqrt(2) * c["target"].multiply_elementwise(z)
        return sp.expand(v.dot(v) - exact_constant(factor) * wz.dot(wz))
    if part == "eq36":
        first, last = (int(sp.sympify(e).subs({sp.Symbol("m"): c["m"], sp.Symbol("n"): c["n"]})) for e in j_range)
        if first < 1 or last > c["n"]:
            return None
        return sp.expand(wz.dot(wz) - sum((wz[j] ** 2 for j in range(first - 1, last)), sp.Integer(0)))
    rows = range(c["m"] if variant == "corrected" else c["n"])
    diag = sum((u[i] ** 2 * R[i, :].dot(R[i, :]) for i in rows), sp.Integer(0))
    off = sum((u[i] * u[k] * R[i, :].dot(R[k, :]) for i in rows for k in rows if i != k), sp.Integer(0))
    return sp.expand(w.dot(w) - diag - exact_constant(cross) * off)


_EQ35_STEPS = {"eq35": "Eq. 35: ||v||^2 = {factor} ||(sum_i R_hat_i u_i) * z||^2",
               "eq36": "Eq. 36: ||(sum_i R_hat_i u_i) * z||^2 = sum_(j={first}..{last}) (sum_i R_hat_ij u_i)^2 z_j^2",
               "eq39": "Eq. 39: ||sum_i R_hat_i u_i||^2 = sum_i u_i^2 ||R_hat_i||^2 + {cross}sum_(i != j) u_i u_j "
                       "R_hat_i^T R_hat_j"}


@applies_only("parts", eq35_factor=("eq35",), j_range=("eq36",), eq39_cross=("eq39",))
def judge_eq35(m, ctx, variant: str = "printed", parts=EQ35_PARTS, eq35_factor: str = "2", j_range=None,
               eq39_cross: str = "1"):
    """Eq. 35-36, 39: v = sqrt(2) z * (R_hat^T u) needs the sum over the m rows,
    sum_{i=1}^{m} R_hat_i u_i (and j over the n entries of v). As printed the sum runs
    to n: undefined (no u_{m+1}) when n > m, missing terms when n < m. The smallest
    counterexample is (m, n) = (2, 1), u = (0, 1): the printed sum is 0, ||v||^2 = 2 z^2.

    ``parts`` (of :data:`EQ35_PARTS`) selects the checks: "sum" compares the sum with
    R_hat^T u per case; "eq35", "eq36" and "eq39" check each step in all three cases
    (:func:`_eq35_residual`), with Eq. 35's factor ``eq35_factor``, Eq. 36's range
    ``j_range`` of j (first, last; text in m, n; default 1..n corrected, 1..m printed)
    and the coefficient ``eq39_cross`` of Eq. 39's cross term, replaced for mutation tests
    (each only with its part among ``parts``)."""
    check_choice("variant", variant, ("printed", "corrected"))
    if not parts or not set(parts) <= set(EQ35_PARTS):
        raise ValueError(f"parts must be a non-empty subset of {EQ35_PARTS}, got {parts!r}")
    checks = []
    for c in m["cases"] if "sum" in parts else ():
        form = c[variant]
        label = f"(m, n) = ({c['m']}, {c['n']})"
        if form is None:
            checks.append({"label": label, "ok": False, "measured": f"undefined: the sum to n = {c['n']} needs "
                           f"u_{c['m'] + 1}", "expected": "R_hat^T u",
                           "counterexample": {"m": c["m"], "n": c["n"], "printed": "needs u beyond u_m"}})
            continue
        r = sp.simplify(form - c["target"])
        ce = None
        if r != sp.zeros(*r.shape):
            subs = {s: 0 for s in form.free_symbols | c["target"].free_symbols}
            subs.update({sp.Symbol(f"u{c['m']}", real=True): 1, **{sp.Symbol(f"R{i + 1}{j + 1}", real=True): 1
                                                                   for i in range(c["m"]) for j in range(c["n"])}})
            ce = {"m": c["m"], "n": c["n"], "u": f"e_{c['m']}", "R_hat": "all ones (rows of norm 1 when n = 1)",
                  "printed_sum": str(form.subs(subs).T), "R_hat^T u": str(c["target"].subs(subs).T)}
        checks.append({"label": label, "ok": ce is None, "measured": str(r.T), "expected": "0", "counterexample": ce})
    first, last = j_range or ("1", "n" if variant == "corrected" else "m")
    for part in (p for p in EQ35_PARTS[1:] if p in parts):
        res = [(c, _eq35_residual(c, variant, part, eq35_factor, (first, last), eq39_cross)) for c in m["cases"]]
        bad = next(((c, r) for c, r in res if r != 0), None)
        ce = None if bad is None else {"m": bad[0]["m"], "n": bad[0]["n"],
                                       "residual": "undefined: needs an entry beyond the vectors' lengths"
                                       if bad[1] is None else str(sp.factor(bad[1]))}
        text = _EQ35_STEPS[part].format(factor=eq35_factor, first=first, last=last,
                                        cross="" if eq39_cross == "1" else f"({eq39_cross}) ")
        checks.append({"label": text + ", (m, n) = (2, 1), (2, 3), (3, 2)", "ok": ce is None,
                        "measured": "0 in every case" if ce is None else ce["residual"], "expected": "0",
                        "counterexample": ce})
    z = ", u and z" if set(parts) - {"sum"} else " and u"  # z enters Eq. 35-36 only
    return judge_exact(checks, f"sympy with symbolic R (m x n){z}", "exact")
