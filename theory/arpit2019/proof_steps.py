"""Exact checks of single displayed steps of Arpit et al. (2019): the backpropagation
formula (Eq. 4-5), steps of the proofs of Theorems 5-8 (Eq. 19-21, 45-53, 56-61),
footnotes 5 and 8, Lemma 1's hypotheses and Table 5's depth count. The index ranges of
Eq. 35-39 are checked in :mod:`.proof_ranges`.

Each ``*_measure(ctx)`` computes what its steps need (sympy identities, finite
differences through small weight-normalized layers, exact counterexamples); each
``judge_*(m, ctx, variant=...)`` compares the printed (``"printed"``) or corrected
(``"corrected"``) form with it through :func:`theory.judges.judge_exact`.

>>> m = eq5_measure(None)
>>> judge_eq5(m, None, variant="printed").verdict.value, judge_eq5(m, None, variant="corrected").verdict.value
('fails', 'holds')
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from simulations.core import check_choice

from ..core.claims import applies_only
from ..judges import judge_exact
from . import sphere

__all__ = [
    "eq5_measure", "judge_eq5", "eq19_21_measure", "judge_eq19_21", "eq45_49_lhs", "eq45_49_rhs", "judge_eq47_53",
    "eq56_measure", "judge_eq56", "eq59_measure", "judge_eq59", "judge_eq61", "fn8_measure",
    "judge_fn8_deterministic", "fn5_block", "fn5_absorbed", "TABLE5", "wrn_depth", "judge_lemma1_zero_input",
    "symbolic_measure",
]

_FD_STEP = 1e-6


# --- Eq. 4-5: the backward recursion through a WN ReLU layer ----------------------------

def _wn(v, g):
    """Effective weight diag(g) W_hat of a WN layer with direction parameters v."""
    return v * (g / np.linalg.norm(v, axis=1))[:, None]


def _fd_grad(f, x):
    """Central finite differences of a scalar function at x."""
    out = np.empty_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = _FD_STEP
        out[i] = (f(x + e) - f(x - e)) / (2 * _FD_STEP)
    return out


def _eq5_case(v, g, a, c):
    """dl/da^l for l = <c, a^{l+1}>, a^{l+1} = g * W_hat ReLU(a^l): finite differences,
    the printed Eq. 5 (None when its factors have different lengths) and the corrected
    form 1(a^l) * W_hat^T (g * c)."""
    w_hat = v / np.linalg.norm(v, axis=1)[:, None]
    true = _fd_grad(lambda x: float(c @ (_wn(v, g) @ np.maximum(x, 0))), a)
    printed = g * (a > 0) * (w_hat.T @ c) if g.size == a.size else None
    corrected = (a > 0) * (w_hat.T @ (g * c))
    return {"n_l": a.size, "n_l+1": c.size, "true": true, "printed": printed, "corrected": corrected,
            "unmasked": {"printed": g * (w_hat.T @ c) if g.size == a.size else None, "corrected": w_hat.T @ (g * c)}}


def _mixed_signs(a):
    """``a`` with its first entry's sign flipped when all its entries have one sign: with
    a^l < 0 everywhere the gradient is 0 (any masked form passes), with a^l > 0
    everywhere the mask is 1 (dropping it passes)."""
    if np.all(a > 0) or np.all(a < 0):
        a = a.copy()
        a[0] = -a[0]
    return a


def eq5_measure(ctx) -> list:
    """The smallest counterexample (two units, W_hat a swap, gains (1, 2), a^l = (-1, 1),
    dl/da^{l+1} = (1, 1)) and random cases with unequal widths and gains. Every case has
    a^l of mixed signs (:func:`_mixed_signs`), so the mask and the gradient both show."""
    cases = [_eq5_case(np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1.0, 2.0]), np.array([-1.0, 1.0]),
                       np.array([1.0, 1.0]))]
    rng = np.random.default_rng(5)
    for n_l, n_next in ((3, 2), (4, 3), (3, 5), (2, 2)):
        a = rng.normal(size=n_l)
        a[np.abs(a) < 0.1] = 0.5  # keep the finite differences away from the ReLU kink
        cases.append(_eq5_case(rng.normal(size=(n_next, n_l)), rng.uniform(0.5, 2.0, n_next), _mixed_signs(a),
                               rng.normal(size=n_next)))
    return cases


def judge_eq5(m, ctx, variant: str = "printed", tol: float = 1e-7, scale: float = 1.0, mask: bool = True):
    """Eq. 5 printed: dl/da^l = g^{l+1} * 1(a^l) * (W_hat^{l+1 T} dl/da^{l+1});
    corrected: 1(a^l) * W_hat^{l+1 T} (g^{l+1} * dl/da^{l+1}). Both against finite
    differences (Eq. 4 in denominator layout). For mutation tests, ``scale`` multiplies
    the form and ``mask=False`` drops its factor 1(a^l)."""
    check_choice("variant", variant, ("printed", "corrected"))
    checks = []
    for c in m:
        form = c[variant] if mask else c["unmasked"][variant]
        if form is not None and scale != 1.0:
            form = scale * form
        label = f"n_l = {c['n_l']}, n_(l+1) = {c['n_l+1']}"
        if form is None:
            checks.append({"label": label, "ok": False, "measured": "undefined: g^(l+1) and 1(a^l) have lengths "
                           f"{c['n_l+1']} and {c['n_l']}", "expected": np.round(c["true"], 6).tolist(),
                           "counterexample": {"n_l": c["n_l"], "n_l+1": c["n_l+1"], "printed": "ill-typed"}})
            continue
        err = float(np.max(np.abs(form - c["true"])))
        checks.append({"label": label, "ok": err <= tol * max(1.0, float(np.max(np.abs(c["true"])))),
                       "measured": np.round(form, 6).tolist(), "expected": np.round(c["true"], 6).tolist(),
                       "counterexample": {"n_l": c["n_l"], "n_l+1": c["n_l+1"], "form": np.round(form, 6).tolist(),
                                          "finite_differences": np.round(c["true"], 6).tolist()}})
    return judge_exact(checks, "central finite differences (step 1e-6) of <c, a^(l+1)> through one WN ReLU layer; "
                       "the first case is the smallest counterexample (two units)", f"{tol:g} relative")


# --- Eq. 19-21: the angular integral -------------------------------------------------

def eq19_21_measure(ctx) -> dict:
    """Eq. 20 (sympy) and, for n = 2..8 at two precisions, the three integrals of
    Eq. 19-21 by quadrature: int_0^pi |sin|^(n-1) max(0, cos)^2 (breakpoint pi/2),
    int_0^(pi/2) sin^(n-1) cos^2, and I_(n-1) - I_(n+1)."""
    t = sp.Symbol("theta")
    out = {"eq20": sp.simplify(sp.cos(t) ** 2 - (1 - sp.sin(t) ** 2)), "n": list(range(2, 9))}
    for d in ctx.precisions:
        with mpmath.workdps(d + 10):
            pi = mpmath.pi
            out[d] = [(mpmath.quad(lambda x: abs(mpmath.sin(x)) ** (n - 1) * max(0, mpmath.cos(x)) ** 2,
                                   [0, pi / 2, pi]),
                       mpmath.quad(lambda x: mpmath.sin(x) ** (n - 1) * mpmath.cos(x) ** 2, [0, pi / 2]),
                       sphere.wallis(n - 1, d + 10) - sphere.wallis(n + 1, d + 10)) for n in out["n"]]
    return out


#: The two equalities of a row of :func:`judge_eq19_21`, named in its counterexample's
#: ``part`` when they fail (Eq. 20 is the sympy row).
_EQ19_21_PARTS = ("Eq. 19: int_0^pi |sin|^(n-1) max(0, cos)^2 = int_0^(pi/2) sin^(n-1) cos^2",
                  "Eq. 21: int_0^(pi/2) sin^(n-1) cos^2 = int_0^(pi/2) sin^(n-1) - sin^(n+1)")


def judge_eq19_21(m, ctx, shift: int = 0, eq19_factor: str = "1"):
    """Eq. 19-21: the three integrals agree for every n (for mutation tests, ``shift``
    moves the last one's exponents and ``eq19_factor``, decimal text, multiplies Eq. 19's
    right side where it is compared with Eq. 18's integral). A row checks both equalities;
    its counterexample (its first n) names those that failed at some n (``part``, from
    the row's ``parts``)."""
    checks = [{"label": "Eq. 20: cos^2 - (1 - sin^2) (sympy)", "ok": m["eq20"] == 0, "measured": str(m["eq20"]),
               "expected": "0"}]
    for d in ctx.precisions:
        bad, failed = [], set()
        with mpmath.workdps(d + 10):
            tol = mpmath.mpf(10) ** (-(d - 5))
            for n, (a, b, c) in zip(m["n"], m[d]):
                if shift:
                    c = sphere.wallis(n - 1 + shift, d + 10) - sphere.wallis(n + 1 + shift, d + 10)
                b19 = b * mpmath.mpf(eq19_factor) if eq19_factor != "1" else b
                off = (abs(a - b19) > tol, abs(b - c) > tol)
                if any(off):
                    failed.update(i for i in (0, 1) if off[i])
                    bad.append({"n": n, "eq18_form": mpmath.nstr(a, 12), "eq19": mpmath.nstr(b19, 12),
                                "eq21": mpmath.nstr(c, 12)})
        checks.append({"label": f"Eq. 19 and 21, n = 2..8 at {d} digits",
                       "parts": {name: i not in failed for i, name in enumerate(_EQ19_21_PARTS)},
                       "measured": bad[0] if bad else "all agree", "expected": "equal integrals",
                       "counterexample": bad[0] if bad else None})
    return judge_exact(checks, "sympy (Eq. 20); mpmath quadrature of the three integrands",
                       f"1e-{ctx.dps - 5} absolute")


# --- Eq. 45-49, footnote 5: symbolic steps (Eq. 31-34: exact_claims.judge_eq31_34) ----------

def symbolic_measure(ctx) -> dict:
    """Symbols shared by the symbolic steps (the judges do the algebra)."""
    return {}


_ALPHA = sp.Symbol("alpha", real=True)
_X3, _F3 = sp.Matrix(sp.symbols("x1:4", real=True)), sp.Matrix(sp.symbols("F1:4", real=True))


def eq45_49_lhs() -> sp.Expr:
    """Eq. 45-46 and 49's left side, ||x + alpha F||^2, for symbolic x, F in R^3 and alpha
    (Eq. 49 is the same with h^1 for x)."""
    return (_X3 + _ALPHA * _F3).dot(_X3 + _ALPHA * _F3)


def eq45_49_rhs(cross, alpha_power) -> sp.Expr:
    """Eq. 45-46 and 49's right side, ||x||^2 + alpha^(alpha_power) ||F||^2 + (cross) alpha <x, F>
    (``cross`` = 2 and ``alpha_power`` = 2 as printed)."""
    return _X3.dot(_X3) + _ALPHA**alpha_power * _F3.dot(_F3) + cross * _ALPHA * _X3.dot(_F3)


def judge_eq47_53(m, ctx, factor: str = "1 + alpha**2", exponent: str = "B", blocks: int = 8):
    """Eq. 47 and 50-53 with Theorem 7's hypotheses holding exactly: every block F_b the
    rotation by 90 degrees in R^2 (||F_b(h)|| = ||h||, <h, F_b(h)> = 0 for every h), x
    symbolic. One block with symbolic alpha gives ||h^1||^2 = (factor) ||x||^2 (Eq. 47,
    and Eq. 50 for any block); B = 1..``blocks`` blocks at alpha = 1/sqrt(B) give
    ||h^B||^2 = (factor)^(exponent) ||x||^2 = (1 + 1/B)^B ||x||^2 (Eq. 51-53). ``factor``
    (text in alpha) and ``exponent`` (text in B) replace the printed 1 + alpha^2 and B, for
    mutation tests."""
    a, Bs = sp.Symbol("alpha", positive=True), sp.Symbol("B", positive=True)
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    rot = sp.Matrix([[0, -1], [1, 0]])
    fac = sp.sympify(factor, locals={"alpha": a})
    h1 = x + a * rot * x
    r47 = sp.expand(h1.dot(h1) - fac * x.dot(x))
    checks = [{"label": "Eq. 47 (and 50): one block, symbolic alpha", "ok": r47 == 0, "measured": str(r47),
               "expected": "0", "counterexample": {"residual": str(r47)} if r47 != 0 else None}]
    bad = None
    for B in range(1, blocks + 1):
        alpha = 1 / sp.sqrt(B)
        h = x
        for _ in range(B):
            h = h + alpha * rot * h  # Eq. 48's h^b = h^{b-1} + alpha F_b(h^{b-1})
        target = (fac.subs(a, alpha) ** sp.sympify(exponent, locals={"B": Bs}).subs(Bs, B)) * x.dot(x)
        r = sp.expand(h.dot(h) - target)
        if r != 0 and bad is None:
            bad = {"B": B, "||h^B||^2 / ||x||^2": str(sp.factor(h.dot(h)) / x.dot(x)).replace(" ", ""),
                   "stated": str(sp.factor(target) / x.dot(x)).replace(" ", "")}
    checks.append({"label": f"Eq. 51-53: B = 1..{blocks} blocks at alpha = 1/sqrt(B)", "ok": bad is None,
                   "measured": "all match" if bad is None else bad["||h^B||^2 / ||x||^2"],
                   "expected": "(1 + 1/B)^B" if bad is None else bad["stated"], "counterexample": bad})
    b_factor = sp.simplify(sp.powsimp((fac ** sp.sympify(exponent, locals={"B": Bs})).subs(a, 1 / sp.sqrt(Bs))
                                      / (1 + 1 / Bs) ** Bs, force=True) - 1)
    checks.append({"label": "Eq. 53: (factor)^(exponent) at alpha = 1/sqrt(B) is (1 + 1/B)^B, symbolic B",
                   "ok": b_factor == 0, "measured": str(b_factor), "expected": "0",
                   "counterexample": {"residual": str(b_factor)} if b_factor != 0 else None})
    return judge_exact(checks, "sympy: residual blocks that meet Theorem 7's hypotheses exactly (a 90-degree rotation "
                       "in R^2), symbolic x", "exact")


_B, _FAN_IN, _FAN_OUT, _W = sp.symbols("B fan_in fan_out w", positive=True)


def fn5_block() -> sp.Expr:
    """Footnote 5's block output alpha W2 ReLU(W1 h) with alpha = 1/sqrt(B): FC2's pre-gain
    output w times alpha and FC2's gain sqrt(fan_in/fan_out) (FC2 is linear in its gain, no
    bias after it)."""
    return _W * sp.sqrt(_FAN_IN / _FAN_OUT) / sp.sqrt(_B)


def fn5_absorbed(gamma) -> sp.Expr:
    """The same block with alpha absorbed into FC2's gain sqrt(gamma fan_in/fan_out) (``gamma``:
    text in B, 1/B as printed)."""
    return _W * sp.sqrt(sp.sympify(gamma, locals={"B": _B}) * _FAN_IN / _FAN_OUT)


#: Table 5's WRNs: N blocks per stage and the depth it prints ('N = 1666 (10,000 layers)'), and WRN-40's N = 6.
TABLE5 = ({"N": 1, "layers": 10}, {"N": 16, "layers": 100}, {"N": 166, "layers": 1000},
          {"N": 1666, "layers": 10000}, {"N": 6, "layers": 40})


def wrn_depth(N, layers, depth) -> int:
    """Table 5: the depth of a WRN with N blocks per stage by the formula ``depth`` (text in N;
    6N + 4 as printed: 3 stages of N blocks of 2 layers, the first conv and the classifier)."""
    n = sp.Symbol("N")
    return int(sp.sympify(depth, locals={"N": n}).subs(n, N))


# --- Eq. 56-58: the residual recursion and its Jacobian -----------------------------------

def _block(rng, d, k, alpha):
    w1, w2 = rng.normal(size=(k, d)), rng.normal(size=(d, k))
    w1 *= math.sqrt(2 * d / k) / np.linalg.norm(w1, axis=1)[:, None]
    w2 *= math.sqrt(k / d) / np.linalg.norm(w2, axis=1)[:, None]
    F = lambda h: w2 @ np.maximum(w1 @ h, 0)  # noqa: E731
    JF = lambda h: w2 @ ((w1 @ h > 0)[:, None] * w1)  # noqa: E731
    return F, JF


def _fd_jacobian(f, h):
    cols = []
    for i in range(h.size):
        e = np.zeros_like(h)
        e[i] = _FD_STEP
        cols.append((f(h + e) - f(h - e)) / (2 * _FD_STEP))
    return np.stack(cols, axis=1)


def eq56_measure(ctx) -> list:
    """Two-block WN ResNets (d = 3, hidden 4, alpha = 1/sqrt(2)): the finite-difference
    Jacobian of h^b as a function of h^{b-1} (b = 1, 2) under the printed recursion
    h^b = x + alpha F_b(h^{b-1}) and under Eq. 6's h^b = h^{b-1} + alpha F_b(h^{b-1}),
    with the analytic I + alpha dF_b/dh^{b-1} of Eq. 57."""
    rng = np.random.default_rng(56)
    d, alpha = 3, 1 / math.sqrt(2)
    blocks = [_block(rng, d, 4, alpha) for _ in range(2)]
    x = rng.normal(size=d)
    out = []
    for rec in ("printed", "corrected"):
        h = x
        for b, (F, JF) in enumerate(blocks, start=1):
            if rec == "printed":  # x is the network input, fixed while h^{b-1} varies (for b = 1, x = h^0)
                step = (lambda y, F=F: y + alpha * F(y)) if b == 1 else (lambda y, F=F: x + alpha * F(y))
            else:
                step = lambda y, F=F: y + alpha * F(y)  # noqa: E731
            out.append({"recursion": rec, "b": b, "jacobian": _fd_jacobian(step, h),
                        "eq57": np.eye(d) + alpha * JF(h)})
            h = step(h)
    return out


def judge_eq56(m, ctx, variant: str = "printed", tol: float = 1e-6, alpha_scale: float = 1.0):
    """Eq. 56-58: the recursion gives dh^b/dh^{b-1} = I + alpha dF_b/dh^{b-1} (Eq. 57,
    whose transpose carries dl/dh^b to dl/dh^{b-1}). Printed recursion (x for h^{b-1})
    vs Eq. 6's; the smallest counterexample is b = 2 (at b = 1, x = h^0).
    ``alpha_scale`` multiplies Eq. 57's alpha, for mutation tests."""
    check_choice("variant", variant, ("printed", "corrected"))
    checks = []
    for c in (r for r in m if r["recursion"] == variant):
        eye = np.eye(len(c["eq57"]))
        eq57 = c["eq57"] if alpha_scale == 1.0 else eye + alpha_scale * (c["eq57"] - eye)
        err = float(np.max(np.abs(c["jacobian"] - eq57)))
        checks.append({"label": f"b = {c['b']}", "ok": err <= tol, "measured": {"max |J - (I + alpha J_F)|": err},
                       "expected": f"<= {tol:g}", "counterexample": {"b": c["b"], "max_entry_error": round(err, 6)}})
    return judge_exact(checks, "central finite differences of h^{b-1} -> h^b through small WN blocks",
                       f"{tol:g} absolute")


# --- Eq. 59-61: the norm of Eq. 58 ---------------------------------------------------------

def eq59_measure(ctx) -> dict:
    """Symbolic Eq. 58-59 in one and two dimensions: g_b (= dl/dh^b), J (= dF_b/dh^{b-1})
    and g_{b-1} = g_b + alpha J g_b."""
    a = sp.Symbol("alpha", positive=True)
    g = sp.Matrix(sp.symbols("g1:3", real=True))
    J = sp.Matrix(2, 2, sp.symbols("J11 J12 J21 J22", real=True))
    return {"alpha": a, "g": g, "J": J, "g_prev": g + a * J * g}


def judge_eq59(m, ctx, variant: str = "printed", square: str | None = None, cross: str | None = None,
               cross_coeff: str = "2"):
    """Eq. 59: ||g_{b-1}||^2 = ||g_b||^2 + alpha^2 ||J g_{b-1}||^2 + 2 alpha <g_b, J g_{b-1}> as
    printed; with g_b in both places (corrected) it is the expansion of Eq. 58. The
    smallest counterexample is one-dimensional, J = 1, g_b = 1, alpha = 1. For mutation
    tests, ``square`` and ``cross`` ("printed": g_{b-1}, "corrected": g_b) set the vector
    of the alpha^2 term and of the cross term one at a time (default: ``variant``), and
    ``cross_coeff`` replaces the cross term's 2."""
    check_choice("variant", variant, ("printed", "corrected"))
    for name, part in (("square", square), ("cross", cross)):
        if part is not None:  # None: the variant's
            check_choice(name, part, ("printed", "corrected"))
    a, g, J, gp = m["alpha"], m["g"], m["J"], m["g_prev"]
    sq, cr = (gp if (part or variant) == "printed" else g for part in (square, cross))
    rhs = g.dot(g) + a**2 * (J * sq).dot(J * sq) + sp.sympify(cross_coeff) * a * g.dot(J * cr)
    r = sp.expand(gp.dot(gp) - rhs)
    ce = None
    if r != 0:
        one = {a: 1, g[0]: 1, g[1]: 0, J[0, 0]: 1, J[0, 1]: 0, J[1, 0]: 0, J[1, 1]: 0}
        rot = {a: 1, g[0]: 1, g[1]: 0, J[0, 0]: 0, J[0, 1]: -1, J[1, 0]: 1, J[1, 1]: 0}
        key = "printed_rhs" if variant == "printed" else "rhs"
        ce = {"one_dimensional": {"J": 1, "g_b": 1, "alpha": 1, "lhs": int(gp.dot(gp).subs(one)),
                                  key: int(rhs.subs(one))},
              "theorem_8_hypotheses_exact": {"J": "rotation by 90 degrees", "g_b": [1, 0], "alpha": 1,
                                             "lhs": int(gp.dot(gp).subs(rot)), key: int(rhs.subs(rot))}}
    return judge_exact([{"label": f"Eq. 59 ({variant}) minus ||g_(b-1)||^2 from Eq. 58, symbolic in R^2", "ok": r == 0,
                         "measured": str(r)[:200], "expected": "0", "counterexample": ce}],
                       "sympy expansion with symbolic g_b in R^2, J in R^(2x2) and alpha", "exact")


def judge_eq61(m, ctx, variant: str = "printed", factor: str = "1 + alpha**2"):
    """Eq. 60-61 under Theorem 8's hypotheses holding exactly (||J w|| = ||w||,
    <g_b, J g_b> = 0: J a rotation by 90 degrees in R^2): printed, Eq. 61 reads
    ||g_b||^2 + alpha^2 ||g_{b-1}||^2 = (1 + alpha^2) ||g_{b-1}||^2 (true only if
    ||g_b|| = ||g_{b-1}||); corrected, ||g_{b-1}||^2 = (1 + alpha^2) ||g_b||^2.
    ``factor`` (text in alpha) replaces 1 + alpha^2, for mutation tests."""
    check_choice("variant", variant, ("printed", "corrected"))
    a, g = m["alpha"], m["g"]
    J = sp.Matrix([[0, -1], [1, 0]])
    gp = g + a * J * g
    lhs = gp.dot(gp)
    fac = sp.sympify(factor, locals={"alpha": a})
    if variant == "printed":
        r = sp.simplify(g.dot(g) + a**2 * lhs - fac * lhs)
    else:
        r = sp.simplify(lhs - fac * g.dot(g))
    ce = None
    if r != 0:
        s = {a: 1, g[0]: 1, g[1]: 0}
        ce = {"B": 1, "alpha": 1, "g_b": [1, 0], "||g_b||^2": 1, "||g_(b-1)||^2": int(lhs.subs(s))}
        if variant == "printed":
            ce.update({"eq61_left": int((g.dot(g) + a**2 * lhs).subs(s)), "eq61_right": int((fac * lhs).subs(s))})
        else:  # B = 4 (alpha = 1/2): a factor that agrees with 1 + alpha^2 at alpha = 1 still shows
            s = {a: sp.Rational(1, 2), g[0]: 1, g[1]: 0}
            ce = {"B": 4, "alpha": "1/2", "g_b": [1, 0], "||g_b||^2": 1, "||g_(b-1)||^2": str(lhs.subs(s)),
                  "factor_times_||g_b||^2": str((fac * g.dot(g)).subs(s))}
    return judge_exact([{"label": f"Eq. 61 ({variant}) with the hypotheses exact", "ok": r == 0,
                         "measured": str(r), "expected": "0", "counterexample": ce}],
                       "sympy with g_b in R^2 symbolic, J a 90-degree rotation, alpha symbolic", "exact")


# --- Footnote 8 and Lemma 1: exact counterexamples --------------------------------------

def fn8_measure(ctx) -> dict:
    """Footnote 8's setting at (m, n) = (1, 1) (R_hat = +-1), and ||R_hat^T u||^2 for
    2000 Haar matrices with orthonormal rows, (m, n) = (3, 5), u = (1, 1, 1)/sqrt(3)."""
    from simulations import haar_orthogonal, to_host

    be = ctx.stream("arpit2019.fn8_exact")
    R = to_host(haar_orthogonal(be, 2000, 3, 5))
    u = np.ones(3) / math.sqrt(3)
    return {"one_by_one": sorted({2 * z * z * 1.0 for z in (0, 1)}),
            "haar_norms": np.einsum("rij,i->rj", R, u)}


@applies_only("variant", tol=("corrected",), value=("corrected",))
def judge_fn8_deterministic(m, ctx, variant: str = "printed", tol: float = 1e-12, value: float = 1.0):
    """Footnote 8: 'for orthogonal R the result holds without the dependence on
    expectation'. Printed (||v||^2 = ||u||^2 on every draw): fails already at m = n = 1,
    where ||v||^2 = 2 z^2 ||u||^2 is 0 or 2 ||u||^2. Corrected: the mask-free part of
    Eq. 38, ||R_hat^T u||^2 = ||u||^2, holds on every draw of orthonormal rows (``value``
    replaces the ratio 1 there, for mutation tests; ``tol`` and ``value`` apply to the
    corrected form alone)."""
    check_choice("variant", variant, ("printed", "corrected"))
    if variant == "printed":
        vals = m["one_by_one"]
        ok = len(set(vals)) == 1 and vals[0] == 1.0
        check = {"label": "||v||^2 / ||u||^2 over the draws of z at m = n = 1", "ok": ok, "measured": vals,
                 "expected": "1 on every draw", "counterexample": None if ok else {"m": 1, "n": 1, "values": vals}}
    else:
        dev = float(np.max(np.abs(np.sum(m["haar_norms"] ** 2, axis=-1) - value)))
        check = {"label": "max over 2000 Haar draws of | ||R_hat^T u||^2 - ||u||^2 |, (m, n) = (3, 5)",
                 "ok": dev <= tol, "measured": dev, "expected": f"<= {tol:g}"}
    return judge_exact([check], "exact enumeration of z at m = n = 1; Haar draws for the mask-free part", "exact")


def judge_lemma1_zero_input(m, ctx, h: float = 0.0):
    """Lemma 1 as printed ('conditioned on h^{l-1}', with no restriction): given
    h^{l-1} = h 1, each a_i = W_i h^{l-1} is N(0, ||h^{l-1}||^2) for Gaussian rows, so
    P(a_i > 0) = 1/2 exactly when h^{l-1} != 0, but at h^{l-1} = 0 the pre-activation is 0
    and 1(a^l) = 0 surely. A ReLU layer outputs 0 with positive probability at finite
    width (every unit inactive: 2^-n for symmetric weights), so the case occurs."""
    from scipy import stats as st

    norm = abs(float(h)) * math.sqrt(3)
    p_on = float(st.norm.sf(0.0, scale=norm)) if norm > 0 else 0.0
    ok = p_on == 0.5
    return judge_exact([{"label": f"P(a_i > 0 | h^(l-1) = {h:g} (1, 1, 1)), Gaussian rows", "ok": ok,
                         "measured": p_on, "expected": 0.5,
                         "counterexample": None if ok else {"h": [float(h)] * 3, "a": [0.0] * 4, "mask": [0] * 4,
                                                            "P(unit on)": p_on}}],
                       "exact: a_i ~ N(0, ||h||^2) for Gaussian rows; a = 0 when h = 0", "exact")
