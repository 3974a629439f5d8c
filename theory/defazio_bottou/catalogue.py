"""Checkable claims of Defazio & Bottou (scaling factors, geometric initialization),
declared once, as data. Locations refer to
../shared/papers/defazio_bottou_scaling_geometric_init.txt."""
from __future__ import annotations

from ..evidence import Claim, Mutation, Verdict
from . import exact_claims as X
from . import montecarlo as M
from ..judging import judge_scaling

H, HA, F = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS
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
)
