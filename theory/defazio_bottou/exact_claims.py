"""Symbolic checks of Defazio & Bottou's scaling calculus (sympy, exact): Table 1's
scale-preserving operations, Eq. 2 against its extrinsic form, Theorem 1 under the
model's moment rules, geometric vs Kaiming/Xavier initialization, Eq. 6 and its
telescoping product, Sec. 6.2, 8 and 8.1, and Sec. 11 / 11.1."""
from __future__ import annotations

from functools import lru_cache

import mpmath
import sympy as sp

from simulations.core import check_choice

from ..core.claims import applies_only
from ..judges import agree, exact_constant, judge_exact
from . import calculus as c
from .proof_steps import PERTURB_FACTOR, PERTURBS, check_perturbation, selected

__all__ = ["table1_measure", "judge_symbolic", "init_measure", "ladder_gammas", "judge_constant_gamma",
           "input_scaling_measure", "judge_input_scaling", "bottleneck_measure", "judge_bottleneck"]

n, m, k, q, g, rho, w, beta, a = sp.symbols("n m k q g rho w beta a", positive=True)
#: The strided LeNet's channel ladder (3 -> 6 -> 16 channels, then 120, 84, 10 units).
LENET_LADDER = (3, 6, 16, 120, 84, 10)
#: Width ladders on which the per-layer gammas are compared (exact arithmetic), one
#: kernel size (k = 1): mixed ratios (LeNet's and two others), equal widths, a geometric
#: ladder.
LADDERS = (LENET_LADDER, (3, 10, 40, 5, 7), (100, 7, 300, 2), (64, 64, 64, 64), (1, 2, 4, 8, 16, 32))
#: The ladders whose consecutive ratios are neither equal nor equal up to inversion.
MIXED_LADDERS = LADDERS[:3]
#: Ladders with mixed kernel sizes, as (widths, kernel sizes k_l): the strided LeNet's
#: (5x5 convolutions, then dense layers; fc1 on the 16 x 5 x 5 map is a 5x5 convolution,
#: the same E[W^2] under Eq. 3 since k sqrt(16) = sqrt(400)). Only here does the kernel
#: power of Eq. 3 (k_l, 'rather than k_l^2', Sec. 6) decide whether gamma_l is constant.
KERNEL_LADDERS = ((LENET_LADDER, (5, 5, 5, 1, 1)),)
#: Judged only by mutations (computed when one asks, :func:`ladder_gammas`): an
#: expand-contract ladder (constant |log(n_{l+1}/n_l)|), where Xavier alone of the
#: three gives constant gamma_l.
EXPAND_CONTRACT = (5, 15, 45, 15, 5)
#: Perturbed initializations, judged only by mutations (computed when one asks): Eq. 3
#: with the geometric mean's exponent 1/2 off by 1/100, and with the kernel power 1 off
#: by 1/100.
MUTANT_INITS = {"geometric, mean exponent 0.51": lambda n_, m_, k_, c_=2: c_ / (k_ * (n_ * m_) ** sp.Rational(51, 100)),
                "geometric, kernel power 1.01":
                    lambda n_, m_, k_, c_=2: c_ / (k_ ** sp.Rational(101, 100) * sp.sqrt(n_ * m_))}
#: Every initialization :func:`judge_constant_gamma` knows (Eq. 3-5 and the mutants).
ALL_INITS = {**c.INITS, **MUTANT_INITS}


def _kernels(ladder) -> bool:
    return isinstance(ladder[0], (tuple, list))


def ladder_name(ladder) -> str:
    """A ladder's key in :func:`init_measure` and its labels: the widths, and the kernel
    sizes when they are given ((widths, kernels))."""
    return f"{tuple(ladder[0])}, kernels {tuple(ladder[1])}" if _kernels(ladder) else str(tuple(ladder))


@lru_cache(maxsize=None)
def _cached_gammas(init: str, ladder: tuple) -> tuple:
    if _kernels(ladder):
        return tuple(c.layer_gammas(ladder[0], ALL_INITS[init], k=ladder[1]))
    return tuple(c.layer_gammas(ladder, ALL_INITS[init]))


def ladder_gammas(init: str, ladder) -> tuple:
    """gamma_l (Eq. 2) of every layer of ``ladder`` (widths, or (widths, kernels)) under
    ``init``, a key of :data:`ALL_INITS` (:func:`.calculus.layer_gammas`), computed once."""
    check_choice("init", init, tuple(ALL_INITS))
    return _cached_gammas(init, (tuple(ladder[0]), tuple(ladder[1])) if _kernels(ladder) else tuple(ladder))


def _zero(expr) -> bool:
    return sp.simplify(expr) == 0


def table1_measure(ctx) -> dict:
    """Each statement as (left side, right side), symbolic in widths, kernel sizes and moments."""
    s = c.State(n, rho, q, g)
    w2 = sp.Symbol("W2", positive=True)
    # Theorem 1 under the model: batch size 1, dW_ij = dy_i x_j with E[dW^2] = E[dy^2] E[x^2];
    # E[dx^2] = m k^2 E[W^2] E[dy^2] (the conv rule backwards), so nu = E[dy^2] E[x^2] / E[W^2].
    dy2 = sp.Symbol("dy2", positive=True)
    s_thm = c.State(n, rho, q, m * k**2 * w2 * dy2)
    nu = rho**2 * dy2 * q / w2  # rho^2 output positions share each weight (stride 1)
    eq6 = sp.Rational(1, 2) * k**2 * n * c.geometric_w2(n, m, k, 2 / k) * q
    widths = sp.symbols("n0:6", positive=True)
    tele = sp.prod([sp.sqrt(widths[i] / widths[i + 1]) for i in range(5)])
    return {
        "relu keeps varsigma (Table 1)": (c.varsigma(c.after_relu(s)), c.varsigma(s)),
        "scaling sqrt(2) keeps varsigma (Sec. 4 example)": (c.varsigma(c.after_scale(s, sp.sqrt(2))), c.varsigma(s)),
        "any fixed scaling keeps varsigma": (c.varsigma(c.after_scale(s, a)), c.varsigma(s)),
        "Eq. 2 equals its extrinsic form": (c.gamma_intrinsic(s, m, k, w2), c.gamma_extrinsic(s, m, k, w2)),
        "Theorem 1: nu = gamma under the model": (nu, c.gamma_intrinsic(s_thm, m, k, w2)),
        "Eq. 6: E[x_{l+1}^2] = sqrt(n_l/n_{l+1}) E[x_l^2] with c = 2/k": (eq6, sp.sqrt(n / m) * q),
        "Eq. 6 telescoping product = sqrt(n_0/n_L)": (tele, sp.sqrt(widths[0] / widths[5])),
        "Sec. 8: n_{l+1} E[x_{l+1}^2]^2 = n_l E[x_l^2]^2": (m * (sp.sqrt(n / m) * q) ** 2, n * q**2),
        "Eq. 8: gamma^b = varsigma / (n E[x^2]^2)": (rho**2 * g / q, c.varsigma(s) / (n * q**2)),
        "Sec. 6.2: a 3x3 conv with c = 2 (typical k = 1) after alpha = sqrt(1/3) keeps "
        "E[x_{l+1}^2] = sqrt(n/m) E[x^2]":
            (sp.Rational(1, 2) * 9 * n * c.geometric_w2(n, m, 3, 2) * sp.Rational(1, 3) * q, sp.sqrt(n / m) * q),
        "Sec. 11: the main branch's varsigma is beta^2 varsigma":
            (n * rho**2 * g * (beta**2 * q), beta**2 * c.varsigma(s)),
        "Sec. 11: c = beta gives the branch conv the outside gamma (c = 1 outside)":
            (c.gamma_intrinsic(c.State(n, rho, beta**2 * q, g), m, k, c.geometric_w2(n, m, k, beta)),
             c.gamma_intrinsic(s, m, k, c.geometric_w2(n, m, k, 1))),
    }


@applies_only("perturb", factor=PERTURBS)
def judge_symbolic(meas, ctx, only: tuple = (), perturb=False, factor=PERTURB_FACTOR):
    """lhs - rhs simplifies to 0 for every statement whose label starts with one of
    ``only``. ``perturb`` (True, or the label parts of the statements it selects, see
    :func:`.proof_steps.selected`) multiplies the selected right sides by ``factor`` (1.01:
    a constant off by 1%; a power of a symbol: an exponent off). ``only`` that selects no
    statement, ``factor`` without ``perturb`` and label parts that select none of the
    judged statements are ValueErrors."""
    labels = [label for label in meas if not only or label.startswith(only)]
    if not labels:
        raise ValueError(f"only={only!r} selects no statement; labels: {list(meas)}")
    check_perturbation(perturb, labels)
    checks = []
    for label in labels:
        lhs, rhs = meas[label]
        res = sp.simplify(lhs - (factor if selected(label, perturb) else 1) * rhs)
        checks.append({"label": label, "ok": res == 0, "measured": str(res), "expected": "0",
                       "counterexample": None if res == 0 else {"residual": str(res)}})
    return judge_exact(checks, "sympy simplify of lhs - rhs (symbolic widths, kernel sizes, moments)", "exact")


def init_measure(ctx) -> dict:
    """gamma_l per initialization of Eq. 3-5 and ladder, by :func:`ladder_name`: what the
    claims judge by default, every init on LADDERS and Eq. 3 on KERNEL_LADDERS. The rest
    (:data:`MUTANT_INITS`, :data:`EXPAND_CONTRACT`, Eq. 4-5 on KERNEL_LADDERS) is
    computed by the judge when a mutation asks."""
    return {name: {ladder_name(ladder): ladder_gammas(name, ladder)
                   for ladder in LADDERS + (KERNEL_LADDERS if name == "geometric" else ())} for name in c.INITS}


def judge_constant_gamma(meas, ctx, init: str = "geometric", expect_constant: bool = True, ladders=None):
    """Sec. 6 / 6.1: gamma_l = varsigma / (n_{l+1} n_l k_l^2 E[W_l^2]^2) (Eq. 2) is the same
    for every layer (exact) under ``init`` (keys of :data:`ALL_INITS`) on every ladder of
    ``ladders`` (all of LADDERS and KERNEL_LADDERS if None); with ``expect_constant``
    False, the gammas are unequal on every such ladder (the claim that Kaiming fan-in/out
    and Xavier do not give constant gamma there). The ladders where they are constant
    anyway are listed in each check's ``constant_on``. What ``meas`` lacks (mutant inits
    and ladders) comes from :func:`ladder_gammas`."""
    inits = (init,) if isinstance(init, str) else tuple(init)
    judged = tuple(ladders or LADDERS + KERNEL_LADDERS)
    wanted = {ladder_name(lad) for lad in judged}
    listed = wanted | {ladder_name(lad) for lad in LADDERS}  # the ladders ``constant_on`` may name
    order = {ladder_name(lad): lad for lad in LADDERS + KERNEL_LADDERS + judged}  # measured first, then the others
    gammas = {(i, lad): meas.get(i, {}).get(lad) or ladder_gammas(i, order[lad]) for i in inits for lad in order
              if lad in listed}
    rows = [(i, lad, gam, all(sp.simplify(x - gam[0]) == 0 for x in gam)) for (i, lad), gam in gammas.items()]
    checks = []
    for i, lad, gam, const in rows:
        if lad not in wanted:
            continue
        ok = const == expect_constant
        checks.append({"label": f"{i}, widths {lad}: gammas {'all equal' if expect_constant else 'not all equal'}",
                       "ok": ok, "measured": [str(x) for x in gam],
                       "expected": "all equal" if expect_constant else "not all equal",
                       "counterexample": None if ok else {"init": i, "widths": lad, "gammas": [str(x) for x in gam]},
                       "constant_on": [lad2 for j, lad2, _, c2 in rows if j == i and c2]})
    return judge_exact(checks, "exact second-moment propagation (sympy rationals and surds) through ReLU nets "
                       f"on widths {sorted(wanted)}", "exact")


def input_scaling_measure(ctx) -> dict:
    out = {}
    for d in ctx.precisions:
        with mpmath.workdps(d + 10):
            f = mpmath.mpf(3 * 3**2) ** mpmath.mpf(-0.25)
            out[d] = {"E[x0^2]": 1 / mpmath.sqrt(3 * 3**2), "factor": f, "factor_squared": f * f}
    gamma_w = n * k**2 * rho**2 * q**2 * sp.Symbol("G")
    gamma_b = rho**2 * sp.Symbol("G")
    out["solution"] = sp.solve(sp.Eq(gamma_w, gamma_b), q)
    return out


def judge_input_scaling(meas, ctx, printed: float = 0.2, tolerance: float = 0.025, exponent=sp.Rational(1, 2),
                        factor_power=sp.Rational(1, 4)):
    """Sec. 8.1: gamma_0 = gamma_0b gives E[x_0^2] = 1/sqrt(n_0 k_0^2) (sympy), which is
    about 0.2 for RGB 3x3 (within ``tolerance``: the printed value has one digit), and the
    forward factor (n_0 k^2)^(-1/4) gives unit-variance data that second moment.
    ``exponent`` (printed 1/2) is that of E[x_0^2] = (n_0 k_0^2)^(-exponent) and
    ``factor_power`` (printed 1/4) that of the forward factor (n_0 k^2)^(-factor_power),
    which is the measured 27^(-1/4) raised to 4 factor_power."""
    lo, hi = ctx.precisions
    sol = meas["solution"]
    v = meas[hi]["E[x0^2]"]
    half = exponent == sp.Rational(1, 2)
    want = 1 / sp.sqrt(n * k**2) if half else (n * k**2) ** -exact_constant(exponent)
    checks = [
        {"label": "sympy: solution of gamma_0 = gamma_0b", "ok": len(sol) == 1 and _zero(sol[0] - want),
         "measured": str(sol), "expected": "1/sqrt(n k^2)" if half else f"(n k^2)^(-{exponent})"},
        {"label": f"1/sqrt(27) ~ {printed} (one printed digit)", "ok": abs(float(v) - printed) <= tolerance,
         "measured": mpmath.nstr(v, 15), "expected": printed,
         "counterexample": {"value": mpmath.nstr(v, 15), "printed": printed}},
    ] + [
        {"label": f"factor^2 = 1/sqrt(27) at {d} digits", "ok": agree(_factor_squared(meas[d], factor_power, d),
                                                                          meas[d]["E[x0^2]"], d),
         "measured": mpmath.nstr(meas[d]["factor"], 15), "expected": "27^(-1/4)"} for d in (lo, hi)
    ] + [{"label": f"the {lo}- and {hi}-digit values agree", "ok": agree(meas[lo]["E[x0^2]"], meas[hi]["E[x0^2]"], lo),
          "measured": mpmath.nstr(meas[lo]["E[x0^2]"] - meas[hi]["E[x0^2]"], 5), "expected": 0}]
    return judge_exact(checks, f"sympy solve; mpmath at {lo}/{hi} digits", f"printed precision +-{tolerance}")


def _factor_squared(at_digits: dict, power, dps):
    """The square of the forward factor 27^(-power): the measured square when ``power``
    is the printed 1/4, else the measured factor 27^(-1/4) raised to 8 power."""
    if power == sp.Rational(1, 4):
        return at_digits["factor_squared"]
    with mpmath.workdps(dps + 10):
        return at_digits["factor"] ** (8 * mpmath.mpf(sp.Rational(power).p) / sp.Rational(power).q)


def bottleneck_measure(ctx) -> dict:
    return {"printed": c.bottleneck_main_branch(n, m, w, beta, q),
            "v_only": c.bottleneck_main_branch(n, m, w, beta, q, final_scalar_sq=1 / beta)}


@applies_only("target", exponent=("eq6",))
def judge_bottleneck(meas, ctx, target: str = "E[x^2]", variant: str = "printed", exponent=sp.Rational(1, 2)):
    """Sec. 11.1: the main branch (as printed, with our reading of its mirrored last
    step) ends with E[x_9^2] equal to ``target``: "E[x^2]" (E[F(x)^2] = E[x^2], Sec. 11)
    or "eq6" ((n/m)^exponent E[x^2], Eq. 6 across a block with n -> m channels; printed
    exponent 1/2; ``exponent`` applies to this target only). ``variant``: the last
    scalar, "printed" sqrt(m/(beta n)) or "v_only" 1/sqrt(beta)."""
    check_choice("target", target, ("E[x^2]", "eq6"))
    check_choice("variant", variant, tuple(meas))
    meas = meas[variant]
    want = q if target == "E[x^2]" else (n / m) ** exact_constant(exponent) * q
    res = sp.simplify(meas["x9"] - want)
    ok = res == 0
    steps = {k_: str(v) for k_, v in meas.items()}
    cex = None
    if not ok:
        val = sp.simplify((meas["x9"] / want).subs({n: 64, m: 256}))
        cex = {"n": 64, "m": 256, "E[x9^2] / target": str(val)}
    return judge_exact([{"label": f"E[x_9^2] = {target}", "ok": ok, "measured": str(meas["x9"]),
                         "expected": str(want), "counterexample": cex, "steps": steps}],
                       "sympy propagation of second moments through x_0..x_9", "exact")
