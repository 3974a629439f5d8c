"""Checkable claims of Defazio & Bottou (scaling factors, geometric initialization),
declared once, as data. Locations refer to
../shared/papers/defazio_bottou_scaling_geometric_init.txt."""
from __future__ import annotations

from ..evidence import Claim, Mutation, Verdict
from . import exact_claims as X
from . import hessian_checks as G
from . import montecarlo as M
from ..judging import judge_scaling

H, HA, F, I = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
P = "defazio_bottou"
_PERTURB = (Mutation("one side off by 1%", {"perturb": True}),)


def _thm1_judge(m, ctx, target: float = 1.0):
    """Asymptotic: the per-network ratio's error vanishes with width, limit = target."""
    return judge_scaling(m["rows"], "ratio", target, 0.02, "geometric-init ReLU MLPs [w, w, 2w, w, 10], layers 1-2, "
                         "batch 32, random quadratic loss")


def _sym(cid, where, statement, only):
    return Claim(cid, P, where, statement, "identity", H, X.table1_measure, X.judge_symbolic, {"only": only},
                 _PERTURB)


CLAIMS = (
    _sym("defazio_bottou.table1.scale_preserving", "Sec. 4, Table 1 and the sqrt(2) example",
         "ReLU and fixed scalings x -> a x (e.g. sqrt(2) x) keep the activation scaling factor varsigma (Eq. 1)",
         ("relu keeps", "scaling sqrt(2)", "any fixed scaling")),
    _sym("defazio_bottou.eq2.extrinsic", "Sec. 4, Eq. 2 and the extrinsic form after it",
         "gamma_l of Eq. 2 equals n_l k^2 rho^2 E[x_l^2]^2 E[dx_{l+1}^2] / E[x_{l+1}^2]", ("Eq. 2 equals",)),
    _sym("defazio_bottou.thm1.model", "Sec. 5, Theorem 1",
         "Under the Sec. 3 model, the weight-to-gradient ratio nu_l = E[dW^2]/E[W^2] equals gamma_l",
         ("Theorem 1",)),
    _sym("defazio_bottou.eq6.telescoping", "Sec. 7, Eq. 6 and the telescoping product",
         "With geometric init (c = 2/k), E[x_{l+1}^2] = sqrt(n_l/n_{l+1}) E[x_l^2], so E[x_L^2] = "
         "sqrt(n_0/n_L) E[x_0^2] whatever the interior widths", ("Eq. 6",)),
    _sym("defazio_bottou.sec8.bias_scaling", "Sec. 8, Eq. 7-8 and the sentence after Eq. 8",
         "gamma^b = varsigma/(n E[x^2]^2), and geometric init keeps n_l E[x_l^2]^2 constant", ("Sec. 8", "Eq. 8")),
    _sym("defazio_bottou.sec62.kernel_correction", "Sec. 6.2",
         "With c = 2 (typical k = 1), a 3x3 convolution preceded by alpha = sqrt(1/3) keeps Eq. 6's forward "
         "scaling", ("Sec. 6.2",)),
    _sym("defazio_bottou.sec11.branch_scaling", "Sec. 11",
         "In alpha x + beta F(x), the main branch's scaling factor is beta^2 varsigma and c = beta restores the "
         "outside gamma", ("Sec. 11",)),
    Claim("defazio_bottou.thm1.networks", P, "Sec. 5, Theorem 1, on real random networks",
          "On geometric-init ReLU MLPs with a random quadratic loss, nu_l / gamma_l -> 1 as width grows (the "
          "model's assumptions become exact)", "approximation", HA, M.thm1_networks, _thm1_judge, {"target": 1.0},
          (Mutation("limit 1.05", {"target": 1.05}),), monte_carlo=True,
          note="At finite width nu_l exceeds gamma_l (per-sample gradient and input magnitudes are correlated): "
               "the gap roughly halves per doubling of width (details)."),
    Claim("defazio_bottou.sec6.geometric_constant_gamma", P, "Sec. 6, Eq. 3",
          "Geometric initialization E[W^2] = c/(k sqrt(n_l n_{l+1})) gives the same gamma_l in every layer",
          "identity", H, X.init_measure, X.judge_constant_gamma, {"init": "geometric"},
          (Mutation("Kaiming fan-in is constant", {"init": "kaiming_fan_in"}, F),)),
    Claim("defazio_bottou.sec61.others_not_constant", P, "Sec. 6.1, Eq. 4-5 and Figure 2",
          "Kaiming fan-in, fan-out and Xavier do not give constant gamma_l when widths differ", "identity", H,
          X.init_measure, X.judge_constant_gamma,
          {"init": ("kaiming_fan_in", "kaiming_fan_out", "xavier"), "expect_constant": False},
          (Mutation("geometric is not constant", {"init": "geometric", "expect_constant": False}, F),),
          note="Exception found: on a geometric width ladder (n_{l+1}/n_l constant, e.g. 1, 2, 4, ..., 32) all three "
               "give constant gamma_l too (see 'constant_on' in the details)."),
    Claim("defazio_bottou.sec81.input_scaling", P, "Sec. 8.1",
          "gamma_0 = gamma_0b gives E[x_0^2] = 1/sqrt(n_0 k_0^2), about 0.2 for RGB 3x3, reached by the forward "
          "factor 1/(n_0 k^2)^(1/4)", "identity", H, X.input_scaling_measure, X.judge_input_scaling, {},
          (Mutation("printed value 0.25", {"printed": 0.25}),)),
    Claim("defazio_bottou.sec111.bottleneck", P, "Sec. 11.1 (main branch x_0..x_9; last step reconstructed)",
          "The fixed scalar x_9 = sqrt(m/(beta n)) x_8 makes the bottleneck branch output E[F(x)^2] = E[x^2]",
          "identity", F, X.bottleneck_measure, X.judge_bottleneck, {"target": "E[x^2]", "variant": "printed"},
          (Mutation("v/sqrt(beta) alone, Eq. 6 target", {"target": "eq6", "variant": "v_only"}, H),),
          note="Our reading of 'the final sequence mirrors the initial operation': ReLU, sqrt(2/beta), bias, "
               "1x1 conv to m with c = beta. Then E[x_9^2] = sqrt(m/n) E[x^2]: right for m = n, off by sqrt(m/n) "
               "otherwise (2 at n = 64, m = 256)."),
    Claim("defazio_bottou.sec111.bottleneck_corrected", P, "Sec. 11.1 (corrected)",
          "Without the extra sqrt(m/n) (x_9 = x_8 / sqrt(beta)), the branch output is E[x_9^2] = sqrt(n/m) E[x^2], "
          "Eq. 6's geometric scaling across the block", "identity", H, X.bottleneck_measure, X.judge_bottleneck,
          {"target": "eq6", "variant": "v_only"}, (Mutation("printed scalar", {"target": "eq6", "variant": "printed"}, F),),
          corrects="defazio_bottou.sec111.bottleneck"),
    Claim("defazio_bottou.thm2.mean_ratio", P, "Sec. 5.1, Theorem 2 (main term)",
          "The average squared singular value of the Gauss-Newton block G_l of a linear layer is "
          "n_l E[x_l^2]^2 E[dx_{l+1}^2] / E[x_{l+1}^2] to leading order: averaged over random networks and losses, "
          "main term / actual -> 1 as width grows", "approximation", I, G.thm2_networks, G.judge_thm2_mean, {},
          (Mutation("limit 1.1", {"target": 1.1}),), monte_carlo=True,
          note="Inconclusive at the required 5% resolution of the limit: the error of the mean shrinks with width "
               "(error_exponent), but the c + a/w extrapolation resolves the limit only to the stated resolution "
               "(rerun with --mc-scale; the fitted error exponent is not necessarily 1, so the 1/w extrapolation may "
               "then be misspecified). Per network the ratio does not converge: rms_error stays of order one at "
               "every width, because the O-term is of the same order as the main term (next claim)."),
    Claim("defazio_bottou.thm2.order_term", P, "Sec. 5.1, Theorem 2 (error term)",
          "actual - main = O(n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2])) in n_l, n_{l+1} when ||Phi||_2^2 = O(1) above "
          "the layer (Kaiming fan-in MLPs)", "approximation", H, G.thm2_networks, G.judge_thm2_order, {},
          (Mutation("error term smaller by 1/n_{l+1}", {"extra_power": 1.0}),), monte_carlo=True,
          note="The main term is itself a bounded multiple of the O-term scale at these widths "
               "(median_main_over_O in the details), so the theorem fixes the order of magnitude, not the constant."),
    Claim("defazio_bottou.fig1.lenet_ratio_printed", P, "Sec. 5.1, Figure 1 with Eq. 2's extrinsic gamma as printed",
          "For the strided LeNet (batch 1024, 32x32 random inputs, loss z^T R z), the ratio of the scaling factor "
          "(Eq. 2, rho_l = the layer's input size) to E[(G_l r)^2] is close to 1 (within a factor 2, our reading) "
          "for every layer", "empirical", F, G.lenet_measure, G.judge_lenet_ratio, {"reading": "ratio_rho_in"},
          (Mutation("rho_{l+1} (output size) for the strided convolutions", {"reading": "ratio_rho_out"}, H),),
          slow=True, monte_carlo=True,
          note="For the stride-2 convolutions rho_l^2 exceeds rho_{l+1}^2 by (32/14)^2 (conv1) and (14/5)^2 (conv2); "
               "dense layers are unaffected. Table 1 (strided layers) is not in the transcription."),
    Claim("defazio_bottou.fig1.lenet_ratio_output_rho", P, "Sec. 5.1, Figure 1 (corrected: rho_{l+1})",
          "With rho_{l+1} (the layer's output size) in Eq. 2, the ratio of scaling factor to E[(G_l r)^2] is within a "
          "factor 2 of 1 for every layer of the strided LeNet", "empirical", H, G.lenet_measure, G.judge_lenet_ratio,
          {"reading": "ratio_rho_out"}, (Mutation("close to 4 instead of 1", {"reading": "ratio_rho_out", "target": 4.0}),),
          corrects="defazio_bottou.fig1.lenet_ratio_printed", slow=True, monte_carlo=True),
    Claim("defazio_bottou.fig2.geometric_flat_diagonal", P, "Sec. 6.1, Figure 2",
          "Geometric initialization gives a more nearly constant block diagonal of the strided LeNet's Hessian "
          "(spread over layers of log10 E[(G_l r)^2]) than Kaiming fan-in, Kaiming fan-out and Xavier",
          "empirical", H, G.lenet_measure, G.judge_fig2, {"flat": "geometric"},
          (Mutation("Kaiming fan-in is the flattest", {"flat": "he_fan_in"}),), slow=True, monte_carlo=True),
)
