"""Coverage map of the ZeroInit/Fixup ICLR 2019 submission: every numbered or displayed
item, in the paper's order, mapped to the claims that check it or to the reason it is
not checked (theory.core.coverage.REASONS). Items follow the transcription
../shared/papers/zeroinit_fixup_iclr2019_submission.txt; unnumbered statements and proof
steps that carry mathematics are items too."""
from __future__ import annotations

from ..core.coverage import Item

P = "zeroinit2019."


def _c(*names):
    return tuple(P + n for n in names)


COVERAGE = (
    # --- Sec. 1, Figure 1 --------------------------------------------------------------
    Item("Figure 1 (left)", "Sec. 1", "figure_panel", "Diagram: ResNet basic block with BatchNorm.",
         reason="definition"),
    Item("Figure 1 (middle)", "Sec. 1", "figure_panel", "Diagram: BatchNorm replaced by a scalar multiplier and bias.",
         reason="definition"),
    Item("Figure 1 (right)", "Sec. 1", "figure_panel",
         "Diagram: the ZeroInit block (bias, conv, bias, ReLU, bias, zero conv, multiplier, bias, + skip, ReLU); the "
         "network it builds is the zero function at initialization.",
         claims=_c("principle_a.zeroinit_output"),
         note="The diagram itself is a definition; what it implies at initialization (z = 0 exactly) is checked on the "
              "dense analogue with the same order of biases and multiplier. The authors' code has this order "
              "(cifar/models/fixup_resnet_cifar.py, FixupBasicBlock.forward)."),
    # --- Sec. 2 -------------------------------------------------------------------------
    Item("Eq. 1", "Sec. 2", "equation", "x_l = x_0 + sum_{i=0}^{l-1} F_i(x_i) with the blocks named {F_1..F_L}.",
         claims=_c("eq1.index_printed", "eq1.index_corrected")),
    Item("Sec. 2, total-variance step before Eq. 2", "Sec. 2", "proof_step",
         "With E[F_l(x_l) | x_l] = 0: Var[x_{l+1}] = E[Var[F(x_l) | x_l]] + Var[x_l].",
         claims=_c("eq2.total_variance_step")),
    Item("Sec. 2, premise before Eq. 2", "Sec. 2", "statement",
         "With He initialization Var[F_l(x_l) | x_l] is about Var[x_l], so Var[x_{l+1}] ~ 2 Var[x_l].",
         claims=_c("eq2.doubling", "eq2.growth_any_kappa", "eq2.fixed_input_variance_printed")),
    Item("Eq. 2", "Sec. 2", "equation",
         "Var[x_l] = Var[x_0] + sum_i Var[x_i] E[Var[F_i(x_i / sqrt(Var x_i)) | x_i]] = Theta(2^l) Var[x_0] "
         "(reconstructed).",
         claims=_c("eq2.total_variance_step", "eq2.doubling", "eq2.growth_any_kappa",
                   "eq2.fixed_input_variance_printed", "eq2.variance_fixed_input")),
    Item("Definition 1", "Sec. 2", "definition", "Positively homogeneous function of first degree.",
         reason="definition"),
    Item("Definition 2", "Sec. 2", "definition", "Positively homogeneous set of parameters.", reason="definition"),
    Item("Sec. 2, examples of p.h. functions", "Sec. 2", "statement",
         "Bias-free linear and convolution layers, pooling, addition, concatenation, dropout and ReLU are p.h.",
         claims=_c("sec2.ph_examples")),
    Item("Proposition 1", "Sec. 2", "proposition", "A composition of p.h. functions is p.h.",
         claims=_c("prop1.ph_composition")),
    Item("Sec. 2, definitions of l, logsumexp, l_avg and 'any valid norm'", "Sec. 2", "definition",
         "Cross-entropy, logsumexp, the batch-averaged loss; the norm is any valid norm.", reason="definition",
         note="'Any valid norm' is judged where it is used (Theorem 1): zeroinit2019.thm1.any_norm."),
    Item("Assumptions 1-2", "Sec. 2", "assumption",
         "f is a sequential composition of blocks made of p.h. functions; FC weights iid zero-mean symmetric.",
         reason="definition"),
    Item("Sec. 2, sentence after the assumptions", "Sec. 2", "statement",
         "The assumptions hold at initialization for a ReLU ResNet without normalization and with zero biases.",
         claims=_c("thm2.ph_set_examples")),
    Item("Theorem 1", "Sec. 2", "theorem", "||dl/dx_{i-1}|| >= (l(z, y) - H(p)) / ||x_{i-1}|| for any valid norm.",
         claims=_c("thm1.l2", "thm1.any_norm", "thm1.dual_norm")),
    Item("Eq. 3", "Sec. 2, Theorem 1", "equation", "The bound of Theorem 1 (reconstructed).",
         claims=_c("thm1.l2", "thm1.any_norm", "thm1.dual_norm")),
    Item("Sec. 2, remark after Theorem 1", "Sec. 2", "statement",
         "H(p) <= log(c), so a large loss forces a large gradient at the lower blocks.",
         claims=_c("sec2.entropy_bound")),
    Item("Theorem 2", "Sec. 2", "theorem",
         "||d l_avg/d theta_ph|| >= G(theta_ph) (Eq. 4) and, with Assumption 2, the expected bound (Eq. 5).",
         claims=_c("thm2.ph_set", "eq5.expected_bound", "eq5.realized_norm_printed", "eq5.conditional")),
    Item("Eq. 4", "Sec. 2, Theorem 2", "equation",
         "||d l_avg/d theta_ph|| >= (1/(M ||theta_ph||)) sum_m (l_m - H(p_m)) =: G(theta_ph).",
         claims=_c("thm2.ph_set"),
         note="Same norm caveat as Theorem 1; the proof and the check use the Frobenius norm."),
    Item("Eq. 5", "Sec. 2, Theorem 2", "equation", "E G(theta_ph) >= (E[max_i z_i] - log c) / ||theta_ph||.",
         claims=_c("eq5.realized_norm_printed", "eq5.conditional", "eq5.expected_bound")),
    Item("Sec. 2, three examples of p.h. sets", "Sec. 2", "statement",
         "The first conv before max pooling; a downsampling skip conv with one conv of its branch; the FC layer.",
         claims=_c("thm2.ph_set_examples")),
    # --- Sec. 3 -------------------------------------------------------------------------
    Item("Sec. 3, design principle (a)", "Sec. 3", "statement", "E[max_i z_i] = O(1), independent of depth.",
         claims=_c("principle_a.zeroinit_output")),
    Item("Sec. 3, naive zero initialization", "Sec. 3", "statement",
         "Zeroing the output layer and the last layer of each branch still explodes after a few updates for large L.",
         claims=_c("sec3.naive_zero_explodes")),
    Item("Sec. 3, design principle (b)", "Sec. 3", "statement", "Var[F_l(x_l)] = O(1/L).",
         claims=_c("principle_b.variance_printed", "principle_b.one_step")),
    Item("Sec. 3, derivation of alpha = L^(1/(2-2m))", "Sec. 3", "proof_step",
         "Update of the zero layer O(alpha^(m-1)), branch scale O(alpha^(2m-2)), so alpha = L^(1/(2-2m)) gives O(1/L).",
         claims=_c("sec3.alpha_exponents", "principle_b.one_step")),
    Item("ZeroInit recipe (box, steps 1-3)", "Sec. 3", "definition",
         "Zero classifier and last branch layers; He elsewhere, branch layers times L^(1/(2-2m)); scalar multiplier "
         "and biases.", reason="definition",
         note="Its consequences are checked in principle_a.zeroinit_output, principle_b.one_step and "
              "principle_c.few_updates; the authors' code settles L (the number of residual blocks) and the exponent."),
    Item("Sec. 3, paragraph after the recipe", "Sec. 3", "statement",
         "With ZeroInit the variance is independent of depth at initialization and after a few updates.",
         claims=_c("principle_c.few_updates"),
         note="The clause 'it also prevents gradient vanishing in the residual branches' is not checked separately."),
    Item("Sec. 3, BatchNorm gives Var[x_l] = O(l)", "Sec. 3", "statement",
         "Batch normalization reduces the exponential growth to a linear one (Balduzzi et al., 2017).",
         claims=_c("sec3.batchnorm_linear")),
    Item("Table 1", "Sec. 3-4.1", "table",
         "||H||_2 at initialization at depth 10 and 64 per method and the ratio: very large for the baseline, small "
         "for BatchNorm and ZeroInit, depth-affected for LSUV and 1/2-scaling.",
         claims=_c("table1.ratio_column", "table1.baseline_very_large", "table1.zeroinit_small",
                   "table1.batchnorm_small", "table1.lsuv_depth_affected", "table1.half_scaling_depth_affected",
                   "table1.half_scaling_bounded"),
         note="Checked on a synthetic dense analogue (the printed values need the datasets); the Ratio column's "
              "arithmetic is checked exactly."),
    Item("Footnote 1", "Sec. 3", "footnote", "DenseNet does not suffer from the exploding gradient problem.",
         claims=_c("fn1.densenet_bounded")),
    # --- Sec. 4 -------------------------------------------------------------------------
    Item("Sec. 4.1, the Hessian norm approximates the maximum learning rate", "Sec. 4.1", "statement",
         "||H|| is an approximation of the maximum learning rate (LeCun et al., 2012).", reason="cited"),
    Item("Figure 2", "Sec. 4.2", "figure_panel", "First-epoch CIFAR-10 accuracy versus depth (10 to 10,000).",
         reason="training"),
    Item("Table 2", "Sec. 4.3", "table", "CIFAR-10 and SVHN test errors.", reason="training"),
    Item("Table 3", "Sec. 4.3", "table", "ImageNet ResNet-50 test errors.", reason="training"),
    Item("Figure 3 (left)", "Sec. 4.3", "figure_panel", "ImageNet training error versus epoch.", reason="training"),
    Item("Figure 3 (right)", "Sec. 4.3", "figure_panel", "ImageNet test error versus epoch.", reason="training"),
    Item("Figure 4", "Sec. 4.3", "figure_panel", "ImageNet test error with Mixup.", reason="training"),
    Item("Table 4", "Sec. 4.4", "table", "BLEU on IWSLT and WMT.", reason="training"),
    # --- Sec. 5 -------------------------------------------------------------------------
    Item("Sec. 5, the 1/2-scaling recurrence", "Sec. 5", "equation",
         "x_l = sqrt(1/2) (x_{l-1} + F_l(x_{l-1})) gives a constant variance Var[x_l] = O(1) (the extraction "
         "prints 1/2; the square root is reconstructed from the unrolling).",
         claims=_c("related.sqrt_half_scaling")),
    Item("Sec. 5, the unrolled recurrence", "Sec. 5", "equation",
         "x_l = 0.5^(l/2) x_0 + sum_i 0.5^((l-i+1)/2) F_l(x_l): the residual branches vanish exponentially.",
         claims=_c("related.unrolling_printed", "related.unrolling_sqrt_half")),
    Item("Sec. 5, LSUV achieves the linear scaling of the variance", "Sec. 5", "statement",
         "LSUV reproduces BatchNorm's linear growth of Var[x_l].", claims=_c("related.lsuv_linear_variance")),
    Item("Sec. 5, LSUV gives Var[W_l] = O(1/l)", "Sec. 5", "equation",
         "The parameters' variance at depth l is O(1/l), very different scales across depth.",
         claims=_c("related.lsuv_weight_variance_printed", "related.lsuv_weight_variance_first")),
    # --- App. A.1 -----------------------------------------------------------------------
    Item("App. A.1, homogeneity in eps", "App. A.1", "proof_step",
         "f_{i->L}((1 + eps) x_{i-1}) = (1 + eps) f_{i->L}(x_{i-1}) for eps > -1.", claims=_c("prop1.ph_composition")),
    Item("Eq. 6", "App. A.1", "equation", "d/d eps l(f((1 + eps) x), y) at 0 = -y^T z + p^T z = l(z, y) - H(p).",
         claims=_c("eq6.euler_identity", "thm1.l2")),
    Item("App. A.1, the gradient norm 'must be greater than' the directional derivative", "App. A.1", "proof_step",
         "||dl/dx|| is at least the derivative of l along x/||x||.",
         claims=_c("thm1.greater_than_printed", "thm1.directional_at_least")),
    Item("Eq. 7", "App. A.1", "equation", "With eps = t/||x||: the directional derivative equals (l - H(p))/||x||.",
         claims=_c("eq6.euler_identity", "thm1.l2")),
    # --- App. A.2 -----------------------------------------------------------------------
    Item("App. A.2, f-bar is p.h.", "App. A.2", "proof_step", "Restatement of Definition 2 for each example m.",
         reason="definition"),
    Item("Eq. 8", "App. A.2", "equation",
         "d/d eps l_avg(D_M; (1 + eps) theta_ph) at 0 = (1/M) sum_m (l(z^(m), y^(m)) - H(p^(m))).",
         claims=_c("eq8.batch_euler")),
    Item("Eq. 9", "App. A.2", "equation", "Eq. 4 again, from the directional-derivative argument.",
         claims=_c("thm2.ph_set")),
    Item("App. A.2, z symmetric with mean 0", "App. A.2", "proof_step",
         "With iid symmetric zero-mean FC weights z has a symmetric law with mean 0; y and z independent.",
         claims=_c("eq10.logits_symmetric")),
    Item("Eq. 10", "App. A.2", "equation", "E l(z, y) >= E[y^T (max z - z)] = E[max_i z_i].",
         claims=_c("eq10.lse_max", "eq5.expected_bound")),
    Item("App. A.2, E H(p) <= log c", "App. A.2", "proof_step", "The trivial entropy bound.",
         claims=_c("sec2.entropy_bound")),
    Item("Eq. 11", "App. A.2", "equation", "E G(theta_ph) >= (E[max_i z_i] - log c) / ||theta_ph|| (= Eq. 5).",
         claims=_c("eq5.realized_norm_printed", "eq5.conditional", "eq5.expected_bound",
                   "eq11.omega_depth_fixed_scale")),
    Item("App. A.2, closing sentence", "App. A.2", "statement",
         "The gradient norm of a p.h. set is of order Omega(E[max_i z_i]) at initialization.",
         claims=_c("eq11.omega_depth_fixed_scale", "eq11.omega_weight_scale")),
)
