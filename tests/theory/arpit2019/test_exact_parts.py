"""Each part of an exact claim of Arpit et al. (2019) fails alone: the judge parameters
added for the part-by-part audit leave the other parts of the evidence passing (K_n's
pi/2 case, Eq. 19 vs Eq. 21, Eq. 22 vs Eq. 23-28, Eq. 29's prefactor and labels, Eq. 31
vs Eq. 33, the closed ends and domain of Theorems 3-4's ranges, Eq. 59's two terms, the
proposed bound of Sec. 5.1, Eq. 5's mask, Eq. 18's mass, Eq. 35-39's steps and footnote
8's ratio)."""
import math

import mpmath
import numpy as np
import pytest

from tests.support.evidence import failing_labels
from theory.arpit2019 import exact_claims as ex
from theory.arpit2019 import proof_ranges as pr
from theory.arpit2019 import proof_steps as ps
from theory.arpit2019 import sphere
from theory.arpit2019.catalogue import CLAIMS
from theory.arpit2019.claims_sec3 import HALF_PI_CUT, ONE_PLUS_EPS
from theory.core import JudgeContext, RunContext, evaluate

RUN = RunContext()
CTX = JudgeContext.exact(RUN)
#: The precision-sized perturbations at the run's 50 digits (1 + 1e-40, pi/2 cut to 40 digits).
ONE_PLUS_1E40, HALF_PI_40 = ONE_PLUS_EPS.at(RUN.dps), HALF_PI_CUT.at(RUN.dps)


@pytest.fixture(scope="module")
def kn():
    return ex.kn_measure(RUN)


@pytest.fixture(scope="module")
def proof():
    return ex.proof_measure(RUN)


@pytest.fixture(scope="module")
def res():
    return ex.residual_measure(RUN)


@pytest.mark.parametrize("place,reading,case", [("eq3", "n_sphere", "2k+1"), ("eq9", "sphere_in_Rn", "2k")])
def test_kn_half_pi_fails_its_own_case_only(kn, place, reading, case):
    ev = ex.judge_kn(kn, CTX, place, reading, half_pi=HALF_PI_40)
    assert ev.verdict.value == "fails"
    sympy_failing = [lab for lab in failing_labels(ev) if lab.startswith("sympy")]
    assert sympy_failing == [f"sympy, n {case}, k >= 1"]
    assert ev.counterexample["n"] % 2 == (1 if case == "2k+1" else 0)
    assert -6 < ev.margin < -5  # 3.7e-40 relative against the 1e-45 tolerance
    assert ex.judge_kn(kn, CTX, place, reading, half_pi="pi/2").details == ex.judge_kn(kn, CTX, place, reading).details


def test_kn_value_text_is_read_exactly(kn):
    """1 + 10**-40 as text stays 1 + 10^-40 (nsimplify would snap it to 1)."""
    ev = ex.judge_kn(kn, CTX, "eq3", "n_sphere", value="1 + 10**-40")
    assert ev.verdict.value == "fails" and ev.margin == pytest.approx(-5.0)
    assert ex.judge_kn(kn, CTX, "eq3", "n_sphere", value="101/100").verdict.value == "fails"
    assert ex.judge_kn(kn, CTX, "eq3", "n_sphere", value=1).verdict.value == "holds"


@pytest.mark.parametrize("case,parity", [("odd", 1), ("even", 0)])
def test_wallis_cases_fail_alone(proof, case, parity):
    ev = ex.judge_wallis(proof, CTX, factor=ONE_PLUS_1E40, cases=(case,))
    assert ev.verdict.value == "fails" and ev.details[0]["ok"]  # Eq. 22 untouched
    assert ev.counterexample["k"] % 2 == parity
    # the row's counterexample names this case alone: the other case's products still match
    assert ev.counterexample["part"] == ("Eq. 23-25 (odd powers)" if case == "odd" else "Eq. 26-28 (even powers)")
    both = ex.judge_wallis(proof, CTX, factor=1.01)
    assert both.counterexample["part"] == "Eq. 23-25 (odd powers); Eq. 26-28 (even powers)"


def test_eq22_ratio_fails_eq22_alone(proof):
    ev = ex.judge_wallis(proof, CTX, eq22_ratio="n/(n+1)")
    assert failing_labels(ev) == ["Eq. 22: d/dθ(RHS) - sin^n (sympy, symbolic n)"]
    assert sphere.eq22_residual("(n-1)/n") == sphere.eq22_residual() == 0


def test_eq19_factor_fails_the_chain_not_eq20():
    m = ps.eq19_21_measure(RUN)
    ev = ps.judge_eq19_21(m, CTX, eq19_factor=ONE_PLUS_1E40)
    assert ev.verdict.value == "fails" and ev.details[0]["ok"]
    # each row checks Eq. 19 and Eq. 21; the counterexample names the one that failed, alone
    assert ev.counterexample["part"].startswith("Eq. 19:") and "Eq. 21" not in ev.counterexample["part"]
    shifted = ps.judge_eq19_21(m, CTX, shift=1)
    assert shifted.counterexample["part"].startswith("Eq. 21:") and "Eq. 19" not in shifted.counterexample["part"]


def test_eq18_moment_factor(proof):
    ev = ex.judge_eq18(proof, CTX, variant="corrected", moment_factor=ONE_PLUS_1E40)
    assert ev.verdict.value == "fails" and ev.counterexample["n"] == 2
    assert ex.judge_eq18(proof, CTX, variant="corrected", moment_factor="1").verdict.value == "holds"


def test_eq29_parts_reproduce_the_stored_forms():
    """The right side by parts is the stored printed or corrected form when the parts are
    those printed or corrected; each part of the printed form is wrong alone."""
    with mpmath.workdps(50):
        for n in (2, 3, 10, 11):
            assert ex.eq29_right(n, "odd", "n") == sphere.eq29_printed(n, 50)
            assert ex.eq29_right(n, "even", "n+1") == sphere.eq29_corrected(n, 50)
    claim = next(c for c in CLAIMS if c.id == "arpit2019.thm5.proof.eq29_corrected")
    assert evaluate(claim).verdict.value == "holds"
    assert evaluate(claim, denominator="n").verdict.value == "fails"
    assert evaluate(claim, E_for="odd").verdict.value == "fails"
    with pytest.raises(ValueError, match="^E_for must be"):
        ex.eq29_right(4, "both", "n")


def test_eq31_factor_fails_eq31_alone(proof):
    ev = ex.judge_eq31_34(proof, CTX, eq31_factor=ONE_PLUS_1E40)
    assert failing_labels(ev) == [f"Eq. 31: 0.5 K_n / n = E[max(0, cos)^2], n = 2..30 at {d} digits"
                                  for d in RUN.precisions]
    assert ex.judge_eq31_34(proof, CTX).verdict.value == "holds"


@pytest.mark.parametrize("params", [{"product": "literal"}, {"reading": "n_sphere"}])
def test_eq31_is_true_only_where_k_n_is_one(proof, params):
    """Eq. 31 is judged true, not only as algebra: with Eq. 30 read where K_n != 1 it fails
    (at n = 4 for the literal last factor, already at n = 2 for the n-sphere)."""
    ev = ex.judge_eq31_34(proof, CTX, **params)
    assert ev.verdict.value == "fails" and ev.counterexample["n"] == (4 if "product" in params else 2)


def test_factor_range_closed_end_and_domain(res):
    ev = ex.judge_factor_range(res, CTX, lo_closed=False)
    assert ev.verdict.value == "fails" and ev.details[0]["measured"]["B_outside_up_to_200"] == [1]
    ev = ex.judge_factor_range(res, CTX, b_min="1/2")
    assert ev.counterexample["B"] == "1/2" and ev.counterexample["factor"] == "3**(1/4)"
    assert not ev.details[0]["measured"]["B_outside_up_to_200"]  # the integers B >= 1 are all inside
    assert ex.judge_factor_range(res, CTX, shift=1, b_min="5").verdict.value == "holds"
    ev = ex.judge_factor_range(res, CTX, shift=1, b_min="4")
    assert ev.details[0]["measured"]["B_outside_up_to_200"] == [4]
    assert ex.judge_factor_range(res, CTX, b_min="1").details == ex.judge_factor_range(res, CTX).details


def test_factor_range_upper_bound_below_the_limit(res):
    ev = ex.judge_factor_range(res, CTX, hi="(1 - 10**-3)*sqrt(e)")
    m = ev.details[0]["measured"]
    assert m["B_outside_up_to_200"] == [] and m[f"B_outside_201_to_{ex.SCAN}"][0] == 250
    assert (1 + 1 / 249) ** (249 / 2) < (1 - 1e-3) * math.sqrt(math.e) < (1 + 1 / 250) ** 125


def test_depth_robustness_parts(res):
    ev = ex.judge_depth_robustness(res, CTX, proposed_bound=0.999 * math.e**3)
    assert [d["ok"] for d in ev.details] == [False, True, True] and ev.details[0]["informative"]
    ev = ex.judge_depth_robustness(res, CTX, blocks=16)
    assert [d["ok"] for d in ev.details] == [True, True, False]


def test_eq59_each_printed_term_fails_alone():
    m = ps.eq59_measure(RUN)
    for part in ("square", "cross"):
        ev = ps.judge_eq59(m, CTX, variant="corrected", **{part: "printed"})
        assert ev.verdict.value == "fails" and "rhs" in ev.counterexample["one_dimensional"]
    assert ps.judge_eq59(m, CTX, variant="printed", square="corrected", cross="corrected").verdict.value == "holds"
    assert ps.judge_eq59(m, CTX, variant="corrected", cross_coeff="1").verdict.value == "fails"


def test_eq61_factor_counterexample_shows_the_difference():
    ev = ps.judge_eq61(ps.eq59_measure(RUN), CTX, variant="corrected", factor="1 + alpha")
    assert ev.verdict.value == "fails"
    assert (ev.counterexample["||g_(b-1)||^2"], ev.counterexample["factor_times_||g_b||^2"]) == ("5/4", "3/2")


def test_eq5_mask_and_scale_fail_every_case():
    """Every case has a^l of mixed signs: the gradient is not 0 (a scale shows) and the
    mask is not 1 (dropping it shows), so each mutation fails all five cases."""
    m = ps.eq5_measure(RUN)
    assert all((c["true"] != 0).any() and (c["unmasked"]["corrected"] != c["corrected"]).any() for c in m)
    for params in ({"mask": False}, {"scale": 1 + 1e-6}):
        ev = ps.judge_eq5(m, CTX, variant="corrected", **params)
        assert len(failing_labels(ev)) == len(m) == 5, params


def test_eq5_mixed_signs_keeps_mixed_draws():
    a = np.array([0.3, -0.2])
    assert ps._mixed_signs(a) is a
    assert ps._mixed_signs(np.array([-1.0, -2.0])).tolist() == [1.0, -2.0]
    assert ps._mixed_signs(np.array([1.0, 2.0])).tolist() == [-1.0, 2.0]


def test_eq18_mass_fails_alone(proof):
    ev = ex.judge_eq18(proof, CTX, variant="corrected", mass_factor=ONE_PLUS_1E40)
    assert [d["ok"] for d in ev.details] == [True, True, False, False]
    assert ev.counterexample["n"] == 2 and ev.details[2]["margin_digits"] == pytest.approx(-5.0)
    assert ex.judge_eq18(proof, CTX, variant="corrected").margin > 5


@pytest.mark.parametrize("params,part", [({"eq35_factor": "sqrt(2)"}, "Eq. 35"), ({"j_range": ("1", "n-1")}, "Eq. 36"),
                                         ({"j_range": ("2", "n+1")}, "Eq. 36"), ({"eq39_cross": "1/2"}, "Eq. 39")])
def test_eq35_steps_fail_alone(params, part):
    m = pr.eq35_measure(RUN)
    ev = pr.judge_eq35(m, CTX, variant="corrected", **params)
    assert [lab.split(":")[0] for lab in failing_labels(ev)] == [part]
    printed = pr.judge_eq35(m, CTX, variant="printed", parts=("sum",))
    assert len(printed.details) == 3 and printed.method == "sympy with symbolic R (m x n) and u"


def test_eq56_alpha_scale():
    ev = ps.judge_eq56(ps.eq56_measure(RUN), CTX, variant="corrected", alpha_scale=1 + 1e-5)
    assert [d["ok"] for d in ev.details] == [False, False]
    assert all(5e-6 < d["measured"]["max |J - (I + alpha J_F)|"] < 1e-5 for d in ev.details)


def test_fn8_value():
    m = ps.fn8_measure(RUN)
    ev = ps.judge_fn8_deterministic(m, CTX, variant="corrected", value=1 + 1e-11)
    assert ev.verdict.value == "fails" and 9e-12 < ev.measured < 1.1e-11
