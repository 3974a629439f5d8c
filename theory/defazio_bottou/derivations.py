"""Does each displayed step of Defazio & Bottou follow from the printed steps it cites?

A step claim's check asks whether the step is true; its ``derivation`` (here) asks the
second question of a proof step (:attr:`theory.core.claims.Claim.derivation`): take the
PRINTED forms of the equations it cites (wrong ones included), derive the step from them
with sympy, and compare with the printed step. Each function returns
``{"follows": bool, "why": str}``, the ``why`` naming the cited steps and, where the step
does not follow, what the printed premises give instead (computed, never typed).

Premises (printed, Sec. 2-8): Eq. 1 varsigma_l = n_l rho_l^2 E[dx_l^2] E[x_l^2]; Eq. 2
gamma_l = varsigma_l / (n_{l+1} n_l k_l^2 E[W_l^2]^2); the display after Eq. 2 (extrinsic
form, with rho_l); Eq. 3 E[W^2] = c / (k sqrt(n_l n_{l+1})); Eq. 6 and its telescoping
product; Eq. 7 gamma_l^b = rho^2 E[dx_l^2] / E[x_l^2] (input index, as printed). The
Sec. 3 model's moment rules (a k x k convolution n -> m at stride s: E[x_{l+1}^2] =
n k^2 E[W^2] E[x_l^2], E[dx_l^2] = m k^2 E[W^2] E[dx_{l+1}^2] / s^2; ReLU halves both)
are cited as "Sec. 3".

>>> follows([("a = a", sp.Integer(1), sp.Integer(1))])["follows"]
True
>>> follows([("2 = 3", sp.Integer(2), sp.Integer(3))])["why"]
'2 = 3: does not follow (the cited steps give 2, printed 3)'
"""
from __future__ import annotations

import sympy as sp

from . import calculus as c
from .residual_steps import _chain_factors, _pool, _shortcut

__all__ = ["follows", "scaling_example", "extrinsic_form", "extrinsic_strided_printed", "extrinsic_strided_corrected",
           "theorem1_model", "theorem1_strided", "eq6_chain", "eq8_chain", "input_scaling", "bias_ratio",
           "hutchinson", "backward_preserved", "branch_scaling", "shortcut_scaling", "match_printed",
           "match_corrected", "avgpool", "shortcut_down_printed", "shortcut_down_corrected", "shortcut_plain",
           "main_branch", "bottleneck_printed", "bottleneck_corrected", "bottleneck_fourth_root", "block_balance"]

n, m, k, w, q, g, gp, rho, s, cc, a = sp.symbols("n m k W2 q g g_out rho s c a", positive=True)
al, be, wd = sp.symbols("alpha beta w", positive=True)


def follows(rows, note: str = "") -> dict:
    """rows: (label, derived from the cited steps, printed); follows when every printed
    form equals its derivation (sympy simplify of the difference)."""
    parts, ok = [], True
    for label, derived, printed in rows:
        same = _same(sp.sympify(derived), sp.sympify(printed))
        ok = ok and same
        parts.append(f"{label}: follows" if same else
                     f"{label}: does not follow (the cited steps give {sp.simplify(derived)}, printed {printed})")
    return {"follows": ok, "why": "; ".join(parts) + (f". {note}" if note else "")}


def _same(x, y) -> bool:
    if isinstance(x, sp.Tuple) or isinstance(y, sp.Tuple):
        return (isinstance(x, sp.Tuple) and isinstance(y, sp.Tuple) and len(x) == len(y)
                and all(_same(u, v) for u, v in zip(x, y)))
    return sp.simplify(x - y) == 0


def _eq1(n_, rho_, g_, q_):
    return n_ * rho_**2 * g_ * q_


def _eq2(vs, n_, m_, k_, w_):
    return vs / (m_ * n_ * k_**2 * w_**2)


def scaling_example(ctx=None) -> dict:
    """Sec. 4's display after Eq. 1 (x_{l+1} = sqrt(2) x_l), from Eq. 1 and the text's
    'doubles the second moment forward and the backward one during back-propagation'
    (E[dx_{l+1}^2] = E[dx_l^2]/2), and likewise ReLU (Sec. 3's halving) and any a x."""
    vs = _eq1(n, rho, g, q)
    return follows([
        ("varsigma_{l+1} = n rho^2 (1/2) E[dx_l^2] 2 E[x_l^2] (Eq. 1, sqrt(2) x)", _eq1(n, rho, g / 2, 2 * q),
         n * rho**2 * sp.Rational(1, 2) * g * 2 * q),
        ("= varsigma_l", _eq1(n, rho, g / 2, 2 * q), vs),
        ("ReLU (Sec. 3: q/2 forward, the gradient halved going back)", _eq1(n, rho, 2 * g, q / 2), vs),
        ("any fixed a x", _eq1(n, rho, g / a**2, a**2 * q), vs)])


def _extrinsic(rho_out):
    """Eq. 2 from Eq. 1 and the Sec. 3 conv rule at stride s, against the extrinsic form
    with ``rho_out`` as its spatial size."""
    g_in = m * k**2 * w * gp / s**2
    q_out = n * k**2 * w * q
    return _eq2(_eq1(n, rho, g_in, q), n, m, k, w), n * k**2 * rho_out**2 * q**2 * gp / q_out


def extrinsic_form(ctx=None) -> dict:
    """The display after Eq. 2 from Eq. 1, Eq. 2 and the Sec. 3 conv rule (stride 1)."""
    eq2, ext = (x.subs(s, 1) for x in _extrinsic(rho))
    return follows([("extrinsic form = Eq. 2 with Eq. 1 and the Sec. 3 conv rule (stride 1)", eq2, ext)])


def extrinsic_strided_printed(ctx=None) -> dict:
    """The printed extrinsic form (rho_l) for a stride-s layer."""
    eq2, ext = _extrinsic(rho)
    return follows([("extrinsic form with rho_l = Eq. 2 at stride s", eq2, ext)],
                   f"The printed form is {sp.simplify(ext / eq2)} times Eq. 2.")


def extrinsic_strided_corrected(ctx=None) -> dict:
    """The extrinsic form with rho_{l+1} = rho_l / s, and varsigma kept by the strided conv."""
    eq2, ext = _extrinsic(rho / s)
    kept = _eq1(m, rho / s, gp, n * k**2 * w * q)
    return follows([("extrinsic form with rho_{l+1} = Eq. 2 at stride s", eq2, ext),
                    ("a stride-s convolution keeps varsigma (Eq. 1 after = before)",
                     _eq1(n, rho, m * k**2 * w * gp / s**2, q), kept)])


def _nu(stride):
    """nu = E[dW^2]/E[W^2] with E[dW^2] = rho_{l+1}^2 E[dx_{l+1}^2] E[x_l^2] (Sec. 3:
    each weight sums rho_{l+1}^2 uncorrelated products), against Eq. 2 at that stride."""
    nu = (rho / stride)**2 * gp * q / w
    eq2 = _eq2(_eq1(n, rho, m * k**2 * w * gp / stride**2, q), n, m, k, w)
    return nu, eq2


def theorem1_model(ctx=None) -> dict:
    """Theorem 1 (stride 1) from the definition of nu_l, Eq. 1-2 and the Sec. 3 model."""
    return follows([("nu_l = gamma_l (Eq. 2) under the Sec. 3 model", *_nu(1))])


def theorem1_strided(ctx=None) -> dict:
    """Theorem 1 for a stride-s convolution."""
    return follows([("nu_l = gamma_l (Eq. 2) at stride s", *_nu(s))])


def eq6_chain(ctx=None) -> dict:
    """Eq. 6's two equalities from the Sec. 3 conv rule with a ReLU and Eq. 3 (c = 2/k),
    and the telescoping product from Eq. 6 (five layers)."""
    ns = sp.symbols("n0:6", positive=True)
    per_layer = lambda i: sp.sqrt(ns[i] / ns[i + 1])  # noqa: E731 - Eq. 6 as printed
    w_geo = c.geometric_w2(n, m, k, 2 / k)
    return follows([
        ("E[x_{l+1}^2] = (1/2) k^2 n_l E[W_l^2] E[x_l^2] (Sec. 3: conv then ReLU)", c.conv_forward_q(n, k, w, q) / 2,
         sp.Rational(1, 2) * k**2 * n * w * q),
        ("= sqrt(n_l/n_{l+1}) E[x_l^2] (Eq. 3, c = 2/k)", sp.Rational(1, 2) * k**2 * n * w_geo * q, sp.sqrt(n / m) * q),
        ("telescoping product of Eq. 6 = sqrt(n_0/n_L)", sp.prod([per_layer(i) for i in range(5)]),
         sp.sqrt(ns[0] / ns[5]))])


def eq8_chain(ctx=None) -> dict:
    """Eq. 8's chain from the printed Eq. 7 and Eq. 1, and the display after it from Eq. 6;
    with varsigma constant, gamma^b = varsigma / (n E[x^2]^2) is then the same in every layer."""
    vs = _eq1(n, rho, g, q)
    eq7 = rho**2 * g / q
    return follows([
        ("varsigma_l / (n E[dx^2] E[x^2]) E[dx^2]/E[x^2] = Eq. 7 (Eq. 1)", vs / (n * g * q) * g / q, eq7),
        ("= varsigma_l / (n_l E[x_l^2]^2)", eq7, vs / (n * q**2)),
        ("n_{l+1} E[x_{l+1}^2]^2 = n_l E[x_l^2]^2 (Eq. 6)", m * (sp.sqrt(n / m) * q)**2, n * q**2)])


def input_scaling(ctx=None) -> dict:
    """Sec. 8.1: E[x_0^2] = 1/sqrt(n_0 k_0^2) from its own displays of gamma_0 and
    gamma_0b; and those displays against the printed Eq. 7 and extrinsic form for the
    first convolution (raw input x_0, output y_0, stride s, E[W^2] = w)."""
    q0, G, s_ = sp.Symbol("q0", positive=True), sp.Symbol("G", positive=True), sp.Symbol("s", positive=True)
    rho1 = rho / s_
    y2, dy2 = n * k**2 * w * q0, G * n * k**2 * w * q0  # E[y_0^2]; E[dy_0^2] = G E[y_0^2]
    dx2 = m * k**2 * w * dy2 / s_**2                    # Sec. 3, backward through the conv
    shown_w, shown_b = n * k**2 * rho1**2 * q0**2 * dy2 / y2, rho1**2 * dy2 / y2
    printed_w, printed_b = n * k**2 * rho**2 * q0**2 * dy2 / y2, rho**2 * dx2 / q0  # rho_l; Eq. 7's input index
    sol = sp.solve(sp.Eq(shown_w, shown_b), q0)
    from_printed = sp.solve(sp.Eq(printed_w, printed_b), q0)
    at_geo = sp.simplify(from_printed[0].subs({w: c.geometric_w2(n, m, k, 2 / k), s_: 1}))
    rows = [("E[x_0^2] = 1/sqrt(n_0 k_0^2) from Sec. 8.1's displays", sol[0], 1 / sp.sqrt(n * k**2)),
            ("Sec. 8.1's gamma_0b = rho_1^2 E[dy_0^2]/E[y_0^2] from the printed Eq. 7 (input index)", printed_b,
             shown_b),
            ("Sec. 8.1's gamma_0 (rho_1) from the printed extrinsic form (rho_0)", printed_w, shown_w)]
    return follows(rows, f"From the printed forms the balance point is E[x_0^2] = {from_printed[0]} ({at_geo} with "
                         "geometric c = 2/k at stride 1). Sec. 8.1 uses the layer-output moments and rho_1, the "
                         "corrected Eq. 7 and extrinsic form (defazio_bottou.eq7.bias_index_corrected, "
                         "defazio_bottou.eq2.extrinsic_strided_corrected), from which it follows: the discrepancy is "
                         "those two misprints', counted there, not a new error.")


def bias_ratio(ctx=None) -> dict:
    """Sec. 8.1's ratio gamma_0 / gamma_0b from its displays, and its value at RGB 3x3."""
    q0, G, rho1 = sp.symbols("q0 G rho1", positive=True)
    ratio = (n * k**2 * rho1**2 * q0**2 * G) / (rho1**2 * G)
    return follows([("gamma_0 / gamma_0b = n_0 k_0^2 E[x_0^2]^2 (Sec. 8.1 displays)", ratio, n * k**2 * q0**2),
                    ("= 27 at n_0 = 3, k = 3, E[x_0^2] = 1", ratio.subs({n: 3, k: 3, q0: 1}), 27)])


def hutchinson(ctx=None) -> dict:
    """E_r ||G r||^2 = tr(G^T G E[r r^T]) = ||G||_F^2 for E[r r^T] = I (Sec. 5.1's probe
    with iid unit-variance entries), and ||G||_F^2 = the sum of the eigenvalues of G^T G."""
    G = sp.Matrix(2, 2, sp.symbols("G00 G01 G10 G11", real=True))
    return follows([("E_r ||G r||^2 = tr(G^T G I) = ||G||_F^2", (G.T * G * sp.eye(2)).trace(), sum(x**2 for x in G)),
                    ("||G||_F^2 = sum of the squared singular values", sum(sp.Matrix(G.T * G).eigenvals(multiple=True)),
                     sum(x**2 for x in G))])


def backward_preserved(ctx=None) -> dict:
    """Sec. 11: E[dx^2] = (alpha^2 + beta^2) E[dy^2] = E[dy^2] from dx = alpha dy +
    beta J_F^T dy (cross term zero under Sec. 3), alpha^2 + beta^2 = 1 and E[F(x)^2] =
    E[x^2] for a ReLU/conv chain F: its backward factor is its forward factor times
    n_out/n_in, and alpha x + beta F(x) makes F keep the channel count."""
    fwd, bwd = _chain_factors(n, n)
    back_f = bwd / fwd  # E[dF^2 back] / E[dy^2] once E[F(x)^2] = E[x^2] (forward factor 1)
    return follows([("E[dx^2] = (alpha^2 + beta^2) E[dy^2]", al**2 * g + be**2 * back_f * g, (al**2 + be**2) * g),
                    ("= E[dy^2] (alpha^2 + beta^2 = 1)", ((al**2 + be**2) * g).subs(be, sp.sqrt(1 - al**2)), g)],
                   "The needed backward preservation "
                   "of F is not stated; it follows from the forward one because F maps n channels to n.")


def branch_scaling(ctx=None) -> dict:
    """Sec. 11's varsigma_R chain from Eq. 1, E[dx_R^2] = E[dy^2] = E[dx^2] (the display
    before it) and E[F(x)^2] = E[x^2]; and c = beta from gamma_l = varsigma_R / c_l^2."""
    vs = _eq1(n, rho, g, q)
    dxr, xr = g, be**2 * q
    return follows([
        ("varsigma_R = n rho^2 E[dx^2] E[x_R^2]", _eq1(n, rho, dxr, xr), n * rho**2 * g * xr),
        ("= beta^2 n rho^2 E[dx^2] E[x^2] = beta^2 varsigma", _eq1(n, rho, dxr, xr), be**2 * vs),
        ("c = beta solves varsigma_R / c^2 = varsigma", sp.Tuple(*sp.solve(sp.Eq(be**2 * vs / cc**2, vs), cc)),
         sp.Tuple(be))])


def shortcut_scaling(ctx=None) -> dict:
    """Sec. 11: the shortcut's alpha^2 varsigma (Eq. 1), and gamma_l = varsigma_R / c_l^2
    through the printed middle form, from Eq. 2 and Eq. 3 with numerator c_l."""
    vr = sp.Symbol("varsigma_R", positive=True)
    eq2 = _eq2(vr, n, m, k, c.geometric_w2(n, m, k, cc))
    return follows([("varsigma_S = alpha^2 varsigma", _eq1(n, rho, g, al**2 * q), al**2 * _eq1(n, rho, g, q)),
                    ("gamma_l = varsigma_R k^2 n_{l+1} n_l / (n_{l+1} n_l k^2 c_l^2) (Eq. 2, Eq. 3)", eq2,
                     vr * k**2 * m * n / (m * n * k**2 * cc**2)),
                    ("= varsigma_R / c_l^2", eq2, vr / cc**2)])


def _match(printed: bool) -> dict:
    vs = sp.Symbol("varsigma", positive=True)
    vr = be**2 * vs  # the display before: varsigma_R = beta^2 varsigma
    middle = be**2 / cc**2 * (vr if printed else vs)
    sol = sp.solve(sp.Eq(middle, vs), cc)  # matching the outside gamma = varsigma (c = 1 outside)
    shown = "(beta^2/c^2) varsigma_R" if printed else "(beta^2/c^2) varsigma"
    return follows([(f"gamma_l = varsigma_R / c^2 = {shown}", vr / cc**2, middle),
                    ("matching gamma = varsigma gives c = beta", sp.Tuple(*sol), sp.Tuple(be))],
                   "c = beta itself follows from the cited displays (defazio_bottou.sec11.branch_scaling)."
                   if printed else "")


def match_printed(ctx=None) -> dict:
    """Sec. 11's printed 'gamma_l = varsigma_R/a_l^2 = (beta^2/c^2) varsigma_R, i.e. c = beta'."""
    return _match(True)


def match_corrected(ctx=None) -> dict:
    """The same with (beta^2/c_l^2) varsigma."""
    return _match(False)


def avgpool(ctx=None) -> dict:
    """2x2 stride-2 average pooling of iid zero-mean entries (Sec. 3): E[y^2] = E[x^2]/4
    and, each input receiving a quarter of one output's gradient, E[dx^2] = E[dy^2]/16:
    varsigma is kept (Eq. 1 with rho/2)."""
    ey, ratio = _pool()
    return follows([("E[y_0^2] = E[x^2]/4", sp.Rational(1, 4) * q, ey),
                    ("varsigma kept (Eq. 1)", _eq1(n, rho / 2, 16 * g, q / 4) / _eq1(n, rho, g, q), ratio)])


def _shortcut_rows(c_num, divisor, pool):
    out, gamma = _shortcut(c_num, divisor, pool)
    qq = sp.Symbol("q", positive=True)  # the residual module's E[x^2]
    nn, mm = sp.symbols("n m", positive=True)
    return [("E[y_out^2] = sqrt(n/m) E[x^2] (Eq. 3, Sec. 3, AvgPool quarter)", out, sp.sqrt(nn / mm) * qq),
            ("gamma = varsigma (Eq. 2, input alpha^2 varsigma)", gamma, 1)]


def shortcut_down_printed(ctx=None) -> dict:
    """The downsampling shortcut with the display's c = alpha/4."""
    return follows(_shortcut_rows(al / 4, al / 4, True), "With the text's c = alpha it follows "
                   "(defazio_bottou.sec111.shortcut_down_corrected).")


def shortcut_down_corrected(ctx=None) -> dict:
    """The downsampling shortcut with the text's c = alpha and the divisor sqrt(alpha/4)."""
    return follows(_shortcut_rows(al, al / 4, True))


def shortcut_plain(ctx=None) -> dict:
    """The non-downsampling shortcut (c = alpha, / sqrt(alpha))."""
    return follows(_shortcut_rows(al, al, False))


def main_branch(ctx=None) -> dict:
    """x_0..x_8 from Sec. 3 (ReLU halving), Eq. 3 with c = beta and Sec. 6.2's 1/3 before
    the 3x3 convolution."""
    qq = sp.Symbol("q", positive=True)
    nn = sp.Symbol("n", positive=True)
    x2 = 2 / be * (be * qq) / 2
    x4 = c.conv_forward_q(nn, 1, c.geometric_w2(nn, wd, 1, be), x2)
    x8 = c.conv_forward_q(wd, 3, c.geometric_w2(wd, wd, 3, be), 2 / (3 * be) * x4 / 2)
    return follows([("E[x_2^2] = E[x^2]", x2, qq), ("E[x_4^2] = beta sqrt(n/w) E[x^2]", x4, be * sp.sqrt(nn / wd) * qq),
                    ("E[x_8^2] = E[x_4^2]", x8, x4)])


def _x9(amplitude_sq):
    """E[x_9^2] from Eq. 6 across the block: the sequence x_0..x_8' scales E[x^2] by
    beta sqrt(n/m) (x_0 = sqrt(beta) x, then the three convolutions n -> w -> w -> m)."""
    qq = sp.Symbol("q", positive=True)
    nn, mm = sp.symbols("n m", positive=True)
    return amplitude_sq * be * sp.sqrt(nn / mm) * qq, qq, nn, mm


def bottleneck_printed(ctx=None) -> dict:
    """x_9 = sqrt(m/(beta n)) x_8 'derived from Eq. 6' to give E[F(x)^2] = E[x^2]."""
    nn, mm = sp.symbols("n m", positive=True)
    out, qq, _, _ = _x9(mm / (be * nn))
    need = sp.solve(sp.Eq(_x9(a**2)[0], qq), a)[0]
    return follows([("E[x_9^2] = E[x^2] with x_9 = sqrt(m/(beta n)) x_8 (Eq. 6 across the block)", out, qq)],
                   f"Eq. 6 calls for the amplitude {need} (a square root lost).")


def bottleneck_corrected(ctx=None) -> dict:
    """x_9 = x_8 / sqrt(beta): E[x_9^2] = sqrt(n/m) E[x^2], Eq. 6 across the block."""
    out, qq, nn, mm = _x9(1 / be)
    return follows([("E[x_9^2] = sqrt(n/m) E[x^2] (Eq. 6)", out, sp.sqrt(nn / mm) * qq)])


def bottleneck_fourth_root(ctx=None) -> dict:
    """x_9 = (m/n)^(1/4) / sqrt(beta) x_8: E[F(x)^2] = E[x^2] (Sec. 11's assumption)."""
    nn, mm = sp.symbols("n m", positive=True)
    out, qq, _, _ = _x9(sp.sqrt(mm / nn) / be)
    return follows([("E[x_9^2] = E[x^2] (Eq. 6)", out, qq)])


def block_balance(ctx=None) -> dict:
    """Both branches of the corrected block carry sqrt(n/m) E[x^2]."""
    down, plain = _shortcut(al, al / 4, True)[0], _shortcut(al, al, False)[0]
    main_out = _x9(1 / be)[0]
    return follows([("E[S^2] = E[F^2] (non-downsampling)", plain, main_out),
                    ("E[S^2] = E[F^2] (downsampling)", down, main_out)])
