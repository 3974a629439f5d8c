"""Claims of Sec. 2 and App. A of the ZeroInit/Fixup submission (p.h. networks, Eq. 1-2,
Theorems 1-2 and their proofs, Eq. 3-11). Locations refer to
../shared/papers/zeroinit_fixup_iclr2019_submission.txt, a lossy extraction: the
reconstructed formulas are stated in each claim and in the measuring modules."""
from __future__ import annotations

from ..core import Claim, Mutation, Verdict
from ..core.claims import AtPrecision
from ..kinds import reading
from . import depth_sweep as D
from . import derivations as DV
from . import homogeneity as hom
from . import mc_judges as J
from . import montecarlo as mc
from . import ph_sets as P
from . import sec2_symbolic as S
from . import sec3_5_exact as E

H, F = Verdict.HOLDS, Verdict.FAILS
EPS = "1 + 1e-11 (ten times the check's 1e-12 tolerance)"
#: 10^-(dps - 10) as decimal text (1e-40 at 50 digits): the upper side of Eq. 10's gap
#: lowered 5 digits above the relative tolerance 10^(5 - dps) of its dps-digit check.
LSE_UPPER_SHIFT = AtPrecision(lambda dps: f"1e-{dps - 10}", "10^-(dps - 10)")
#: The coefficient of H(p) in Eq. 3 and 4 lowered alone by ten times the check's tolerance.
H_LOW = Mutation("H(p) times 1 - 1e-11 (the bound raised where l - H is tight: width-1 block inputs, and dead "
                 "samples where l = H = log c)", {"entropy": 1 - 1e-11})

CLAIMS = (
    Claim(id="zeroinit2019.sec2.ph_examples",
          where="Sec. 2, examples after Definition 2",
          statement="Bias-free linear and convolution layers, max and average pooling, addition, concatenation, "
          "dropout (fixed mask) and ReLU are positively homogeneous; a layer with a bias, softmax and tanh are not "
          "(controls)",
          kind="identity", recorded=H, measure=P.examples_measure, judge=P.judge_examples,
          mutations=(Mutation("a layer with a bias counted as p.h.", {"claimed": P.PH_EXAMPLES + ("linear_with_bias",),
                                                                     "controls": ("softmax", "tanh")},
                              part="linear_with_bias is p.h."),
                     Mutation("ReLU listed among the non-p.h. controls", {"controls": P.CONTROLS + ("relu",)},
                              part="control relu is not p.h."),
                     Mutation(f"degree {EPS} instead of first degree", {"power": 1 + 1e-11}, part="is p.h."))),
    Claim(id="zeroinit2019.prop1.ph_composition",
          where="Sec. 2, Definitions 1-2 and Proposition 1",
          statement="A composition of positively homogeneous functions is positively homogeneous (bias-free ReLU nets, "
          "in the input and in one layer's weights)",
          kind="identity", recorded=H, measure=hom.ph_measure, judge=hom.judge_prop1,
          cites=("Definition 1",), derivation=DV.ph_composition,
          mutations=(Mutation("degree 1 + 1e-11 (in the input and in one layer's weights: both parts)",
                              {"power": 1 + 1e-11}, part=("degree in the input", "degree in W_")),
                     Mutation("degree 1 + 1e-11 in the input alone (the weights' degree 1)", {"input_power": 1 + 1e-11},
                              part="degree in the input"),
                     Mutation("degree 1 + 1e-11 in one layer's weights alone (the input's degree 1)",
                              {"weight_power": 1 + 1e-11}, part="degree in W_"))),
    *reading(
        Claim(id="zeroinit2019.eq1.index_corrected",
              where="Sec. 2, Eq. 1 (corrected labels)",
              statement="With the blocks labelled {F_0, ..., F_{L-1}}, Eq. 1 x_l = x_0 + sum_{i=0}^{l-1} F_i(x_i) is "
              "the recursion x_{l+1} = x_l + F_l(x_l) unrolled, for every l",
              kind="identity", recorded=H, measure=E.eq1_measure, judge=E.judge_eq1, params={"labels": "zero_based"},
              mutations=(Mutation("sum to l instead of l - 1 (one block too many)", {"upper": 1}),
                         Mutation("sum to l - 2 instead of l - 1 (one block too few)", {"upper": -1}))),
        printed_id="zeroinit2019.eq1.index_printed", printed={"labels": "printed"},
        printed_form="the text's labels F_1..F_L", corrected_form="blocks labelled F_0..F_{L-1}",
        printed_where="Sec. 2, Eq. 1, the sentence before it and the recursion after it",
        printed_statement="In a ResNet with the residual blocks {F_1, ..., F_L} introduced before it, Eq. 1 "
        "x_l = x_0 + sum_{i=0}^{l-1} F_i(x_i) is Sec. 2's recursion x_{l+1} = x_l + F_l(x_l) unrolled, using only "
        "those blocks",
        severity="misprint",
        impact="Only the labels are off by one: the recursion x_{l+1} = x_l + F_l(x_l) printed right after Eq. 1 "
               "uses the same 0-based blocks as Eq. 1 and gets it right; only the set {F_1, ..., F_L} named "
               "before it disagrees, and nothing downstream depends on the labels.",
        printed_note="Eq. 1 is exactly the unrolled recursion printed after it; only the labels disagree: both use "
                     "F_0, which the text's {F_1, ..., F_L} does not contain (and F_L is never used). Sec. 5 writes "
                     "the 1-based x_l = f(x_{l-1}, F_l(x_{l-1})). Nothing downstream depends on the labels."),
    Claim(id="zeroinit2019.eq2.total_variance_step",
          where="Sec. 2, the total-variance step before Eq. 2 and Eq. 2's first equality",
          statement="With x_0 fixed and zero-mean blocks, Var[x_{l+1}] = E[Var[F(x_l) | x_l]] + Var[x_l]: the cross "
          "term 2 E<x_l - x_0, F(x_l)> vanishes, and by positive homogeneity E||F(x)||^2 = kappa ||x||^2 with kappa "
          "independent of x (kappa = 2 for He/He branches, 1 when the last layer has variance 1/n)",
          kind="identity", recorded=H, measure=mc.GROWTH, judge=J.judge_eq2_step,
          cites=("Sec. 2: x_{l+1} = x_l + F_l(x_l)", "Sec. 2: E[F_l(x_l) | x_l] = 0"),
          derivation=DV.total_variance_step,
          mutations=(Mutation("kappa off by the tolerance (x 1.05)", {"kappa_scale": 1.05}, part="kappa"),
                     Mutation("cross term 0.1 of the increment (twice the tolerance)", {"cross": 0.1},
                              part="cross / increment"))),
    Claim(id="zeroinit2019.eq2.doubling",
          where="Sec. 2, Eq. 2 and the sentence before it",
          statement="Combined with He initialization the residual branch's output variance is about its input's, so "
          "the stream's variance doubles per block: Var[x_l] = 2^l Var[x_0] (branch W2 ReLU(W1 x) under He et al.'s "
          "rule: gain 2 only where a ReLU feeds the layer, so W1 at variance 1/n and W2 at 2/n; read as second moments "
          "E||x_l||^2)",
          kind="identity", recorded=H, measure=mc.GROWTH, judge=J.judge_growth,
          params={"base_factor": 2.0, "branches": ("he_rule",)},
          mutations=(Mutation("per-block factor off by the tolerance (x 1.05)", {"scale": 1.05}),
                     Mutation("He's gain 2 on both layers (also on W1, fed by the stream)",
                              {"base_factor": 2.0, "branches": ("he_fan_in",)})),
          note="He et al. (2015) give gain 2 to layers fed by a ReLU and variance 1/n to a layer that sees no ReLU "
               "(their first layer); W1 sees the residual stream. With gain 2 on every layer (common practice) "
               "E||F(x)||^2 = 2 ||x||^2 and the stream grows as 3^l, not 2^l: zeroinit2019.eq2.growth_any_kappa. "
               "Either way the growth is exponential."),
    Claim(id="zeroinit2019.eq2.growth_any_kappa",
          where="Sec. 2, Eq. 2 (general branch gain)",
          statement="E||x_l||^2 = (1 + kappa)^l ||x_0||^2 with kappa = E||F(x)||^2/||x||^2: 3^l when both layers of "
          "W2 ReLU(W1 x) take He's gain 2, 2^l when one of them has variance 1/n",
          kind="identity", recorded=H, measure=mc.GROWTH, judge=J.judge_growth,
          params={"base_factor": None, "branches": ("he_fan_in", "linear_fan_in", "he_rule")},
          mutations=(Mutation("per-block factor off by the tolerance (x 1.05)", {"scale": 1.05}),
                     Mutation("doubling for every branch", {"base_factor": 2.0})),
          note="Records what the doubling depends on: which layer of the branch takes He's factor 2."),
    Claim(id="zeroinit2019.eq2.fixed_input_variance_printed",
          where="Sec. 2, Eq. 2 with 'view the input x_0 as fixed'",
          statement="With x_0 fixed and the variance taken over the weights, Var[x_l] = Theta(2^l) Var[x_0] for "
          "zero-mean p.h. blocks whose output variance equals their input's (kappa = 1)",
          kind="identity", recorded=F, measure=E.eq2_scalar_measure, judge=E.judge_eq2_scalar,
          params={"form": "printed"},
          cites=("zeroinit2019.eq2.total_variance_step", "Sec. 2: Var[F_l(x_l) | x_l] about Var[x_l]"),
          derivation=DV.eq2_printed,
          mutations=(Mutation("Var[x_l] = ((1 + kappa)^l - 1) ||x_0||^2", {"form": "corrected"}, H),),
          severity="step",
          impact="A step of Sec. 2's argument: with x_0 fixed the premise 'Var[F_l(x_l) | x_l] about Var[x_l]' "
                 "confuses the variance with the second moment (Var[F(x) | x] = kappa ||x||^2), so Eq. 2 reads "
                 "0 = 0 at l = 0 and is false from l = 1; the conclusion survives: the stream's second moment, and "
                 "its variance "
                 "((1 + kappa)^l - 1) ||x_0||^2, grow exponentially (eq2.variance_fixed_input, eq2.doubling).",
          note="A fixed x_0 has Var[x_0] = 0, yet Var[x_1] = kappa ||x_0||^2 > 0: the premise 'Var[F(x_l) | x_l] about "
               "the same as Var[x_l]' confuses the variance with the second moment (Var[F(x) | x] = kappa ||x||^2). "
               "Smallest counterexample: one scalar block F(x) = w x, E w = 0, E w^2 = 1, x_0 = 1. With a random "
               "zero-mean x_0 instead, Var = second moment and the printed form holds for kappa = 1. The exponential "
               "growth survives in the corrected form."),
    Claim(id="zeroinit2019.eq2.variance_fixed_input",
          where="Sec. 2, Eq. 2 (corrected for a fixed x_0)",
          statement="With x_0 fixed, Var[x_l] = E||x_l - x_0||^2 = ((1 + kappa)^l - 1) ||x_0||^2 (E x_l = x_0), for "
          "ReLU branches with kappa = 2 (He/He) and kappa = 1",
          kind="identity", recorded=H, measure=mc.GROWTH, judge=J.judge_variance_fixed_input,
          mutations=(Mutation("per-block factor off by the tolerance (x 1.05)", {"scale": 1.05}),
                     Mutation("printed form: Var[x_l] = 2^l Var[x_0], Var[x_0] read as ||x_0||^2 (the only reading "
                              "not 0 for a fixed x_0)", {"base_factor": 2.0, "offset": 0.0}, printed=True),
                     Mutation("Var[x_l] = (1 + kappa)^l ||x_0||^2 (the second moment's law, the '- 1' dropped)",
                              {"offset": 0.0})),
          corrects="zeroinit2019.eq2.fixed_input_variance_printed"),
    Claim(id="zeroinit2019.thm1.l2",
          where="Sec. 2, Theorem 1, Eq. 3 (reconstructed), Euclidean norm",
          statement="||dl/dx_{i-1}||_2 >= (l(z, y) - H(p)) / ||x_{i-1}||_2 for every block input of a bias-free "
          "ReLU net",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "l2"},
          cites=("zeroinit2019.thm1.greater_than_printed", "Eq. 6", "Eq. 7"), derivation=DV.theorem1_l2,
          mutations=(Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}), H_LOW),
          note="Width-1 block inputs are on the grid: there the gradient is parallel to the input and the bound is an "
               "equality, so the check could fail."),
    Claim(id="zeroinit2019.thm1.any_norm",
          where="Sec. 2, Theorem 1 and '||.|| denotes any valid norm' before the assumptions",
          statement="Eq. 3 holds for any valid norm (the same norm on both sides)",
          kind="inequality", recorded=F, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "linf"},
          cites=("zeroinit2019.thm1.greater_than_printed", "Eq. 7", "Sec. 2: ||.|| denotes any valid norm"),
          derivation=DV.theorem1_any_norm,
          mutations=(Mutation("dual norms (l1 gradient, linf input)", {"norm": "dual_l1_linf"}, H),),
          severity="result",
          impact="Theorem 1 is stated for 'any valid norm' (the paper says so before the assumptions, as a choice the "
                 "reader may make), and for the max-norm it is false; the proof only covers the Euclidean norm, and "
                 "the theorem holds for it and with the dual norm on the gradient (thm1.l2, thm1.dual_norm), which is "
                 "what Sec. 2's conclusions use.",
          note="With the max-norm on both sides, <g, x> <= ||g||_inf ||x||_inf fails; the dual norm is needed. The "
               "smallest counterexample (one 2 x 2 layer, two classes) is evaluated exactly."),
    Claim(id="zeroinit2019.thm1.dual_norm",
          where="Sec. 2, Theorem 1 (corrected wording)",
          statement="||dl/dx||_* >= (l - H(p)) / ||x|| with ||.||_* the dual norm of ||.|| (l1 gradient / linf input)",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "dual_l1_linf"},
          cites=("Eq. 6", "Eq. 7", "Hoelder's inequality"), derivation=DV.theorem1_dual_norm,
          mutations=(Mutation("printed form: the same max-norm on both sides", {"norm": "linf"},
                              part="smallest counterexample", printed=True),
                     Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}), H_LOW,
                     Mutation("the other dual pair (linf gradient, l1 input)", {"norm": "dual_linf_l1"}, H)),
          corrects="zeroinit2019.thm1.any_norm"),
    Claim(id="zeroinit2019.eq6.euler_identity",
          where="App. A.1, proof of Theorem 1, Eq. 6-7",
          statement="d/d eps l((1 + eps) z, y) at eps = 0 equals -y^T z + p^T z = l(z, y) - H(p) (c = 2, 3, 4 classes, "
          "first and last label), and d/dt l(f(x + t x/||x||)) = (1/||x||) d/d eps l(f((1 + eps) x)) (Eq. 7)",
          kind="identity", recorded=H, measure=S.eq6_measure, judge=S.judge_eq6,
          cites=("Sec. 2: l(z, y) = -y^T (z - logsumexp(z))", "zeroinit2019.prop1.ph_composition"),
          derivation=DV.eq6_euler,
          mutations=(Mutation("l + H(p) instead of l - H(p)", {"entropy_sign": -1}, part="second equality"),
                     Mutation("the derivative taken at eps = 1/2 instead of 0 (first equality alone)",
                              {"at_eps": "1/2"}, part="first equality"),
                     Mutation("Eq. 7 without the factor 1/||x|| (d/dt = d/d eps)", {"chain_power": 0},
                              part="Eq. 7 chain rule"))),
    Claim(id="zeroinit2019.thm1.greater_than_printed",
          where="App. A.1, proof of Theorem 1, the step before Eq. 7",
          statement="The gradient's L2 norm 'must be greater than' the directional derivative "
          "d/dt l(f(x + t x/||x||)) = (l - H(p))/||x|| (strictly)",
          kind="inequality", recorded=F, measure=hom.ph_measure, judge=hom.judge_directional, params={"strict": True},
          cites=("Eq. 6", "Cauchy-Schwarz"), derivation=DV.directional_strict,
          mutations=(Mutation("at least (>=)", {"strict": False}, H),),
          severity="wording",
          impact="Agreeing with the issue: 'must be greater than' in a proof whose theorem (Eq. 3) and every use read "
                 "'at least' is the informal >=; read strictly it fails only where the gradient is parallel to x "
                 "(width-1 block inputs), and the intended 'at least' holds (thm1.directional_at_least).",
          note="Cauchy-Schwarz gives 'at least', with equality when the gradient is parallel to x; on a width-1 block "
               "input that is always so (when l - H > 0). Theorem 1 itself uses only 'at least' and stands."),
    Claim(id="zeroinit2019.thm1.directional_at_least",
          where="App. A.1, proof of Theorem 1, the step before Eq. 7 (corrected wording)",
          statement="||dl/dx||_2 >= (l - H(p))/||x||_2 = d/dt l(f(x + t x/||x||)), with equality attained (width-1 "
          "block inputs)",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_directional, params={"strict": False},
          cites=("Eq. 6", "Cauchy-Schwarz"), derivation=DV.directional_at_least,
          mutations=(Mutation("printed form: strictly greater", {"strict": True}, part="(1, 1, 4, 3), block input",
                              printed=True),
                     Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}, part="(1, 1, 4, 3), block input"),
                     Mutation("bound times 1 - 1e-11 (equality then never attained)", {"factor": 1 - 1e-11},
                              part="equality attained")),
          corrects="zeroinit2019.thm1.greater_than_printed"),
    Claim(id="zeroinit2019.sec2.entropy_bound",
          where="Sec. 2 after Theorem 1 ('H(p) is upper bounded by log(c)') and App. A.2 before Eq. 11",
          statement="H(p) <= log(c) for every probability vector p over c classes, with equality at the uniform law",
          kind="inequality", recorded=H, measure=S.entropy_measure, judge=S.judge_entropy,
          cites=("Sec. 2: H the Shannon entropy",), derivation=DV.entropy_bound,
          mutations=(Mutation("strict inequality H(p) < log c", {"strict": True}, part="uniform p"),
                     Mutation("H(p) >= log c (direction reversed)", {"direction": ">="}, part="random p",
                              mirror=True))),
    Claim(id="zeroinit2019.thm2.ph_set",
          where="Sec. 2, Theorem 2, Eq. 4 (reconstructed) and App. A.2, Eq. 9",
          statement="For the p.h. set theta = one layer's weights, ||d l_avg/d theta||_F >= (1/M) sum_m "
          "(l_m - H(p_m)) / ||theta||_F =: G(theta)",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm2,
          cites=("Eq. 8", "zeroinit2019.thm1.greater_than_printed"), derivation=DV.theorem2_eq9,
          mutations=(Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}), H_LOW),
          note="A 1 x 1 weight matrix is on the grid, where the bound is an equality."),
    Claim(id="zeroinit2019.eq8.batch_euler",
          where="App. A.2, proof of Theorem 2, Eq. 8",
          statement="d/d eps l_avg(D_M; (1 + eps) theta_ph) at 0 = <d l_avg/d theta_ph, theta_ph> = "
          "(1/M) sum_m (l(z^(m), y^(m)) - H(p^(m))) for every layer's weights",
          kind="identity", recorded=H, measure=hom.ph_measure, judge=hom.judge_eq8,
          cites=("Definition 2", "Eq. 6"), derivation=DV.eq8_batch_euler,
          mutations=(Mutation(f"right-hand side times {EPS}", {"factor": 1 + 1e-11}),
                     Mutation("H(p) times 1 + 1e-11 (ten times the check's 1e-12 tolerance)", {"entropy": 1 + 1e-11}))),
    Claim(id="zeroinit2019.thm2.ph_set_examples",
          where="Sec. 2, the three p.h. sets after Eq. 5, and the sentence after the assumptions",
          statement="In a bias-free ResNet without normalization (1) the first layer before max pooling, (2) a "
          "downsampling skip projection together with one layer of its branch, (3) the layer before the softmax are "
          "p.h. sets, and the network is p.h. in its input; one layer of an identity block's branch alone, or the skip "
          "projection alone, is not",
          kind="identity", recorded=H, measure=P.resnet_sets_measure, judge=P.judge_resnet_sets,
          mutations=(Mutation("an identity block's branch layer counted as a p.h. set",
                              {"claimed": P.PH_SETS + ("identity_branch_layer",), "not_sets": ("skip_alone",)},
                              part="identity_branch_layer is a p.h. set"),
                     Mutation("the layer before the softmax listed as not a p.h. set (a control)",
                              {"not_sets": P.NOT_PH_SETS + ("classifier",)}, part="classifier is not a p.h. set"),
                     Mutation(f"degree {EPS} instead of first degree", {"power": 1 + 1e-11}, part="is a p.h. set")),
          note="Dense analogue (post-activation blocks as in Figure 1, left, without normalization). In the authors' "
               "public Fixup code the CIFAR shortcut is parameter-free (average pooling plus zero channels, "
               "cifar/models/fixup_resnet_cifar.py), so example (2) applies to its ImageNet model only "
               "(imagenet/models/fixup_resnet_imagenet.py, a 1 x 1 downsampling convolution)."),
    Claim(id="zeroinit2019.eq10.lse_max",
          where="App. A.2, Eq. 10 (the step logsumexp(z) >= max_i z_i)",
          statement="logsumexp(z) > max_i z_i for every logit vector z (so l(z, y) >= max z - z_y pointwise), and "
          "logsumexp(z) - max z <= log c",
          kind="inequality", recorded=H, measure=S.lse_measure, judge=S.judge_lse,
          cites=("Sec. 2: logsumexp(z) = log sum_i exp(z_i)",), derivation=DV.eq10_lse_max,
          mutations=(Mutation("logsumexp(z) >= max z + 1e-3", {"shift": 1e-3}, part="lower side"),
                     Mutation("logsumexp(z) - max z <= log c - 10^-(dps - 10) (ties reach log c; 5 digits above the "
                              "10^-(dps - 5) relative tolerance)", {"upper_shift": LSE_UPPER_SHIFT},
                              part="upper side"))),
    Claim(id="zeroinit2019.eq10.logits_symmetric",
          where="App. A.2, before Eq. 10 ('z has a symmetric probability density function with mean 0')",
          statement="With iid zero-mean symmetric weights, the logits of a bias-free ReLU net have mean 0 and a "
          "symmetric law: E[z] = 0 and P(z > 0) = 1/2 (averaged over classes and inputs; z in units of the RMS logit)",
          kind="identity", recorded=H, measure=mc.HEADS_SAMPLING, judge=J.judge_logits_symmetric,
          cites=("Assumption 2",), derivation=DV.logits_symmetric,
          mutations=(Mutation("both shifted by the tolerance (0.05)", {"shift": 0.05},
                              part=("E[z] = 0", "P(z > 0) = 1/2")),),
          note="What the proof uses is E[z | inputs, labels] = 0 over the weights. 'Probability density' is loose: a "
               "density need not exist (ZeroInit's zero classifier gives z = 0 exactly), and over the data y and z are "
               "dependent through x; at initialization only the weights' symmetry matters."),
    Claim(id="zeroinit2019.eq5.expected_bound",
          where="Sec. 2, Eq. 5, and App. A.2, Eq. 10-11 (product form, which needs no constant ||theta_ph||)",
          statement="E[l] >= E[max_i z_i] (Eq. 10) and E[G(theta_ph) ||theta_ph||] >= E[max_i z_i] - log(c) for the "
          "weights of any layer of random He MLPs, with G(theta_ph) ||theta_ph|| = (1/M) sum_m (l_m - H(p_m))",
          kind="inequality", recorded=H, measure=mc.HEADS_SAMPLING, judge=J.judge_eq5,
          cites=("Eq. 9", "Eq. 10", "zeroinit2019.eq10.lse_max", "zeroinit2019.eq10.logits_symmetric",
                 "zeroinit2019.sec2.entropy_bound"),
          derivation=DV.product_form_eq11,
          mutations=(Mutation("both bounds raised by 1 nat (fails through Eq. 10's rows; Eq. 5's product form has more "
                              "than 1 nat of slack)", {"shift": 1.0}, part="eq10"),
                     Mutation("Eq. 5's product-form bound alone raised by 2.5 nats", {"eq5_shift": 2.5}, part="eq5")),
          note=lambda ev: ("Neither bound is attained by random networks: Eq. 5's product form has a pointwise slack "
               "(logsumexp - max z) + (log c - H(p)) bounded away from 0, and Eq. 10's slack E[logsumexp - max z] "
               "is small only for huge logits, whose label noise then swamps it. As a ratio the bound is not loose: "
               f"on its worst row ({ev['tightness']['row']['part']}"
               f", widths {ev['tightness']['row']['widths']}"
               ") the data's one-sided limit "
               f"allows raising it only by the factor {ev['tightness']['factor']:.4f}"
               ". The mutations therefore raise each "
               "bound by more than the slack of its tightest row plus the resolution: 1 nat for Eq. 10 (slack "
               f"{min(d['mean'] for d in ev['details'] if d.get('part') == 'eq10'):.2f}"
               f" to {max(d['mean'] for d in ev['details'] if d.get('part') == 'eq10'):.2f}"
               " over the rows), 2.5 nats "
               f"for Eq. 5 (slack {min(d['mean'] for d in ev['details'] if d.get('part') == 'eq5'):.2f}"
               f" to {max(d['mean'] for d in ev['details'] if d.get('part') == 'eq5'):.2f}"
               "); 1 nat on "
               "both fails Eq. 10 alone. The label is averaged out "
               "exactly (it is uniform and independent of the network).")),
    Claim(id="zeroinit2019.eq5.realized_norm_printed",
          where="Sec. 2, Eq. 5, and App. A.2, Eq. 11",
          statement="E[G(theta_ph)] >= (E[max_i z_i] - log(c)) / ||theta_ph|| with ||theta_ph|| outside the "
          "expectation, i.e. for the realized norm of the random theta_ph",
          kind="inequality", recorded=F, measure=S.eq5_toy_measure, judge=S.judge_eq5_toy,
          params={"reading": "realized_norm"},
          cites=("Eq. 9", "Eq. 10", "zeroinit2019.sec2.entropy_bound"), derivation=DV.realized_norm_eq11,
          mutations=(Mutation("conditional on ||theta_ph||", {"reading": "conditional"}, H),),
          severity="step",
          impact="Eq. 11 takes the random ||theta_ph|| out of the expectation (E[X/||theta||] = E[X]/||theta||), which "
                 "holds only for a fixed or conditioned norm, so Eq. 5 does not follow for the realized norm the "
                 "expectation runs over; Theorem 2's conclusion survives in the conditional form (eq5.conditional, "
                 "every expectation given ||theta_ph||) and the product form (eq5.expected_bound).",
          note="Smallest setting: c = 2 classes, one input, theta_ph = W in R^2 iid N(0, sigma^2). There E[G] < "
               "sqrt(2)/pi while the bound exceeds it whenever ||W|| is below a threshold that has positive "
               "probability. The conditional form and the product form (eq5.expected_bound) hold, so Theorem 2's "
               "conclusion stands."),
    Claim(id="zeroinit2019.eq5.conditional",
          where="Sec. 2, Eq. 5 / App. A.2, Eq. 11 (corrected: conditional on ||theta_ph||)",
          statement="E[G(theta_ph) | ||theta_ph|| = r] >= (E[max_i z_i | r] - log(c)) / r for every r > 0 "
          "(c = 2 setting)",
          kind="inequality", recorded=H, measure=S.eq5_toy_measure, judge=S.judge_eq5_toy,
          params={"reading": "conditional"},
          cites=("Eq. 9", "Eq. 10", "zeroinit2019.sec2.entropy_bound"), derivation=DV.conditional_eq11,
          mutations=(Mutation("printed form: the realized-norm reading", {"reading": "realized_norm"},
                              part="realized ||W||", printed=True),
                     Mutation("without '- log c' (E[G | r] >= E[max z | r]/r)", {"log_c_term": 0.0})),
          corrects="zeroinit2019.eq5.realized_norm_printed"),
    Claim(id="zeroinit2019.eq11.omega_weight_scale",
          where="App. A.2, Eq. 11, with the logits grown through the p.h. set's own weight scale",
          statement="E||d l/d theta_ph|| >= E[(max_i z_i - log c) / ||theta_ph||] at every weight scale sigma, a bound "
          "that stays Theta(1) as sigma grows (c = 2 setting)",
          kind="inequality", recorded=H, measure=S.eq5_toy_measure, judge=S.judge_eq11_toy,
          params={"form": "corrected"},
          cites=("Eq. 4", "Eq. 10", "Eq. 11", "zeroinit2019.sec2.entropy_bound"), derivation=DV.omega_weight_scale,
          mutations=(Mutation("Omega(E[max z]) with ||theta_ph|| growing with sigma", {"form": "printed"},
                              part="bounded away from 0"),
                     Mutation("bound times 1.58 (above pi/2, the gradient norm's ratio to the bound's supremum)",
                              {"bound_factor": 1.58}, part="for every sigma"),
                     Mutation("bound times 1.62 (then also above at sigma = 100)", {"bound_factor": 1.62},
                              part=("for every sigma", "sigma = 100")),
                     Mutation("the bound grows like sigma (Theta(sigma) in place of Theta(1), as E[max z] does)",
                              {"order": 1}, part="the bound stays Theta"),
                     Mutation("the bound vanishes like 1/sigma (Theta(1/sigma) in place of Theta(1))", {"order": -1},
                              part="the bound stays Theta")),
          note="The sentence after Eq. 11 ('the gradient norm of a p.h. set is of the order Omega(E[max z])') is "
               "checked in the paper's scenario, ||theta_ph|| fixed while the logits grow with depth: "
               "zeroinit2019.eq11.omega_depth_fixed_scale. Here the logits grow through ||theta_ph|| itself, Eq. 11's "
               "denominator: the gradient norm's mean stays of order one while E[max z] grows linearly in sigma, so "
               "the Omega needs ||theta_ph|| held fixed (the mutation reads it without that and fails)."),
    Claim(id="zeroinit2019.eq11.omega_depth_fixed_scale",
          where="App. A.2, Eq. 11 and the sentence after it, in Sec. 2's scenario (logits that blow up with depth, "
                "Eq. 2 and the paragraph after Eq. 5)",
          statement="With the p.h. set's norm held fixed while the logits grow with depth (bias-free ReLU ResNets "
          "without normalization, He's-rule branches W2 ReLU(W1 x), depths L = 1, 2, 4, 8, 12, 16, width 16, c = 10, "
          "batch 8, inputs u ~ N(0, I/16), uniform labels; theta_ph = the first layer W_0 at ||W_0||_F = sqrt(32), or "
          "the layer before the softmax W_fc at ||W_fc||_F = sqrt(10)), at every depth: "
          "E[G(theta_ph) ||theta_ph||] >= E[max_i z_i] - log c (Eq. 11); E||d l_avg/d theta_ph||_F >= "
          "(E[max_i z_i] - log c)/||theta_ph|| (Eq. 4 with Eq. 11); and E||d l_avg/d theta_ph||_F >= "
          "E[max_i z_i]/(2 ||theta_ph||), i.e. Omega(E[max_i z_i]) with one constant for all depths (the constant "
          "Eq. 11 gives once E[max z] >= 2 log c; also required at the shallow depths)",
          kind="inequality", recorded=H, measure=D.DEPTH_SWEEP, judge=D.judge_eq11_depth,
          cites=("Eq. 4", "Eq. 10", "Eq. 11", "zeroinit2019.sec2.entropy_bound"), derivation=DV.omega_fixed_norm,
          mutations=(Mutation("Eq. 11 without '- log c' (E[G ||theta||] >= E[max z])", {"log_c_term": 0.0},
                              part="Eq. 11: E[G] ||theta||"),
                     Mutation("Eq. 11's bound times 1.25", {"bound_factor": 1.25}, part="Eq. 11: E[G] ||theta||"),
                     Mutation("Omega constant 8x (4 E[max z]/||theta_ph||)", {"omega_factor": 8.0}, part="Omega:")),
          note="Reads the closing sentence as the paper uses it (in an Omega statement the quantities it does not name "
               "are held fixed): ||theta_ph|| fixed, logits growing with depth; when ||theta_ph|| grows with the "
               "logits the bound stays of order one (zeroinit2019.eq11.omega_weight_scale). "
               "The ratio E||grad||/E[max z] rises with depth and levels off (from the evidence's per-depth means); it "
               "is not a power law in E[max z] (a fitted exponent is rejected by lack of fit, and its residual-dof "
               "interval is uninformative), so the growth is judged as a ratio bounded below by one constant. Eq. 11 "
               "is tight up to log c at depth (E[G ||theta||] - E[max z] + log c -> log c as the softmax saturates); "
               "the gradient-norm bounds have slack from Cauchy-Schwarz in Eq. 4. Rows with E[max z] <= log c cannot "
               "make Eq. 11 bite and are reported as uninformative. Each replicate averages a network and its twin "
               "with W_fc -> -W_fc (same law, so every expectation in the statement is unchanged), which cancels the "
               "label term z_y exactly."),
)
