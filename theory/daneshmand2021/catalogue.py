"""Every checkable claim of Daneshmand, Joudaki & Bach (2021), declared once, as data.

Locations refer to ../shared/papers/daneshmand2021_bn_orthogonalizes.txt (main text;
the appendices are not in the transcription).
"""
from __future__ import annotations

from ..evidence import Claim, Mutation, Verdict
from . import exact_claims as X
from . import mc_judges as J
from . import montecarlo as M

H, HA, F = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS
P = "daneshmand2021"


def smin_measure(ctx) -> dict:
    """Sec. 3.3: exact n = 1 values and Monte-Carlo sigma_min for n > 1."""
    return {"exact": X.smin_exact_measure(ctx), "mc": M.smin_rows(ctx)}


CLAIMS = (
    Claim("daneshmand2021.eq1.unit_frobenius", P, "Sec. 2.1, Eq. 1 and the sentence after it",
          "The 1/sqrt(d) scaling makes every H_{l+1} = BN(W_l H_l)/sqrt(d) have unit Frobenius norm",
          "identity", H, X.frobenius_measure, X.judge_frobenius, {},
          (Mutation("scaling 1/d instead of 1/sqrt(d)", {"scale_power": 1.0}),)),
    Claim("daneshmand2021.sec32.exact_inverse", P, "Sec. 3.2, paragraph after Theorem 1",
          "Replacing diag(M M^T)^{-1/2} by (M M^T)^{-1/2} in Eq. 1 makes every hidden representation exactly "
          "orthogonal (the inverse exists)", "identity", F, X.inverse_measure, X.judge_inverse, {"variant": "printed"},
          (Mutation("pseudo-inverse square root", {"variant": "pseudo"}, H),),
          note="For d > n, M M^T (d x d) has rank n and no inverse; smallest counterexample d = 2, n = 1."),
    Claim("daneshmand2021.sec32.exact_inverse_corrected", P, "Sec. 3.2 (corrected)",
          "With the pseudo-inverse square root, (M M^T)^{+1/2} M = U V^T (polar factor) and V(H) = 0 exactly",
          "identity", H, X.inverse_measure, X.judge_inverse, {"variant": "pseudo"},
          (Mutation("printed inverse", {"variant": "printed"}, F),), corrects="daneshmand2021.sec32.exact_inverse"),
    Claim("daneshmand2021.thm1.bound", P, "Sec. 3.2, Theorem 1, Eq. 3",
          "Under A1(alpha, l): E[V(H_{l+1})] <= 2 (1 - 2 alpha/3)^l + 3 n / (alpha sqrt(d))",
          "inequality", H, M.chain_grid, J.judge_thm1_bound, {},
          (Mutation("no plateau term", {"plateau_term": False}),
           Mutation("plateau 3n/(alpha d) (exponent off by 1/2)", {"plateau_power": 1.0})),
          monte_carlo=True,
          note="alpha <= 1/sqrt(n) since ||H||_F = 1, so the bound is below the largest gap sqrt(1 - 1/n) only "
               "when d > 9 n^3 roughly; the 'informative' column of each row says where it says anything."),
    Claim("daneshmand2021.fig2a.exponential_decay", P, "Sec. 3.3, Figure 2 (left) and text",
          "log V(H_l) decreases linearly in l for l = 1..20 (exponential decay of the orthogonality gap)",
          "empirical", H, M.decay_rows, J.judge_decay, {"variant": "bn"},
          (Mutation("same claim for the vanilla chain", {"variant": "vanilla"}),), monte_carlo=True),
    Claim("daneshmand2021.fig2b.plateau_width_exponent", P, "Sec. 3.3, Figure 2 (right), Theorem 1's 1/sqrt(d)",
          "After the decay, V(H_l) wiggles around a constant whose average over layers 100..600 scales as "
          "d^(-1/2) (the O(1/sqrt(d)) dependency is almost tight)",
          "approximation", HA, M.width_ladder, J.judge_plateau, {},
          (Mutation("exponent -1", {"exponent": -1.0}), Mutation("exponent -1/4", {"exponent": -0.25})),
          monte_carlo=True,
          note="The authors' notebook averages V over layers 1..500 instead of 100..600; the details give the "
               "exponent under both choices."),
    Claim("daneshmand2021.lemma2.w2_bound", P, "Sec. 4.1, Lemma 2, Eq. 4",
          "W_2(W_l H_l, G/sqrt(n))^2 <= 2 n E[V(H_l)]", "inequality", H, M.chain_grid, J.judge_lemma2, {},
          (Mutation("W2^2 <= (n/8) V^2", {"constant": 1 / 16, "power": 2.0}),), monte_carlo=True,
          note="Given H the distance is sum (sqrt(lam_i) - 1/sqrt(n))^2 <= sqrt(n) V(H), a sharper bound "
               "(formulas.py); the coupling makes E over H an upper bound for the unconditional laws."),
    Claim("daneshmand2021.lemma2.w2_sampled", P, "Sec. 4.1, Lemma 2, Eq. 4 (W_2 from samples)",
          "W_2(W_l H_l, G/sqrt(n))^2 <= 2 n E[V(H_l)], with W_2 estimated from samples of the non-Gaussian law "
          "of W_l H_l (small d n, where optimal transport between samples is informative)", "inequality", H,
          M.w2_samples, J.judge_lemma2_sampled, {},
          (Mutation("constant 2 -> 0.02", {"constant": 0.02}),), monte_carlo=True),
    Claim("daneshmand2021.lemma2.closed_form", P, "Sec. 4.1, Lemma 2 and the paragraph before it",
          "Given H, W_l H_l is Gaussian with W_2^2 to G/sqrt(n) equal to sum_i (sqrt(lam_i) - 1/sqrt(n))^2, zero "
          "when H is orthogonal, and at most 2 n V(H)", "identity", H, X.w2_measure, X.judge_w2_closed_form, {},
          (Mutation("constant 2 -> 0.1", {"constant": 0.1}),)),
    Claim("daneshmand2021.cor3.bound", P, "Sec. 4.1, Corollary 3, Eq. 5",
          "Under A1(alpha, l): W_2(W_l H_l, G/sqrt(n))^2 <= 4 n (1 - 2 alpha/3)^l + 6 n^2 / (alpha sqrt(d))",
          "inequality", H, M.chain_grid, J.judge_cor3, {},
          (Mutation("no plateau term", {"plateau_term": False}),), monte_carlo=True),
    Claim("daneshmand2021.table1.radius", P, "Sec. 4.2, Table 1 (BN MLP row)",
          "The law of the representations lies in a W_2 ball of radius O(width^(-1/4)) around the Gaussian",
          "approximation", H, M.width_ladder, J.judge_radius, {},
          (Mutation("radius O(width^-1)", {"bound_exponent": -1.0}),), monte_carlo=True,
          note="Holds as an upper bound; the measured radius decays as width^(-1/2) (see details), so the "
               "table's rate is not tight."),
    Claim("daneshmand2021.sec33.smin_printed", P, "Sec. 3.3, first paragraph after Figure 2",
          "For H_0 with iid zero-mean unit-variance entries, sigma_min(H_0) is greater than sqrt(d) - sqrt(n)",
          "inequality", F, smin_measure, J.judge_smin, {"variant": "printed"},
          (Mutation("in expectation (Gordon)", {"variant": "expectation"}, H),), monte_carlo=True,
          note="Read as a statement about every draw it fails with probability about 8-14% per draw; the "
               "true statement is in expectation (Gordon) or asymptotic (Bai-Yin)."),
    Claim("daneshmand2021.sec33.smin_expectation", P, "Sec. 3.3 (corrected)",
          "For iid N(0,1) entries, E[sigma_min(H_0)] >= sqrt(d) - sqrt(n)", "inequality", H, smin_measure,
          J.judge_smin, {"variant": "expectation"},
          (Mutation("E[sigma_min] >= sqrt(d)", {"variant": "expectation", "drop_sqrt_n": True}),),
          corrects="daneshmand2021.sec33.smin_printed", monte_carlo=True),
    Claim("daneshmand2021.fig1.bn_orthogonalizes", P, "Sec. 3.1, Figure 1 (BN curve)",
          "In a BN chain (d = 32) two nearly aligned samples become increasingly orthogonal: |cos| falls with depth",
          "empirical", H, M.fig1_rows, J.judge_fig1, {"variant": "bn", "direction": "down"},
          (Mutation("|cos| rises", {"direction": "up"}),), monte_carlo=True),
    Claim("daneshmand2021.fig1.vanilla_aligns", P, "Sec. 3.1, Figure 1 (vanilla curve)",
          "In a vanilla linear chain (d = 32) two orthogonal samples become increasingly aligned: |cos| rises",
          "empirical", H, M.fig1_rows, J.judge_fig1, {"variant": "vanilla", "direction": "up"},
          (Mutation("|cos| falls", {"direction": "down"}),), monte_carlo=True),
    Claim("daneshmand2021.sec32.vanilla_gap_grows", P, "Sec. 3.2 (comparison with vanilla networks), App. D",
          "Without BN the orthogonality gap increases with depth (rank collapse)", "empirical", H, M.variant_rows,
          J.judge_variant_growth, {"variant": "vanilla", "direction": "up"},
          (Mutation("BN gap grows from Gaussian inputs", {"variant": "bn"}),), monte_carlo=True),
    Claim("daneshmand2021.sec21.mean_correction", P, "Sec. 2.1, after Eq. 1",
          "Omitting the mean correction does not change the properties qualitatively: with the usual "
          "(mean-centred) BN the orthogonality gap also vanishes as width grows", "approximation", F, M.variant_rows,
          J.judge_centered, {"variant": "printed"},
          (Mutation("V measured against the centring floor", {"variant": "corrected"}, HA),), monte_carlo=True,
          note="Centring forces H 1 = 0, so V(H) >= 1/sqrt(n(n-1)); n = 2 gives the largest gap 1/sqrt(2) "
               "(the two samples are always anti-aligned)."),
    Claim("daneshmand2021.sec21.mean_correction_corrected", P, "Sec. 2.1 (corrected)",
          "With mean-centred BN, V(H_l) tends to the floor 1/sqrt(n(n-1)) with an excess that vanishes as width "
          "grows (orthogonality within the centred subspace)", "approximation", HA, M.variant_rows, J.judge_centered,
          {"variant": "corrected"}, (Mutation("plain V (no floor)", {"variant": "printed"}, F),),
          corrects="daneshmand2021.sec21.mean_correction", monte_carlo=True),
    Claim("daneshmand2021.sec6.relu_stability", P, "Sec. 6 (Appendix Figure 6, ReLU MLPs)",
          "With ReLU, the BN gap stabilizes at a depth-independent level below the vanilla gap, which increases "
          "with depth", "empirical", H, M.variant_rows, J.judge_relu, {},
          (Mutation("BN below vanilla by 0.9", {"margin": 0.9}),), monte_carlo=True,
          note="The BN-ReLU plateau does not vanish with width (non-negative activations keep samples correlated); "
               "see details."),
    Claim("daneshmand2021.eq6.decrease_printed", P, "Sec. 5.2, Eq. 6 and 'It is easy to check that V(W H) < V(H)'",
          "With W of Eq. 6 (V' sliced from V), V(W_l H_l) < V(H_l)", "inequality", F, M.eq6_rows, J.judge_eq6,
          {"variant": "printed", "check": "decrease"},
          (Mutation("orthogonal V'", {"variant": "orthogonal"}, H),),
          note="A slice of V (n x d, n > d) is not orthogonal; with it V(W H) exceeds V(H) on about a third of "
               "random draws."),
    Claim("daneshmand2021.eq6.decrease_corrected", P, "Sec. 5.2, Eq. 6 (corrected)",
          "With an orthogonal V', V(W H) <= V(H), with equality iff Sigma is a multiple of I (Hoelder: "
          "(sum s^2)^3 <= (sum s)^2 sum s^4)", "inequality", H, M.eq6_rows, J.judge_eq6,
          {"variant": "orthogonal", "check": "decrease"}, (Mutation("sliced V'", {"variant": "printed"}, F),),
          corrects="daneshmand2021.eq6.decrease_printed"),
    Claim("daneshmand2021.eq6.orthogonal_output", P, "Sec. 5.2, Eq. 6 ('ensures orthogonality')",
          "Eq. 6 produces representations W H with orthonormal rows (up to scale)", "identity", F, M.eq6_rows,
          J.judge_eq6, {"variant": "orthogonal", "check": "orthogonal"},
          (Mutation("Sigma^-1 instead of Sigma^-1/2", {"variant": "whitening"}, H),),
          note="(W H)(W H)^T = V' Sigma V'^T / tr(Sigma) is not a multiple of I; Sigma^{-1} is needed."),
    Claim("daneshmand2021.eq6.orthogonal_output_corrected", P, "Sec. 5.2, Eq. 6 (corrected)",
          "With Sigma^{-1} in place of Sigma^{-1/2}, W H = V' V^T/||.|| has orthonormal rows",
          "identity", H, M.eq6_rows, J.judge_eq6, {"variant": "whitening", "check": "orthogonal"},
          (Mutation("printed exponent -1/2", {"variant": "orthogonal"}, F),),
          corrects="daneshmand2021.eq6.orthogonal_output"),
    Claim("daneshmand2021.fig3.a1_omega_n2", P, "Sec. 3.3, Figure 3 and 'A1 holds for d = Omega(n^2)'",
          "A1(0.1 alpha_0, 1000) holds in all 10 runs once d exceeds a threshold growing no faster than n^2",
          "empirical", H, M.phase_diagram, J.judge_phase, {"curve": "omega"},
          (Mutation("threshold grows no faster than n^0.25", {"exponent": 0.25}),), slow=True, monte_carlo=True),
    Claim("daneshmand2021.fig3.printed_curve", P, "Sec. 3.3, Figure 3 caption (blue curve d = (n - 28)^1.8)",
          "Every (n, d) with n > 28 and d >= (n - 28)^1.8 satisfies A1(0.1 alpha_0, 1000) in all 10 runs",
          "empirical", F, M.phase_diagram, J.judge_phase, {"curve": "printed_curve"},
          (Mutation("Omega(n^2) reading: fitted threshold exponent <= 2", {"curve": "omega"}, H),), slow=True,
          monte_carlo=True, note="A1 fails above the curve (smallest counterexample n = 32, d = 32: sigma_min "
          "collapses within 50 layers when d = n); the measured boundary grows like n^1.6 and lies far above "
          "the curve. For n <= 28 the curve (n - 28)^1.8 is not a real number."),
)
