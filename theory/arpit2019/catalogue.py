"""Every checkable claim of Arpit, Campos & Bengio (2019), declared once, as data.

Locations refer to ../shared/papers/arpit2019_weightnorm_resnet_init.txt.
"""
from __future__ import annotations

from ..evidence import Claim, Mutation, Verdict
from . import exact_claims as X
from . import mc_judges as J
from . import montecarlo as M

H, HA, F = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS
P = "arpit2019"


def _kn(cid, where, place, reading, verdict, corrects=None):
    other = "sphere_in_Rn" if reading == "n_sphere" else "n_sphere"
    muts = ((Mutation("K_n = 1.01", {"value": "101/100"}),) if verdict == H
            else (Mutation(f"read S_n as {other}", {"reading": other}, H),))
    return Claim(cid, P, where,
                 f"K_n as printed in {place} equals 1 for every integer n > 1, reading S_n as "
                 + ("the area of the n-sphere in R^(n+1)" if reading == "n_sphere" else "the area of the unit sphere in R^n"),
                 "identity", verdict, X.kn_measure, X.judge_kn, {"place": place, "reading": reading},
                 muts, corrects)


CLAIMS = (
    # --- Theorem 1 / 5: the constant K_n ------------------------------------------------
    _kn("arpit2019.thm1.kn_eq3.n_sphere", "Sec. 3, Theorem 1, Eq. 3 and the sentence after it", "eq3", "n_sphere", H),
    _kn("arpit2019.thm1.kn_eq3.sphere_in_Rn", "Sec. 3, Theorem 1, Eq. 3", "eq3", "sphere_in_Rn", F),
    _kn("arpit2019.thm5.kn_eq9.n_sphere", "App. C, Theorem 5, Eq. 9 (= Eq. 30)", "eq9", "n_sphere", F),
    _kn("arpit2019.thm5.kn_eq9.sphere_in_Rn", "App. C, Theorem 5, Eq. 9 (= Eq. 30)", "eq9", "sphere_in_Rn", H),
    Claim("arpit2019.thm5.proof.eq22_28", P, "App. C, proof of Theorem 5, Eq. 22-28",
          "The sine reduction formula (Eq. 22) and the Wallis products for odd and even powers (Eq. 23-28) hold",
          "identity", H, X.proof_measure, X.judge_wallis, {},
          (Mutation("products off by 1%", {"factor": 1.01}),)),
    Claim("arpit2019.thm5.proof.eq18", P, "App. C, proof of Theorem 5, Eq. 18",
          "The angle between a uniform direction in R^n and u has density (S_{n-1}/S_n) sin^{n-1}(theta) on [0, pi]",
          "identity", F, X.proof_measure, X.judge_eq18, {"variant": "printed"},
          (Mutation("corrected density", {"variant": "corrected"}, H),)),
    Claim("arpit2019.thm5.proof.eq18_corrected", P, "App. C, proof of Theorem 5, Eq. 18 (corrected)",
          "The angle has density (S_{n-1}/S_n) sin^{n-2}(theta) with S_n the sphere in R^n, and "
          "E[max(0, cos theta)^2] = 1/(2n)", "identity", H, X.proof_measure, X.judge_eq18,
          {"variant": "corrected"}, (Mutation("printed density", {"variant": "printed"}, F),),
          corrects="arpit2019.thm5.proof.eq18"),
    Claim("arpit2019.thm5.proof.eq29", P, "App. C, proof of Theorem 5, Eq. 29",
          "integral_0^{pi/2} sin^{n-1} - sin^{n+1} = (1/n) (2/3 4/5 ... (n-2)/(n-1)) for odd n, "
          "(1/n) (1/2 3/4 ... (n-2)/(n-1)) pi/2 otherwise", "identity", F, X.proof_measure, X.judge_eq29,
          {"variant": "printed"}, (Mutation("corrected form", {"variant": "corrected"}, H),)),
    Claim("arpit2019.thm5.proof.eq29_corrected", P, "App. C, proof of Theorem 5, Eq. 29 (corrected)",
          "integral_0^{pi/2} sin^{n-1} - sin^{n+1} = I_{n-1}/(n+1) with I_{n-1} = 2/3 ... (n-2)/(n-1) "
          "for even n and 1/2 ... (n-2)/(n-1) pi/2 for odd n", "identity", H, X.proof_measure, X.judge_eq29,
          {"variant": "corrected"}, (Mutation("printed form", {"variant": "printed"}, F),),
          corrects="arpit2019.thm5.proof.eq29"),
    # --- Theorem 1 / 2 by Monte Carlo -----------------------------------------------------
    Claim("arpit2019.thm1.monte_carlo", P, "Sec. 3, Theorem 1 (App. C, Theorem 5)",
          "For isotropic iid rows (Gaussian, Student-t, uniform in the ball) or Haar-orthogonal rows/columns, "
          "E||ReLU(sqrt(2n/m) R_hat u)||^2 = ||u||^2, including m > n", "identity", H,
          M.single_layer_rows, J.judge_thm1, {},
          (Mutation("K = 1.01", {"K": 1.01}), Mutation("gain sqrt(2m/n) (fan-in/out swapped)", {"gain": "fan_out_over_fan_in"})),
          monte_carlo=True),
    Claim("arpit2019.thm1.isotropy_controls", P, "Sec. 3, Theorem 1, hypothesis 'P is any isotropic distribution'",
          "Non-isotropic controls (anisotropic or shifted Gaussian rows) break Theorem 1's identity and are "
          "rejected; Rademacher rows (not isotropic, symmetric, identity covariance) satisfy it", "empirical", H,
          M.single_layer_rows, J.judge_controls, {},
          (Mutation("claim Rademacher is rejected", {"rejected": ("rademacher",), "accepted": ("shifted_gaussian",)}),),
          monte_carlo=True),
    Claim("arpit2019.thm2.monte_carlo", P, "Sec. 3, Theorem 2 (App. C, Theorem 6)",
          "For isotropic iid or Haar-orthogonal rows and z iid Bernoulli(1/2), "
          "E||sqrt(2) z * (R_hat^T u)||^2 = ||u||^2, including m > n", "identity", H,
          M.single_layer_rows, J.judge_thm2, {},
          (Mutation("K = 1.01", {"K": 1.01}), Mutation("factor 1 instead of sqrt(2)", {"factor2": 1.0})),
          monte_carlo=True),
    Claim("arpit2019.fn8.orthogonal_lower_variance", P, "App. C, footnote 8",
          "In Theorem 2's setting with m <= n (orthogonal rows exist), orthogonal initialization is strictly "
          "better than Gaussian: Var||v||^2 is smaller", "inequality", H, M.single_layer_rows,
          J.judge_orthogonal_variance, {},
          (Mutation("swapped: Gaussian better", {"better": "gaussian", "other": "haar_orthogonal"}),),
          monte_carlo=True),
    Claim("arpit2019.fn8.orthogonal_columns", P, "App. C, footnote 8, extended to m > n",
          "For m > n (orthonormal columns, rows re-normalized) orthogonal initialization is strictly better than "
          "Gaussian: Var||v||^2 is smaller", "inequality", H, M.single_layer_rows,
          J.judge_orthogonal_variance, {"domain": "columns"},
          (Mutation("swapped: Gaussian better", {"better": "gaussian", "other": "haar_orthogonal"}),),
          monte_carlo=True),
    Claim("arpit2019.lemma1.mask_bernoulli", P, "Sec. 3 after Eq. 5; App. C, Lemma 1",
          "Given h^{l-1}, the ReLU mask 1(a^l) is iid Bernoulli(1/2) across units, for Gaussian and "
          "(beyond the lemma's hypothesis) Haar-orthogonal weights", "identity", H, M.lemma1_counts,
          J.judge_lemma1, {}, (Mutation("p = 0.52", {"p": 0.52}),), monte_carlo=True),
    Claim("arpit2019.sec3.gain_discrepancy", P, "Sec. 3, 'Implementation details' and the gains after Theorems 1-2",
          "With fan-in != fan-out, g = sqrt(2 n_in/n_out) preserves the forward squared norm and scales the "
          "backward one by n_in/n_out per layer; g = sqrt(2) preserves the backward one and scales the forward "
          "one by n_out/n_in", "identity", H, M.gain_rows, J.judge_gains, {},
          (Mutation("swapped ratio n_out/n_in", {"backward_ratio": "out/in"}),), monte_carlo=True),
    Claim("arpit2019.fig1.mlp_forward", P, "Fig. 1 top left; App. A.1",
          "In WN ReLU MLPs the proposed gains keep E||h^L||^2 = ||x||^2 (orthogonal and He directions), while "
          "g = 1 gives E||h^L||^2 = ||x||^2 n_L/(n_0 2^L) (vanishing)", "identity", Verdict.INCONCLUSIVE, M.mlp_rows, J.judge_mlp, {},
          (Mutation("g = 1 halving exponent L-1", {"he_halvings_offset": 1}), Mutation("scale 1.25", {"scale": 1.25})),
          monte_carlo=True, slow=True,
          note="Inconclusive at the default scale: products over 20 layers give a relative resolution of about 13% "
               "with 1500 networks per scheme (required 5%); rerun with --mc-scale 8."),
    # --- Theorems 3, 4, 7, 8 --------------------------------------------------------------
    Claim("arpit2019.thm3.range", P, "Sec. 4, Theorem 3, Eq. 7; App. C, end of proof of Theorem 7",
          "c = (1+1/B)^{B/2} lies in [sqrt(2), sqrt(e)] for every integer B >= 1", "inequality", H,
          X.residual_measure, X.judge_factor_range, {},
          (Mutation("lower bound 1.01 sqrt(2)", {"lo": "1.01*sqrt(2)"}), Mutation("exponent B instead of B/2", {"half": False}))),
    Claim("arpit2019.thm7.eq43", P, "App. C, Theorem 7, Eq. 43",
          "||f(x)||^2 ~ c ||x||^2 with c = (1+1/B)^B in [sqrt(2), sqrt(e)]", "inequality", F,
          X.residual_measure, X.judge_factor_range, {"half": False},
          (Mutation("corrected range [2, e]", {"lo": "2", "hi": "e"}, H),)),
    Claim("arpit2019.thm7.eq43_corrected", P, "App. C, Theorem 7, Eq. 43 (corrected)",
          "||f(x)||^2 ~ c ||x||^2 with c = (1+1/B)^B in [2, e) for every integer B >= 1", "inequality", H,
          X.residual_measure, X.judge_factor_range, {"half": False, "lo": "2", "hi": "e"},
          (Mutation("printed range [sqrt(2), sqrt(e)]", {"lo": "sqrt(2)", "hi": "sqrt(e)"}),),
          corrects="arpit2019.thm7.eq43"),
    Claim("arpit2019.thm3.resnet_exact", P, "Sec. 4, Theorem 3; App. C, Eq. 52-53; App. A.2 architecture",
          "For WN ResNets with the proposed gains (alpha absorbed, gamma = 1/B), E||h^B||^2 = (1+1/B)^B ||x||^2 "
          "exactly at finite width, for orthogonal and Gaussian directions", "identity", H, M.resnet_rows,
          J.judge_resnet_forward, {},
          (Mutation("factor off by 1%", {"scale": 1.01}), Mutation("exponent B/2", {"exponent": "B/2"})),
          monte_carlo=True, slow=True),
    Claim("arpit2019.thm3.norm_limit", P, "Sec. 4, Theorem 3, Eq. 7; Fig. 1 bottom left",
          "||f(x)|| / ||x|| -> (1+1/B)^{B/2} as the width grows", "approximation", HA, M.resnet_width_ladder,
          J.judge_norm_scaling, {"key": "fwd"},
          (Mutation("limit off by 1%", {"scale": 1.01}), Mutation("squared factor", {"power": 1.0})),
          monte_carlo=True, slow=True),
    Claim("arpit2019.thm4.eq8", P, "Sec. 4, Theorem 4, Eq. 8; App. C, Theorem 8, Eq. 55 and 62",
          "||dl/dh^1|| ~ c ||dl/dh^B|| with c in [sqrt(2), sqrt(e)] (from h^B down to h^1 there are B-1 blocks, "
          "so c = (1+1/B)^{(B-1)/2})", "inequality", F, X.residual_measure, X.judge_factor_range, {"shift": 1},
          (Mutation("gradient at the input h^0", {"shift": 0}, H),)),
    Claim("arpit2019.thm4.eq8_corrected", P, "Sec. 4, Theorem 4, Eq. 8 (corrected: gradient at the input h^0)",
          "||dl/dh^0|| / ||dl/dh^B|| -> (1+1/B)^{B/2} in [sqrt(2), sqrt(e)] as the width grows", "approximation", HA,
          M.resnet_width_ladder, J.judge_norm_scaling, {"key": "bwd"},
          (Mutation("limit off by 1%", {"scale": 1.01}), Mutation("exponent (B-1)/2 (at h^1)", {"power": 0.5 * 3 / 4})),
          corrects="arpit2019.thm4.eq8", monte_carlo=True, slow=True),
    Claim("arpit2019.thm8.eq60", P, "App. C, proof of Theorem 8, Eq. 60-61",
          "||dl/dh^{b-1}||^2 ~ ||dl/dh^b||^2 + alpha^2 ||dl/dh^{b-1}||^2, i.e. a per-block factor 1/(1 - alpha^2)",
          "identity", F, M.resnet_rows, J.judge_eq60, {"variant": "printed"},
          (Mutation("corrected factor 1 + alpha^2", {"variant": "corrected"}, H),), monte_carlo=True, slow=True),
    Claim("arpit2019.thm8.eq60_corrected", P, "App. C, proof of Theorem 8, Eq. 60-61 (corrected)",
          "E||dl/dh^{b-1}||^2 = (1 + alpha^2) ||dl/dh^b||^2 for the last block (error independent of its weights)",
          "identity", H, M.resnet_rows, J.judge_eq60, {"variant": "corrected"},
          (Mutation("printed factor 1/(1 - alpha^2)", {"variant": "printed"}),),
          corrects="arpit2019.thm8.eq60", monte_carlo=True, slow=True),
    # --- Shortcut connections and the Section 5.1 baselines ---------------------------------
    Claim("arpit2019.sec4.shortcut_stagewise", P, "Sec. 4 'Shortcut connections' and 'Implementation details'; Sec. 5.1 baselines",
          "With projection shortcuts and gamma = 1/B_k per stage, E||out||^2 = prod_k (1+1/B_k)^{B_k} ||in||^2; "
          "stage-wise Hanin gives prod_k prod_b (1+0.81^b), PyTorch's default prod_k (d_k/(3 d_{k-1})) (19/18)^{B_k}",
          "identity", Verdict.INCONCLUSIVE, M.multistage_rows, J.judge_multistage, {},
          (Mutation("gamma = 1/(total blocks)", {"gamma_per_stage": False}),), monte_carlo=True, slow=True,
          note="Inconclusive at the default scale (relative resolution about 3% for the Hanin row, required 1%); "
               "rerun with --mc-scale 10. No row is rejected."),
    Claim("arpit2019.sec5.depth_robustness", P, "Sec. 5.1 'Residual networks', Fig. 3 right (10,000 layers)",
          "At 3 stages x 1666 blocks the expected squared-norm gain is bounded for the proposed (< e^3) and "
          "stage-wise Hanin schemes and diverges (> 1e6) for PyTorch's default WN", "inequality", H,
          X.residual_measure, X.judge_depth_robustness, {},
          (Mutation("PyTorch branch rate 1/18 -> 0", {"pytorch_rate": "0"}),)),
)
