"""Does each displayed step of the ZeroInit/Fixup submission follow from the PRINTED
steps it cites? (The claims' judges ask whether the step is true; these ask the second
question, issue 39.) Each function takes the run context and returns
``{"follows": bool, "why": sentence}``, derived exactly in sympy from the printed forms
of the cited steps, wrong ones included; a step that does not follow names what is
missing. Cheap: small symbolic instances, no sampling.

Sec. 2 (the variance argument, Eq. 2), App. A.1 (Eq. 6-7 and Theorem 1), App. A.2
(Eq. 8-11 and Theorem 2) and Sec. 3 (the derivation of alpha). Labels follow
../shared/papers/zeroinit_fixup_iclr2019_submission.txt.

>>> from theory.core import RunContext
>>> realized_norm_eq11(RunContext())["follows"], product_form_eq11(RunContext())["follows"]
(False, True)
"""
from __future__ import annotations

import sympy as sp

__all__ = ["total_variance_step", "eq2_printed", "ph_composition", "eq6_euler", "directional_strict",
           "directional_at_least", "theorem1_l2", "theorem1_any_norm", "theorem1_dual_norm", "eq8_batch_euler",
           "theorem2_eq9", "eq10_lse_max", "logits_symmetric", "entropy_bound", "product_form_eq11",
           "realized_norm_eq11", "conditional_eq11", "omega_fixed_norm", "omega_weight_scale", "alpha_derivation",
           "one_step_scale"]


def _result(follows: bool, why: str) -> dict:
    return {"follows": bool(follows), "why": why}


def total_variance_step(ctx) -> dict:
    """Var[x_{l+1}] = E[Var[F | x_l]] + Var[x_l] from x_{l+1} = x_l + F_l(x_l) and the
    printed premise E[F_l(x_l) | x_l] = 0: on a two-point law of x_l with a two-point
    conditional law of F (its conditional mean set to 0), every symbol free."""
    a, b, q, r1, r2, f1, g1 = sp.symbols("a b q r1 r2 f1 g1", real=True)
    f2 = -r1 * f1 / (1 - r1)  # E[F | x = a] = 0
    g2 = -r2 * g1 / (1 - r2)  # E[F | x = b] = 0
    law = [(q * r1, a + f1), (q * (1 - r1), a + f2), ((1 - q) * r2, b + g1), ((1 - q) * (1 - r2), b + g2)]
    mean = sum(p * v for p, v in law)
    var_next = sum(p * v**2 for p, v in law) - mean**2
    var_x = q * a**2 + (1 - q) * b**2 - (q * a + (1 - q) * b) ** 2
    e_cond_var = q * (r1 * f1**2 + (1 - r1) * f2**2) + (1 - q) * (r2 * g1**2 + (1 - r2) * g2**2)
    residual = sp.simplify(var_next - e_cond_var - var_x)
    return _result(residual == 0, "from x_{l+1} = x_l + F_l(x_l) and E[F_l | x_l] = 0 (Sec. 2) the cross term "
                   "E[(x_l - E x_l) F_l] = E[(x_l - E x_l) E[F_l | x_l]] vanishes: sympy on a two-point law of x_l "
                   f"with two-point conditional laws of F, every value free, residual {residual}")


def eq2_printed(ctx) -> dict:
    """Eq. 2 from the total-variance step and the printed premise 'Var[F_l(x_l) | x_l]
    about Var[x_l]': V_{l+1} = V_l + V_l, so V_l = 2^l V_0 (sympy rsolve)."""
    l = sp.Symbol("l", integer=True, nonnegative=True)
    V, V0 = sp.Function("V"), sp.Symbol("V_0", positive=True)
    sol = sp.rsolve(V(l + 1) - (V(l) + V(l)), V(l), {V(0): V0})
    ok = sp.simplify(sol - 2**l * V0) == 0
    return _result(ok, "Eq. 2 follows from the printed premises: the total-variance step with 'Var[F_l(x_l) | x_l] "
                   f"about Var[x_l]' gives V_(l+1) = 2 V_l, i.e. V_l = {sol} (sympy rsolve). The premise is the error "
                   "(for a fixed x_0 Var[F(x) | x] = kappa ||x||^2, the second moment), not the step.")


def _ph_1d(x, a, b):
    """The general positively homogeneous map of the real line: a x for x > 0, b x for x < 0."""
    return sp.Piecewise((a * x, x > 0), (b * x, True))


def ph_composition(ctx) -> dict:
    """Proposition 1 and App. A.1's f((1 + eps) x) = (1 + eps) f(x) from Definition 1,
    on the general positively homogeneous maps of the line (slope a for x > 0, b for
    x < 0): each satisfies g(lam u) = lam g(u) for lam > 0 on both signs of u (sympy),
    so f(g(lam x)) = f(lam g(x)) = lam f(g(x)), the second step at u = g(x), whatever
    its sign."""
    lam = sp.Symbol("lam", positive=True)
    a, b = sp.symbols("a b", real=True)
    ok = all(sp.simplify(_ph_1d(lam * u, a, b) - lam * _ph_1d(u, a, b)) == 0
             for u in (sp.Symbol("u", positive=True), sp.Symbol("u", negative=True)))
    return _result(ok, "Definition 1 applied twice: f(g(lam x)) = f(lam g(x)) = lam f(g(x)) for lam > 0; sympy checks "
                   "the scaling rule on the general p.h. maps of the line (slopes a, b on either side of 0), both "
                   "signs")


def _xent(c: int):
    z = sp.symbols(f"z1:{c + 1}", real=True)
    lse = sp.log(sum(sp.exp(zi) for zi in z))
    p = [sp.exp(zi) / sum(sp.exp(zj) for zj in z) for zi in z]
    return z, lse, p


def eq6_euler(ctx) -> dict:
    """Eq. 6 from the printed cross-entropy l(z, y) = -y^T (z - logsumexp(z)), H(p) =
    -sum p log p and z = f((1 + eps) x) = (1 + eps) z (Proposition 1): the eps-derivative
    at 0 is -y^T z + p^T z = l - H(p) (c = 3, label 1, sympy); Eq. 7's substitution
    eps = t/||x|| gives the factor 1/||x|| (chain rule)."""
    eps, t, r = sp.Symbol("eps", real=True), sp.Symbol("t", real=True), sp.Symbol("r", positive=True)
    z, lse, p = _xent(3)
    y = (1, 0, 0)
    loss = lambda zz: -sum(yi * zi for yi, zi in zip(y, zz)) + sp.log(sum(sp.exp(zi) for zi in zz))  # noqa: E731
    d = sp.diff(loss([(1 + eps) * zi for zi in z]), eps).subs(eps, 0)
    H = -sum(pi * sp.log(pi) for pi in p)
    first = sp.simplify(d - (-z[0] + sum(pi * zi for pi, zi in zip(p, z))))
    second = sp.simplify(sp.expand_log(d - (loss(z) - H), force=True))
    g = sp.Function("g")
    chain = sp.simplify(sp.diff(g(t / r), t) - sp.Subs(sp.diff(g(sp.Symbol("e")), sp.Symbol("e")), sp.Symbol("e"),
                                                        t / r).doit() / r)
    ok = first == 0 and second == 0 and chain == 0
    return _result(ok, "Eq. 6-7 follow from the printed definitions of l, logsumexp and H and from Proposition 1's "
                   f"scaling: residuals {first}, {second} (c = 3) and the chain rule with eps = t/||x|| ({chain})")


def _cauchy_schwarz_equality():
    """A gradient parallel to the input: <g, x/||x||> = ||g|| exactly (sympy)."""
    s, x1, x2 = sp.Symbol("s", positive=True), sp.Symbol("x1", real=True), sp.Symbol("x2", real=True)
    g = (s * x1, s * x2)
    n = sp.sqrt(x1**2 + x2**2)
    return sp.simplify(sp.factor_terms(sp.expand((g[0] * x1 + g[1] * x2) / n - sp.sqrt(g[0] ** 2 + g[1] ** 2)))) == 0


def directional_strict(ctx) -> dict:
    """The printed 'the gradient L2 norm must be greater than the directional
    derivative': Cauchy-Schwarz, the only inequality the proof invokes, gives 'at least',
    with equality for a gradient parallel to x, so the strict form does not follow."""
    eq = _cauchy_schwarz_equality()
    return _result(not eq, "does not follow strictly: the directional derivative along x/||x|| is <g, x/||x||> <= "
                   "||g|| by Cauchy-Schwarz, with equality when g is parallel to x (sympy: <s x, x/||x||> - ||s x|| = "
                   f"0 is {eq}); only 'at least' follows, and Theorem 1 needs no more")


def directional_at_least(ctx) -> dict:
    """The corrected step: <g, u> <= ||g|| ||u|| = ||g|| for the unit u = x/||x|| (the
    Cauchy-Schwarz form (||g|| ||u||)^2 - <g, u>^2 is Lagrange's sum of squares in 2-d)."""
    g1, g2, u1, u2 = sp.symbols("g1 g2 u1 u2", real=True)
    lagrange = sp.expand((g1**2 + g2**2) * (u1**2 + u2**2) - (g1 * u1 + g2 * u2) ** 2 - (g1 * u2 - g2 * u1) ** 2)
    return _result(lagrange == 0 and _cauchy_schwarz_equality(),
                   "follows from Cauchy-Schwarz (||g||^2 ||u||^2 - <g, u>^2 = (g1 u2 - g2 u1)^2 >= 0, sympy) with "
                   "u = x/||x||, and Eq. 6-7 give <g, u> = (l - H(p))/||x||; equality is attained (g parallel to x)")


def theorem1_l2(ctx) -> dict:
    """Eq. 3 for the Euclidean norm from the printed step before Eq. 7 (strict or not,
    it gives ||g||_2 >= the directional derivative) and Eq. 6-7 (which evaluate that
    derivative to (l - H(p))/||x_{i-1}||): follows when Eq. 6-7 follow."""
    eq67 = eq6_euler(ctx)
    return _result(eq67["follows"], "Eq. 3 for the Euclidean norm follows: the printed step gives ||g||_2 > (or =) the "
                   "directional derivative along x/||x||, which Eq. 6-7 evaluate to (l - H(p))/||x_{i-1}||_2 ("
                   + ("they follow from the definitions" if eq67["follows"] else "but they do not follow") + ")")


def theorem1_any_norm(ctx) -> dict:
    """Eq. 3 for 'any valid norm': the printed step is about the L2 norm (Cauchy-Schwarz);
    for another norm the same argument needs Hoelder with the dual norm. With the
    max-norm: u = (1, 1)/||(1, 1)||_inf = (1, 1), g = (1, 1): <g, u> = 2 > ||g||_inf = 1."""
    g, u = (1, 1), (1, 1)
    inner, gmax = sum(a * b for a, b in zip(g, u)), max(abs(a) for a in g)
    return _result(inner <= gmax, "does not follow for any norm: the printed step uses the L2 norm (Cauchy-Schwarz); "
                   f"for the max-norm <g, x/||x||_inf> can exceed ||g||_inf (g = x = (1, 1): {inner} > {gmax}), and "
                   "Hoelder's inequality gives the bound with the dual norm on the gradient instead")


def theorem1_dual_norm(ctx) -> dict:
    """The corrected Theorem 1: <g, u> <= ||g||_* ||u|| (Hoelder, the definition of the
    dual norm) with u = x/||x||, and Eq. 7: ||g||_* >= (l - H)/||x||. Checked for the
    l1/linf pair: |sum g_i u_i| <= sum |g_i| max |u_i| termwise."""
    g1, g2, u1, u2 = sp.symbols("g1 g2 u1 u2", real=True)
    m = sp.Max(sp.Abs(u1), sp.Abs(u2))
    terms = [sp.Abs(g1) * m - g1 * u1, sp.Abs(g2) * m - g2 * u2]  # each >= 0: |g_i u_i| <= |g_i| max |u|
    ok = all(sp.simplify(t.subs({u1: v1, u2: v2, g1: a1, g2: a2})) >= 0
             for t in terms for v1 in (-2, 1, 3) for v2 in (-1, 2) for a1 in (-1, 2) for a2 in (3, -4))
    return _result(ok, "follows from Eq. 7 with Hoelder's inequality <g, u> <= ||g||_* ||u|| in place of "
                   "Cauchy-Schwarz (for l1/linf termwise |g_i u_i| <= |g_i| max_j |u_j|, checked on a sign grid)")


def eq8_batch_euler(ctx) -> dict:
    """Eq. 8 from Definition 2 (theta_ph a p.h. set: z^(m)((1 + eps) theta) = (1 + eps) z^(m))
    and Eq. 6 per example: M = 2 examples, c = 2, sympy."""
    eps = sp.Symbol("eps", real=True)
    total, target = 0, 0
    for m in range(2):
        z = sp.symbols(f"z{m}_1:3", real=True)
        lse = lambda zz: sp.log(sum(sp.exp(zi) for zi in zz))  # noqa: E731
        total += (-(1 + eps) * z[m] + lse([(1 + eps) * zi for zi in z])) / 2
        p = [sp.exp(zi) / sum(sp.exp(zj) for zj in z) for zi in z]
        H = -sum(pi * sp.log(pi) for pi in p)
        target += (-z[m] + lse(z) - H) / 2
    residual = sp.simplify(sp.expand_log(sp.diff(total, eps).subs(eps, 0) - target, force=True))
    return _result(residual == 0, "Eq. 8 follows from Definition 2 (each example's logits scale with (1 + eps)) and "
                   f"Eq. 6 per example, averaged over the batch (M = 2, c = 2, sympy residual {residual})")


def theorem2_eq9(ctx) -> dict:
    """Eq. 4/9 from Eq. 8 and the directional-derivative argument: <d l_avg/d theta,
    theta> = (1/M) sum (l_m - H_m) and <g, theta> <= ||g|| ||theta|| give
    ||g|| >= (1/M) sum (l_m - H_m)/||theta||."""
    G, N, S = sp.symbols("G N S", positive=True)  # ||grad||, ||theta||, <grad, theta> = Eq. 8's value
    ok = sp.simplify((G * N - S) / N - (G - S / N)) == 0  # G N >= S  <=>  G >= S / N for N > 0
    return _result(ok, "Eq. 9 follows: Eq. 8 gives <d l_avg/d theta_ph, theta_ph> = (1/M) sum (l - H), the "
                   "directional-derivative argument (Cauchy-Schwarz) bounds it by ||d l_avg/d theta_ph|| ||theta_ph||, "
                   "and dividing by ||theta_ph|| > 0 keeps the direction")


def eq10_lse_max(ctx) -> dict:
    """logsumexp(z) >= max_i z_i from the printed definition logsumexp(z) = log sum
    exp(z_i): the sum exceeds its largest term and log is increasing (c = 3, with z_1
    the largest: logsumexp - z_1 = log(1 + exp(z_2 - z_1) + exp(z_3 - z_1)) > 0)."""
    z1, d2, d3 = sp.Symbol("z1", real=True), sp.Symbol("d2", nonnegative=True), sp.Symbol("d3", nonnegative=True)
    gap = sp.simplify(sp.log(sp.exp(z1) + sp.exp(z1 - d2) + sp.exp(z1 - d3)) - z1
                      - sp.log(1 + sp.exp(-d2) + sp.exp(-d3)))
    positive = (sp.log(1 + sp.exp(-d2) + sp.exp(-d3))).is_positive
    return _result(gap == 0 and bool(positive), "follows from the definition of logsumexp: logsumexp(z) - max z = "
                   "log(1 + sum_{i != max} exp(z_i - max z)) > 0 (sympy)")


def logits_symmetric(ctx) -> dict:
    """App. A.2's 'z has a symmetric law with mean 0' from Assumption 2 (FC weights iid
    zero-mean symmetric, independent of the FC layer's input h): z = W h and
    -W has W's law, so z and -z have the same law; E[z_i] = sum_j E[W_ij] E[h_j] = 0."""
    w, h = sp.symbols("w1:4", real=True), sp.symbols("h1:4", real=True)
    z = sum(wi * hi for wi, hi in zip(w, h))
    mean = sp.expand(z).subs({wi: 0 for wi in w})  # E[W_ij] = 0, independent of h: substitute the mean
    flipped = sp.simplify(z.subs({wi: -wi for wi in w}, simultaneous=True) + z)
    return _result(mean == 0 and flipped == 0, "follows from Assumption 2 for the mean and the symmetry (z is "
                   "linear in the FC weights, W -> -W maps z to -z and keeps their law, E[W] = 0 independent of h); "
                   "'density' is "
                   "loose (ZeroInit's zero classifier gives z = 0), which nothing later uses")


def entropy_bound(ctx) -> dict:
    """H(p) <= log c from the definition H = sum p log(1/p) by Jensen (log concave):
    sum p log(1/p) <= log sum p (1/p) = log c; equality at p = 1/c (sympy)."""
    c = sp.Symbol("c", positive=True, integer=True)
    at_uniform = sp.simplify(-c * (1 / c) * sp.log(1 / c) - sp.log(c))
    concave = sp.diff(sp.log(sp.Symbol("u", positive=True)), sp.Symbol("u", positive=True), 2).is_negative
    return _result(at_uniform == 0 and bool(concave), "follows from the definition of H by Jensen's inequality (log is "
                   "concave: sum p log(1/p) <= log sum p/p = log c), equality at the uniform law (sympy)")


def _eq11_premises():
    """The printed premises of Eq. 11: Eq. 9 (G ||theta|| = (1/M) sum (l - H)), Eq. 10
    (E l >= E max z) and E H <= log c. As numbers: X = G ||theta||, B = E max z - log c."""
    return sp.symbols("X B", real=True)


def product_form_eq11(ctx) -> dict:
    """E[G ||theta||] = E[l] - E[H] >= E[max z] - log c: linearity of E on Eq. 9, then
    Eq. 10 and the entropy bound (sympy on the symbols' linear combination)."""
    El, EH, Emax, logc = sp.symbols("El EH Emax logc", real=True)
    lhs_minus_rhs = (El - EH) - (Emax - logc)
    split = sp.expand(lhs_minus_rhs - ((El - Emax) + (logc - EH)))
    return _result(split == 0, "the product form follows: E[G ||theta||] - (E max z - log c) = (E l - E max z) + "
                   "(log c - E H), the sum of Eq. 10's and the entropy bound's non-negative slacks (sympy)")


def realized_norm_eq11(ctx) -> dict:
    """Eq. 11 as printed, E[G] >= (E[max z] - log c)/||theta_ph|| with the realized norm,
    needs E[X/||theta||] = E[X]/||theta||. A law that meets every premise and not the
    conclusion: ||theta|| in {1, 2} with probability 1/2 each, X = G ||theta|| = B = 1
    constant (E[X] >= B holds): E[G] = E[X/||theta||] = 3/4 < B/||theta|| = 1 at the
    realized norm 1."""
    half = sp.Rational(1, 2)
    B = 1
    EG = half * sp.Rational(B, 1) + half * sp.Rational(B, 2)
    return _result(EG >= B, "does not follow: Eq. 11 takes the random ||theta_ph|| out of the expectation; with "
                   "||theta_ph|| = 1 or 2 (probability 1/2) and G ||theta_ph|| = 1 = E max z - log c (Eq. 9-10 and "
                   f"the entropy bound hold), E[G] = {EG} < 1 = the bound at the realized norm 1. It follows given "
                   "||theta_ph|| (eq5.conditional) and in product form (eq5.expected_bound)")


def conditional_eq11(ctx) -> dict:
    """Eq. 11 given ||theta_ph|| = r: the premises hold conditionally (the sign flip
    theta -> -theta keeps r, so Eq. 10's E[y^T z | r] = 0 stands; E[H | r] <= log c), and
    E[G | r] = E[X | r]/r >= (E[max z | r] - log c)/r for r > 0 (sympy)."""
    EX, Emax, logc = sp.symbols("EX Emax logc", real=True)
    r = sp.Symbol("r", positive=True)
    ok = sp.simplify((EX / r - (Emax - logc) / r) * r - (EX - (Emax - logc))) == 0
    return _result(ok, "follows given ||theta_ph|| = r: the premises hold conditionally on r (theta -> -theta "
                   "keeps r), and dividing E[G ||theta|| | r] >= E[max z | r] - log c by r > 0 keeps the direction")


def omega_fixed_norm(ctx) -> dict:
    """App. A.2's closing 'Omega(E[max z])' from Eq. 4 (||grad|| >= G) and Eq. 11 with
    ||theta_ph|| = N held fixed: E||grad|| >= (E[max z] - log c)/N >= E[max z]/(2N)
    exactly when E[max z] >= 2 log c (sympy solves the second inequality)."""
    Emax, logc, N = sp.Symbol("Emax", real=True), sp.Symbol("logc", positive=True), sp.Symbol("N", positive=True)
    region = sp.solve_univariate_inequality((Emax - logc) / N >= Emax / (2 * N), Emax, relational=False)
    ok = region == sp.Interval(2 * logc, sp.oo)
    return _result(ok, "follows with ||theta_ph|| fixed: Eq. 4 gives E||grad|| >= E[G] and Eq. 11 E[G] >= (E max z - "
                   f"log c)/||theta_ph||, which is >= E[max z]/(2 ||theta_ph||) on E[max z] in {region} (sympy): "
                   "Omega(E[max z]) with the constant 1/(2 ||theta_ph||) once the logits are large")


def omega_weight_scale(ctx) -> dict:
    """The corrected closing sentence with the random norm inside the expectation:
    Eq. 4 pointwise (||grad|| >= (l - H)/||theta||), Eq. 10 pointwise (l >= max z - z_y),
    the entropy bound, and E[z_y / ||theta||] = 0 (a uniform label and the sign flip
    theta -> -theta, which keeps ||theta||) give E||grad|| >= E[(max z - log c)/||theta||];
    the printed 'Omega(E[max z])' needs ||theta|| fixed and does not follow when the
    logits grow through ||theta|| itself (sympy: the bound's sigma-scaling cancels)."""
    sigma, k = sp.symbols("sigma k", positive=True)
    bound = (k * sigma - sp.log(2)) / sigma  # (max z - log c)/||theta|| when both scale with sigma
    limit = sp.limit(bound, sigma, sp.oo)
    return _result(limit == k, "the corrected bound follows from Eq. 4 and Eq. 10 taken pointwise, the entropy bound "
                   "and E[z_y/||theta||] = 0 (uniform label, theta -> -theta keeps ||theta||); when max z and "
                   f"||theta|| both grow like sigma the bound tends to the constant {limit} (sympy), so it stays "
                   "Theta(1), not "
                   "Omega(E[max z])")


def alpha_derivation(ctx) -> dict:
    """Sec. 3: with the zero layer's input a p.h. function of m - 1 layers scaled by
    alpha, the error signal O(1) gives an update O(alpha^(m-1)) (dW_m = delta h^T,
    h ~ alpha^(m-1)); the branch after it W_m' h ~ alpha^(m-1) alpha^(m-1) =
    alpha^(2m-2); alpha^(2m-2) = 1/L gives alpha = L^(1/(2-2m)) (sympy solve)."""
    alpha, L = sp.symbols("alpha L", positive=True)
    ok = True
    for m in (2, 3, 4):
        h = alpha ** (m - 1)  # the zero layer's input, p.h. of degree 1 in each scaled layer
        update = 1 * h  # delta (O(1)) times h
        branch = update * h
        ok = ok and sp.simplify(branch - alpha ** (2 * m - 2)) == 0
        sol = sp.solve(sp.Eq(alpha ** (2 * m - 2), 1 / L), alpha)
        ok = ok and len(sol) == 1 and sp.simplify(sol[0] - L ** sp.Rational(1, 2 - 2 * m)) == 0
    return _result(ok, "follows: the update of the zero layer is delta h^T with h of degree m - 1 in alpha, the "
                   "updated branch W_m' h has degree 2m - 2, and alpha^(2m - 2) = 1/L solves to L^(1/(2-2m)) "
                   "(sympy, m = 2, 3, 4)")


def one_step_scale(ctx) -> dict:
    """Principle (b)'s 1/L scaling after one step from Sec. 3's derivation: alpha^(2m-2)
    at alpha = L^(1/(2-2m)) is L^-1, a scale (variance L^-2), for every m >= 2."""
    m = sp.Symbol("m", integer=True, positive=True)
    exponent = sp.simplify(sp.Rational(1, 1) * (2 * m - 2) / (2 - 2 * m))
    return _result(exponent == -1, f"follows from the derivation: (L^(1/(2-2m)))^(2m-2) = L^{exponent}, the branch's "
                   "scale; the principle's printed Var[F_l] = O(1/L) would need scale L^(-1/2) and does not follow")
