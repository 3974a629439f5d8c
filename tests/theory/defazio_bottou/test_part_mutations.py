"""The judge parameters that let each part of an exact claim of Defazio & Bottou fail
alone: label-selected perturbations, printed constants (Step.printed / values), the
O-term's degrees, per-input pooling gaps, Sec. 8.1's exponents, the mutant
initializations and the extra ladder; defaults reproduce the unparameterized checks."""
import mpmath
import pytest
import sympy as sp

from tests.support.evidence import failing_labels
from theory import RunContext, evaluate
from theory.catalogue import claims
from theory.core import JudgeContext, Verdict
from theory.defazio_bottou import exact_claims as exact
from theory.defazio_bottou import numeric_checks as numeric
from theory.defazio_bottou.proof_steps import Step, judge_steps, selected

H, F = Verdict.HOLDS, Verdict.FAILS
CTX = JudgeContext.exact(RunContext())
x, y, c = sp.symbols("x y c", positive=True)


def test_selected_parts():
    assert selected("a: one", True) and not selected("a: one", False)
    assert selected("a: one", "one") and not selected("a: one", "two")
    assert selected("a: two", ("one", "two"))


def test_a_selected_step_fails_alone():
    m = {"k": {"steps": [Step("first", x + x, 2 * x), Step("second", x * x, x**2),
                         Step("rel", sp.Gt(2, 1), kind="true")]}}
    assert judge_steps(m, CTX, "k").verdict == H
    assert failing_labels(judge_steps(m, CTX, "k", perturb="second")) == ["second"]
    assert failing_labels(judge_steps(m, CTX, "k", perturb="rel")) == ["rel"]
    assert failing_labels(judge_steps(m, CTX, "k", perturb=True)) == ["first", "second", "rel"]
    assert failing_labels(judge_steps(m, CTX, "k", perturb="first", factor=x ** sp.Rational(1, 100))) == ["first"]


def test_printed_constants_default_and_override():
    step = Step("x c = 2 x", x * c, 2 * x, printed={c: 2})
    bound = Step("4 > bound", sp.Gt(4, y), kind="true", printed={y: 3})
    m = {"k": {"steps": [step, bound]}}
    ev = judge_steps(m, CTX, "k")
    assert ev.verdict == H and [d["measured"] for d in ev.details] == ["0", "True"]
    assert failing_labels(judge_steps(m, CTX, "k", values={"c": sp.Rational(201, 100)})) == ["x c = 2 x"]
    assert failing_labels(judge_steps(m, CTX, "k", values={"y": 4})) == ["4 > bound"]  # strict at the value itself
    with pytest.raises(ValueError, match="name no printed constant"):
        judge_steps(m, CTX, "k", values={"z": 1})


def test_symbolic_judge_perturbs_the_selected_statement_only():
    meas = {"A: one": (x, x), "B: two": (2 * x, 2 * x)}
    assert exact.judge_symbolic(meas, CTX).verdict == H
    assert failing_labels(exact.judge_symbolic(meas, CTX, perturb="B:")) == ["B: two"]


def _homogeneity_case(t_w=1.0, t_x=1.0, a=2.0, b=0.0):
    """actual - main of degree 4 in x_0 and 0 in W_l; E[x_l^2] ~ t_x^2, E[x_{l+1}^2] ~ (t_x t_w)^2."""
    ex, ey = 0.5 * t_x**2, 0.7 * (t_x * t_w) ** 2
    return {"actual": 3.0 * t_x**4, "main": 2.0 * t_x**4, "printed": 0.25 * ex**2 / ey, "corrected": 0.25 * ex**2,
            "n_l / n_{l+1}": 0.25, "E[x_l^2]": ex, "E[x_{l+1}^2]": ey}


def test_homogeneity_degrees_reproduce_the_variants_and_fail_each_rescaling_alone():
    meas = {"as drawn": _homogeneity_case(), "W_1 x 10": _homogeneity_case(t_w=10.0),
            "x_0 x 10": _homogeneity_case(t_x=10.0)}
    for variant, degrees in (("printed", (2, -1)), ("corrected", (2, 0))):
        a = numeric.judge_homogeneity(meas, CTX, variant)
        b = numeric.judge_homogeneity(meas, CTX, "corrected", degrees=degrees)
        assert a.verdict == b.verdict and [d["measured"] for d in a.details] == pytest.approx(
            [d["measured"] for d in b.details], rel=1e-12)
    assert failing_labels(numeric.judge_homogeneity(meas, CTX, "corrected", degrees=(2.01, 0.0))) == [
        "x_0 x 10: (actual - main) / O unchanged"]
    assert failing_labels(numeric.judge_homogeneity(meas, CTX, "corrected", degrees=(1.99, 0.01))) == [
        "W_1 x 10: (actual - main) / O unchanged"]


def test_pool_gap_per_input():
    lo, hi = CTX.precisions
    meas = {d: {"max/normal": mpmath.mpf("1.5"), "max/relu": mpmath.mpf(3), "closed form 1 + sqrt(3)/pi":
                mpmath.mpf("1.5")} for d in (lo, hi)}
    assert numeric.judge_pool(meas, CTX).verdict == H
    assert failing_labels(numeric.judge_pool(meas, CTX, min_gap={"normal": 0.6, "relu": 0.1})) == [
        "max-pool on normal inputs: varsigma ratio != 1"]
    assert failing_labels(numeric.judge_pool(meas, CTX, min_gap={"normal": 0.1, "relu": 2.1})) == [
        "max-pool on relu inputs: varsigma ratio != 1"]


def test_input_scaling_exponents():
    meas = exact.input_scaling_measure(RunContext())
    base = exact.judge_input_scaling(meas, CTX)
    same = exact.judge_input_scaling(meas, CTX, exponent=sp.Rational(1, 2), factor_power=sp.Rational(1, 4))
    assert base.verdict == same.verdict == H and base.details == same.details
    assert failing_labels(exact.judge_input_scaling(meas, CTX, exponent=sp.Rational(51, 100))) == [
        "sympy: solution of gamma_0 = gamma_0b"]
    lo, hi = CTX.precisions
    assert failing_labels(exact.judge_input_scaling(meas, CTX, factor_power=sp.Rational(101, 400))) == [
        f"factor^2 = 1/sqrt(27) at {lo} digits", f"factor^2 = 1/sqrt(27) at {hi} digits"]


def test_extra_ladder_and_mutant_init_stay_out_of_the_default_evidence():
    meas = exact.init_measure(RunContext())
    ev = exact.judge_constant_gamma(meas, CTX, init="xavier", expect_constant=False, ladders=exact.MIXED_LADDERS)
    assert all(str(exact.EXPAND_CONTRACT) not in d["constant_on"] for d in ev.details)
    ev = exact.judge_constant_gamma(meas, CTX, init=("kaiming_fan_in", "xavier"), expect_constant=False,
                                    ladders=(exact.EXPAND_CONTRACT,))
    assert failing_labels(ev) == ["xavier, widths (5, 15, 45, 15, 5): gammas not all equal"]


def test_init_measure_holds_only_what_the_defaults_judge():
    """The mutants (inits, the expand-contract ladder, Eq. 4-5 on the kernel ladders) are
    computed by the judge when asked, with the same values as a measurement would hold."""
    meas = exact.init_measure(RunContext())
    one_k = {exact.ladder_name(lad) for lad in exact.LADDERS}
    assert set(meas) == {"geometric", "kaiming_fan_in", "kaiming_fan_out", "xavier"}
    assert set(meas["geometric"]) == one_k | {exact.ladder_name(lad) for lad in exact.KERNEL_LADDERS}
    assert all(set(meas[i]) == one_k for i in meas if i != "geometric")
    mutant = "geometric, mean exponent 0.51"
    ev = exact.judge_constant_gamma(meas, CTX, init=mutant)
    assert [d["measured"] for d in ev.details] == [[str(x) for x in exact.ladder_gammas(mutant, lad)]
                                                   for lad in exact.LADDERS + exact.KERNEL_LADDERS]
    with pytest.raises(ValueError, match="init must be one of"):
        exact.judge_constant_gamma(meas, CTX, init="kaiming")


def test_kernel_power_fails_on_the_mixed_kernel_ladder_alone():
    """Sec. 6, Eq. 3's k (not k^2): k^1.01 changes nothing where every k_l = 1, and makes
    gamma_l unequal on the ladder with 5x5 and dense layers."""
    meas = exact.init_measure(RunContext())
    mutant = "geometric, kernel power 1.01"
    assert exact.judge_constant_gamma(meas, CTX, init=mutant, ladders=exact.LADDERS).verdict == H
    kernel_rows = [f"{mutant}, widths {exact.ladder_name(lad)}: gammas all equal" for lad in exact.KERNEL_LADDERS]
    assert failing_labels(exact.judge_constant_gamma(meas, CTX, init=mutant)) == kernel_rows
    assert exact.judge_constant_gamma(meas, CTX, ladders=exact.KERNEL_LADDERS).verdict == H


def test_bottleneck_exponent_default_is_the_square_root():
    meas = exact.bottleneck_measure(RunContext())
    a = exact.judge_bottleneck(meas, CTX, "eq6", "v_only")
    b = exact.judge_bottleneck(meas, CTX, "eq6", "v_only", exponent=sp.Rational(1, 2))
    assert a.verdict == b.verdict == H and a.expected == b.expected == str(sp.sqrt(exact.n / exact.m) * exact.q)


EXACT = [cl for cl in claims() if cl.paper == "defazio_bottou" and not cl.monte_carlo]


@pytest.mark.parametrize("claim", [cl for cl in EXACT if any(isinstance(mu.params.get("perturb"), str)
                                                              for mu in cl.mutations)], ids=lambda cl: cl.id)
def test_each_label_selected_mutation_fails_exactly_its_part(claim):
    """Every catalogued mutation that perturbs one part (a label) fails that part and no other."""
    for mu in claim.mutations:
        part = mu.params.get("perturb")
        if not isinstance(part, str):
            continue
        ev = evaluate(claim, RunContext(), **mu.params)
        assert ev.verdict == F, (claim.id, mu.name)
        assert failing_labels(ev) == [d["label"] for d in ev.details if part in d["label"]], (claim.id, mu.name)


@pytest.mark.parametrize("claim", [cl for cl in EXACT if any(mu.params.get("perturb") is True for mu in cl.mutations)],
                         ids=lambda cl: cl.id)
def test_each_whole_statement_mutation_fails_every_part(claim):
    """A catalogued mutation that perturbs every statement (perturb=True, no ``part``:
    it names no single part) fails every row of the evidence."""
    for mu in claim.mutations:
        if mu.params.get("perturb") is not True:
            continue
        assert mu.part is None, (claim.id, mu.name)
        ev = evaluate(claim, RunContext(), **mu.params)
        assert ev.verdict == F and failing_labels(ev) == [d["label"] for d in ev.details], (claim.id, mu.name)


def test_parameters_refused_where_their_selector_ignores_them():
    """A parameter that one value of a judge's selector would silently ignore is a
    ValueError naming the parameter and the selector values where it applies."""
    meas = exact.bottleneck_measure(RunContext())
    with pytest.raises(ValueError, match=r"exponent applies only with target in \['eq6'\]"):
        exact.judge_bottleneck(meas, CTX, "E[x^2]", "printed", exponent=sp.Rational(51, 100))
    assert exact.judge_bottleneck(meas, CTX, "E[x^2]", "printed", exponent=sp.Rational(1, 2)).verdict == F
    with pytest.raises(ValueError, match="target must be one of"):
        exact.judge_bottleneck(meas, CTX, "eq7", "v_only")
    with pytest.raises(ValueError, match="variant must be one of"):
        exact.judge_bottleneck(meas, CTX, "eq6", "corrected")
    hom = {"as drawn": _homogeneity_case(), "W_1 x 10": _homogeneity_case(t_w=10.0)}
    with pytest.raises(ValueError, match=r"degrees applies only with variant in \['corrected'\]"):
        numeric.judge_homogeneity(hom, CTX, "printed", degrees=(2.01, 0.0))
    with pytest.raises(ValueError, match="variant must be one of"):
        numeric.judge_homogeneity(hom, CTX, "intrinsic")


def test_perturbation_parameters_refused_where_ignored():
    sym = {"A: one": (x, x), "B: two": (2 * x, 2 * x)}
    steps = {"k": {"steps": [Step("first", x + x, 2 * x)], "printed": [Step("second", x, x)]}}
    for judge, args in ((exact.judge_symbolic, ()), (judge_steps, ("k",))):
        meas = sym if judge is exact.judge_symbolic else steps
        with pytest.raises(ValueError, match="factor applies only with perturb True or label parts"):
            judge(meas, CTX, *args, factor=x ** sp.Rational(1, 100))
        with pytest.raises(ValueError, match="selects none of the statements judged"):
            judge(meas, CTX, *args, perturb="second")  # a step of another variant, or no label at all
    with pytest.raises(ValueError, match="selects no statement"):
        exact.judge_symbolic(sym, CTX, only=("C:",))
    with pytest.raises(ValueError, match="variant must be one of"):
        judge_steps(steps, CTX, "k", variant="corrected")
    lo, hi = CTX.precisions
    pool = {d: {"max/normal": mpmath.mpf("1.5"), "max/relu": mpmath.mpf(3), "closed form 1 + sqrt(3)/pi":
                mpmath.mpf("1.5")} for d in (lo, hi)}
    with pytest.raises(ValueError, match="min_gap must be a number or give one per input"):
        numeric.judge_pool(pool, CTX, min_gap={"normal": 0.6, "relu": 0.1, "uniform": 0.1})
    with pytest.raises(ValueError, match="pool must be one of"):
        numeric.judge_pool(pool, CTX, pool="min")
