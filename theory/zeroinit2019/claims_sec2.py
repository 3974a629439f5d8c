"""Claims of Sec. 2 and App. A of the ZeroInit/Fixup submission (p.h. networks, Eq. 1-2,
Theorems 1-2 and their proofs, Eq. 3-11). Locations refer to
../shared/papers/zeroinit_fixup_iclr2019_submission.txt, a lossy extraction: the
reconstructed formulas are stated in each claim and in the measuring modules."""
from __future__ import annotations

from ..core import Claim, Mutation, Verdict
from . import homogeneity as hom
from . import mc_judges as J
from . import montecarlo as mc
from . import ph_sets as P
from . import sec2_symbolic as S
from . import sec3_5_exact as E

H, F = Verdict.HOLDS, Verdict.FAILS
EPS = "1 + 1e-11 (ten times the float64 rounding bound)"

CLAIMS = (
    Claim(id="zeroinit2019.prop1.ph_composition",
          where="Sec. 2, Definitions 1-2 and Proposition 1",
          statement="A composition of positively homogeneous functions is positively homogeneous (bias-free ReLU nets, "
          "in the input and in one layer's weights)",
          kind="identity", recorded=H, measure=hom.ph_measure, judge=hom.judge_prop1,
          mutations=(Mutation("degree 1 + 1e-11", {"power": 1 + 1e-11}),)),
    Claim(id="zeroinit2019.eq2.doubling",
          where="Sec. 2, Eq. 2 and the sentence before it",
          statement="With He initialization the residual stream's variance doubles per block: Var[x_l] = 2^l Var[x_0] "
          "(branch W2 ReLU(W1 x), He fan-in on both layers; read as second moments E||x_l||^2)",
          kind="identity", recorded=F, measure=mc.GROWTH, judge=J.judge_growth,
          params={"base_factor": 2.0, "branches": ("he_fan_in",)},
          mutations=(Mutation("factor 1 + kappa = 3", {"base_factor": None}, H),),
          note="The doubling needs E||F(x)||^2 = ||x||^2; He on both layers gives 2 ||x||^2, so 3^l. The exponential "
               "growth that the paper uses survives."),
    Claim(id="zeroinit2019.eq2.corrected",
          where="Sec. 2, Eq. 2 (corrected)",
          statement="E||x_l||^2 = (1 + kappa)^l ||x_0||^2 with kappa = E||F(x)||^2/||x||^2: 3^l for He/He branches, 2^l "
          "when the branch's last layer has variance 1/n",
          kind="identity", recorded=H, measure=mc.GROWTH, judge=J.judge_growth,
          params={"base_factor": None, "branches": ("he_fan_in", "linear_fan_in")},
          mutations=(Mutation("per-block factor off by the tolerance (x 1.05)", {"scale": 1.05}),),
          corrects="zeroinit2019.eq2.doubling"),
    Claim(id="zeroinit2019.thm1.l2",
          where="Sec. 2, Theorem 1, Eq. 3 (reconstructed), Euclidean norm",
          statement="||dl/dx_{i-1}||_2 >= (l(z, y) - H(p)) / ||x_{i-1}||_2 for every block input of a bias-free ReLU net",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "l2"},
          mutations=(Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}),),
          note="Width-1 block inputs are on the grid: there the gradient is parallel to the input and the bound is an "
               "equality, so the check could fail."),
    Claim(id="zeroinit2019.thm1.any_norm",
          where="Sec. 2, Theorem 1 and '||.|| denotes any valid norm' before the assumptions",
          statement="Eq. 3 holds for any valid norm (the same norm on both sides)",
          kind="inequality", recorded=F, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "linf"},
          mutations=(Mutation("dual norms (l1 gradient, linf input)", {"norm": "dual_l1_linf"}, H),),
          note="With the max-norm on both sides, <g, x> <= ||g||_inf ||x||_inf fails; the dual norm is needed. The "
               "smallest counterexample (one 2 x 2 layer, two classes) is evaluated exactly."),
    Claim(id="zeroinit2019.thm1.dual_norm",
          where="Sec. 2, Theorem 1 (corrected wording)",
          statement="||dl/dx||_* >= (l - H(p)) / ||x|| with ||.||_* the dual norm of ||.|| (l1 gradient / linf input)",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm1, params={"norm": "dual_l1_linf"},
          mutations=(Mutation("same max-norm on both sides", {"norm": "linf"}),
                     Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11})),
          corrects="zeroinit2019.thm1.any_norm"),
    Claim(id="zeroinit2019.thm2.ph_set",
          where="Sec. 2, Theorem 2, Eq. 4 (reconstructed) and App. A.2, Eq. 9",
          statement="For the p.h. set theta = one layer's weights, ||d l_avg/d theta||_F >= (1/M) sum_m (l_m - H(p_m)) / "
          "||theta||_F =: G(theta)",
          kind="inequality", recorded=H, measure=hom.ph_measure, judge=hom.judge_thm2,
          mutations=(Mutation(f"bound times {EPS}", {"factor": 1 + 1e-11}),),
          note="A 1 x 1 weight matrix is on the grid, where the bound is an equality."),
    Claim(id="zeroinit2019.eq5.expected_bound",
          where="Sec. 2, Eq. 5, and App. A.2, Eq. 10-11 (product form, which needs no constant ||theta_ph||)",
          statement="E[l] >= E[max_i z_i] (Eq. 10) and E[G(theta_ph) ||theta_ph||] >= E[max_i z_i] - log(c) for the "
          "weights of any layer of random He MLPs, with G(theta_ph) ||theta_ph|| = (1/M) sum_m (l_m - H(p_m))",
          kind="inequality", recorded=H, measure=mc.HEADS_SAMPLING, judge=J.judge_eq5,
          mutations=(Mutation("bounds raised by 1 nat", {"shift": 1.0}),),
          note="Neither bound is tight for random networks: Eq. 5's product form has a pointwise slack "
               "(logsumexp - max z) + (log c - H(p)) bounded away from 0, and Eq. 10's slack E[logsumexp - max z] "
               "is small only for huge logits, whose label noise then swamps it. The mutation therefore raises the "
               "bounds by more than the slack of the tightest row plus the resolution. The label is averaged out "
               "exactly (it is uniform and independent of the network)."),
)
