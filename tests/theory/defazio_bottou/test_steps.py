"""The exact step judge and the deterministic numerical judges of Defazio & Bottou, on
synthetic measurements with known truth, and the printed/corrected pairs' parts."""
import mpmath
import numpy as np
import sympy as sp

from theory.core import JudgeContext, RunContext, Verdict
from theory.defazio_bottou import numeric_checks as numeric
from theory.defazio_bottou.proof_steps import MUTANT_VARIANTS, Step, judge_steps, steps_measure
from theory.defazio_bottou.residual_steps import residual_measure

H, F, INC = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
CTX = JudgeContext.exact(RunContext())
x, y = sp.symbols("x y", positive=True)


def _meas(*steps):
    return {"k": {"steps": list(steps)}}


def test_true_identity_holds_and_its_perturbation_fails():
    m = _meas(Step("square", (x + y) ** 2, x**2 + 2 * x * y + y**2))
    assert judge_steps(m, CTX, "k").verdict == H
    assert judge_steps(m, CTX, "k", perturb=True).verdict == F


def test_false_step_fails_with_its_smallest_counterexample():
    ev = judge_steps(_meas(Step("forgot a square", sp.sqrt(x), x, {x: 4})), CTX, "k")
    assert ev.verdict == F
    assert ev.counterexample == {"part": "forgot a square", "at": {"x": "4"}, "lhs": "2", "rhs": "4",
                                 "lhs / rhs": "1/2"}


def test_a_stated_inequality_reports_its_tightness():
    """A step's (value, bound, claim) triples give the claim's tightness: the worst row."""
    m = _meas(Step("3 <= 4 and 3 >= 1", sp.And(sp.Le(3, 4), sp.Ge(3, 1)), kind="true",
                   bounds=((sp.Integer(3), sp.Integer(4), "<="), (sp.Integer(3), sp.Integer(1), ">="))))
    ev = judge_steps(m, CTX, "k")
    assert ev.verdict == H and ev.tightness["factor"] == 4 / 3 and not ev.tightness["loose"]
    assert ev.tightness["row"]["bound"] == "4"
    assert judge_steps(_meas(Step("2 = 2", sp.Integer(2), sp.Integer(2))), CTX, "k").tightness is None


def test_relations_and_solution_sets():
    m = _meas(Step("2 > 1", sp.Gt(2, 1), kind="true"),
              Step("roots", sp.FiniteSet(*sp.solve(sp.Eq(x + 1 / x, y + 1 / y), y)), sp.FiniteSet(x, 1 / x)))
    assert judge_steps(m, CTX, "k").verdict == H
    assert judge_steps(_meas(Step("1 > 2", sp.Gt(1, 2), kind="true")), CTX, "k").verdict == F


def test_every_catalogued_step_pair_disagrees_where_printed():
    """Printed variants fail and corrected ones hold, for every pair of both measures (and
    the variants measured for mutations only, a hypothesis dropped, fail)."""
    for meas in (steps_measure(RunContext()), residual_measure(RunContext())):
        for key, variants in meas.items():
            for variant in variants:
                want = F if variant == "printed" or variant in MUTANT_VARIANTS else H
                assert judge_steps(meas, CTX, key, variant).verdict == want, (key, variant)


def test_pool_judge_needs_the_ratio_away_from_one():
    lo, hi = CTX.precisions
    good = {d: {"max/normal": mpmath.mpf("1.5"), "max/relu": mpmath.mpf(3), "closed form 1 + sqrt(3)/pi":
                mpmath.mpf("1.5")} for d in (lo, hi)}
    assert numeric.judge_pool(good, CTX).verdict == H
    flat = {d: {**good[d], "max/normal": mpmath.mpf("1.01")} for d in (lo, hi)}
    assert numeric.judge_pool(flat, CTX).verdict == F


def test_ggn_judge_tolerance():
    G = np.arange(1.0, 5.0).reshape(2, 2)
    assert numeric.judge_ggn({0: (G + 1e-12, G)}, CTX).verdict == H
    assert numeric.judge_ggn({0: (1.001 * G, G)}, CTX).verdict == F


def test_homogeneity_judge_scale_invariance():
    base = {"actual": 3.0, "main": 2.0, "printed": 0.5, "corrected": 0.25}
    scaled = {"actual": 3.0, "main": 2.0, "printed": 0.005, "corrected": 0.25}  # W_l x 10: O-term / 100
    meas = {"as drawn": base, "W_1 x 10": scaled}
    assert numeric.judge_homogeneity(meas, CTX, "printed").verdict == F
    assert numeric.judge_homogeneity(meas, CTX, "corrected").verdict == H
