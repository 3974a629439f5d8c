"""Measurements and judges of the exactly decidable claims of Arpit et al. (2019):
K_n (Eq. 3, 9, 30), the steps of the appendix proof (Eq. 17-29) and the residual
factors (Eq. 7, 8, 43, 55, 60-62). Numbers are computed at ``ctx.dps`` digits and
again at ``ctx.dps + 20``; a value passes only if both agree with the claim.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp

from simulations.core import check_choice

from ..core.claims import Where, applies_only
from ..core.evidence import bound_tightness
from ..judges import agree, exact_constant, judge_exact, tightest
from . import residual, sphere

__all__ = [
    "N_GRID", "kn_measure", "judge_kn", "judge_kn_consistent", "proof_measure", "judge_wallis", "judge_eq18",
    "eq29_integral", "eq29_right", "judge_eq31_34", "residual_measure", "judge_factor_range", "judge_depth_robustness",
]

#: n = 2..100, then 40 log-spaced values up to 10^6.
N_GRID = tuple(sorted(set(range(2, 101)) | {int(round(10 ** (2 + 4 * i / 39))) for i in range(40)}))


def kn_measure(ctx) -> dict:
    """K_n for each place, reading of S_n and reading of the products (Eq. 9's literal
    reading differs from the pattern one; Eq. 3's does not): sympy forms for n = 2k and
    2k+1, and values on ``N_GRID`` at two precisions."""
    out = {}
    for place in sphere.PLACES:
        for reading in sphere.READINGS:
            for product in (sphere.PRODUCTS if place == "eq9" else ("pattern",)):
                sym = {p: sphere.kn_symbolic(place, reading, p, product) for p in ("even", "odd")}
                vals = {d: [sphere.kn(n, place, reading, dps=d, product=product) for n in N_GRID]
                        for d in ctx.precisions}
                is_one = {p: sp.simplify(e - 1) == 0 for p, e in sym.items()}
                out[(place, reading, product)] = {"symbolic": sym, "values": vals, "is_one": is_one}
    return out


@applies_only("place", product=("eq9",))
def judge_kn(m, ctx, place: str, reading: str, value=1, product: str = "pattern", half_pi: str = "pi/2"):
    """"K_n = value for all integers n > 1" for K_n printed in ``place`` read with
    ``reading`` (S_n) and ``product`` (the products; see :mod:`.sphere`). ``half_pi``
    replaces the factor pi/2 of the case that carries it (odd n in Eq. 3, even n in
    Eq. 9; text, decimals read exactly), for mutation tests of that case alone. Only Eq. 9
    has two readings of its products: ``product`` applies with ``place="eq9"`` alone."""
    check_choice("place", place, sphere.PLACES)
    check_choice("reading", reading, sphere.READINGS)
    check_choice("product", product, sphere.PRODUCTS)
    rec = m[(place, reading, product)]  # off Eq. 9, applies_only leaves product at "pattern"
    value = exact_constant(value)
    kmin = "k >= 2" if (place, product) == ("eq9", "literal") else "k >= 1"
    pi_case = "odd" if place == "eq3" else "even"
    ratio = sp.sympify(half_pi, rational=True) / (sp.pi / 2)
    checks = []
    for parity, expr in rec["symbolic"].items():
        moved = ratio != 1 and parity == pi_case
        expr = expr * ratio if moved else expr
        ok = rec["is_one"][parity] if value == 1 and not moved else sp.simplify(expr - value) == 0
        checks.append({"label": f"sympy, n {'2k' if parity == 'even' else '2k+1'}, {kmin}", "ok": ok,
                       "measured": str(expr), "expected": str(value)})
    lo, hi = ctx.precisions
    vlo, vhi = rec["values"][lo], rec["values"][hi]
    with mpmath.workdps(hi + 10):
        if ratio != 1:
            r = mpmath.mpf(sp.N(ratio, hi + 20))
            scaled = [r if (n % 2 == 1) == (pi_case == "odd") else 1 for n in N_GRID]
            vlo, vhi = [a * f for a, f in zip(vlo, scaled)], [b * f for b, f in zip(vhi, scaled)]
        tol = mpmath.mpf(10) ** (-(lo - 5))
        target = mpmath.mpf(value.p) / value.q
        bad = [(n, a) for n, a, b in zip(N_GRID, vlo, vhi) if abs(a - target) > tol or abs(a - b) > tol]
        worst = max(abs(a - target) for a in vlo)
        digits = float(-mpmath.log10(worst)) - (lo - 5) if worst else float(hi - lo + 5)
    checks.insert(0, {
        "label": f"mpmath at {lo} and {hi} digits, n in 2..{N_GRID[-1]} ({len(N_GRID)} values)",
        "ok": not bad, "measured": mpmath.nstr(vlo[0], 20) if not bad else mpmath.nstr(bad[0][1], 20),
        "expected": str(value), "margin_digits": digits,
        "counterexample": {"n": bad[0][0], "K_n": mpmath.nstr(bad[0][1], 20)} if bad else None,
    })
    return judge_exact(checks, method=f"sympy gammasimp for n = 2k, 2k+1; mpmath at {lo}/{hi} digits; products read "
                       f"'{product}'", resolution=f"1e-{lo - 5} absolute at {lo} digits")


def _kn_pairing_check(m, ctx, r3: str, r9: str, p9: str) -> dict:
    """Eq. 3 (S_n read as ``r3``) against Eq. 9 (S_n ``r9``, products ``p9``) on the grid
    of n at two precisions: the first n where they differ, or none."""
    lo, hi = ctx.precisions
    a, b = m[("eq3", r3, "pattern")]["values"], m[("eq9", r9, p9)]["values"]
    bad = None
    with mpmath.workdps(hi + 10):
        tol = mpmath.mpf(10) ** (-(lo - 5))
        for i, n in enumerate(N_GRID):
            if abs(a[lo][i] - b[lo][i]) > tol or abs(a[hi][i] - b[hi][i]) > tol:
                bad = {"n": n, "eq3": mpmath.nstr(a[lo][i], 15), "eq9": mpmath.nstr(b[lo][i], 15)}
                break
    reading = f"Eq. 3 (S_n: {r3}) vs Eq. 9 (S_n: {r9}, products: {p9})"
    return {"reading": reading, "label": f"{reading} at {lo} and {hi} digits, n in 2..{N_GRID[-1]}", "ok": bad is None,
            "measured": bad or "equal on the grid", "expected": "equal", "counterexample": bad}


def judge_kn_consistent(m, ctx, readings=((("n_sphere", "pattern"), ("n_sphere", "pattern")),)):
    """"Eq. 3 and Eq. 9 define the same K_n" under at least one of ``readings`` (each a
    pair of pairs: Eq. 3's reading of S_n and of its products, Eq. 9's): an existential
    statement, so it holds when one reading makes the two equal on the grid of n and
    fails only when every reading gives a counterexample (each one shown).

    >>> from theory.core import RunContext
    >>> ctx = RunContext()
    >>> m = kn_measure(ctx)
    >>> judge_kn_consistent(m, ctx, ((("n_sphere", "pattern"), ("n_sphere", "literal")),
    ...                              (("n_sphere", "pattern"), ("sphere_in_Rn", "pattern")))).verdict.value
    'holds'
    """
    checks = [_kn_pairing_check(m, ctx, r3, r9, p9) for (r3, _), (r9, p9) in readings]
    agree = next((c for c in checks if c["ok"]), None)
    combined = {"label": f"at least one of {len(checks)} readings makes Eq. 3 and Eq. 9 equal on the grid of n",
                "ok": agree is not None, "expected": "equal under one reading",
                "measured": (f"equal under {agree['reading']}" if agree else "every reading differs: " +
                             "; ".join(f"{c['reading']} at n = {c['counterexample']['n']}" for c in checks)),
                "counterexample": None if agree else [dict(c["counterexample"], reading=c["reading"]) for c in checks],
                "readings": checks}
    return judge_exact([combined], "mpmath on the grid of n, every reading", f"1e-{ctx.precisions[0] - 5} absolute")


def proof_measure(ctx) -> dict:
    """Steps of the appendix proof of Theorem 5 for n = 2..30, at two precisions."""
    ns = range(2, 31)
    out = {"eq22_residual": sphere.eq22_residual(), "n": list(ns)}
    for d in ctx.precisions:
        with mpmath.workdps(d + 10):
            out[d] = _proof_values(ns, d)
    return out


def _proof_values(ns, d) -> dict:
    return {
        "wallis": [sphere.wallis(k, d + 10) for k in range(1, 32)],
        "mass": {r: [sphere.eq18_mass(n, r, d) for n in ns] for r in sphere.READINGS},
        "moment": {r: [sphere.eq18_second_moment(n, r, d) for n in ns] for r in sphere.READINGS},
        "true_moment": [sphere.true_second_moment(n, d) for n in ns],
        "true_mass": [sphere.true_mass(n, d) for n in ns],
    }


@applies_only("factor", cases=Where("!= 1 (the products it multiplies)", lambda f: exact_constant(f) != 1))
def judge_wallis(m, ctx, factor=1, cases=("odd", "even"), eq22_ratio: str = "(n-1)/n"):
    """Eq. 22 (reduction formula, symbolic n; ``eq22_ratio`` replaces its coefficient
    (n-1)/n) and Eq. 23-28 (Wallis products; ``factor``, a number or decimal text,
    multiplies the products of the ``cases`` listed: "odd" powers, Eq. 23-25, "even"
    powers, Eq. 26-28). The last two are for mutation tests; ``cases`` selects where
    ``factor`` applies, so it must be left at its default when ``factor`` is 1. A failing
    Eq. 23-28 row's counterexample (its first k) names the cases that failed (``part``,
    from the row's ``parts``)."""
    if not cases or not set(cases) <= {"odd", "even"}:
        raise ValueError(f"cases must be a non-empty subset of ('odd', 'even'), got {cases!r}")
    res = m["eq22_residual"] if eq22_ratio == "(n-1)/n" else sphere.eq22_residual(eq22_ratio)
    checks = [{"label": "Eq. 22: d/dθ(RHS) - sin^n (sympy, symbolic n)", "ok": res == 0,
               "measured": str(res), "expected": "0"}]
    for d in ctx.precisions:
        bad = []
        with mpmath.workdps(d + 10):
            for k in range(1, 32):
                pat = "even" if k % 2 else "odd"
                scale = mpmath.mpf(factor) if ("odd" if k % 2 else "even") in cases else 1
                closed = sphere.pattern_product(k + 1, pat, d) * (1 if k % 2 else mpmath.pi / 2) * scale
                if not agree(m[d]["wallis"][k - 1], closed, d):
                    bad.append({"k": k, "quadrature": mpmath.nstr(m[d]["wallis"][k - 1], 15),
                                "product": mpmath.nstr(closed, 15)})
        checks.append({"label": f"Eq. 23-28 at {d} digits, k = 1..31",
                       "parts": {c: not any(b["k"] % 2 == p for b in bad)
                                 for c, p in (("Eq. 23-25 (odd powers)", 1), ("Eq. 26-28 (even powers)", 0))},
                       "measured": bad[0] if bad else "all match", "expected": "quadrature = product",
                       "counterexample": bad[0] if bad else None})
    return judge_exact(checks, "sympy differentiation; mpmath quadrature vs closed products",
                       f"1e-{ctx.dps - 5} relative")


def _eq18_corrected_row(m, ctx, what: str, key: str, target) -> list:
    """One row per precision: the corrected density's ``key`` ("true_mass" or
    "true_moment") equals ``target(n)`` for n = 2..30, with the first n where it does not
    and the digits of agreement beyond the relative tolerance at the worst n (a lower
    bound, the resolution of the d-digit values, where they agree exactly)."""
    rows = []
    for d in ctx.precisions:
        with mpmath.workdps(d + 10):
            pairs = [(n, v, target(n)) for n, v in zip(m["n"], m[d][key])]
            bad = next(((n, v, t) for n, v, t in pairs if not agree(v, t, d)), None)
            worst = max(abs(v - t) / max(1, abs(t)) for _, v, t in pairs)
        with mpmath.workdps(d):  # equal to the last bit of the d-digit values: at least their resolution
            worst = worst or +mpmath.eps
        digits = float(-mpmath.log10(worst)) - (d - 5)
        ce = None if bad is None else {"n": bad[0], "found": mpmath.nstr(bad[1], d), "expected": mpmath.nstr(bad[2], d),
                                       "difference": mpmath.nstr(bad[1] - bad[2], 6)}
        rows.append({"label": f"{what}, n = 2..30 at {d} digits", "ok": bad is None,
                     "measured": "all match" if ce is None else ce["found"],
                     "expected": what if ce is None else ce["expected"], "margin_digits": digits, "counterexample": ce})
    return rows


@applies_only("variant", mass_factor=("corrected",))
def judge_eq18(m, ctx, variant: str = "printed", moment_factor: str = "1", mass_factor: str = "1"):
    """Eq. 18: the angular density must have mass 1 and give E[max(0,cos)^2] = 1/(2n)
    (the value Eq. 17 needs). ``variant="printed"`` tries both readings of S_n with
    sin^{n-1}; ``"corrected"`` uses (S_{n-1}/S_n) sin^{n-2} with S_n the sphere in R^n and
    checks its moment and its mass (:func:`_eq18_corrected_row`). ``moment_factor`` and
    ``mass_factor`` (decimal text) multiply 1/(2n) and the mass 1, for mutation tests
    (``mass_factor`` of the corrected density only)."""
    check_choice("variant", variant, ("printed", "corrected"))
    def moment_target(n):
        return mpmath.mpf(1) / (2 * n) * (mpmath.mpf(moment_factor) if moment_factor != "1" else 1)

    if variant == "corrected":
        checks = (_eq18_corrected_row(m, ctx, "E[max(0, cos)^2] = 1/(2n)", "true_moment", moment_target)
                  + _eq18_corrected_row(m, ctx, "mass 1", "true_mass", lambda n: mpmath.mpf(mass_factor)))
        return judge_exact(checks, "mpmath quadrature of the density's mass and of its max(0,cos)^2 moment",
                           f"1e-{ctx.dps - 5} relative")
    checks = []
    for d in ctx.precisions:
        for i, n in enumerate(m["n"]):
            with mpmath.workdps(d + 10):
                target = moment_target(n)
            opts = [(r, m[d]["mass"][r][i], m[d]["moment"][r][i]) for r in sphere.READINGS]
            if not any(agree(ms, 1, d) and agree(mo, target, d) for _, ms, mo in opts):
                found = {r: {"mass": mpmath.nstr(ms, 12), "moment": mpmath.nstr(mo, 12)} for r, ms, mo in opts}
                checks.append({"label": f"n = {n} at {d} digits", "ok": False, "measured": found,
                               "expected": {"mass": 1, "moment": f"1/(2n) = {mpmath.nstr(target, 12)}"},
                               "counterexample": {"n": n, **({"found": found})}})
                break
        else:
            checks.append({"label": f"n = 2..30 at {d} digits", "ok": True, "measured": "all match",
                           "expected": "mass 1 and moment 1/(2n)"})
    return judge_exact(checks, "mpmath quadrature of the density and of its max(0,cos)^2 moment",
                       f"1e-{ctx.dps - 5} relative")


def judge_eq31_34(m, ctx, reading: str = "sphere_in_Rn", product: str = "pattern", eq31_factor: str = "1",
                  gain2: str = "2*n/m"):
    """Eq. 31, int p(R_hat_i) max(0, cos theta)^2 = 0.5 K_n / n, is true: K_n of Eq. 30
    read with S_n ``reading`` and its products ``product`` (:mod:`.sphere`; the sphere in
    R^n with products ended at their pattern, where K_n = 1), against the true left side,
    the corrected density's E[max(0, cos)^2] (``proof_measure``'s true moment), for
    n = 2..30 at two precisions; and Eq. 32-34, m (gain^2) ||u||^2 (0.5 K_n / n) =
    K_n ||u||^2 with gain^2 = 2n/m (sympy). Whether Eq. 31 follows from the printed Eq. 21,
    29 and 30 is the claim's derivation (:func:`.derivations_sphere.eq31_34_derivation`).
    ``eq31_factor`` (decimal text) multiplies Eq. 31's 0.5 and ``gain2`` replaces Eq. 33's
    gain^2, for mutation tests."""
    check_choice("reading", reading, sphere.READINGS)
    check_choice("product", product, sphere.PRODUCTS)
    checks = []
    for d in ctx.precisions:
        with mpmath.workdps(d + 10):
            half = mpmath.mpf(1) / 2 * mpmath.mpf(eq31_factor)
            rows = [(n, half * sphere.kn(n, "eq9", reading, dps=d + 10, product=product) / n, t)
                    for n, t in zip(m["n"], m[d]["true_moment"])]
            bad = next(((n, v, t) for n, v, t in rows if not agree(v, t, d)), None)
        checks.append({"label": f"Eq. 31: 0.5 K_n / n = E[max(0, cos)^2], n = 2..30 at {d} digits", "ok": bad is None,
                       "measured": "all match" if bad is None else mpmath.nstr(bad[1], 15),
                       "expected": "the corrected density's moment" if bad is None else mpmath.nstr(bad[2], 15),
                       "counterexample": None if bad is None else {"n": bad[0], "0.5 K_n / n": mpmath.nstr(bad[1], 15),
                                                                   "E[max(0, cos)^2]": mpmath.nstr(bad[2], 15)}})
    n, mm, u2, K = sp.symbols("n m u2 K", positive=True)
    r34 = sp.simplify(mm * sp.sympify(gain2, locals={"n": n, "m": mm}) * u2 * sp.Rational(1, 2) * K / n - K * u2)
    checks.append({"label": f"Eq. 32-34 with gain^2 = {gain2} (sympy)", "ok": r34 == 0, "measured": str(r34),
                   "expected": "0", "counterexample": {"residual": str(r34)} if r34 != 0 else None})
    return judge_exact(checks, f"mpmath: K_n of Eq. 30 (S_n: {reading}, products: {product}) against the quadrature "
                       "of the corrected density's moment; sympy for Eq. 32-34", f"1e-{ctx.dps - 5} relative")


def eq29_integral(n: int):
    """Eq. 29's left side, integral_0^{pi/2} sin^{n-1} - sin^{n+1} = I_{n-1} - I_{n+1}
    (quadrature, :func:`.sphere.wallis`), at the working precision."""
    return sphere.wallis(n - 1, mpmath.mp.dps) - sphere.wallis(n + 1, mpmath.mp.dps)


def eq29_right(n: int, E_for: str, denominator: str):
    """Eq. 29's right side by its two parts (:func:`.sphere.eq29_form`): the product 2/3 4/5
    ... (E) for the n of parity ``E_for`` ("odd" as printed, "even" corrected) and 1/2 3/4
    ... pi/2 for the others, over ``denominator`` (text in n: printed "n", corrected "n+1")."""
    check_choice("E_for", E_for, ("even", "odd"))
    k = sp.Symbol("n")
    den = int(sp.sympify(denominator, locals={"n": k}).subs(k, n))
    return sphere.eq29_form(n, E_for == "even", den, mpmath.mp.dps)


#: The interval-arithmetic cross-check runs over B = 201..SCAN (exact rationals below).
SCAN = 5_000


def residual_measure(ctx) -> dict:
    """Symbolic monotonicity and limits of (1+1/B)^B and (1+1/B)^(B-1), the exact
    factors for B = 1..200 and interval enclosures for B = 201..SCAN (computed once;
    the judges compare them with the bounds of each statement)."""
    return {"B": residual.forward_factor_bounds(), "B-1": residual.h1_factor_bounds(),
            "exact": {s: [residual.squared_factor(B, shift=s) for B in range(1, 201)] for s in (0, 1)},
            "enclosures": residual.factor_enclosures(SCAN)}


def _factor_at(B, half: bool, shift: int):
    """(1+1/B)^(B-shift) [^(1/2)] at an integer B (:func:`.residual.squared_factor`) or
    at a rational B (the start of a real domain, for mutation tests)."""
    if B == int(B):
        return residual.squared_factor(int(B), half, shift)
    f = (1 + 1 / B) ** (B - shift)
    return sp.sqrt(f) if half else f


def judge_factor_range(m, ctx, shift: int = 0, half: bool = True, lo: str = "sqrt(2)", hi: str = "sqrt(e)",
                       lo_closed: bool = True, b_min: str = "1"):
    """For every integer B >= 1, lo <= (1+1/B)^(B-shift) [^(1/2) if half] <= hi.

    Proof: the factor increases in B (sympy), so its range is [f(1), lim f). The
    counterexample is the smallest B outside [lo, hi] (exact rationals for B <= 200,
    interval arithmetic beyond). A square root is compared through squares: for
    positive bounds, sqrt(f) in [lo, hi] iff f in [lo^2, hi^2]. For mutation tests,
    ``lo_closed=False`` makes the lower end strict, and ``b_min`` (text) starts the
    domain elsewhere: an integer is the first B of the integers; a non-integer is the
    start of every real B >= b_min, whose infimum is f(b_min) (f increases on B > 0).
    """
    check_choice("shift", shift, (0, 1))
    rec = m["B" if shift == 0 else "B-1"]
    start = sp.Rational(b_min)
    f1 = rec["B1"] if not half else sp.sqrt(rec["B1"])
    if start != 1:
        f1 = _factor_at(start, half, shift)
    lim = rec["limit"] if not half else sp.sqrt(rec["limit"])
    lo_s, hi_s = (sp.sympify(x, locals={"e": sp.E}) for x in (lo, hi))
    above = (lambda v, b: v >= b) if lo_closed else (lambda v, b: v > b)
    f1_ok = bool(above(f1, lo_s))
    ok = bool(rec["increasing"]) and f1_ok and bool(lim <= hi_s)
    lo2, hi2 = (lo_s**2, hi_s**2) if half else (lo_s, hi_s)
    bad = [B for B, v in enumerate(m["exact"][shift], start=1) if B >= start and not (above(v, lo2) and v <= hi2)]
    tail = [B for B in residual.outside(m["enclosures"][shift], lo, hi, half=half, start=201) if B >= start]
    first = (bad or tail or ([None] if f1_ok else [start]))[0]
    domain = f"B >= {b_min}" if start == int(start) else f"real B >= {b_min}"
    checks = [{
        "label": f"(1+1/B)^(B-{shift}){'^(1/2)' if half else ''} in {'[' if lo_closed else '('}{lo}, {hi}] for all "
                 f"{domain}",
        "ok": ok and not bad and not tail,
        "measured": {"range": f"[{f1}, {lim})", "increasing": rec["increasing"],
                     "B_outside_up_to_200": bad[:10], f"B_outside_201_to_{SCAN}": tail[:10]},
        "expected": f"{'[' if lo_closed else '('}{lo}, {hi}]",
        "counterexample": {"B": int(first) if first == int(first) else str(first),
                           "factor": str(_factor_at(first, half, shift)),
                           "value": float(_factor_at(first, half, shift))} if first else None,
    }]
    ev = judge_exact(checks, "sympy: sign of d/dB log f, f(1), limit; exact rationals B <= 200; "
                     f"mpmath.iv interval arithmetic B = 201..{SCAN}", "exact")
    # both ends are bounds: the smallest factor against lo, the supremum against hi
    ev.tightness = tightest([bound_tightness(float(f1), float(lo_s), ">=", {"end": "lower", "B": str(b_min)}),
                             bound_tightness(float(lim), float(hi_s), "<=", {"end": "upper", "B": "sup, B -> oo"})])
    return ev


def judge_depth_robustness(m, ctx, blocks: int = 1666, stages: int = 3, pytorch_rate: str = "1/18",
                           bound: float = 1e6, proposed_bound: float | None = None):
    """Sec. 5.1 at 10,000 layers (3 stages x 1666 blocks x 2 layers): the expected
    squared-norm gain stays bounded for the proposed and Hanin schemes and diverges
    for PyTorch's default WN. The first two hold for every B (the bounds are at or above
    the factors' suprema over B, Theorems 3 and 4), so only the third can fail here.
    ``proposed_bound`` replaces the proposed scheme's bound e^K (for mutation tests: below
    the supremum it can fail)."""
    prop = residual.squared_factor(blocks) ** stages
    hanin = residual.hanin_factor(blocks) ** stages
    torch = residual.pytorch_factor(blocks * stages, ctx.dps, pytorch_rate)
    sup_prop, sup_hanin = math.e**stages, math.exp(stages * 0.81 / 0.19)
    prop_label = "proposed, bounded by e^K (its supremum over B: true at every depth, shown for scale)"
    prop_expected = f"< {sup_prop:.4g}"
    if proposed_bound is not None:
        sup_prop, prop_expected = proposed_bound, f"< {proposed_bound:.7g}"
        prop_label = f"proposed, bounded by {proposed_bound:.7g} (e^K = {math.e**stages:.7g})"
    checks = [
        {"label": prop_label, "ok": float(prop) < sup_prop, "measured": float(prop), "expected": prop_expected,
         "informative": sup_prop < math.e**stages},  # at or above the supremum e^K it cannot fail
        {"label": "stage-wise Hanin, bounded by exp(K 0.81/0.19) (above its supremum over B: true at every depth, "
                  "shown for scale)", "ok": float(hanin) < sup_hanin,
         "measured": float(hanin), "expected": f"< {sup_hanin:.4g}", "informative": False},
        {"label": "PyTorch default diverges (exceeds bound)", "ok": torch > bound,
         "measured": mpmath.nstr(torch, 6), "expected": f"> {bound:g}",
         "counterexample": {"pytorch_factor": mpmath.nstr(torch, 6)}},
    ]
    ev = judge_exact(checks, "exact expectations: (1+1/B)^B, prod(1+0.81^b), (1+1/18)^B per stage",
                     "exact")
    # on the informative rows only: PyTorch's divergence threshold (and a proposed bound below e^K)
    bounds = [bound_tightness(float(torch), bound, ">", {"scheme": "PyTorch default"})]
    if proposed_bound is not None and sup_prop < math.e**stages:
        bounds.append(bound_tightness(float(prop), sup_prop, "<", {"scheme": "proposed"}))
    ev.tightness = tightest(bounds)
    return ev
