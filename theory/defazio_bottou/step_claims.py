"""The proof-step claims of Defazio & Bottou (exact: sympy, mpmath, deterministic
numerics), declared as data by section; :mod:`.catalogue` assembles them with the
Monte-Carlo claims in the paper's order. Printed errors come in pairs: the printed
step (recorded fails, its smallest counterexample in the evidence) and the corrected
one (``corrects=``), whose note says whether the section's conclusion stands.
"""
from __future__ import annotations

import sympy as sp

from ..core import Claim, Mutation, Verdict
from . import derivations as derive
from . import numeric_checks as numeric
from .proof_steps import judge_steps, k, m, n, s, steps_measure, x0
from .residual_steps import al, be, residual_measure

H, F = Verdict.HOLDS, Verdict.FAILS
P = "defazio_bottou."
CENT = sp.Rational(1, 100)

__all__ = ["SEC3_5", "SEC51", "SEC6_8", "SEC10_12", "SEC11", "SEC111"]


def _step(cid, where, statement, key, *, measure=steps_measure, variant="steps", recorded=H, corrects=None, note="",
          kind="identity", parts=(), extra=(), printed_part=None, relations_only=False, severity=None, impact="",
          cites=(), derivation=None):
    """A claim that every step of ``measure(ctx)[key][variant]`` holds (judge_steps).
    ``parts``: (label part, name) of the steps that get a 1% mutation of their own
    (those steps alone perturbed); ``extra``: further mutations; ``printed_part``: the
    part of the printed variant's labels that the 'printed form' mutation of a corrected
    claim must fail through (None: it fails every part, or the claim has one).
    ``relations_only``: every step is a stated relation, so the 'all perturbed' mutation
    (each relation negated) fails exactly when the claim holds: a mirror, and the claim
    needs another failing mutation in ``extra``. ``severity``, ``impact``, ``cites`` and
    ``derivation`` are :class:`~theory.core.claims.Claim`'s."""
    if recorded == F:
        mutations = (Mutation("the corrected form", {"variant": "corrected"}, H),)
    else:
        mutations = (Mutation("right sides off by 1% (relations negated)", {"perturb": True}, mirror=relations_only),)
        if variant == "corrected":
            mutations += (Mutation("printed form substituted", {"variant": "printed"}, F, part=printed_part,
                                   printed=True),)
    mutations += tuple(part_mutation(part, name) for part, name in parts) + tuple(extra)
    return Claim(id=P + cid, where=where, statement=statement, kind=kind, recorded=recorded, measure=measure,
                 judge=judge_steps, params={"key": key, "variant": variant}, mutations=mutations,
                 corrects=P + corrects if corrects else None, note=note, severity=severity, impact=impact,
                 cites=cites, derivation=derivation)


def part_mutation(part: str, name: str) -> Mutation:
    """The step(s) whose label contains ``part`` (``name``), alone, with the right side
    off by 1% (a stated relation negated): it must fail through that part."""
    return Mutation(f"{name} alone off by 1%", {"perturb": part}, part=part)


def exponent_mutation(part: str, name: str, base, times=1, *, sole=False) -> Mutation:
    """The step(s) whose label contains ``part`` with an exponent off (``name``): the right
    side times base^(times/100); it must fail through that part, unless ``sole`` (the
    claim's only statement: no part to name)."""
    return Mutation(f"{name} (right side x ({base})^({times}/100))", {"perturb": part, "factor": base**(times * CENT)},
                    part=None if sole else part)


SEC3_5 = (
    _step("sec3.relu_halving", "Sec. 3, the paragraph after the assumptions",
          "For a symmetric input (normal, Laplace, uniform), ReLU halves the uncentered second moment, E[relu(x)^2] = "
          "E[x^2]/2, and halves the back-propagated one, E[(dy 1[x > 0])^2] = E[dy^2]/2",
          "sec3.relu_halving",
          parts=(("E[relu(x)^2]", "forward halving (three laws)"), ("backward", "backward halving (three laws)")),
          extra=(Mutation("symmetry dropped: uniform(-1, 1.01), mean 1/200", {"variant": "asymmetric"},
                          part="uniform(-1, 1.01), not symmetric"),)),
    _step("eq2.extrinsic_strided", "Sec. 4, display after Eq. 2 (extrinsic form), for strided layers",
          "gamma_l = n_l k_l^2 rho_l^2 E[x_l^2]^2 E[dx_{l+1}^2] / E[x_{l+1}^2] with rho_l the layer's input size "
          "equals Eq. 2 for a stride-s convolution as well",
          "eq2.strided", variant="printed", recorded=F, severity="misprint",
          impact="rho_l (the layer's input size) where the output size rho_{l+1} is needed: the two agree at stride 1, "
                 "so every dense and stride-1 statement stands; Sec. 8.1 itself uses rho_1, the output size, for layer "
                 "0, and the corrected form holds at every stride (defazio_bottou.eq2.extrinsic_strided_corrected); as "
                 "printed it overstates a stride-s layer by s^2.",
          note="The printed form is s^2 times Eq. 2 (4 at stride 2). Sec. 8.1 itself uses rho_1 (the output size) for "
               "layer 0; on Figure 1's strided LeNet the rho_l form overstates the convolutions the same way (the "
               "'printed rho_l' mutation of defazio_bottou.fig1.lenet_ratio_output_rho).",
          cites=("Eq. 1", "Eq. 2", "Sec. 3", "Sec. 4, display after Eq. 2"),
          derivation=derive.extrinsic_strided_printed),
    _step("eq2.extrinsic_strided_corrected", "Sec. 4, display after Eq. 2 (corrected: rho_{l+1})",
          "With rho_{l+1} (the layer's output size), the extrinsic form equals Eq. 2 for every stride, and a strided "
          "convolution keeps varsigma", "eq2.strided", variant="corrected", corrects="eq2.extrinsic_strided",
          parts=(("extrinsic form with rho_{l+1}", "extrinsic form = Eq. 2"),
                 ("keeps varsigma", "strided convolution keeps varsigma")), printed_part="extrinsic form with rho_l",
          note="Equal to the printed form at stride 1, so every stride-1 and dense conclusion stands.",
          cites=("Eq. 1", "Eq. 2", "Sec. 3", "Sec. 4, display after Eq. 2"),
          derivation=derive.extrinsic_strided_corrected),
    _step("thm1.model_strided", "Sec. 5, Theorem 1, for strided convolutions",
          "Under the Sec. 3 model, nu_l = E[dW^2]/E[W^2] equals Eq. 2's gamma_l for a stride-s convolution too "
          "(E[dW^2] = rho_{l+1}^2 E[dy^2] E[x^2])", "thm1.strided",
          extra=(Mutation("E[dW^2] with rho_l^2 (input size) in place of rho_{l+1}^2 (right side x 1/s^2)",
                          {"perturb": True, "factor": 1 / s**2}),),
          cites=("Sec. 5, nu_l", "Eq. 1", "Eq. 2", "Sec. 3"), derivation=derive.theorem1_strided),
)

SEC51 = (
    Claim(id=P + "sec51.hessian_block_is_ggn",
          where="Sec. 5.1, display G_l = J_l^T R_l J_l",
          statement="For a bias-free ReLU network, the diagonal Hessian block of the loss in W_l equals J_l^T R_l J_l "
                    "(the l-th diagonal block of the Gauss-Newton matrix)",
          kind="identity",
          recorded=H,
          measure=numeric.ggn_measure,
          judge=numeric.judge_ggn,
          mutations=(Mutation("Gauss-Newton block off by 1%", {"scale": 1.01}),
                     Mutation("Gauss-Newton block off by 1e-6 (10 times the tolerance)", {"scale": 1 + 1e-6})),
          note="Only on the diagonal: off-diagonal Hessian blocks are not J_l^T R J_r (the output is bilinear in two "
               "layers' weights; see simulations/gauss_newton.py and its tests). Figure 2's heat maps use the "
               "Gauss-Newton blocks."),
    _step("sec51.hutchinson", "Sec. 5.1, text before Figure 1: E[(G_l r)^2] as the actual value",
          "For r with iid unit-variance entries, E[(G_l r)_i^2] averaged over i is ||G_l||_F^2 / P_l, the average "
          "squared singular value of G_l", "sec51.hutchinson",
          parts=(("E_r ||G r||^2", "E_r ||G r||^2 = ||G||_F^2"), ("||A||_F^2 = sum", "Frobenius = singular values")),
          extra=(Mutation("independence dropped: E[r_i r_j] = 1/100 for i != j", {"variant": "correlated"},
                          part="E_r ||G r||^2"),),
          cites=("Sec. 5.1, E[(G_l r)^2]",), derivation=derive.hutchinson),
    Claim(id=P + "thm2.order_term_homogeneity",
          where="Sec. 5.1, Theorem 2 (error term) and the sentence after it",
          statement="The O-term's precise value depends on properties of the remainder of the network above the layer: "
                    "(actual - main) / (n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2])) is unchanged when only W_l (or the "
                    "input x_0) is rescaled",
          kind="identity",
          recorded=F,
          measure=numeric.homogeneity_measure,
          judge=numeric.judge_homogeneity,
          params={"variant": "printed"},
          mutations=(Mutation("homogeneous O-term n_l E[x_l^2]^2 / n_{l+1}", {"variant": "corrected"}, H),),
          severity="wording",
          impact="Agreeing with the issue: the sentence says the Big-O is with respect to n_l and n_{l+1}, so its "
                 "constant may depend on anything else; read as 'on the network above and on nothing else' it fails "
                 "only because the printed scale carries E[x_{l+1}^2], which moves with the layer's own weight scale "
                 "but is of order one in width under the theorem's sensible initialization. The error actual - main "
                 "itself does not depend on W_l, as the intended reading says (checked beside it: "
                 "defazio_bottou.thm2.order_term_homogeneity_corrected), and the width order is untouched "
                 "(defazio_bottou.thm2.order_term).",
          note="W_l -> t W_l leaves G_l and the main term unchanged (positive homogeneity) but scales the printed "
               "O-term by 1/t^2, so its constant depends on the layer's own weight scale; x_0 -> t x_0 scales actual "
               "and main by t^4 and the printed O-term by t^2. The width-order statement is unaffected wherever "
               "E[x_{l+1}^2] stays of order one (defazio_bottou.thm2.order_term). The sentence is read as 'depends "
               "on the remainder of the network above the layer' and on nothing else (not on the layer's own weights "
               "or the input scale); read without that 'only', it is not refuted, and the finding is that the printed "
               "O-scale has the wrong degrees of homogeneity (2 in the input and -2 in W_l, against 4 and 0 for the "
               "quantity it bounds), which the corrected claim mends."),
    Claim(id=P + "thm2.order_term_homogeneity_corrected",
          where="Sec. 5.1, Theorem 2 (error term) and the sentence after it: the intended reading",
          statement="The error actual - main depends on the network above the layer and on the layer's input, not on "
                    "the layer's own weights: in units of n_l E[x_l^2]^2 / n_{l+1} (the printed scale without "
                    "E[x_{l+1}^2], of order one in width; degree 4 in the input and 0 in W_l, as the actual value and "
                    "the main term), (actual - main) / scale is unchanged when only W_l or x_0 is rescaled",
          kind="identity",
          recorded=H,
          measure=numeric.homogeneity_measure,
          judge=numeric.judge_homogeneity,
          params={"variant": "corrected"},
          mutations=(Mutation("printed form substituted: the printed O-term scale", {"variant": "printed"}, F,
                              printed=True),
                     Mutation("O-term degree 4.02 in x_0, 0 in W_l: n_l E[x_l^2]^2.01 / n_{l+1}",
                              {"variant": "corrected", "degrees": (2.01, 0.0)}, part="x_0 x 10"),
                     Mutation("O-term degree 4 in x_0, 0.02 in W_l: n_l E[x_l^2]^1.99 E[x_{l+1}^2]^0.01 / n_{l+1}",
                              {"variant": "corrected", "degrees": (1.99, 0.01)}, part="W_1 x 10")),
          corrects=P + "thm2.order_term_homogeneity",
          note="The theorem's width-asymptotic conclusion stands: the two scales differ by E[x_{l+1}^2], of order one "
               "under a sensible initialization. The printed scale substituted into this check fails (its printed "
               "mutation): its ratio moves as 1/t^2 under W_l -> t W_l."),
)

SEC6_8 = (
    _step("sec61.fanin_fanout_preserve", "Sec. 6.1, text after Eq. 4",
          "With ReLU, fan-in initialization keeps the forward second moment and fan-out the backward one; fan-in "
          "scales the backward moment by n_{l+1}/n_l, so both hold at once only if n_l = n_{l+1}", "sec61.fanin_fanout",
          parts=(("fan-in keeps the forward", "fan-in keeps forward"),
                 ("fan-out keeps the backward", "fan-out keeps backward"),
                 ("fan-in scales the backward", "fan-in backward factor n_{l+1}/n_l"),
                 ("both at once only if", "both only if n_{l+1} = n_l"))),
    _step("sec61.constant_gamma_iff", "Sec. 6.1, Eq. 4-5 (constant gamma_l under each initialization)",
          "gamma_l / varsigma is k^2/(4 r) (fan-in), k^2 r/4 (fan-out), k^2 (1 + r)^2/(16 r) (Xavier, Eq. 5) and 1/c^2 "
          "(geometric), r = n_{l+1}/n_l: fan-in and fan-out give constant gamma_l exactly when r is the same in every "
          "layer, Xavier exactly when |log r| is", "sec61.constant_gamma_iff",
          parts=(("kaiming_fan_in: gamma/varsigma", "fan-in form k^2/(4 r)"),
                 ("kaiming_fan_out: gamma/varsigma", "fan-out form k^2 r/4"),
                 ("xavier: gamma/varsigma", "Xavier form k^2 (1 + r)^2/(16 r)"),
                 ("geometric: gamma/varsigma", "geometric form 1/c^2"),
                 ("kaiming_fan_in: equal gammas", "fan-in: equal only for equal r"),
                 ("kaiming_fan_out: equal gammas", "fan-out: equal only for equal r"),
                 ("xavier: equal gammas", "Xavier: equal for r' = r or 1/r")),
          extra=(exponent_mutation("geometric: gamma/varsigma", "Eq. 3 normalized by k^1.01 instead of k", k, 2),
                 *(Mutation(f"{name}'s four ladder examples alone negated", {"perturb": f"{init} on widths"},
                            part=f"{init} on widths", mirror=True)
                   for init, name in (("xavier", "Xavier"), ("kaiming_fan_in", "fan-in"),
                                      ("kaiming_fan_out", "fan-out")))),
          note="Examples in the details: Xavier is constant on expand-contract ladders such as 5, 15, 45, 15, 5, all "
               "three on geometric ladders, none on the strided LeNet's channel ladder."),
    _step("sec62.general_kernel", "Sec. 6.2 (kernel-size correction in general)",
          "With c = 2/k_typ, a layer of kernel k preceded by alpha = sqrt(k_typ/k) keeps Eq. 6's E[x_{l+1}^2] = "
          "sqrt(n_l/n_{l+1}) E[x_l^2]; with c = 2 uncorrected, E[x^2] grows by k per layer", "sec62.general",
          parts=(("alpha^2 = k_typ/k", "corrected layer keeps Eq. 6"), ("no correction", "growth by k")),
          extra=(exponent_mutation("alpha^2 = k_typ/k", "Eq. 6 exponent 0.51 on n/m", n / m),
                 exponent_mutation("no correction", "growth k^1.01 per layer", k))),
    _step("eq6.raw_input_convention", "Sec. 7, display after Eq. 6 (telescoping product, first layer)",
          "When the first convolution acts on the raw input (x_1 = C_0(x_0), as in Secs. 8.1 and 11), the telescoping "
          "product gives E[x_L^2] = 2 sqrt(n_0/n_L) E[x_0^2]", "eq6.raw_input",
          extra=(exponent_mutation("raw input", "exponent 0.51 on n_0/n_L", sp.Symbol("n0", positive=True)
                           / sp.Symbol("n4", positive=True), sole=True),),
          note="The printed sqrt(n_0/n_L) E[x_0^2] (defazio_bottou.eq6.telescoping) reads Eq. 6 with a ReLU before "
               "every convolution, the first included: a convention, not an error; the output moment depends on the "
               "interior widths in neither reading."),
    _step("sec81.bias_lr_lower", "Sec. 8.1, text after the displays (unit-variance inputs)",
          "gamma_0 / gamma_0b = n_0 k_0^2 E[x_0^2]^2, which is 27 > 1 for variance-one RGB 3x3 inputs: the biases' "
          "effective learning rate is lower than the weights'", "sec81.bias_lr_lower",
          parts=(("= n_0 k_0^2 E[x_0^2]^2", "the ratio n_0 k_0^2 E[x_0^2]^2"),),
          extra=(exponent_mutation("= n_0 k_0^2 E[x_0^2]^2", "E[x_0^2]^2.01 in the ratio", x0),
                 Mutation("the ratio 27.27 at unit variance (the paper prints no number; "
                          "n_0 k_0^2 = 3 * 3^2 = 27, + 1%)",
                          {"values": {"value": sp.Rational(2727, 100)}}, part="variance-one RGB"),
                 Mutation("lower by more than a factor 27 (strict; the ratio is 27)", {"values": {"bound": 27}},
                          part="variance-one RGB")),
          note=lambda ev: (f"'Lower' is loose: the bound 1 could move by a factor {ev['tightness']['factor']:g}"
               " and still hold; the text "
               "says how much lower only through the input scaling it recommends "
               "(defazio_bottou.sec81.input_scaling)."),
          cites=("Sec. 8.1, display gamma_0, gamma_0b",), derivation=derive.bias_ratio),
)

SEC10_12 = (
    Claim(id=P + "sec10.maxpool_not_scaled",
          where="Sec. 10, 'max-pooling is not well-scaled by our theory'",
          statement="A 2x2 stride-2 max-pooling changes the activation scaling factor varsigma (ratio out/in away from "
                    "1) on zero-mean N(0, 1) inputs and on ReLU outputs",
          kind="identity",
          recorded=H,
          measure=numeric.pool_measure,
          judge=numeric.judge_pool,
          mutations=(Mutation("average pooling is not well-scaled either (it is on N(0, 1) inputs)", {"pool": "avg"},
                              part="on normal inputs"),
                     Mutation("N(0, 1) inputs: |ratio - 1| > 0.557 (1% above the exact 0.5513)",
                              {"min_gap": {"normal": 0.557, "relu": 0.1}}, part="on normal inputs"),
                     Mutation("ReLU outputs: |ratio - 1| > 2.109 (1% above the exact 2.0876)",
                              {"min_gap": {"normal": 0.1, "relu": 2.109}}, part="on relu inputs")),
          note="Contrast: average pooling keeps varsigma on zero-mean inputs (defazio_bottou.sec111.avgpool) but not "
               "on ReLU outputs (details of the mutation)."),
    _step("sec12.frobenius", "Sec. 12, 'the Frobenius norm is the sum of the squared singular values'",
          "||A||_F = sum_i sigma_i^2", "sec12.frobenius", variant="printed", recorded=F, severity="misprint",
          impact="'the Frobenius norm' where its square is meant (a missing 'squared', in related work); the paper's "
                 "own quantity, Sec. 5.1's average squared singular value ||G_l||_F^2 / P_l, uses the squared norm "
                 "correctly (defazio_bottou.sec12.frobenius_corrected, defazio_bottou.sec51.hutchinson)."),
    _step("sec12.frobenius_corrected", "Sec. 12 (corrected: the squared Frobenius norm)",
          "||A||_F^2 = sum_i sigma_i^2", "sec12.frobenius", variant="corrected", corrects="sec12.frobenius",
          note="A wording slip in related work; the paper's own quantity (the average squared singular value, "
               "||G||_F^2 / P) uses the squared norm correctly."),
    _step("sec7.output_scale", "Sec. 7 (output variances 0.01 to 0.1) and Sec. 10 ('Following Sect. 7', output "
          "standard deviation 0.05)",
          "Sec. 10's output scaling follows Sec. 7: an output standard deviation of 0.05 is an output variance in "
          "[0.01, 0.1]", "sec7.output_scale", variant="printed", recorded=F, kind="inequality", severity="wording",
          impact="Agreeing with the issue: 'Following Sect. 7' names Sec. 7's procedure (check the output scale on a "
                 "batch and fix it with a scalar multiplier), which Sec. 10 does, and Sec. 7 calls its range "
                 "'reasonable choices', not a rule; only the literal reading 'an output variance within [0.01, 0.1]' "
                 "fails (a standard deviation of 0.05 is a variance of 0.0025). Read as a range of output scales "
                 "(standard deviations), the sense in which Sec. 10 and Sec. 11.2 both use 0.05, it holds "
                 "(defazio_bottou.sec7.output_scale_corrected). The scaling calculus is not affected.",
          note="Reads 'Following Sect. 7' as following Sec. 7's range. It can also be read as following Sec. 7's "
               "procedure (check the output variance on a batch and correct it with a fixed scalar), which Sec. 10 "
               "does; under that reading nothing printed is contradicted, and what remains is that Sec. 10's scale "
               "lies outside the range Sec. 7 calls reasonable."),
    _step("sec7.output_scale_corrected", "Sec. 7 and Sec. 10 (corrected: the range read as standard deviations)",
          "Read as standard deviations, Sec. 7's range [0.01, 0.1] contains Sec. 10's output standard deviation 0.05",
          "sec7.output_scale", variant="corrected", corrects="sec7.output_scale",
          kind="inequality", relations_only=True,
          extra=(Mutation("upper end 0.049 (just below the std 0.05)", {"values": {"high": sp.Rational(49, 1000)}}),
                 Mutation("lower end 0.051 (just above the std 0.05)", {"values": {"low": sp.Rational(51, 1000)}})),
          note=lambda ev: ("The other consistent reading, variance 0.05 in Sec. 10, is not what Sec. 10 prints; "
               "either way only the stated output scale of the experiments is affected, not the scaling calculus. "
               "Loose by design: a range of 'reasonable choices', whose nearer end is a factor "
               f"{ev['tightness']['factor']:g} from the value.")),
)

_R = residual_measure
SEC11 = (
    _step("sec11.backward_preserved", "Sec. 11, display E[dx^2] = (alpha^2 + beta^2) E[dy^2]",
          "E[dx^2] = (alpha^2 + beta^2) E[dy^2] = E[dy^2], which needs the main branch F to keep the backward second "
          "moment: a forward-preserving ReLU/conv chain does exactly when it keeps the channel count",
          "sec11.backward_preserved", measure=_R,
          parts=(("(alpha^2 + beta^2) E[dy^2]", "E[dx^2] = E[dy^2]"),
                 ("needs F backward-preserving", "n -> w -> n chain"),
                 ("only when F keeps the channel count", "n -> m chain factor m/n")),
          cites=("Sec. 11, B(x) = alpha x + beta F(x)", "Sec. 3"), derivation=derive.backward_preserved),
    _step("sec11.shortcut_scaling", "Sec. 11, the shortcut's scaling factor and gamma_l = varsigma_R / c_l^2",
          "The shortcut's scaling factor is alpha^2 varsigma, and a main-branch convolution with geometric numerator "
          "c_l has gamma_l = varsigma_R / c_l^2", "sec11.shortcut_scaling", measure=_R,
          parts=(("varsigma_S", "shortcut alpha^2 varsigma"),
                 ("gamma_l = varsigma_R /", "gamma_l = varsigma_R / c_l^2")),
          extra=(exponent_mutation("varsigma_S", "alpha^2.02 varsigma", al, 2),),
          note="The text calls the alpha x path the 'residual branch' here, while x_R and varsigma_R denote the main "
               "branch (a naming slip; the algebra is the shortcut's).",
          cites=("Eq. 1", "Eq. 2", "Eq. 3"), derivation=derive.shortcut_scaling),
    _step("sec11.match_step", "Sec. 11, 'gamma_l = varsigma_R/a_l^2 = (beta^2/c^2) varsigma_R, i.e. c = beta'",
          "gamma_l = varsigma_R / c^2 = (beta^2/c^2) varsigma_R, and matching it with the outside gamma = varsigma "
          "gives c = beta", "sec11.match_step", measure=_R, variant="printed", recorded=F, severity="misprint",
          impact="The display writes varsigma_R (and an undefined a_l) where varsigma (and c_l) are meant: from the "
                 "two displays just above, gamma_l = varsigma_R / c_l^2 = (beta^2/c_l^2) varsigma, and matching the "
                 "outside gamma = varsigma gives the printed conclusion c = beta, which stands "
                 "(defazio_bottou.sec11.match_step_corrected).",
          note="a_l is undefined (read as c_l). As printed, the second equality needs beta = 1, and solving "
               "(beta^2/c^2) varsigma_R = varsigma gives c = beta^2.",
          cites=(P + "sec11.branch_scaling", P + "sec11.shortcut_scaling"), derivation=derive.match_printed),
    _step("sec11.match_step_corrected", "Sec. 11 (corrected: (beta^2/c_l^2) varsigma)",
          "gamma_l = varsigma_R / c_l^2 = (beta^2/c_l^2) varsigma, and matching it with the outside gamma = varsigma "
          "gives c_l = beta", "sec11.match_step", measure=_R, variant="corrected", corrects="sec11.match_step",
          parts=(("gamma_l = varsigma_R", "gamma_l = (beta^2/c_l^2) varsigma"),
                 ("gives c_l = beta", "solution c_l = beta")),
          note="The section's conclusion c = beta stands.",
          cites=(P + "sec11.branch_scaling", P + "sec11.shortcut_scaling"), derivation=derive.match_corrected),
)

#: What the downsampling shortcut's display follows from (printed and corrected alike).
_SHORTCUT_DOWN = ("Eq. 2", "Eq. 3", "Sec. 3", P + "sec111.avgpool", "Sec. 11.1, text: numerator c = alpha")

SEC111 = (
    _step("sec111.avgpool", "Sec. 11.1, downsampling shortcut: y_0 = AvgPool2D(x, 2, 2)",
          "On zero-mean iid inputs (the residual stream), 2x2 stride-2 average pooling gives E[y_0^2] = E[x^2]/4 and "
          "keeps varsigma", "sec111.avgpool", measure=_R,
          parts=(("E[y_0^2] = E[x^2]/4", "E[y_0^2] = E[x^2]/4"), ("keeps varsigma for zero-mean", "keeps varsigma"),
                 ("after a ReLU", "ratio 1 + 3/pi after a ReLU")),
          note="After a ReLU (nonzero mean) it does not: the details show the ratio 1 + 3/pi.",
          cites=("Sec. 3", "Eq. 1"), derivation=derive.avgpool),
    _step("sec111.shortcut_down", "Sec. 11.1, downsampling shortcut display (c = alpha/4)",
          "y_0 = AvgPool(x), y_1 = y_0 + b_0, y_2 = C(y_1, m, 1x1, c = alpha/4), y_3 = y_2 / sqrt(alpha/4) gives "
          "E[y_3^2] = sqrt(n/m) E[x^2] (as the non-downsampling case) and gamma = varsigma", "sec111.shortcut_down",
          measure=_R, variant="printed", recorded=F, severity="misprint",
          impact="The display's numerator c = alpha/4 contradicts the text beside it ('using numerator c = alpha'); "
                 "with c = alpha the shortcut is well scaled as the section intends "
                 "(defazio_bottou.sec111.shortcut_down_corrected); as displayed, E[y_3^2] is a quarter of the target "
                 "and gamma is 16 varsigma.",
          note="The text beside the display says 'numerator c = alpha'. With the display's c = alpha/4, E[y_3^2] is a "
               "quarter of the target and gamma is 16 varsigma.",
          cites=_SHORTCUT_DOWN, derivation=derive.shortcut_down_printed),
    _step("sec111.shortcut_down_corrected", "Sec. 11.1, downsampling shortcut (corrected: c = alpha, as the text)",
          "With numerator c = alpha and the divisor sqrt(alpha/4), E[y_3^2] = sqrt(n/m) E[x^2] and gamma = varsigma",
          "sec111.shortcut_down", measure=_R, variant="corrected", corrects="sec111.shortcut_down",
          parts=(("E[y_3^2]", "E[y_3^2] = sqrt(n/m) E[x^2]"), ("gamma = varsigma", "gamma = varsigma")),
          note="The 4 of the divisor undoes the pooling's quarter; the shortcut is well scaled as the section intends.",
          cites=_SHORTCUT_DOWN, derivation=derive.shortcut_down_corrected),
    _step("sec111.shortcut_plain", "Sec. 11.1, non-downsampling shortcut display",
          "y_0 = x + b_0, y_1 = C(y_0, m, 1x1, c = alpha), y_2 = y_1 / sqrt(alpha) gives E[y_2^2] = sqrt(n/m) E[x^2] "
          "and gamma = varsigma", "sec111.shortcut_plain", measure=_R,
          parts=(("E[y_2^2]", "E[y_2^2] = sqrt(n/m) E[x^2]"), ("shortcut: gamma = varsigma", "gamma = varsigma")),
          cites=("Eq. 2", "Eq. 3", "Sec. 3"), derivation=derive.shortcut_plain),
    _step("sec111.main_branch", "Sec. 11.1, main branch displays x_0..x_8",
          "x_2 restores E[x^2]; the 1x1 convolution to w gives E[x_4^2] = beta sqrt(n/w) E[x^2]; the 3x3 stage keeps "
          "it (E[x_8^2] = E[x_4^2], the 3 of Sec. 6.2); every main-branch convolution has gamma = varsigma",
          "sec111.main_branch", measure=_R,
          parts=(("E[x_2^2] = E[x^2]", "x_2 restores E[x^2]"), ("E[x_4^2] = beta", "E[x_4^2] = beta sqrt(n/w) E[x^2]"),
                 ("E[x_8^2] = E[x_4^2]", "E[x_8^2] = E[x_4^2]"), ("gamma = varsigma", "every conv gamma = varsigma")),
          extra=(Mutation("convolutions' numerator c = beta^1.01 (every part with a convolution: x_4, x_8, gamma)",
                          {"values": {"c_main": be**(1 + CENT)}},
                          part=("E[x_4^2] = beta", "E[x_8^2] = E[x_4^2]", "gamma = varsigma")),
                 Mutation("sqrt(2/(3.03 beta)) before the 3x3 conv (the 3 off by 1%)",
                          {"values": {"three": sp.Rational(303, 100)}}, part="E[x_8^2] = E[x_4^2]")),
          cites=("Sec. 3", "Eq. 3", "Sec. 6.2, c = 2/k", P + "sec11.branch_scaling"), derivation=derive.main_branch),
    _step("sec111.bottleneck_fourth_root", "Sec. 11.1, the fixed scalar x_9 (corrected: a lost square root)",
          "With x_9 = (m/n)^(1/4) / sqrt(beta) x_8' ('derived from Eq. 6' with its square root), the branch output is "
          "E[F(x)^2] = E[x^2], Sec. 11's assumption", "sec111.bottleneck_fourth_root", measure=_R,
          extra=(exponent_mutation("(m/n)^(1/4)", "exponent 0.26 on m/n in x_9", m / n, 2, sole=True),
                 Mutation("printed form substituted: x_9 = sqrt(m/(beta n)) x_8'", {"variant": "printed"},
                          printed=True)),
          corrects="sec111.bottleneck",
          note="An alternative to defazio_bottou.sec111.bottleneck_corrected (which keeps Eq. 6's sqrt(n/m) across "
               "the block instead); which one the authors meant is not settled by the text.",
          cites=("Eq. 6", P + "sec111.main_branch"), derivation=derive.bottleneck_fourth_root),
    _step("sec111.block_balance", "Sec. 11.1, the whole block (shortcut and main branch together)",
          "With the corrected shortcut (c = alpha) and x_9 = x_8'/sqrt(beta), both branches have E[S^2] = E[F^2] = "
          "sqrt(n/m) E[x^2], with and without downsampling", "sec111.block_balance", measure=_R, variant="corrected",
          parts=(("(non-downsampling)", "non-downsampling block"), ("downsampling block", "downsampling block")),
          printed_part="(downsampling)",
          note="With both printed forms (c = alpha/4, sqrt(m/(beta n))) the branches are unbalanced: E[S^2]/E[F^2] = "
               "n/(4m) (the printed-form mutation).",
          cites=(P + "sec111.shortcut_down_corrected", P + "sec111.shortcut_plain", P + "sec111.bottleneck_corrected"),
          derivation=derive.block_balance),
)
