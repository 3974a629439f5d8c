"""Displayed steps of Defazio & Bottou's Sec. 3-8 and 12 checked one by one against
what they follow from (sympy, exact), printed and corrected where they differ.

Moment model of Sec. 3 (see :mod:`.calculus`), extended to strides: a k x k
convolution n -> m with stride s and E[W^2] = w maps rho_l x rho_l inputs to
rho_{l+1} = rho_l / s outputs, q' = n k^2 w q forward and, backward,
E[dx_l^2] = (rho_{l+1}/rho_l)^2 m k^2 w E[dx_{l+1}^2] (each input position feeds
k^2 rho_{l+1}^2 / rho_l^2 outputs per output channel on average).

A measurement is a dict: claim key -> variant ("printed", "corrected", "steps") ->
list of :class:`Step`; :func:`judge_steps` checks every step of one variant.

>>> s = Step("x", sp.Integer(2), sp.Integer(2))
>>> _residual(s)
0
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from simulations.core import check_choice

from ..core.claims import Where, applies_only
from ..core.evidence import bound_tightness
from ..judges import judge_exact, tightest
from . import calculus as c

__all__ = ["Step", "steps_measure", "judge_steps", "selected", "check_perturbation", "PERTURB_FACTOR", "PERTURBS",
           "MUTANT_VARIANTS"]

#: Variants measured for mutations only: a stated hypothesis dropped (Sec. 3's symmetric
#: law, Sec. 5.1's independent probe entries); their steps must fail.
MUTANT_VARIANTS = ("asymmetric", "correlated")

n, m, k, w, q, g, rho, s, cc, a, t = sp.symbols("n m k w q g rho s c a t", positive=True)
gp = sp.Symbol("g_out", positive=True)  # E[dx_{l+1}^2]
x0 = sp.Symbol("q0", positive=True)     # E[x_0^2]
G = sp.Symbol("G", positive=True)       # E[dy_0^2] / E[y_0^2]
r, r2 = sp.symbols("r r2", positive=True)


@dataclass(frozen=True)
class Step:
    """One displayed step: ``lhs`` = ``rhs`` (sympy), ``at`` the smallest setting that
    shows a failure (substituted into lhs/rhs for the counterexample), ``kind``
    "equal" (lhs - rhs = 0) or "true" (lhs is a sympy relation or boolean, rhs ignored).
    ``printed`` maps the symbols that stand for printed constants to their printed
    values (substituted before judging; ``judge_steps(values=...)`` overrides them).
    ``bounds`` (a stated inequality, kind "true"): (value, bound, claim) triples, claim
    one of "<=", ">=", "<", ">", from which :func:`judge_steps` reports the step's
    tightness (:func:`~theory.core.evidence.bound_tightness`)."""

    label: str
    lhs: object
    rhs: object = sp.Integer(0)
    at: dict = field(default_factory=dict)
    kind: str = "equal"
    printed: dict = field(default_factory=dict)
    bounds: tuple = ()


def _residual(step: Step, factor=1):
    return sp.simplify(sp.sympify(step.lhs) - factor * sp.sympify(step.rhs))


def _vs(n_, rho_, g_, q_):
    """Eq. 1."""
    return n_ * rho_**2 * g_ * q_


def _strided():
    """Eq. 2, its extrinsic form and Theorem 1 for a stride-s convolution."""
    rho1 = rho / s
    q1 = n * k**2 * w * q
    g0 = (rho1**2 / rho**2) * m * k**2 * w * gp
    eq2 = _vs(n, rho, g0, q) / (m * n * k**2 * w**2)
    printed = n * k**2 * rho**2 * q**2 * gp / q1
    corrected = n * k**2 * rho1**2 * q**2 * gp / q1
    nu = rho1**2 * gp * q / w  # E[dW^2] = rho_{l+1}^2 E[dy^2] E[x^2]: rho_{l+1}^2 positions share each weight
    return {
        "eq2.strided": {
            "printed": [Step("extrinsic form with rho_l (the input size) = Eq. 2 for a stride-s layer", printed, eq2,
                             {s: 2})],
            "corrected": [Step("extrinsic form with rho_{l+1} (the output size) = Eq. 2 for a stride-s layer",
                               corrected, eq2, {s: 2}),
                          Step("a stride-s convolution keeps varsigma (Table 1)", _vs(m, rho1, gp, q1),
                               _vs(n, rho, g0, q), {s: 2})]},
        "thm1.strided": {"steps": [Step("Theorem 1 for a stride-s convolution: nu = Eq. 2", nu, eq2, {s: 2})]},
    }


def _relu():
    """Sec. 3: ReLU halves the second moment of a symmetric input, forward and back.
    Variant "asymmetric": the same steps for uniform(-1, 1.01), a law that is not
    symmetric (mean 1/200), where they must fail (the hypothesis is needed)."""
    x = sp.Symbol("x", real=True)
    laws = {"normal": (sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi), -sp.oo, sp.oo),
            "Laplace": (sp.exp(-sp.Abs(x)) / 2, -sp.oo, sp.oo),
            "uniform(-1, 1)": (sp.Rational(1, 2), -1, 1),
            "uniform(-1, 1.01), not symmetric": (1 / sp.Rational(201, 100), -1, sp.Rational(101, 100))}
    steps = []
    for name, (dens, lo, hi) in laws.items():
        pos = sp.integrate(x**2 * dens.subs(sp.Abs(x), x), (x, 0, hi))
        full = sp.integrate(x**2 * dens, (x, lo, 0)) + pos
        p_pos = sp.integrate(dens.subs(sp.Abs(x), x), (x, 0, hi))
        steps += [Step(f"{name}: E[relu(x)^2] = E[x^2]/2", pos, full / 2),
                  Step(f"{name}: backward, E[(dy 1[x > 0])^2] = P(x > 0) E[dy^2] = E[dy^2]/2 (dy independent of x)",
                       p_pos * g, g / 2)]
    return {"sec3.relu_halving": {"steps": steps[:-2], "asymmetric": steps[-2:]}}


def _inits():
    """Sec. 6.1: what fan-in / fan-out preserve, and when each init has constant gamma."""
    fwd = lambda w2: sp.Rational(1, 2) * n * k**2 * w2  # noqa: E731 - forward factor through conv + ReLU
    bwd = lambda w2: sp.Rational(1, 2) * m * k**2 * w2  # noqa: E731 - backward factor
    fan_in_back = sp.simplify(bwd(c.kaiming_fan_in_w2(n, m, k)))  # the backward factor of fan-in weights
    preserve = [Step("fan-in keeps the forward second moment", fwd(c.kaiming_fan_in_w2(n, m, k)), 1),
                Step("fan-out keeps the backward second moment", bwd(c.kaiming_fan_out_w2(n, m, k)), 1),
                Step("fan-in scales the backward second moment by n_{l+1}/n_l", fan_in_back, m / n),
                Step("so both at once only if n_{l+1} = n_l", sp.Tuple(*sp.solve(sp.Eq(fan_in_back, 1), m)),
                     sp.Tuple(n))]
    # gamma / varsigma per init as a function of r = n_{l+1}/n_l (Eq. 2)
    forms = {"kaiming_fan_in": k**2 / (4 * r), "kaiming_fan_out": k**2 * r / 4,
             "xavier": k**2 * (1 + r)**2 / (16 * r), "geometric": 1 / cc**2}
    steps = [Step(f"{i}: gamma/varsigma = {f}", sp.simplify(1 / (n * m * k**2 * c.INITS[i](n, m, k, *(
        (cc,) if i == "geometric" else ()))**2)).subs(m, r * n), f) for i, f in forms.items()]
    for i in ("kaiming_fan_in", "kaiming_fan_out"):
        sol = sp.solve(sp.Eq(forms[i].subs(r, r2), forms[i]), r2)
        steps.append(Step(f"{i}: equal gammas only for equal ratios r", sp.Tuple(*sol), sp.Tuple(r)))
    sol = sp.solve(sp.Eq(forms["xavier"].subs(r, r2), forms["xavier"]), r2)
    steps.append(Step("xavier: equal gammas for r' = r or r' = 1/r (constant |log ratio|)", sp.FiniteSet(*sol),
                      sp.FiniteSet(r, 1 / r)))
    examples = {(5, 15, 45, 15, 5): {"xavier": True, "kaiming_fan_in": False, "kaiming_fan_out": False},
                (10, 40, 10, 40, 10): {"xavier": True, "kaiming_fan_in": False, "kaiming_fan_out": False},
                (1, 2, 4, 8, 16, 32): {"xavier": True, "kaiming_fan_in": True, "kaiming_fan_out": True},
                (3, 6, 16, 120, 84, 10): {"xavier": False, "kaiming_fan_in": False, "kaiming_fan_out": False}}
    for ladder, expect in examples.items():
        for i, const in expect.items():
            gam = c.layer_gammas(ladder, i)
            got = all(sp.simplify(x - gam[0]) == 0 for x in gam)
            steps.append(Step(f"{i} on widths {ladder}: constant gamma is {const}", sp.true if got == const else
                              sp.false, kind="true"))
    return {"sec61.fanin_fanout": {"steps": preserve}, "sec61.constant_gamma_iff": {"steps": steps}}


def _hutchinson():
    """Sec. 5.1: E[(G r)^2] over r with iid unit-variance entries is the average
    squared singular value ||G||_F^2 / P. Variant "correlated": entries with
    E[r_i r_j] = 1/100 (i != j), where the step must fail (independence is needed)."""
    P = 3
    Gm = sp.Matrix(P, P, lambda i, j: sp.Symbol(f"G{i}{j}", real=True))
    rs = sp.Matrix(P, 1, lambda i, j: sp.Symbol(f"r{i}", real=True))
    quad = sp.expand(((Gm * rs).T * (Gm * rs))[0, 0])
    # E[r_i r_j] = delta_ij: keep the squared terms with unit moment, drop the cross terms
    expect = sum(quad.coeff(rs[i], 2).subs({x: 0 for x in rs}) for i in range(P))
    gram = Gm.T * Gm  # E||G r||^2 = sum_ij (G^T G)_ij E[r_i r_j]
    correlated = expect + sp.Rational(1, 100) * sum(gram[i, j] for i in range(P) for j in range(P) if i != j)
    frob = sum(x**2 for x in Gm)
    A = sp.Matrix([[3, 1, 0], [1, -2, 4], [0, 2, 1]])
    eig_sum = sum(v * mult for v, mult in (A.T * A).eigenvals().items())
    return {"sec51.hutchinson": {"steps": [
        Step("E_r ||G r||^2 = ||G||_F^2 (3 x 3 symbolic G)", expect, frob),
        Step("||A||_F^2 = sum of the squared singular values (eigenvalues of A^T A), A a 3 x 3 example",
             sp.nsimplify(eig_sum), sum(x**2 for x in A))], "correlated": [
        Step("E[r_i r_j] = 1/100 (i != j): E_r ||G r||^2 = ||G||_F^2 (3 x 3 symbolic G)", correlated, frob,
             {x: 1 for x in Gm})]}}


def _bias_and_input():
    """Sec. 8.1: the bias-to-weight ratio of the first layer at unit-variance inputs."""
    rho1 = sp.Symbol("rho1", positive=True)
    gamma0 = n * k**2 * rho1**2 * x0**2 * G
    gamma0b = rho1**2 * G
    ratio = sp.simplify(gamma0 / gamma0b)
    value, bound = sp.symbols("value bound", positive=True)  # the stated 27 and the 1 it exceeds
    at_rgb = ratio.subs({n: 3, k: 3, x0: 1})
    return {"sec81.bias_lr_lower": {"steps": [
        Step("gamma_0 / gamma_0b = n_0 k_0^2 E[x_0^2]^2", ratio, n * k**2 * x0**2),
        Step("variance-one RGB 3x3 data (n_0 = 3, k = 3, E[x_0^2] = 1): gamma_0 / gamma_0b = 27 > 1",
             sp.And(sp.Eq(at_rgb, value), sp.Gt(at_rgb, bound)), kind="true", printed={value: 27, bound: 1},
             bounds=((at_rgb, bound, ">"),))]}}


def _telescoping():
    """Sec. 7: the telescoping product when the first convolution acts on the raw input."""
    ns = sp.symbols("n0:5", positive=True)
    first = ns[0] * k**2 * c.geometric_w2(ns[0], ns[1], k, 2 / k) * q  # x_1 = C_0(x_0): no ReLU before it
    chain = first * sp.prod([sp.sqrt(ns[i] / ns[i + 1]) for i in range(1, 4)])
    return {"eq6.raw_input": {"steps": [
        Step("x_1 = C_0(x_0) on the raw input, then Eq. 6 per layer: E[x_L^2] = 2 sqrt(n_0/n_L) E[x_0^2]", chain,
             2 * sp.sqrt(ns[0] / ns[4]) * q)]}}


def _frobenius():
    """Sec. 12: the Frobenius norm against the sum of the squared singular values."""
    a11, a12, a21, a22 = sp.symbols("a11 a12 a21 a22", real=True)
    A = sp.Matrix([[a11, a12], [a21, a22]])
    sq_sv = (A.T * A).trace()  # sum of the eigenvalues of A^T A
    frob = sp.sqrt(sum(x**2 for x in A))
    at = {a11: 2, a12: 0, a21: 0, a22: 0}
    return {"sec12.frobenius": {
        "printed": [Step("||A||_F = sum of the squared singular values", frob, sq_sv, at)],
        "corrected": [Step("||A||_F^2 = sum of the squared singular values", frob**2, sq_sv, at)]}}


def _output_scale():
    """Sec. 7's output-variance range against Sec. 10's output standard deviation
    ('following Sect. 7')."""
    lo, hi, std = sp.Rational(1, 100), sp.Rational(1, 10), sp.Rational(5, 100)
    low, high = sp.symbols("low high", positive=True)  # the corrected reading's ends (printed 0.01, 0.1)
    return {"sec7.output_scale": {
        "printed": [Step("Sec. 10: output std 0.05, i.e. variance 0.0025, lies in Sec. 7's variance range [0.01, 0.1]",
                         sp.And(lo <= std**2, std**2 <= hi), kind="true",
                         bounds=((std**2, lo, ">="), (std**2, hi, "<=")))],
        "corrected": [Step("Sec. 7's range read as standard deviations: Sec. 10's std 0.05 lies in [0.01, 0.1]",
                           sp.And(low <= std, std <= high), kind="true", printed={low: lo, high: hi},
                           bounds=((std, low, ">="), (std, high, "<=")))]}}


def _kernel():
    """Sec. 6.2 in general: alpha^2 = k_typ / k before a layer of kernel k, and the
    growth by k per layer when c = 2 is kept."""
    kt = sp.Symbol("k_typ", positive=True)
    fwd = sp.Rational(1, 2) * k**2 * n * c.geometric_w2(n, m, k, 2 / kt) * q
    return {"sec62.general": {"steps": [
        Step("c = 2/k_typ and alpha^2 = k_typ/k before a layer of kernel k give E[x_{l+1}^2] = sqrt(n/m) E[x^2]",
             fwd * kt / k, sp.sqrt(n / m) * q),
        Step("with c = 2 and no correction, E[x^2] grows by k per layer (relative to Eq. 6)",
             sp.Rational(1, 2) * k**2 * n * c.geometric_w2(n, m, k, 2) * q / (sp.sqrt(n / m) * q), k)]}}


def steps_measure(ctx) -> dict:
    """Every step, by claim key and variant (sympy expressions; judged in judge_steps)."""
    out = {}
    for part in (_strided, _relu, _inits, _hutchinson, _bias_and_input, _telescoping, _frobenius, _output_scale,
                 _kernel):
        out.update(part())
    return out


def _text(x) -> str:
    return str(x)


#: The default ``factor`` of the label-selected perturbations (a right side off by 1%).
PERTURB_FACTOR = sp.Rational(101, 100)


#: ``factor`` applies only where ``perturb`` perturbs (True or label parts, see :func:`selected`).
PERTURBS = Where("True or label parts (the right sides factor multiplies)", lambda perturb: perturb is not False)


def check_perturbation(perturb, labels) -> None:
    """Label parts in ``perturb`` must select at least one of ``labels`` (the statements
    judged): they would otherwise be silently ignored. (That ``factor`` applies only
    where ``perturb`` perturbs is :data:`PERTURBS`, checked by ``applies_only``.)

    >>> check_perturbation("Eq. 6", ["Eq. 8: one"])
    Traceback (most recent call last):
    ...
    ValueError: perturb='Eq. 6' selects none of the statements judged: ['Eq. 8: one']
    """
    if not isinstance(perturb, bool) and not any(selected(label, perturb) for label in labels):
        raise ValueError(f"perturb={perturb!r} selects none of the statements judged: {list(labels)}")


def selected(label: str, perturb) -> bool:
    """Whether ``perturb`` (a judge parameter) perturbs the step or statement ``label``:
    True all, False none, a string those whose label contains it, a tuple of strings
    those whose label contains any of them.

    >>> selected("Eq. 6: one layer", "Eq. 6"), selected("Eq. 8", ("Eq. 6", "Sec. 8")), selected("x", True)
    (True, False, True)
    """
    if isinstance(perturb, bool):
        return perturb
    return any(part in label for part in ((perturb,) if isinstance(perturb, str) else perturb))


def _printed(st: Step, values) -> Step:
    """``st`` with its printed constants substituted (``values``, by symbol name,
    override the printed ones); ``st`` itself when it has none."""
    if not st.printed:
        return st
    subs = {sym: sp.sympify((values or {}).get(str(sym), val)) for sym, val in st.printed.items()}
    return Step(st.label, sp.sympify(st.lhs).subs(subs), sp.sympify(st.rhs).subs(subs), st.at, st.kind,
                bounds=tuple((sp.sympify(v).subs(subs), sp.sympify(b).subs(subs), c_) for v, b, c_ in st.bounds))


@applies_only("perturb", factor=PERTURBS)
def judge_steps(meas, ctx, key: str, variant: str = "steps", perturb=False,
                factor=PERTURB_FACTOR, values=None):
    """Every step of ``meas[key][variant]`` holds exactly: lhs - rhs simplifies to 0
    (``kind="equal"``) or the stated relation is true (``kind="true"``). ``perturb``
    (True, or the label parts of the steps it selects, see :func:`selected`) multiplies
    the selected right sides by ``factor`` (1.01: a constant off by 1%; a power of a
    symbol: an exponent off) and negates the selected stated relations. ``values`` (by
    symbol name) replace printed constants of the steps (:attr:`Step.printed`). A
    failing step's counterexample is its smallest setting ``at``. A ``key`` or
    ``variant`` not measured, ``factor`` without ``perturb``, label parts that select no
    step and ``values`` that name no printed constant are ValueErrors."""
    check_choice("key", key, tuple(meas))
    check_choice("variant", variant, tuple(meas[key]))
    check_perturbation(perturb, [st.label for st in meas[key][variant]])
    unused = set(values or {}) - {str(sym) for st in meas[key][variant] for sym in st.printed}
    if unused:
        raise ValueError(f"values {sorted(unused)} name no printed constant of {key} ({variant})")
    checks, tight = [], []
    for st in meas[key][variant]:
        st, hit = _printed(st, values), selected(st.label, perturb)
        if st.kind == "true":
            val = bool(st.lhs) != hit
            checks.append({"label": st.label, "ok": val, "measured": _text(st.lhs), "expected": "true",
                           "counterexample": None if val else {"statement": st.label}})
            tight += [bound_tightness(float(v), float(b), c_, {"step": st.label, "value": _text(v), "bound": _text(b)})
                      for v, b, c_ in st.bounds]
            continue
        if isinstance(st.lhs, (sp.Tuple, sp.FiniteSet)):
            rhs = st.rhs if not hit else st.rhs.func(*[factor * x for x in st.rhs.args])
            if isinstance(st.lhs, sp.Tuple):
                ok = len(st.lhs) == len(rhs) and all(sp.simplify(x - y) == 0 for x, y in zip(st.lhs, rhs))
            else:
                ok = {sp.simplify(x) for x in st.lhs} == {sp.simplify(y) for y in rhs}
            checks.append({"label": st.label, "ok": bool(ok), "measured": _text(st.lhs), "expected": _text(rhs),
                           "counterexample": None if ok else {"got": _text(st.lhs), "printed": _text(rhs)}})
            continue
        res = _residual(st, factor if hit else 1)
        ok = res == 0
        cex = None
        if not ok:
            lhs, rhs = (sp.simplify(sp.sympify(x).subs(st.at)) for x in (st.lhs, (factor if hit else 1) * st.rhs))
            cex = {"at": {str(k_): _text(v) for k_, v in st.at.items()}, "lhs": _text(lhs), "rhs": _text(rhs),
                   "lhs / rhs": _text(sp.simplify(lhs / rhs)) if rhs != 0 else None}
        checks.append({"label": st.label, "ok": bool(ok), "measured": _text(res), "expected": "0",
                       "counterexample": cex})
    ev = judge_exact(checks, "sympy: lhs - rhs simplified to 0 per step (symbolic widths, kernel sizes, strides, "
                     "moments); stated relations evaluated exactly", "exact")
    ev.tightness = tightest(tight)
    return ev
