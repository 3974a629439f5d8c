"""Displayed steps of Defazio & Bottou's Sec. 11 (residual branches) and Sec. 11.1
(the pre-activation bottleneck block), checked one by one with sympy under the
Sec. 3 moment model (see :mod:`.calculus`, :mod:`.proof_steps`).

Block B(x) = alpha S(x) + beta F(x), alpha^2 + beta^2 = 1, fan-in n, fan-out m;
varsigma = n rho^2 E[dx^2] E[x^2] at the block input; geometric init with numerator
c: E[W^2] = c / (k sqrt(n_l n_{l+1})), so gamma = (input varsigma) / c^2 (Eq. 2).
The shortcut's input carries alpha^2 varsigma and the main branch's beta^2 varsigma
(Sec. 11); a convolution outside the block has c = 1, so its gamma is varsigma.

AvgPool 2 x 2 / 2 on iid entries of mean mu: E[y^2] = E[x^2]/4 + 3 mu^2/4 forward,
E[dx^2] = E[dy^2]/16 backward (each input gets a quarter of one output's gradient).
"""
from __future__ import annotations

import sympy as sp

from . import calculus as c
from .proof_steps import Step

__all__ = ["residual_measure"]

n, m, wd, q, rho, gy, mu = sp.symbols("n m w q rho g_y mu", positive=True)
al, be, cl = sp.symbols("alpha beta c_l", positive=True)
VS = n * rho**2 * gy * q  # varsigma at x, with E[dx^2] = E[dy^2] = g_y
AT = {n: 1, m: 1, rho: 1, q: 1, gy: 1, al: sp.sqrt(sp.Rational(1, 2)), be: sp.sqrt(sp.Rational(1, 2))}


def _chain_factors(n_in, n_out):
    """Forward and backward second-moment factors of the main branch F as a ReLU/conv
    chain n_in -> w -> n_out (1x1 then 3x3, stride 1, geometric c = 1): each layer
    multiplies forward by fan-in k^2 E[W^2] / 2 and backward by fan-out k^2 E[W^2] / 2."""
    w1, w2 = c.geometric_w2(n_in, wd, 1, 1), c.geometric_w2(wd, n_out, 3, 1)
    fwd = (n_in * w1 / 2) * (wd * 9 * w2 / 2)
    bwd = (wd * w1 / 2) * (n_out * 9 * w2 / 2)
    return fwd, bwd


def _sec11() -> dict:
    vs_r = be**2 * VS
    fwd_nn, bwd_nn = _chain_factors(n, n)
    fwd_nm, bwd_nm = _chain_factors(n, m)
    return {
        "sec11.backward_preserved": {"steps": [
            Step("E[dx^2] = (alpha^2 + beta^2) E[dy^2] = E[dy^2] (alpha^2 + beta^2 = 1)",
                 (al**2 + (1 - al**2)) * gy, gy),
            Step("needs F backward-preserving: for an n -> w -> n ReLU/conv chain, "
                 "backward factor / forward factor = 1",
                 bwd_nn / fwd_nn, 1),
            Step("(so E[F(x)^2] = E[x^2] gives E[dF^2] = E[dy^2] only when F keeps the channel count: "
                 "n -> m gives m/n)",
                 bwd_nm / fwd_nm, m / n)]},
        "sec11.shortcut_scaling": {"steps": [
            Step("varsigma_S = n rho^2 E[dx^2] E[(alpha x)^2] = alpha^2 varsigma", n * rho**2 * gy * al**2 * q,
                 al**2 * VS),
            Step("gamma_l = varsigma_R / (n_{l+1} n_l k^2 E[W^2]^2) = varsigma_R / c_l^2 (geometric, numerator c_l)",
                 vs_r / (m * n * 9 * c.geometric_w2(n, m, 3, cl)**2), vs_r / cl**2)]},
        "sec11.match_step": {
            "printed": [
                Step("gamma_l = varsigma_R / c^2 = (beta^2/c^2) varsigma_R", vs_r / cl**2, be**2 / cl**2 * vs_r, AT),
                Step("(beta^2/c^2) varsigma_R = varsigma (the outside gamma) gives c = beta",
                     sp.Tuple(*sp.solve(sp.Eq(be**2 / cl**2 * vs_r, VS), cl)), sp.Tuple(be))],
            "corrected": [
                Step("gamma_l = varsigma_R / c_l^2 = (beta^2/c_l^2) varsigma", vs_r / cl**2, be**2 / cl**2 * VS, AT),
                Step("(beta^2/c_l^2) varsigma = varsigma (the outside gamma) gives c_l = beta",
                     sp.Tuple(*sp.solve(sp.Eq(be**2 / cl**2 * VS, VS), cl)), sp.Tuple(be))]},
    }


def _pool(mean=0):
    """E[y^2] and the varsigma ratio (out / in) of AvgPool 2 x 2 / 2."""
    ey = q / 4 + sp.Rational(3, 4) * mean**2
    ratio = (n * (rho / 2) ** 2 * gy * ey) / (n * rho**2 * (gy / 16) * q)
    return ey, sp.simplify(ratio)


def _shortcut(c_num, divisor, pool: bool):
    """E[y_out^2] and gamma / varsigma of the shortcut: [AvgPool], + b, 1x1 conv n -> m
    with numerator ``c_num``, / sqrt(``divisor``)."""
    ey = _pool()[0] if pool else q
    out = n * c.geometric_w2(n, m, 1, c_num) * ey / divisor
    gamma = al**2 * VS / c_num**2  # the pool and the bias keep varsigma; the conv's input carries alpha^2 varsigma
    return sp.simplify(out), sp.simplify(gamma / VS)


def _sec111() -> dict:
    target = sp.sqrt(n / m) * q
    down_printed = _shortcut(al / 4, al / 4, True)
    down_text = _shortcut(al, al / 4, True)
    plain = _shortcut(al, al, False)
    at_nm = {n: 1, m: 1, q: 1, al: sp.sqrt(sp.Rational(1, 2))}
    main = c.bottleneck_main_branch(n, m, wd, be, q)
    cb, three = sp.symbols("c_main three", positive=True)  # printed: c = beta, the 3 of sqrt(2/(3 beta))
    shown = {cb: be, three: 3}
    main_c = c.bottleneck_main_branch(n, m, wd, be, q, conv_c=cb, three=three)
    # Eq. 2 for the three main-branch convolutions (1x1 n -> w, 3x3 w -> w, 1x1 w -> m), input varsigma beta^2 varsigma
    gammas = [be**2 * VS / (n_out * n_in * k**2 * c.geometric_w2(n_in, n_out, k, cb)**2)
              for n_in, n_out, k in ((n, wd, 1), (wd, wd, 3), (wd, m, 1))]
    fourth = c.bottleneck_main_branch(n, m, wd, be, q, final_scalar_sq=sp.sqrt(m / n) / be)
    corrected_f = c.bottleneck_main_branch(n, m, wd, be, q, final_scalar_sq=1 / be)
    return {
        "sec111.avgpool": {"steps": [
            Step("AvgPool 2x2/2: E[y_0^2] = E[x^2]/4 for zero-mean x", _pool()[0], q / 4),
            Step("AvgPool 2x2/2 keeps varsigma for zero-mean x", _pool()[1], 1),
            Step("(after a ReLU, mean^2 = E[x^2]/pi, it does not: ratio 1 + 3/pi)",
                 _pool(sp.sqrt(q / sp.pi))[1], 1 + 3 / sp.pi)]},
        "sec111.shortcut_down": {
            "printed": [Step("downsampling shortcut with c = alpha/4 (display): E[y_3^2] = sqrt(n/m) E[x^2]",
                             down_printed[0], target, at_nm),
                        Step("downsampling shortcut with c = alpha/4: gamma = varsigma", down_printed[1], 1, at_nm)],
            "corrected": [Step("with c = alpha (text): E[y_3^2] = sqrt(n/m) E[x^2]", down_text[0], target, at_nm),
                          Step("with c = alpha: gamma = varsigma", down_text[1], 1, at_nm)]},
        "sec111.shortcut_plain": {"steps": [
            Step("non-downsampling shortcut (c = alpha, / sqrt(alpha)): E[y_2^2] = sqrt(n/m) E[x^2]", plain[0], target),
            Step("non-downsampling shortcut: gamma = varsigma", plain[1], 1)]},
        "sec111.main_branch": {"steps": [
            Step("x_0 = sqrt(beta) x, ReLU, x_2 = sqrt(2/beta) x_1: E[x_2^2] = E[x^2]", main["x2"], q),
            Step("x_4 = 1x1 conv to w (c = beta): E[x_4^2] = beta sqrt(n/w) E[x^2]", main_c["x4"],
                 be * sp.sqrt(n / wd) * q, printed=shown),
            Step("ReLU, sqrt(2/(3 beta)), 3x3 conv w -> w (c = beta): E[x_8^2] = E[x_4^2]", main_c["x8"], main_c["x4"],
                 printed=shown),
            Step("each main-branch conv (input varsigma beta^2 varsigma, c = beta): gamma = varsigma",
                 sp.Tuple(*gammas), sp.Tuple(VS, VS, VS), printed=shown)]},
        "sec111.bottleneck_fourth_root": {"steps": [
            Step("x_9 = (m/n)^(1/4) / sqrt(beta) x_8' (a lost square root): E[F(x)^2] = E[x^2]", fourth["x9"], q)],
            "printed": [Step("x_9 = sqrt(m/(beta n)) x_8' (printed): E[F(x)^2] = E[x^2]", main["x9"], q,
                             {n: 1, m: 4, q: 1})]},
        "sec111.block_balance": {
            "corrected": [
                Step("corrected shortcut (c = alpha) and x_9 = x_8'/sqrt(beta): E[S^2] = E[F^2] (non-downsampling)",
                     plain[0], corrected_f["x9"], at_nm),
                Step("downsampling block: E[S^2] = E[F^2]", down_text[0], corrected_f["x9"], at_nm)],
            "printed": [
                Step("printed shortcut (c = alpha/4) and x_9 = sqrt(m/(beta n)) x_8': E[S^2] = E[F^2] (downsampling)",
                     down_printed[0], main["x9"], {n: 1, m: 1, q: 1})]},
    }


def residual_measure(ctx) -> dict:
    """Every step of Sec. 11 and 11.1, by claim key and variant (judged by
    :func:`theory.defazio_bottou.proof_steps.judge_steps`)."""
    return {**_sec11(), **_sec111()}
