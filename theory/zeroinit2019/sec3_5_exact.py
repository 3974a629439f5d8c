"""Exact checks of the ZeroInit/Fixup submission outside the theorems: Eq. 1's
indices, Eq. 2 with a fixed input (sympy), the L^(1/(2-2m)) scaling of Sec. 3 (sympy
and exact proportionality in float64), the unrolled 1/2-scaling recurrence of Sec. 5
(sympy) and the arithmetic of Table 1's Ratio column (exact rationals).

>>> m = eq1_measure(None)
>>> eq1_sum(m, 2), m["recursion"][2]
((x0 + F_0(x0) + F_1(x1), [0, 1]), x0 + F_0(x0) + F_1(x1))
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from simulations.core import check_choice
from simulations.relu_nets import draw_branch_resnet, resnet_backward, resnet_forward, sgd_step

from ..judges import judge_exact

__all__ = ["eq1_measure", "eq1_sum", "judge_eq1", "eq2_scalar_measure", "judge_eq2_scalar", "alpha_measure",
           "judge_alpha", "unrolling_measure", "unrolled", "judge_unrolling", "TABLE1", "table1_arithmetic_measure",
           "judge_table1_arithmetic"]

L_MAX = 4


def eq1_measure(ctx) -> dict:
    """Sec. 2's own recursion x_{l+1} = x_l + F_l(x_l) (printed right after Eq. 1),
    unrolled from x_0, for l = 1..L_MAX: sympy expressions in undefined functions F_i
    applied to symbols x_i (the activations); and those symbols and functions, from
    which :func:`eq1_sum` builds Eq. 1."""
    xs = sp.symbols(f"x0:{L_MAX + 1}")
    F = {i: sp.Function(f"F_{i}") for i in range(0, L_MAX + 1)}
    rec = {0: xs[0]}
    for l in range(L_MAX):
        rec[l + 1] = rec[l] + F[l](xs[l])
    return {"recursion": {l: rec[l] for l in range(1, L_MAX + 1)}, "xs": xs, "F": F}


def eq1_sum(m, l: int, upper: int = 0):
    """Eq. 1 as printed, x_l = x_0 + sum_{i=0}^{l-1+upper} F_i(x_i) (``upper`` 0 as
    printed), and the block labels it uses."""
    uses = list(range(0, l + upper))
    return m["xs"][0] + sum(m["F"][i](m["xs"][i]) for i in uses), uses


#: The block labels of each reading, for a ResNet of L blocks: as the text names them
#: ({F_1, ..., F_L}) and as Eq. 1 and Sec. 2's recursion use them ({F_0, ..., F_{L-1}}).
EQ1_LABELS = {"printed": (1, 0), "zero_based": (0, -1)}


def judge_eq1(m, ctx, labels: str = "printed", upper: int = 0):
    """Eq. 1 equals Sec. 2's recursion and uses only the blocks the text introduces, for
    l = 1..L_MAX in a ResNet of L = L_MAX blocks: ``labels="printed"`` names them F_1..F_L
    (the text before Eq. 1), ``"zero_based"`` F_0..F_{L-1} (the labels the recursion
    x_{l+1} = x_l + F_l(x_l) uses; the correction). ``upper`` moves the sum's last index
    l - 1 (0 as printed; 1 sums one block too many, -1 one too few)."""
    check_choice("labels", labels, tuple(EQ1_LABELS))
    check_choice("upper", upper, (-1, 0, 1))
    first, shift = EQ1_LABELS[labels]
    defined = set(range(first, L_MAX + 1 + shift))
    checks = []
    for l, rec in m["recursion"].items():
        eq1, uses = eq1_sum(m, l, upper)
        diff = sp.simplify(eq1 - rec)
        undefined = [f"F_{i}" for i in uses if i not in defined]
        checks.append({"label": f"l = {l}", "ok": diff == 0 and not undefined, "measured": str(eq1),
                       "expected": f"{rec}, with blocks among F_{min(defined)}..F_{max(defined)}",
                       "counterexample": {"l": l, "eq1": str(eq1), "recursion": str(rec),
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
    """Sec. 3's derivation in float64 (the judge also checks in sympy that
    alpha = L^(1/(2-2m)) solves alpha^(2m-2) = 1/L): one SGD step (lr 1,
    l = mean_b <g, x_L>) from ZeroInit-like branches whose m - 1 first layers are He
    times alpha, the same random numbers for every alpha:
    per alpha, ||dW_m|| (the zero layer's update) and the branch scale ||F(x)|| on fresh
    inputs (each branch applied to the same input, as in the derivation's 'the branch
    scales its input'), for m = 2, 3 and alpha = L^(-p/(2m-2)), p in (0.5, 1, 2, 3)."""
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
    return {"rows": rows}


#: Exponents of the claim's parts as functions of the branch depth m.
ALPHA_EXPONENTS = {"1/(2-2m)": lambda m: 1 / (2 - 2 * m), "1/(4-4m)": lambda m: 1 / (4 - 4 * m)}
POWERS = {"m-1": lambda m: m - 1, "m": lambda m: m, "2m-2": lambda m: 2 * m - 2, "2m-1": lambda m: 2 * m - 1,
          "2m": lambda m: 2 * m}


def judge_alpha(m, ctx, update_exponent: str = "m-1", tol: float = 1e-12, scale_exponent: str | None = None,
                alpha_exponent: str = "1/(2-2m)"):
    """||dW_m|| / alpha^(update exponent) and branch scale / alpha^(scale exponent) are the
    same for every alpha (relative spread <= tol), for every block and network, and
    alpha = L^(alpha exponent) solves alpha^(2m-2) = 1/L (sympy). As stated: m - 1,
    2m - 2 (None: twice the update's exponent) and 1/(2-2m); each can be moved alone."""
    check_choice("update_exponent", update_exponent, ("m-1", "m"))
    if scale_exponent is not None:  # None: twice the update's exponent
        check_choice("scale_exponent", scale_exponent, ("2m-2", "2m-1", "2m"))
    check_choice("alpha_exponent", alpha_exponent, tuple(ALPHA_EXPONENTS))
    L, mm = sp.Symbol("L", positive=True), sp.Symbol("m", integer=True, positive=True)
    residual = sp.simplify(sp.powdenest((L ** ALPHA_EXPONENTS[alpha_exponent](mm)) ** (2 * mm - 2), force=True) - 1 / L)
    checks = [{"label": f"alpha^(2m-2) = 1/L at alpha = L^({alpha_exponent})", "ok": residual == 0,
               "measured": str(residual), "expected": "0"}]
    for r in m["rows"]:
        k = POWERS[update_exponent](r["m"])
        scale = 2 * k if scale_exponent is None else POWERS[scale_exponent](r["m"])
        for name, power in (("update ||dW_m||", k), ("branch scale ||F(x)||", scale)):
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
    the root) and 1/2 (the extraction's literal text): the recursion for l = 1..6 with
    G_i = F_i(x_{i-1}) as symbols, and the symbols :func:`unrolled` builds the unrolled
    forms from (H_l = F_l(x_l), the printed summand, a symbol of its own)."""
    x0 = sp.Symbol("x_0")
    G = sp.symbols("G1:7")  # F_i(x_{i-1})
    out = {}
    for name, s in (("half", sp.Rational(1, 2)), ("sqrt_half", 1 / sp.sqrt(2))):
        xs, rows = [x0], []
        for l in range(1, 7):
            xs.append(sp.expand(s * (xs[-1] + G[l - 1])))
            rows.append({"l": l, "recursion": xs[-1]})
        out[name] = rows
    return {"rows": out, "x0": x0, "G": G, "H": sp.symbols("H1:7")}


def unrolled(m, l: int, index: str, x0_shift: int = 0, branch_shift: int = 0, upper: int = 0):
    """Sec. 5's unrolling 0.5^((l + x0_shift)/2) x_0 + sum_{i=1}^{l+upper}
    0.5^((l-i+1 + branch_shift)/2) S_i, with the printed summand S_i = F_l(x_l) (``index``
    "printed") or S_i = F_i(x_(i-1)) ("corrected"); the shifts are 0 as printed."""
    half = sp.Rational(1, 2)
    summand = (lambda i: m["H"][l - 1]) if index == "printed" else (lambda i: m["G"][i - 1])
    return sp.expand(half ** sp.Rational(l + x0_shift, 2) * m["x0"]
                     + sum(half ** sp.Rational(l - i + 1 + branch_shift, 2) * summand(i)
                           for i in range(1, l + 1 + upper)))


def judge_unrolling(m, ctx, recurrence: str = "half", index: str = "printed", x0_shift: int = 0,
                    branch_shift: int = 0, upper: int = 0):
    """The unrolled form (:func:`unrolled`) equals the recursion exactly for l = 1..6:
    x_0's coefficient (``x0_shift``), every branch coefficient (``branch_shift``), every
    summand's index (``index``) and the sum's range (``upper`` -1 leaves the last block
    out); 'measured' is the recursion, 'expected' the form under test."""
    check_choice("recurrence", recurrence, ("half", "sqrt_half"))
    check_choice("index", index, ("printed", "corrected"))
    check_choice("upper", upper, (-1, 0))
    moved = {k: v for k, v in (("x0_shift", x0_shift), ("branch_shift", branch_shift), ("upper", upper)) if v}
    checks = []
    for r in m["rows"][recurrence]:
        form = unrolled(m, r["l"], index, x0_shift, branch_shift, upper)
        diff = sp.simplify(form - r["recursion"])
        checks.append({"label": f"l = {r['l']}", "ok": diff == 0, "measured": str(r["recursion"]),
                       "expected": str(form),
                       "counterexample": {"l": r["l"], "recurrence": recurrence, "index": index, **moved,
                                          "unrolled": str(form), "recursion": str(r["recursion"])}})
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


def judge_table1_arithmetic(m, ctx, reading: str = "truncated", ratios: tuple = ()):
    """Each printed Ratio agrees with the quotient of the printed means: its interval
    meets [ratio, ratio + unit) (``truncated``) or [ratio - unit/2, ratio + unit/2]
    (``rounded``). ``ratios``: (dataset, method, text) cells whose printed Ratio is
    replaced by ``text`` (none as printed; a mutation moves one by a unit of its last
    digit)."""
    check_choice("reading", reading, ("truncated", "rounded"))
    replaced = {(ds, meth): _printed(text) for ds, meth, text in ratios}
    unknown = set(replaced) - {(r["dataset"], r["method"]) for r in m["rows"]}
    if unknown:
        raise ValueError(f"ratios name cells Table 1 lacks: {sorted(unknown)}")
    checks = []
    for r in m["rows"]:
        lo, hi = r["quotient"]
        ratio, unit = replaced.get((r["dataset"], r["method"]), (r["ratio"], r["unit"]))
        a, b = (ratio, ratio + unit) if reading == "truncated" else (ratio - unit / 2, ratio + unit / 2)
        ok = lo < b and hi >= a
        checks.append({"label": f"{r['dataset']} {r['method']}", "ok": ok,
                       "measured": [float(lo), float(hi)], "expected": [float(a), float(b)],
                       "counterexample": {"cell": f"{r['dataset']} {r['method']}",
                                          "quotient_interval": [float(lo), float(hi)],
                                          "printed_ratio": float(ratio), "reading": reading}})
    return judge_exact(checks, "exact rational interval arithmetic on the printed means (each widened by half a unit "
                       "of its last digit)", "exact")
