"""Judges of Theorem 2 and Figures 1-2 on synthetic records with known truth."""
import numpy as np
import pytest

from simulations.relu_nets.lenet_experiment import INITS
from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.defazio_bottou.hessian_judges import (
    judge_fig2,
    judge_lenet_ratio,
    judge_thm2_main_over_order,
    judge_thm2_order,
    judge_thm2_same_order,
    log_ratio_band,
)
from theory.stats import MIN_POINT_REPLICATES, MIN_REPLICATES, TooFewReplicates

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
CTX = JudgeContext(RunContext(), 1e-6)


def _thm2(n=400, widths=(32, 64, 128), growth=0.0, limit=1.0, seed=0, noise=0.3):
    """Per network: order = 1/w (any scale), main = 400 order w^growth (lognormal
    spread ``noise``), actual = main / (limit - 3/w) with a bounded relative error."""
    rng = np.random.default_rng(seed)
    rows = []
    for w in widths:
        for layer in (1, 2):
            order = np.full(n, 1.0 / w)
            main = 400 * order * w**growth * np.exp(noise * rng.standard_normal(n))
            actual = main / (limit - 3.0 / w) * np.exp(noise * rng.standard_normal(n))
            rows.append(Row({"width": w, "layer": layer}, {"actual": actual, "main": main, "order": order}))
    return Samples([Block(rows)])


def test_order_term_bounded_holds_and_a_smaller_error_term_fails():
    m = _thm2()
    assert judge_thm2_order(m, CTX).verdict == HA
    assert judge_thm2_order(m, CTX, extra_power=1.0).verdict == F


def test_order_term_cannot_see_the_main_term():
    """The documented limitation: dropping the main term still passes."""
    assert judge_thm2_order(_thm2(), CTX, main_scale=0.0).verdict == HA


def test_order_term_underpowered_is_inconclusive():
    """At the fits' minimum replicates per point, noisy networks leave the exponent
    undecided; below the minimum the judge refuses to decide."""
    ev = judge_thm2_order(_thm2(n=MIN_POINT_REPLICATES, noise=1.5), CTX)
    assert ev.verdict == INC and ev.shortfall > 1
    with pytest.raises(TooFewReplicates, match="replicates per point"):
        judge_thm2_order(_thm2(n=MIN_POINT_REPLICATES - 1), CTX)


def test_main_over_order_growing_fails():
    assert judge_thm2_main_over_order(_thm2(), CTX).verdict == HA
    ev = judge_thm2_main_over_order(_thm2(growth=1.0), CTX)
    assert ev.verdict == F and ev.counterexample["exponent_interval"][0] > 0


def test_thm2_same_order_holds_within_the_band_and_fails_outside():
    """main / actual of order one (its mean approaching 1/(limit - 3/w) -> 1) holds;
    a main term one order of width off fails either way; too few networks stay
    inconclusive."""
    m = _thm2(widths=(32, 64, 128, 256))
    ev = judge_thm2_same_order(m, CTX)
    assert ev.verdict == HA and ev.tightness is None  # a band, not a bound
    for power in (1.0, -1.0):
        ev = judge_thm2_same_order(m, CTX, extra_power=power)
        assert ev.verdict == F and ev.counterexample["exponent_interval"][0 if power > 0 else 1] * power > 0.5
    assert judge_thm2_same_order(_thm2(n=MIN_POINT_REPLICATES, widths=(32, 64), noise=1.5), CTX).verdict == INC


def test_order_term_reports_its_tightness_over_the_width_grid():
    """The bound 'does not grow' against the data's upper limit on the growth from the
    smallest to the largest width: below 1 when slow growth is not excluded, 2 or more
    (loose) when the error shrinks by that factor relative to the O-term."""
    ev = judge_thm2_order(_thm2(widths=(32, 64, 128, 256)), CTX)
    t = ev.tightness
    assert t["row"]["widths"] == [32, 256] and t["row"]["layer"] in (1, 2)
    assert abs(t["factor"] - 8 ** -t["row"]["exponent_upper_limit"]) < 1e-12 and t["loose"] == (t["factor"] >= 2)
    shrinking = judge_thm2_order(_thm2(widths=(32, 64, 128, 256)), CTX, extra_power=-1.0)  # error / O-term ~ 1/w
    assert shrinking.verdict == HA and shrinking.tightness["loose"] and shrinking.tightness["factor"] > 2


def _lenet(ratio_in, ratio_out, spread_geo=0.2, spread_other=0.8, n=MIN_REPLICATES, seed=5, ratio_eq2=None):
    rng = np.random.default_rng(seed)
    rows = []
    for init in INITS:
        spread = spread_geo if init == "geometric" else spread_other
        diag = 10.0 ** (np.linspace(0, spread, 5) + 0.05 * rng.standard_normal((n, 5)))
        blocks = np.zeros((n, 5, 5))
        blocks[:, range(5), range(5)] = diag
        noise = np.exp(0.3 * rng.standard_normal((n, 5)))
        eq2 = ratio_out if ratio_eq2 is None else ratio_eq2
        rows.append(Row({"init": init}, {"ratio_eq2": np.asarray(eq2) * noise,
                                          "ratio_rho_in": np.asarray(ratio_in) * noise,
                                          "ratio_rho_out": np.asarray(ratio_out) * noise, "blocks": blocks}))
    return Samples([Block(rows, meta={"batch": 1024, "size": 32})])


def test_lenet_ratio_band():
    m = _lenet(ratio_in=[5.0, 7.0, 1, 1, 1], ratio_out=[0.9, 1.0, 1.0, 0.9, 0.8])
    ev = judge_lenet_ratio(m, CTX, reading="ratio_rho_in")
    assert ev.verdict == F and ev.counterexample["layer"] in ("conv1", "conv2")
    assert judge_lenet_ratio(m, CTX, reading="ratio_rho_out").verdict == H
    # the four inits pooled: MIN_REPLICATES setups in all, an interval straddling the band's edge
    few = MIN_REPLICATES // len(INITS)
    assert judge_lenet_ratio(_lenet([1] * 5, [1.9] * 5, n=few), CTX, reading="ratio_rho_out").verdict == INC
    with pytest.raises(TooFewReplicates, match="at least"):
        judge_lenet_ratio(_lenet([1] * 5, [1.0] * 5, n=few - 1), CTX, reading="ratio_rho_out")
    m = _lenet(ratio_in=[5.0, 7.0, 1, 1, 1], ratio_out=[0.9] * 5, ratio_eq2=[0.6, 0.6, 0.6, 0.7, 0.8])
    assert judge_lenet_ratio(m, CTX, reading="ratio_eq2").verdict == H
    assert judge_lenet_ratio(m, CTX, reading="ratio_eq2", target=4.0).verdict == F


def test_log_ratio_band_reports_the_failing_item_and_its_nearer_end():
    """With an inconclusive item before the failing one, the counterexample and the
    measured item are the failing one, and the margin is its nearer interval end's
    distance to the band (not the far end of another item's interval)."""
    rng = np.random.default_rng(0)
    n = MIN_REPLICATES
    items = [("wide", np.exp(np.log(3.0) + 1.5 * rng.standard_normal(n))),  # straddles the upper edge
             ("above", np.exp(np.log(6.0) + 0.3 * rng.standard_normal(n))),  # misses the band
             ("inside", np.exp(0.1 * rng.standard_normal(n)))]
    ev = log_ratio_band(items, 1.0, 2.0, "synthetic", CTX)
    verdicts = {d["layer"]: d["verdict"] for d in ev.details}
    assert ev.verdict == F and verdicts == {"wide": "inconclusive", "above": "fails", "inside": "holds"}
    assert ev.counterexample["layer"] == ev.measured["layer"] == "above"
    lo = ev.counterexample["interval"][0]
    assert np.isclose(ev.margin, np.log(2.0) - np.log(lo)) and -1.5 < ev.margin < 0
    held = log_ratio_band(items[2:], 1.0, 2.0, "synthetic", CTX)  # holds: the smaller clearance of its interval
    lo, hi = held.details[0]["interval"]
    assert held.verdict == H and np.isclose(held.margin, min(np.log(lo / 0.5), np.log(2.0 / hi))) and held.margin > 0


def test_fig2_flat_geometric_holds_and_swapped_fails():
    m = _lenet([1] * 5, [1] * 5)
    ev = judge_fig2(m, CTX)
    assert ev.verdict == H and ev.details[0]["samples"] == [MIN_REPLICATES] * 2 and ev.tightness is not None
    assert judge_fig2(m, CTX, flat="he_fan_in").verdict == F


def test_fig2_decides_from_50_setups_per_init_by_median_intervals():
    """No calibrated minimum applies to the order-statistic interval: at the first look's
    alpha (plan 50 -> 100 blocks) 50 setups per init decide a clear difference either way,
    and equal spreads stay inconclusive."""
    from theory.defazio_bottou.hessian_checks import LENET_FIG2
    from theory.stats import CLAIM_ALPHA, plan_looks

    look = JudgeContext(RunContext(), plan_looks(LENET_FIG2.first, LENET_FIG2.budget, 1.0).alpha(CLAIM_ALPHA))
    m = _lenet([1] * 5, [1] * 5, n=LENET_FIG2.first)
    ev = judge_fig2(m, look)
    assert ev.verdict == H and ev.details[0]["samples"] == [50, 50] and ev.margin > 0
    assert judge_fig2(m, look, flat="he_fan_in").verdict == F
    same = _lenet([1] * 5, [1] * 5, spread_geo=0.8, n=LENET_FIG2.first)
    assert judge_fig2(same, look).verdict == Verdict.INCONCLUSIVE


def test_bias_index_band():
    rng = np.random.default_rng(6)
    rows = []
    for layer in (1, 2):
        actual = np.exp(rng.standard_normal(MIN_REPLICATES))
        noise = np.exp(0.3 * rng.standard_normal(MIN_REPLICATES))
        rows.append(Row({"layer": layer}, {"actual": actual, "output_index": actual * noise,
                                           "input_index": 4 * actual * noise}))
    m = Samples([Block(rows, meta={"width": 64, "batch": 32})])
    from theory.defazio_bottou.hessian_judges import judge_bias_index
    assert judge_bias_index(m, CTX, index="output_index").verdict == H
    ev = judge_bias_index(m, CTX, index="input_index")
    assert ev.verdict == F and ev.counterexample["geometric_mean_ratio"] > 2


def test_log_ratio_band_shortfall_is_at_least_one_when_inconclusive():
    """An inconclusive item's shortfall uses the end facing the nearer band edge, so it
    is at least 1 (the interval reaches past the edge) and finite off the edge."""
    rng = np.random.default_rng(1)
    items = [("wide", np.exp(np.log(1.5) + 1.5 * rng.standard_normal(MIN_REPLICATES)))]
    ev = log_ratio_band(items, 1.0, 2.0, "synthetic", CTX)
    assert ev.verdict == INC and 1.0 <= ev.shortfall < float("inf")
