"""Proof-step and network judges of Daneshmand et al. (2021): exact values behind the
printed-error pairs, and the network judges on synthetic records with known truth."""
import math

import mpmath
import numpy as np
import pytest

from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.daneshmand2021 import formulas as f
from theory.daneshmand2021 import network_judges as NJ
from theory.daneshmand2021 import proof_steps as P

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE


def ctx(alpha=1e-6):
    return JudgeContext(RunContext(), alpha)


@pytest.fixture(scope="module")
def steps():
    return P.steps_measure(RunContext())


def test_l0_counterexamples_are_exact(steps):
    for p in RunContext().precisions:
        assert steps["l0"][p]["lemma2"] == 1  # (2 - 1)^2 against 2 n V = 0
        assert steps["l0"][p]["cor3"] == 9
        with mpmath.workdps(p):
            assert abs(steps["l0"][p]["cor3_bound"] - mpmath.mpf("5.5")) < mpmath.mpf(10) ** (5 - p)


@pytest.mark.parametrize("judge,printed,corrected", [
    (P.judge_cor3_index, {}, {"variant": "corrected"}),
    (P.judge_l0, {}, {"variant": "corrected"}),
    (P.judge_a1_alpha, {}, {"variant": "corrected"}),
    (P.judge_radius_rate, {}, {"exponent": "1/4"}),
    (P.judge_intro_rate, {}, {"variant": "corrected"}),
    (P.judge_caption_average, {}, {"normalizer": 501}),
])
def test_printed_fails_corrected_holds(steps, judge, printed, corrected):
    c = JudgeContext.exact(RunContext())
    ev = judge(steps, c, **printed)
    assert ev.verdict == F and ev.counterexample is not None
    assert judge(steps, c, **corrected).verdict == H


def test_a1_smallest_batch_size_for_alpha(steps):
    ev = P.judge_a1_alpha(steps, JudgeContext.exact(RunContext()), alpha=0.1)
    assert ev.counterexample["n"] == 101 and ev.counterexample["max sigma_min"] < 0.1


def test_corollary3_bound_matches_two_n_theorem1():
    for ell in (0, 1, 5):
        a = f.corollary3_bound(0.3, ell, 4, 1024, 40)
        b = 2 * 4 * f.theorem1_bound(0.3, ell, 4, 1024, 40)
        assert abs(a - b) < mpmath.mpf(10) ** -35


# --- network judges on synthetic records ----------------------------------------------
def samples(rows, **meta):
    return Samples([Block(tuple(Row(labels, data) for labels, data in rows), meta=meta)])


def _one_step(gap_next, gap_h=0.0, smin=0.7, n=2, d=1024, reps=200):
    return samples([({"n": n, "d": d, "kind": "orthogonal"},
                     {"gap_next": gap_next, "gap_H": np.full(reps, gap_h), "smin_H": np.full(reps, smin)})])


def test_one_step_drift():
    g = np.random.default_rng(0)
    ok = _one_step(g.uniform(0.015, 0.02, 200))
    assert NJ.judge_one_step(ok, ctx()).verdict == H
    assert NJ.judge_one_step(ok, ctx(), drift_term=False).verdict == F  # bound 0 at an orthogonal H
    vac = _one_step(g.uniform(0.015, 0.02, 200), d=16)  # 2n/sqrt(d) = 1 > sqrt(1/2)
    assert NJ.judge_one_step(vac, ctx()).verdict == INC


def test_layer_norm_identity_and_sign():
    g = np.random.default_rng(1)

    def rows(diff):
        return samples([({"d": 32}, {"max_path_difference": np.full(200, diff), "ln_rise": g.normal(0.3, 0.05, 200)})],
                       d=32, depth=50, rise_from=10)

    assert NJ.judge_layer_norm(rows(1e-15), ctx()).verdict == H
    assert NJ.judge_layer_norm(rows(1e-15), ctx(), direction="<").verdict == F
    assert NJ.judge_layer_norm(rows(1e-3), ctx()).verdict == F  # the paths differ: counterexample
    undecided = samples([({"d": 32}, {"max_path_difference": np.full(200, 1e-3), "ln_rise": g.normal(0.0, 0.05, 200)})],
                        d=32, depth=50, rise_from=10)
    ev = NJ.judge_layer_norm(undecided, ctx())  # the sign part alone is undecided; the paths decide
    assert ev.verdict == F and ev.shortfall is None and ev.details[0]["verdict"] == "inconclusive"


def test_one_step_contraction_constant_can_fail():
    """A linear start (gap 0.42, sigma_min 0.45, n = 2, d = 1024): E[V(H_+)] = 0.24 is
    below the printed bound (1 - (2/3) 0.45) 0.42 + 0.125 = 0.42 and above the one with
    constant 2, (1 - 2 x 0.45) 0.42 + 0.125 = 0.17; the drift term is kept."""
    g = np.random.default_rng(3)
    m = _one_step(g.uniform(0.23, 0.25, 200), gap_h=0.424, smin=0.447)
    assert NJ.judge_one_step(m, ctx()).verdict == H
    ev = NJ.judge_one_step(m, ctx(), contraction=2.0)
    assert ev.verdict == F and ev.counterexample["bound"] < ev.counterexample["interval"][0]


def test_layer_norm_each_part_can_fail_alone():
    """Equal paths and a clear rise: holds. A stated path difference of 1e-3 fails on the
    path part alone (the sign part still holds), and the counterexample names it."""
    g = np.random.default_rng(2)
    m = samples([({"d": 32}, {"max_path_difference": np.full(200, 7e-15), "ln_rise": g.normal(0.3, 0.05, 200)})],
                d=32, depth=50, rise_from=10)
    assert NJ.judge_layer_norm(m, ctx()).verdict == H
    assert NJ.judge_layer_norm(m, ctx(), change=0.6).verdict == F  # a rise of 0.6 is rejected
    assert NJ.judge_layer_norm(m, ctx(), change=0.3).verdict == INC  # the rise measured: not rejected
    ev = NJ.judge_layer_norm(m, ctx(), path_difference=1e-3)
    assert ev.verdict == F and ev.details[0]["verdict"] == "holds"
    assert ev.counterexample["part"] == "same |cos| path as the vanilla chain" and ev.counterexample["stated"] == 1e-3
    assert ev.details[-1] == {"part": "same |cos| path as the vanilla chain", "max_difference": 7e-15, "ok": False,
                              "stated": 1e-3}
    # a path difference stated as what was measured is matched within tol
    assert NJ.judge_layer_norm(m, ctx(), path_difference=1e-12).verdict == H


def _fig6(bn_last, reps=200, seed=0):
    g = np.random.default_rng(seed)
    bn = {"first": np.full(reps, 0.75) + g.normal(0, 0.01, reps), "last": bn_last + g.normal(0, 0.01, reps)}
    bn["early"] = bn["last"] + g.normal(0, 0.005, reps)
    bn["late"] = bn["last"]
    va = {"first": np.full(reps, 0.75) + g.normal(0, 0.01, reps), "last": 0.92 + g.normal(0, 0.01, reps)}
    va["early"], va["late"] = va["last"], va["last"]
    return samples([({"variant": "bn_centered_relu"}, bn), ({"variant": "vanilla_relu"}, va)], depth=30)


def test_fig6_three_way():
    assert NJ.judge_fig6(_fig6(0.19), ctx()).verdict == H
    assert NJ.judge_fig6(_fig6(0.19), ctx(), bn_direction=">").verdict == F
    assert NJ.judge_fig6(_fig6(0.75), ctx()).verdict == INC  # no change: the fall is undecided


def test_fig6_each_part_can_fail_alone():
    """The vanilla growth and the BN-below-vanilla comparison each turn the verdict to
    fails on their own, the other parts holding."""
    m = _fig6(0.19)
    for params, part in (({"vanilla_direction": "<"}, "vanilla gap shrinks"), ({"below": "<"}, "BN above vanilla")):
        ev = NJ.judge_fig6(m, ctx(), **params)
        assert ev.verdict == F and ev.counterexample["part"] == part
        assert {d["part"] for d in ev.details if d["verdict"] == "fails"} == {part}
        assert {d["verdict"] for d in ev.details if d["part"] != part} == {"holds"}
    for bad in ({"below": "<="}, {"vanilla_direction": "up"}, {"bn_direction": None}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            NJ.judge_fig6(m, ctx(), **bad)


def test_fig6_shortfall_comes_from_the_undecided_part():
    """The flat part decided, the BN fall not (it sits just below 0, inside its spread):
    the shortfall is the fall's, the one-sided limit's extent over the distance to 0."""
    from theory import stats

    m = _fig6(0.75)
    bn = m.row(variant="bn_centered_relu")
    bn["last"][:] = bn["first"] - 0.004 + np.resize([0.03, -0.03, 0.0], 200)
    bn["early"][:] = bn["late"][:] = bn["last"]
    ev = NJ.judge_fig6(m, ctx())
    parts = {d["part"]: d for d in ev.details}
    fall, flat = parts["BN gap falls"], parts["BN gap constant in depth (late - early)"]
    assert ev.verdict == INC and fall["verdict"] == "inconclusive" and flat["verdict"] == "holds"
    assert ev.shortfall == pytest.approx(stats.shortfall(fall["mean"], fall["one_sided_limits"], 0.0, kind="bound"))
    assert 1 < ev.shortfall < math.inf


def _deep(ratio, reps=200, seed=0):
    g = np.random.default_rng(seed)
    late = 0.04 * np.exp(g.normal(0, 0.2, reps))
    return samples([({"variant": "bn"}, {"late": late, "deep": late * ratio * np.exp(g.normal(0, 0.3, reps)),
                                         "early": late, "first": np.full(reps, 0.75), "last": late})],
                   depth=30, deep=75)


def test_depth_constancy_three_way():
    assert NJ.judge_depth_constancy(_deep(1.0), ctx()).verdict == H
    ev = NJ.judge_depth_constancy(_deep(7.0), ctx())
    assert ev.verdict == F and ev.counterexample["part"].startswith("level over layers 70..75")
    assert NJ.judge_depth_constancy(_deep(7.0), ctx(), ratio=7.0).verdict == H
    assert NJ.judge_depth_constancy(_deep(2.0), ctx()).verdict == INC  # at the band's edge


def test_fig4a_sign():
    g = np.random.default_rng(2)
    data = {f"gap_depth_{L}": 0.9 + 0.001 * L + g.normal(0, 0.001, 200) for L in (15, 30, 45, 60, 75)}
    m = samples([({"d": 800, "n": 500}, data)], depths=(15, 30, 45, 60, 75), d=800, n=500)
    assert NJ.judge_fig4a(m, ctx()).verdict == H
    assert NJ.judge_fig4a(m, ctx(), direction="<").verdict == F
    # growth at a constant pace: the 'pace' reading neither holds nor fails
    assert NJ.judge_fig4a(m, ctx(), compare="pace").verdict == INC
    # growth that slows with depth (as measured): the pace reading fails
    slow = {f"gap_depth_{L}": 1 - 0.1 * math.exp(-(L - 15) / 15) + g.normal(0, 0.001, 200)
            for L in (15, 30, 45, 60, 75)}
    m = samples([({"d": 800, "n": 500}, slow)], depths=(15, 30, 45, 60, 75), d=800, n=500)
    assert NJ.judge_fig4a(m, ctx()).verdict == H and NJ.judge_fig4a(m, ctx(), compare="pace").verdict == F


def test_footnote2_counterexample():
    good = {"log10_cond": [1.0, 0.5, 0.2], "singular_at": None}
    bad = {"log10_cond": [1.0, 16.5], "singular_at": 3}
    m = {"d": 50, "n": 150, "layers": 4, "runs": 2, "printed": [good, good], "orthogonal": [good, bad]}
    c = JudgeContext.exact(RunContext())
    assert NJ.judge_footnote2(m, c, "printed").verdict == H
    ev = NJ.judge_footnote2(m, c, "orthogonal")
    assert ev.verdict == F and ev.counterexample["singular_at_layer"] == 3
    assert math.isfinite(ev.counterexample["log10_cond"])
    m["haar"] = [good, good]
    assert NJ.judge_footnote2(m, c, ("printed", "haar")).verdict == H
    ev = NJ.judge_footnote2(m, c, ("haar", "orthogonal"))
    assert ev.verdict == F and ev.counterexample["V'"] == "orthogonal"


def test_fig6_relative_flatness():
    """On log V the band is relative to the level: a small level that rises by a third
    over five layers leaves the band that the absolute 0.05 accepts."""
    m = _fig6(0.04, seed=1)  # a level of 0.04 with sd 0.01: a seed whose 200 networks all stay above 0
    m.row(variant="bn_centered_relu")["late"][:] = m.row(variant="bn_centered_relu")["early"] * 1.33
    assert NJ.judge_fig6(m, ctx()).verdict == H  # absolute band: inside +-0.05
    assert NJ.judge_fig6(m, ctx(), flat_log_tol=math.log(2) / 6).verdict == F
    flat = _fig6(0.04, seed=1)
    flat.row(variant="bn_centered_relu")["late"][:] = flat.row(variant="bn_centered_relu")["early"]
    assert NJ.judge_fig6(flat, ctx(), flat_log_tol=math.log(2) / 6).verdict == H
    assert NJ.judge_fig6(flat, ctx(), flat_log_tol=math.log(2) / 6, flat_target=1.0).verdict == F
    assert NJ.judge_fig6(flat, ctx(), flat_target=0.1).verdict == F  # absolute band: 0.1 +- 0.05 misses 0
