"""The generic judges of theory/judges.py beyond what the calibration measures."""
import numpy as np
import pytest
import sympy as sp

from theory import evaluate
from theory.catalogue import get
from theory.core import JudgeContext, RunContext, Verdict
from theory.judges import exact_constant, failing_parts, judge_bounds, judge_exact, judge_limit


def _rows(means):
    g = np.random.default_rng(0)
    return [{"k": i, "x": m + 0.1 * g.standard_normal(200)} for i, m in enumerate(means)]


def test_bounds_that_cannot_fail_turn_a_rejection_inconclusive():
    """With can_fail False (the sample only bounds the statement's quantity from above),
    a row above its bound is inconclusive and flagged, never a counterexample; a row
    below it still holds; with can_fail True the same data fail."""
    ctx = JudgeContext(RunContext(), 1e-6)
    rows = _rows([1.5, 0.5])
    judge = lambda **kw: judge_bounds(rows, lambda r: r["x"], lambda r: 1.0, ("k",), "synthetic", ctx, **kw)  # noqa
    assert judge().verdict == Verdict.FAILS
    ev = judge(can_fail=False)
    assert ev.verdict == Verdict.INCONCLUSIVE and ev.counterexample is None
    assert [d["verdict"] for d in ev.details] == ["inconclusive", "holds"]
    assert ev.details[0]["rejected_but_cannot_fail"] and "rejected_but_cannot_fail" not in ev.details[1]
    assert judge_bounds(rows[1:], lambda r: r["x"], lambda r: 1.0, ("k",), "synthetic", ctx,
                        can_fail=False).verdict == Verdict.HOLDS


def test_an_undecided_comparison_says_how_far_it_is_from_deciding():
    """Welch's one-sided limit straddles 0: the shortfall is its extent from the estimate
    over the estimate's distance to 0 (stats.shortfall, kind "bound"); decided, none."""
    from theory import stats
    from theory.judges import judge_comparison

    ctx = JudgeContext(RunContext(), 0.05)
    g = np.random.default_rng(3)
    a, b = 0.05 + g.standard_normal(200), g.standard_normal(200)
    ev = judge_comparison([({}, a, b)], ">", "synthetic", ctx)
    d = ev.details[0]
    assert ev.verdict == Verdict.INCONCLUSIVE
    assert ev.shortfall == pytest.approx(stats.shortfall(d["difference"], d["one_sided_limits"], 0.0, kind="bound"))
    assert ev.shortfall > 1
    assert judge_comparison([({}, a + 5, b)], ">", "synthetic", ctx).shortfall is None


def test_undecided_shortfall_is_the_largest_inconclusive_part_s_or_none():
    """Only inconclusive parts count, only when the combined verdict is inconclusive, and
    an inconclusive part without a shortfall leaves no scale to suggest."""
    from types import SimpleNamespace as Part

    from theory.judges import undecided_shortfall

    INC, H, F = Verdict.INCONCLUSIVE, Verdict.HOLDS, Verdict.FAILS
    parts = [Part(verdict=INC, shortfall=2.0), Part(verdict=H, shortfall=None), Part(verdict=INC, shortfall=5.0)]
    assert undecided_shortfall(parts, INC) == 5.0
    assert undecided_shortfall(parts, F) is None
    assert undecided_shortfall(parts + [Part(verdict=INC, shortfall=None)], INC) is None


def test_limit_rms_direction_judges_the_sign_of_the_rms_exponent():
    """judge_limit's RMS part: the stated sign of the exponent p of the single-network
    RMS error. Networks concentrating (p = -1/2): "<" (the default) holds
    approximately, ">" fails on that part alone; an unknown direction is refused."""
    ctx = JudgeContext(RunContext(), 1e-6)
    g = np.random.default_rng(5)
    rows = []
    for w in (8, 16, 32, 64, 128):
        x = g.standard_normal(4000)
        rows.append({"width": w, "v": 1.0 + 0.3 / w + 0.5 / np.sqrt(w) * (x - x.mean()) / x.std(ddof=1)})
    ev = judge_limit(rows, "v", 1.0, 0.02, "synthetic", ctx)
    assert ev.verdict == Verdict.HOLDS_APPROXIMATELY and "p > 0" not in ev.method
    ev = judge_limit(rows, "v", 1.0, 0.02, "synthetic", ctx, rms_direction=">")
    assert ev.verdict == Verdict.FAILS
    assert ev.resolution.endswith("parts: limit holds_approximately, rms_decay fails")
    assert ev.counterexample["part"] == "rms_decay" and ev.failed_parts() == ["rms_decay"]
    assert "stated p > 0" in ev.method
    assert judge_limit(rows, "v", 1.0, 0.02, "synthetic", ctx, error="mean", rms_direction=">").verdict == \
        Verdict.HOLDS_APPROXIMATELY
    with pytest.raises(ValueError, match="rms_direction must be one of"):
        judge_limit(rows, "v", 1.0, 0.02, "synthetic", ctx, rms_direction="decays")


@pytest.mark.parametrize("value, expected", [(2 / 3, "2/3"), (0.5, "1/2"), (0.7071067811865476, "sqrt(2)/2"),
                                             (0.5 + 1e-12, "500000000001/1000000000000"),
                                             (6 + 1e-9, "6000000001/1000000000"),
                                             ("1 + 10**-40", "1 + 10**-40"), (3, "3"), (sp.Float(0.5), "1/2"),
                                             (1e-300, "1e-300"), (3.141592653589793, "3.141592653589793"),
                                             (sp.Float("0.50000000000000000000000001", 40),
                                              "0.50000000000000000000000001")])
def test_exact_constant_snaps_only_within_float_rounding(value, expected):
    assert exact_constant(value) == sp.sympify(expected, rational=True)


@pytest.mark.parametrize("value, error", [(True, TypeError), (float("nan"), ValueError), (float("inf"), ValueError)])
def test_exact_constant_refuses_bools_and_non_finite_values(value, error):
    with pytest.raises(error, match="constant"):
        exact_constant(value)


def test_near_constants_are_not_snapped_onto_the_printed_ones():
    """A mutation 1e-9 to 1e-12 off a printed constant fails instead of being rounded onto it."""
    for claim_id, params in [("daneshmand2021.cor3.index_corrected", {"width_constant": 6 + 1e-9}),
                             ("daneshmand2021.intro.rate_corrected", {"rename": 2 / 3 + 1e-12}),
                             ("defazio_bottou.sec111.bottleneck_corrected", {"exponent": 0.5 + 1e-12})]:
        claim = get(claim_id)
        assert evaluate(claim, RunContext(), **claim.params).verdict == Verdict.HOLDS, claim_id
        assert evaluate(claim, RunContext(), **{**claim.params, **params}).verdict == Verdict.FAILS, claim_id


def test_exact_failure_always_shows_a_counterexample():
    """A failing sub-check without its own counterexample is shown as one: its label as
    the failed part, with what it measured and what the statement expects; the first
    failing sub-check's own counterexample wins where it gives one."""
    ok = {"ok": True, "label": "first", "measured": 1, "expected": 1}
    bad = {"ok": False, "label": "second", "measured": 2, "expected": 3}
    ev = judge_exact([ok, bad], "m", "r")
    assert ev.verdict == Verdict.FAILS
    assert ev.counterexample == {"part": "second", "measured": 2, "expected": 3}
    ev = judge_exact([ok, {**bad, "counterexample": {"n": 7}}, {**bad, "label": "third"}], "m", "r")
    assert ev.counterexample == {"part": "second", "n": 7}
    named = judge_exact([ok, {**bad, "part": "Eq. 2", "counterexample": {"n": 7}}], "m", "r")
    assert named.counterexample == {"part": "Eq. 2", "n": 7}
    own = judge_exact([ok, {**bad, "part": "Eq. 2", "counterexample": {"part": "Eq. 2, odd n", "n": 7}}], "m", "r")
    assert own.counterexample == {"part": "Eq. 2, odd n", "n": 7}
    assert judge_exact([ok], "m", "r").counterexample is None


def test_exact_row_with_several_parts_names_those_that_fail():
    """A sub-check with ``parts`` is ok when every part is, names the failing ones in
    order (one separator), keeps its per-part booleans in the details, and refuses ``ok``
    or ``part`` beside ``parts`` and an empty ``parts``."""
    ok = {"ok": True, "label": "first", "measured": 1, "expected": 1}
    row = {"label": "n = 2..8", "measured": 2, "expected": 3, "counterexample": {"n": 5}}
    both = judge_exact([ok, {**row, "parts": {"Eq. 19": False, "Eq. 21": False}}], "m", "r")
    assert both.verdict == Verdict.FAILS and both.counterexample == {"part": "Eq. 19; Eq. 21", "n": 5}
    assert both.details[1]["parts"] == {"Eq. 19": False, "Eq. 21": False} and both.details[1]["ok"] is False
    one = judge_exact([{**row, "parts": {"Eq. 19": True, "Eq. 21": False}}], "m", "r")
    assert one.counterexample["part"] == "Eq. 21" and "Eq. 19" not in " ".join(one.failed_parts())
    held = judge_exact([{**row, "parts": {"Eq. 19": True, "Eq. 21": True}}], "m", "r")
    assert held.verdict == Verdict.HOLDS and "part" not in held.details[0]
    for extra in ({"ok": True}, {"part": "Eq. 19"}):
        with pytest.raises(ValueError, match="either ok"):
            judge_exact([{**row, "parts": {"Eq. 19": True}, **extra}], "m", "r")
    with pytest.raises(ValueError, match="non-empty dict of parts"):
        judge_exact([{**row, "parts": {}}], "m", "r")
    numpy = judge_exact([{**row, "parts": {"Eq. 19": np.True_, "Eq. 21": np.False_}}], "m", "r")
    assert numpy.verdict == Verdict.FAILS and numpy.counterexample["part"] == "Eq. 21"
    for bad in (0.0, Verdict.INCONCLUSIVE):  # an exact sub-check's parts are decided: bools only
        with pytest.raises(TypeError, match="map names to bools"):
            judge_exact([{**row, "parts": {"Eq. 19": bad}}], "m", "r")
    with pytest.raises(TypeError, match="bool or a Verdict"):
        failing_parts({"limit": 0.0})
    assert failing_parts({"limit": Verdict.FAILS, "rate": Verdict.INCONCLUSIVE, "x": np.False_}) == "limit; x"


def test_limit_shortfall_only_on_an_inconclusive_verdict():
    """An undecided limit with a failing RMS-decay part fails: no shortfall then."""
    g = np.random.default_rng(0)
    rows = [{"width": w, "x": 1.0 + 0.006 * w * g.standard_normal(200)} for w in (16, 32, 64, 128, 256)]
    ev = judge_limit(rows, "x", 1.0, 0.001, "synthetic", JudgeContext(RunContext(), 0.05))
    assert ev.verdict == Verdict.FAILS and "limit inconclusive" in ev.resolution
    assert ev.shortfall is None


def test_one_sided_margins_count_to_the_limit_the_test_uses():
    """A one-sided test puts alpha/2 in its tail (stats.means): the printed margin is the
    distance, in standard errors, from the one-sided limit to the bound (replicates
    mirrored about their mean: no skewness correction), for bounds and comparisons."""
    from theory.judges import judge_comparison

    ctx = JudgeContext(RunContext(), 1e-3)
    y = np.random.default_rng(7).standard_normal(150)
    x = 0.9 + np.r_[y, -y] * 0.1
    ev = judge_bounds([{"k": 0, "x": x}], lambda r: r["x"], lambda r: 1.0, ("k",), "synthetic", ctx)
    d = ev.details[0]
    assert ev.margin == pytest.approx((1.0 - d["interval"][1]) / d["se"])
    ev = judge_comparison([({}, x, 0.8 + np.r_[y, -y] * 0.1)], ">", "synthetic", ctx)
    d = ev.details[0]
    assert ev.margin == pytest.approx(d["one_sided_limits"][0] / d["se"])


def test_median_comparison_decides_either_way_from_few_replicates():
    """judge_median_comparison: the order-statistic interval decides a clear difference from
    32 per sample (no calibrated minimum), both directions, names the failing row, and
    holds its level whatever the spreads (here 1 against 4)."""
    from theory.judges import judge_median_comparison

    ctx = JudgeContext(RunContext(), 1e-4)
    rng = np.random.default_rng(3)
    up, base = rng.normal(6.0, 1.0, 32), rng.normal(0.0, 1.0, 32)
    held = judge_median_comparison([({"row": "up"}, up, base)], ">", "synthetic", ctx)
    assert held.verdict == Verdict.HOLDS and held.margin > 0 and held.details[0]["samples"] == [32, 32]
    failed = judge_median_comparison([({"row": "up"}, up, base), ({"row": "down"}, base, up)], ">", "synthetic", ctx)
    assert failed.verdict == Verdict.FAILS and failed.counterexample["row"] == "down" and failed.margin < 0
    tie = judge_median_comparison([({"row": "same"}, base, 4 * rng.normal(0.0, 1.0, 32))], "<", "synthetic", ctx)
    assert tie.verdict == Verdict.INCONCLUSIVE and tie.shortfall is not None
