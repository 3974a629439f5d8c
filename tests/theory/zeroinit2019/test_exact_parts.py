"""Each part of a multi-part exact claim of the ZeroInit/Fixup submission can fail alone:
the catalogue's mutation of that part fails on its rows and leaves the other parts'
rows holding. The mutations are read from the catalogue (no copies of their params)."""
import copy

import mpmath
import pytest

from tests.support.evidence import failing_labels, mutation_evidence
from theory import RunContext, Verdict, claims, evaluate
from theory.core import JudgeContext
from theory.zeroinit2019 import ph_sets as P
from theory.zeroinit2019 import sec2_symbolic as S
from theory.zeroinit2019 import sec3_5_exact as E

RUN = RunContext()
CLAIMS = {c.id: c for c in claims()}


def _failing(claim_id, mutation_name):
    """The evidence of the named catalogue mutation, which must fail, and the labels of
    its failing rows."""
    ev = mutation_evidence(f"zeroinit2019.{claim_id}", mutation_name, RUN)
    assert ev.verdict == Verdict.FAILS
    return ev, set(failing_labels(ev))


@pytest.mark.parametrize("claim_id, name, expected", [
    ("sec2.ph_examples", "ReLU listed among the non-p.h. controls", {"control relu is not p.h."}),
    ("sec2.ph_examples", "degree 1 + 1e-11 (ten times the check's 1e-12 tolerance) instead of first degree",
     {f"{k} is p.h." for k in P.PH_EXAMPLES}),
    ("thm2.ph_set_examples", "the layer before the softmax listed as not a p.h. set (a control)",
     {"classifier is not a p.h. set"}),
    ("thm2.ph_set_examples", "degree 1 + 1e-11 (ten times the check's 1e-12 tolerance) instead of first degree",
     {f"{k} is a p.h. set" for k in P.PH_SETS}),
    ("eq6.euler_identity", "Eq. 7 without the factor 1/||x|| (d/dt = d/d eps)",
     {"Eq. 7 chain rule d/dt g(t/r) = g'(t/r) r^0"}),
    ("thm1.directional_at_least", "bound times 1 - 1e-11 (equality then never attained)",
     {"equality attained on a width-1 block input"}),
    ("thm1.directional_at_least", "bound times 1 + 1e-11 (ten times the check's 1e-12 tolerance)",
     {"(1, 1, 4, 3), block input 0", "(1, 1, 4, 3), block input 1"}),
    ("eq11.omega_weight_scale", "bound times 1.58 (above pi/2, the gradient norm's ratio to the bound's supremum)",
     {"1/sqrt(2) > 79/50 sqrt(2)/pi >= 79/50 E[(max z - log 2)/||W||] for every sigma"}),
    ("eq11.omega_weight_scale", "bound times 1.62 (then also above at sigma = 100)",
     {"1/sqrt(2) > 81/50 sqrt(2)/pi >= 81/50 E[(max z - log 2)/||W||] for every sigma", "sigma = 100"}),
    ("sec3.alpha_exponents", "update proportional to alpha^m, the branch scale's alpha^(2m-2) kept (the update alone)",
     {"m = 2: update ||dW_m|| / alpha^2", "m = 3: update ||dW_m|| / alpha^3"}),
    ("sec3.alpha_exponents", "branch scale proportional to alpha^(2m-1) (the scale alone)",
     {"m = 2: branch scale ||F(x)|| / alpha^3", "m = 3: branch scale ||F(x)|| / alpha^5"}),
    ("sec3.alpha_exponents", "alpha = L^(1/(4-4m)) (principle (b)'s printed variance O(1/L) taken as the scale)",
     {"alpha^(2m-2) = 1/L at alpha = L^(1/(4-4m))"}),
    ("table1.ratio_column", "CIFAR-10 LSUV Ratio 4.34 (one unit of its last digit up)", {"CIFAR-10 LSUV"}),
    ("table1.ratio_column", "CIFAR-10 ZeroInit Ratio 1.22 (one unit of its last digit down)", {"CIFAR-10 ZeroInit"}),
])
def test_mutated_part_fails_alone(claim_id, name, expected):
    assert _failing(claim_id, name)[1] == expected


@pytest.mark.parametrize("name, bad, good", [
    ("degree 1 + 1e-11 in the input alone (the weights' degree 1)", "z_x", "z_w"),
    ("degree 1 + 1e-11 in one layer's weights alone (the input's degree 1)", "z_w", "z_x"),
])
def test_prop1_degree_of_one_part(name, bad, good):
    """Every row fails, by the mutated part's error alone (the other stays at rounding)."""
    ev, _ = _failing("prop1.ph_composition", name)
    assert all(d["measured"][bad] > 5e-12 and d["measured"][good] < 1e-14 for d in ev.details)


def test_eq6_first_equality_fails_alone():
    """The derivative at eps = 1/2 misses the middle form; the second equality and the
    other identities still hold, and the counterexample shows the first residual."""
    ev, bad = _failing("eq6.euler_identity", "the derivative taken at eps = 1/2 instead of 0 (first equality alone)")
    rows = [d for d in ev.details if d["label"].startswith("c = ")]
    assert bad == {d["label"] for d in rows}
    assert all(d["measured"]["second_equality_residual"] == "0" for d in rows)
    assert ev.counterexample["first_equality_residual"] != "0"


def test_entropy_reversed_direction_fails_on_random_points_only():
    ev, bad = _failing("sec2.entropy_bound", "H(p) >= log c (direction reversed)")
    assert bad and all("random p" in label for label in bad)
    assert all(d["ok"] for d in ev.details if "uniform p" in d["label"])


def test_lse_upper_side_fails_at_ties():
    ev, bad = _failing("eq10.lse_max", "logsumexp(z) - max z <= log c - 10^-(dps - 10) (ties reach log c; 5 digits "
                       "above the 10^-(dps - 5) relative tolerance)")
    assert len(bad) == 2 and ev.counterexample["case"] == "ties"
    low, _ = _failing("eq10.lse_max", "logsumexp(z) >= max z + 1e-3")
    assert low.counterexample["case"] != "ties"


def test_eq5_conditional_without_log_c_fails_every_r():
    ev, bad = _failing("eq5.conditional", "without '- log c' (E[G | r] >= E[max z | r]/r)")
    assert bad == {d["label"] for d in ev.details if d["label"].startswith("r = ")}
    assert len(bad) == 10  # five r at two precisions; the proof's rows still hold


@pytest.mark.parametrize("claim_id, uninformative", [
    ("eq5.conditional", {f"r = {r}, {d} digits" for r in ("0.25", "1") for d in RUN.precisions}),
    ("eq11.omega_weight_scale", {"sigma = 0.5", "sigma = 1"})])
def test_rows_whose_bound_is_not_positive_are_uninformative(claim_id, uninformative):
    """The gradient norm is positive, so a row whose lower bound is <= 0 cannot fail: it
    is marked uninformative, and the others (where the bound bites) still decide."""
    claim = CLAIMS[f"zeroinit2019.{claim_id}"]
    ev = evaluate(claim, RUN, **claim.params)
    assert ev.verdict == Verdict.HOLDS and ev.informative
    assert {d["label"] for d in ev.details if d.get("informative") is False} == uninformative


def test_eq5_conditional_quadrature_rows_stay_informative_where_the_bound_cannot_bite():
    """At r = 1 the bound is negative, but the row of the closed form against the direct
    integral can still fail: shifting E[G | r = 1] by 1e-20 fails it, flagged informative."""
    m = copy.deepcopy(S.eq5_toy_measure(RUN))
    for dps, rows in m["quad"].items():
        row = next(r for r in rows if r["r"] == "1")
        with mpmath.workdps(dps):
            row["E_G_given_r"] += mpmath.mpf(10) ** -20
    ev = S.judge_eq5_toy(m, JudgeContext.exact(RUN), reading="conditional")
    bad = [d for d in ev.details if not d["ok"]]
    assert ev.verdict == Verdict.FAILS and bad and all(d.get("informative", True) for d in bad)
    assert all(d["label"].startswith("quadrature at r = 1,") for d in bad)


@pytest.mark.parametrize("name, limit", [("the bound grows like sigma (Theta(sigma) in place of Theta(1), as E[max z] "
                                          "does)", "0"),
                                         ("the bound vanishes like 1/sigma (Theta(1/sigma) in place of Theta(1))",
                                          "oo")])
def test_eq11_theta_one_fails_alone_at_another_order(name, limit):
    ev, bad = _failing("eq11.omega_weight_scale", name)
    assert len(bad) == 1 and ev.counterexample["limit"] == limit


@pytest.mark.parametrize("claim_id", ["thm1.l2", "thm1.dual_norm"])
def test_entropy_coefficient_fails_on_tight_width_one_inputs(claim_id):
    """H(p) times 1 - 1e-11 fails where Eq. 3 is tight: width-1 block inputs (and dead
    networks, z = 0, where both sides are 0)."""
    _, bad = _failing(claim_id, "H(p) times 1 - 1e-11 (the bound raised where l - H is tight: width-1 block inputs, "
                                "and dead samples where l = H = log c)")
    assert "(1, 1, 4, 3), block input 0 (dim 1)" in bad


@pytest.mark.parametrize("name, key", [("branch coefficients 0.5^((l-i)/2) (exponent half a step low)", "branch_shift"),
                                       ("x_0's coefficient 0.5^((l+1)/2) (exponent half a step high)", "x0_shift"),
                                       ("sum to l - 1 (the last block left out)", "upper")])
def test_unrolling_parts_fail_from_l_1(name, key):
    ev, bad = _failing("related.unrolling_sqrt_half", name)
    assert len(bad) == 6 and ev.counterexample["l"] == 1 and key in ev.counterexample


def test_eq1_sum_range_fails_with_the_right_labels():
    """Summing one block too many is not the recursion although every label exists
    (l = 1 uses F_0, F_1)."""
    ev, _ = _failing("eq1.index_corrected", "sum to l instead of l - 1 (one block too many)")
    assert ev.counterexample["l"] == 1 and ev.counterexample["equal"] is False
    assert ev.counterexample["undefined_blocks"] == []


def test_table1_ratios_validated():
    with pytest.raises(ValueError, match="ratios"):
        E.judge_table1_arithmetic(E.table1_arithmetic_measure(RUN), JudgeContext.exact(RUN),
                                  ratios=(("CIFAR-100", "LSUV", "4.34"),))
