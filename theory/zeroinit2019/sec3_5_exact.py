"""Exact checks of the ZeroInit/Fixup submission outside the theorems: Eq. 1's
indices, Eq. 2 with a fixed input (sympy), the L^(1/(2-2m)) scaling of Sec. 3 (sympy
and exact proportionality in float64), the unrolled 1/2-scaling recurrence of Sec. 5
(sympy) and the arithmetic of Table 1's Ratio column (exact rationals).

>>> m = eq1_measure(None)
>>> m["printed"][2], m["recursion"][2], m["uses"][2]
(x0 + F_0(x0) + F_1(x1), x0 + F_0(x0) + F_1(x1), [0, 1])
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from simulations.relu_nets import draw_branch_resnet, resnet_backward, resnet_forward, sgd_step
from simulations.core import check_choice
from ..judges import judge_exact

__all__ = ["eq1_measure", "judge_eq1", "eq2_scalar_measure", "judge_eq2_scalar", "alpha_measure", "judge_alpha",
           "unrolling_measure", "judge_unrolling", "TABLE1", "table1_arithmetic_measure", "judge_table1_arithmetic"]

L_MAX = 4


def eq1_measure(ctx) -> dict:
    """Eq. 1 as printed, x_l = x_0 + sum_{i=0}^{l-1} F_i(x_i), against Sec. 2's own
    recursion x_{l+1} = x_l + F_l(x_l) (printed right after it), unrolled from x_0, for
    l = 1..L_MAX: sympy expressions in undefined functions F_i applied to symbols x_i
    (the activations), and the block labels each uses."""
    xs = sp.symbols(f"x0:{L_MAX + 1}")
    F = {i: sp.Function(f"F_{i}") for i in range(0, L_MAX + 1)}
    rec = {0: xs[0]}
    for l in range(L_MAX):
        rec[l + 1] = rec[l] + F[l](xs[l])
    printed = {l: xs[0] + sum(F[i](xs[i]) for i in range(0, l)) for l in range(1, L_MAX + 1)}
    return {"recursion": {l: rec[l] for l in range(1, L_MAX + 1)}, "printed": printed,
            "uses": {l: list(range(0, l)) for l in range(1, L_MAX + 1)}}


#: The block labels of each reading, for a ResNet of L blocks: as the text names them
#: ({F_1, ..., F_L}) and as Eq. 1 and Sec. 2's recursion use them ({F_0, ..., F_{L-1}}).
EQ1_LABELS = {"printed": (1, 0), "zero_based": (0, -1)}


def judge_eq1(m, ctx, labels: str = "printed"):
    """Eq. 1 equals Sec. 2's recursion and uses only the blocks the text introduces, for
    l = 1..L_MAX in a ResNet of L = L_MAX blocks: ``labels="printed"`` names them F_1..F_L
    (the text before Eq. 1), ``"zero_based"`` F_0..F_{L-1} (the labels the recursion
    x_{l+1} = x_l + F_l(x_l) uses; the correction)."""
    check_choice("labels", labels, tuple(EQ1_LABELS))
    first, shift = EQ1_LABELS[labels]
    defined = set(range(first, L_MAX + 1 + shift))
    checks = []
    for l, rec in m["recursion"].items():
        diff = sp.simplify(m["printed"][l] - rec)
        undefined = [f"F_{i}" for i in m["uses"][l] if i not in defined]
        checks.append({"label": f"l = {l}", "ok": diff == 0 and not undefined, "measured": str(m["printed"][l]),
                       "expected": f"{rec}, with blocks among F_{min(defined)}..F_{max(defined)}",
                       "counterexample": {"l": l, "eq1": str(m["printed"][l]), "recursion": str(rec),
                                          "equal": bool(diff == 0), "undefined_blocks": undefined}})
    return judge_exact(checks, "sympy, blocks as undefined functions F_i of symbols x_i", "exact")


def eq2_scalar_measure(ctx) -> dict:
    """The smallest instance of Eq. 2's setting: scalar x_0 fixed, blocks
    F_i(x) = w_i x with w_i iid, E w_i = 0, E w_i^2 = kappa (p.h., zero mean). Then
    x_l = x_0 prod_i (1 + w_i); moments by expanding in the w_i and replacing each
    monomial by its expectation (independence)."""
    x0, kappa = sp.symbols("x_0 kappa", positive=True)
    out = {}
    for l in range(1, L_MAX + 1):
        w = sp.symbols(f"w1:{l + 1}")
        xl = x0 * sp.prod([1 + wi for wi in w])

        def expect(expr):
            poly = sp.Poly(sp.expand(expr), *w)
            total = 0
            for powers, coef in poly.terms():
                term = coef
                for k in powers:
                    term *= {0: 1, 1: 0, 2: kappa}.get(k, sp.nan)
                total += term
            return sp.simplify(total)

        mean, second = expect(xl), expect(xl**2)
        out[l] = {"mean": mean, "second_moment": second, "variance": sp.factor(second - mean**2)}
    return {"rows": out, "x0": x0, "kappa": kappa}


def judge_eq2_scalar(m, ctx, form: str = "printed"):
    """Eq. 2 with x_0 fixed (Var over the weights). ``printed``: Var[x_l] = 2^l Var[x_0]
    (= 0, since Var[x_0] = 0) at kappa = 1; ``corrected``: Var[x_l] =
    ((1 + kappa)^l - 1) x_0^2 and E x_l^2 = (1 + kappa)^l x_0^2 for every kappa."""
    check_choice("form", form, ("printed", "corrected"))
    x0, kappa = m["x0"], m["kappa"]
    checks = []
    for l, r in m["rows"].items():
        if form == "printed":
            var1 = r["variance"].subs({kappa: 1, x0: 1})
            checks.append({"label": f"l = {l}, kappa = 1, x_0 = 1", "ok": var1 == 0, "measured": str(var1),
                           "expected": "2^l Var[x_0] = 0", "counterexample": {"l": l, "kappa": 1, "x_0": 1,
                                                                              "Var_x_l": str(var1), "printed": 0}})
        else:
            ok = sp.simplify(r["variance"] - ((1 + kappa) ** l - 1) * x0**2) == 0 and \
                sp.simplify(r["second_moment"] - (1 + kappa) ** l * x0**2) == 0 and r["mean"] == x0
            checks.append({"label": f"l = {l}", "ok": ok, "measured": str(r["variance"]),
                           "expected": str(((1 + kappa) ** l - 1) * x0**2)})
    return judge_exact(checks, "sympy: x_l = x_0 prod (1 + w_i), E w = 0, E w^2 = kappa, moments by independence",
                       "exact")


def alpha_measure(ctx, width: int = 8, blocks: int = 4, networks: int = 3) -> dict:
    """Sec. 3's derivation: (i) sympy: alpha^(2m-2) = 1/L for alpha = L^(1/(2-2m));
    (ii) one SGD step (lr 1, l = mean_b <g, x_L>) from ZeroInit-like branches whose
    m - 1 first layers are He times alpha, the same random numbers for every alpha:
    per alpha, ||dW_m|| (the zero layer's update) and the branch scale ||F(x)|| on fresh
    inputs (each branch applied to the same input, as in the derivation's 'the branch
    scales its input'), for m = 2, 3 and alpha = L^(-p/(2m-2)), p in (0.5, 1, 2, 3)."""
    L, mm = sp.Symbol("L", positive=True), sp.Symbol("m", integer=True, positive=True)
    residual = sp.simplify(sp.powdenest((L ** (1 / (2 - 2 * mm))) ** (2 * mm - 2), force=True) - 1 / L)
    rows = []
    for m in (2, 3):
        per_alpha = []
        for power in (0.5, 1.0, 2.0, 3.0):
            be = ctx.host_stream("zeroinit2019.alpha", m)  # host-side check; the same stream for every alpha
            net = draw_branch_resnet(be, width, blocks, m, "zeroinit", networks, power=power)
            g = be.normal((networks, 1, width)) / math.sqrt(width)
            x = be.normal((networks, 6, width)) / math.sqrt(width)
            fwd = resnet_forward(net, x, np)
            grads = resnet_backward(net, fwd, np.broadcast_to(g / 6, x.shape), np)["dW"]
            new = sgd_step(net, grads, 1.0)
            x_new = be.normal((networks, 6, width)) / math.sqrt(width)
            F = [resnet_forward([block], x_new, np)["F"][0] for block in new]  # each branch on the same input
            alpha = float(blocks) ** (-power / (2 * m - 2))
            per_alpha.append({"alpha": alpha, "update": np.array([np.linalg.norm(gr[-1], axis=(1, 2)) for gr in grads]),
                              "scale": np.array([np.linalg.norm(f, axis=-1).mean(-1) for f in F])})
        rows.append({"m": m, "per_alpha": per_alpha})
    return {"symbolic_residual": residual, "rows": rows}


def judge_alpha(m, ctx, update_exponent: str = "m-1", tol: float = 1e-12):
    """||dW_m|| / alpha^(update exponent) and branch scale / alpha^(2 x update exponent)
    are the same for every alpha (relative spread <= tol), for every block and network,
    and alpha = L^(1/(2-2m)) solves alpha^(2m-2) = 1/L."""
    checks = [{"label": "alpha^(2m-2) = 1/L at alpha = L^(1/(2-2m))", "ok": m["symbolic_residual"] == 0,
               "measured": str(m["symbolic_residual"]), "expected": "0"}]
    for r in m["rows"]:
        k = {"m-1": r["m"] - 1, "m": r["m"]}[update_exponent]
        for name, power in (("update ||dW_m||", k), ("branch scale ||F(x)||", 2 * k)):
            key = "update" if name.startswith("update") else "scale"
            normed = np.stack([a[key] / a["alpha"] ** power for a in r["per_alpha"]])
            spread = float(np.max(np.abs(normed / normed[0] - 1)))
            checks.append({"label": f"m = {r['m']}: {name} / alpha^{power}", "ok": spread <= tol, "measured": spread,
                           "expected": f"<= {tol:g}", "counterexample": {"m": r["m"], "quantity": name,
                                                                         "exponent": power, "relative_spread": spread}})
    return judge_exact(checks, "one SGD step from ZeroInit branches, common random numbers across alpha, float64; "
                       "sympy for the exponent", f"{tol:g} relative")


def unrolling_measure(ctx) -> dict:
    """For x_l = s (x_{l-1} + F_l(x_{l-1})), s = 1/sqrt(2) (printed; the extraction drops
    the root) and 1/2 (the extraction's literal text): the
    recursion for l = 1..6 with G_i = F_i(x_{i-1}) as symbols; the printed unrolling
    0.5^(l/2) x_0 + sum_{i=1}^{l} 0.5^((l-i+1)/2) F_l(x_l) (its summand, with
    H_l = F_l(x_l) a symbol of its own) and the re-indexed one (summand G_i)."""
    x0 = sp.Symbol("x_0")
    G = sp.symbols("G1:7")  # F_i(x_{i-1})
    Hs = sp.symbols("H1:7")  # F_l(x_l), the printed summand
    half = sp.Rational(1, 2)
    out = {}
    for name, s in (("half", half), ("sqrt_half", 1 / sp.sqrt(2))):
        xs, rows = [x0], []
        for l in range(1, 7):
            xs.append(sp.expand(s * (xs[-1] + G[l - 1])))
            coef = [half ** sp.Rational(l - i + 1, 2) for i in range(1, l + 1)]
            rows.append({"l": l, "recursion": xs[-1],
                         "printed": sp.expand(half ** sp.Rational(l, 2) * x0 + sum(c * Hs[l - 1] for c in coef)),
                         "corrected": sp.expand(half ** sp.Rational(l, 2) * x0 + sum(c * g for c, g in zip(coef, G)))})
        out[name] = rows
    return {"rows": out}


def judge_unrolling(m, ctx, recurrence: str = "half", index: str = "printed"):
    """The unrolled form equals the recursion exactly for l = 1..6 (every coefficient
    and every summand's index; 'measured' is the recursion, 'expected' the form under
    test)."""
    check_choice("recurrence", recurrence, ("half", "sqrt_half"))
    check_choice("index", index, ("printed", "corrected"))
    checks = []
    for r in m["rows"][recurrence]:
        diff = sp.simplify(r[index] - r["recursion"])
        checks.append({"label": f"l = {r['l']}", "ok": diff == 0, "measured": str(r["recursion"]), "expected": str(r[index]),
                       "counterexample": {"l": r["l"], "recurrence": recurrence, "index": index,
                                          "unrolled": str(r[index]), "recursion": str(r["recursion"])}})
    return judge_exact(checks, "sympy, x_0 and the branch outputs as symbols (G_i = F_i(x_(i-1)), H_l = F_l(x_l))",
                       "exact")


#: Table 1 as printed: dataset -> method -> (depth-10 mean, depth-64 mean, Ratio), as text.
TABLE1 = {"CIFAR-10": {"Baseline": ("84.29", "8e+7", "9e+5"), "1/2-scaling": ("2.24", "0.47", "0.20"),
                       "LSUV": ("7.21", "31.23", "4.33"), "BatchNorm": ("0.74", "0.99", "1.3"),
                       "ZeroInit": ("1.86", "2.30", "1.23")},
          "SVHN": {"Baseline": ("77.92", "9e+7", "1e+6"), "1/2-scaling": ("7.78", "2.69", "0.34"),
                   "LSUV": ("12.28", "55.67", "4.53"), "BatchNorm": ("0.54", "1.22", "2.25"),
                   "ZeroInit": ("3.46", "3.30", "0.95")}}


def _printed(text: str) -> tuple[Fraction, Fraction]:
    """A printed number and the unit of its last printed digit (exact rationals)."""
    if "e" in text:
        mant, exp = text.split("e")
        digits = len(mant.split(".")[1]) if "." in mant else 0
        return Fraction(mant) * Fraction(10) ** int(exp), Fraction(10) ** (int(exp) - digits)
    digits = len(text.split(".")[1]) if "." in text else 0
    return Fraction(text), Fraction(1, 10**digits)


def table1_arithmetic_measure(ctx) -> dict:
    """Per cell: the interval of depth-64 mean / depth-10 mean when each printed mean is
    any number that rounds to it (exact rational interval arithmetic), and the printed
    ratio with the unit of its last digit."""
    rows = []
    for ds, methods in TABLE1.items():
        for meth, (a, b, r) in methods.items():
            (va, ua), (vb, ub), (vr, ur) = _printed(a), _printed(b), _printed(r)
            lo, hi = (vb - ub / 2) / (va + ua / 2), (vb + ub / 2) / (va - ua / 2)
            rows.append({"dataset": ds, "method": meth, "quotient": (lo, hi), "ratio": vr, "unit": ur})
    return {"rows": rows}


def judge_table1_arithmetic(m, ctx, reading: str = "truncated"):
    """Each printed Ratio agrees with the quotient of the printed means: its interval
    meets [ratio, ratio + unit) (``truncated``) or [ratio - unit/2, ratio + unit/2]
    (``rounded``)."""
    check_choice("reading", reading, ("truncated", "rounded"))
    checks = []
    for r in m["rows"]:
        lo, hi = r["quotient"]
        a, b = (r["ratio"], r["ratio"] + r["unit"]) if reading == "truncated" else (r["ratio"] - r["unit"] / 2,
                                                                                     r["ratio"] + r["unit"] / 2)
        ok = lo < b and hi >= a
        checks.append({"label": f"{r['dataset']} {r['method']}", "ok": ok,
                       "measured": [float(lo), float(hi)], "expected": [float(a), float(b)],
                       "counterexample": {"cell": f"{r['dataset']} {r['method']}", "quotient_interval": [float(lo), float(hi)],
                                          "printed_ratio": float(r["ratio"]), "reading": reading}})
    return judge_exact(checks, "exact rational interval arithmetic on the printed means (each widened by half a unit "
                       "of its last digit)", "exact")
