"""Exact checks of the ZeroInit/Fixup claims: the counterexamples are the stated ones,
corrected forms hold, printed ones fail where the text says they do."""
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import seeds
from theory.core import JudgeContext, RunContext, Verdict
from theory.zeroinit2019 import homogeneity as hom
from theory.zeroinit2019 import ph_sets as P
from theory.zeroinit2019 import sec2_symbolic as S
from theory.zeroinit2019 import sec3_5_exact as E

RUN = RunContext()
CTX = JudgeContext.exact(RUN)
H, F = Verdict.HOLDS, Verdict.FAILS


@pytest.mark.parametrize("dps", [30, 60])
def test_smallest_same_norm_counterexample_is_exact(dps):
    c = hom.smallest_same_norm_counterexample(dps)
    p1 = math.exp(2) / (1 + math.exp(2))
    assert c["gradient_linf"] == pytest.approx(p1, rel=1e-15)
    assert c["bound_over_linf_x"] == pytest.approx(2 * p1, rel=1e-15)


def test_theorem1_rows_include_tight_width_one_inputs():
    m = hom.ph_measure(RUN)
    ev = hom.judge_thm1(m, CTX)
    tight = [d for d in ev.details if d["label"].endswith("(dim 1)") and d["measured"]["tightest_ratio"] is not None]
    assert tight and all(abs(d["measured"]["tightest_ratio"] - 1) < 1e-12 for d in tight)
    assert hom.judge_thm1(m, CTX, factor=1 + 1e-11).verdict == F
    assert hom.judge_thm1(m, CTX, norm="l1").verdict == H  # ||g||_1 ||x||_1 >= ||g||_inf ||x||_1 >= <g, x>


def test_eq1_printed_uses_an_undefined_block():
    """Eq. 1 is the unrolled recursion (equal at every l) but uses F_0, which the text's
    F_1..F_L lacks; with 0-based labels it holds."""
    m = E.eq1_measure(RUN)
    ev = E.judge_eq1(m, CTX, "printed")
    assert ev.verdict == F and ev.counterexample["l"] == 1 and ev.counterexample["undefined_blocks"] == ["F_0"]
    assert ev.counterexample["equal"] is True
    assert E.judge_eq1(m, CTX, "zero_based").verdict == H
    with pytest.raises(ValueError, match="labels"):
        E.judge_eq1(m, CTX, "corrected")


def test_eq1_judge_sees_a_wrong_unrolling():
    """A sum that is not the recursion (one block too few) fails even with the right
    labels; the range is checked."""
    m = E.eq1_measure(RUN)
    ev = E.judge_eq1(m, CTX, "zero_based", upper=-1)
    assert ev.verdict == F and ev.counterexample["equal"] is False and ev.counterexample["undefined_blocks"] == []
    with pytest.raises(ValueError, match="upper"):
        E.judge_eq1(m, CTX, "zero_based", upper=2)


def test_eq2_scalar_variance_closed_form():
    m = E.eq2_scalar_measure(RUN)
    kappa, x0 = m["kappa"], m["x0"]
    assert sp.simplify(m["rows"][1]["variance"] - kappa * x0**2) == 0
    assert E.judge_eq2_scalar(m, CTX, "printed").counterexample["Var_x_l"] == "1"


@pytest.mark.parametrize("recurrence, index, verdict", [("half", "printed", F), ("half", "corrected", F),
                                                        ("sqrt_half", "printed", F), ("sqrt_half", "corrected", H)])
def test_unrolling_parts(recurrence, index, verdict):
    ev = E.judge_unrolling(E.unrolling_measure(RUN), CTX, recurrence, index)
    assert ev.verdict == verdict
    if verdict == F:
        assert ev.counterexample["l"] == 1


def test_table1_ratio_column_readings():
    m = E.table1_arithmetic_measure(RUN)
    assert E.judge_table1_arithmetic(m, CTX, "truncated").verdict == H
    bad = [d["label"] for d in E.judge_table1_arithmetic(m, CTX, "rounded").details if not d["ok"]]
    assert bad == ["CIFAR-10 1/2-scaling"]


@settings(max_examples=30, deadline=None)
@given(text=st.sampled_from(["84.29", "8e+7", "0.20", "1.3", "1e+6", "2.25"]))
def test_printed_numbers_and_units(text):
    value, unit = E._printed(text)
    assert float(value) == pytest.approx(float(text))
    assert unit > 0 and (value / unit).denominator == 1


def test_eq5_toy_closed_forms():
    m = S.eq5_toy_measure(RUN)
    pr = m["printed"]
    sigma = pr["sigma"]
    r_star = (sigma / math.sqrt(math.pi) - math.log(2)) * math.pi / math.sqrt(2)
    assert pr["r_star"] == pytest.approx(r_star)
    assert pr["probability"] == pytest.approx(1 - math.exp(-r_star**2 / (2 * sigma**2)))
    assert pr["realized_norm"] < r_star and pr["violated"]
    assert m["omega"]["ratio_limit"] == 0


@pytest.mark.parametrize("dps", [30, 50])
def test_conditional_eq5_function_matches_its_definition(dps):
    with mpmath.workdps(dps):
        for r in ("0.5", "3"):
            assert abs(S._g(mpmath.mpf(r)) - S._g_direct(mpmath.mpf(r))) < mpmath.mpf(10) ** (5 - dps)


def test_ph_set_controls_are_not_homogeneous():
    m = P.resnet_sets_measure(RUN, networks=2)
    errors = P.set_errors(m)
    assert all(errors[k] > 1e-3 for k in P.NOT_PH_SETS)
    assert all(errors[k] < P.TOL for k in P.PH_SETS)


def test_alpha_exponents_are_exact_and_the_mutation_fails():
    m = E.alpha_measure(RUN)
    assert E.judge_alpha(m, CTX).verdict == H
    assert E.judge_alpha(m, CTX, "m").verdict == F


@settings(max_examples=25, deadline=None)
@given(seed=seeds, c=st.integers(2, 12))
def test_entropy_never_exceeds_log_c(seed, c):
    p = np.random.default_rng(seed).dirichlet(np.ones(c))
    assert -(p * np.log(p)).sum() <= math.log(c) + 1e-12
