"""Judges of Daneshmand et al. (2021) on synthetic records with known truth: exactly
true (decided), true but underpowered (inconclusive, never fails) and false (fails)."""
import math

import numpy as np
import pytest

from simulations import centered_gap_floor
from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.daneshmand2021 import drift_judges as DJ
from theory.daneshmand2021 import figure_judges as FJ
from theory.daneshmand2021 import mc_judges as J
from theory.verdicts import TooFewReplicates

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
ALPHA = 1e-6


def ctx(alpha=ALPHA):
    return JudgeContext(RunContext(), alpha)


def rng(seed=0):
    return np.random.default_rng(seed)


def samples(rows, **meta):
    return Samples([Block(tuple(Row(labels, data) for labels, data in rows), meta=meta)])


# --- one-sided signs (Figures 1, 2a, vanilla growth) -------------------------------
def _fig1(change, reps, seed=0):
    x = np.zeros((reps, 51))
    x[:, 0] = 0.5
    x[:, -1] = 0.5 + change + rng(seed).normal(0, 0.1, reps)
    return samples([({"variant": "bn", "start": "aligned"}, {"abs_cos": x})], d=32)


@pytest.mark.parametrize("change,reps,down,up", [(-0.3, 200, H, F), (0.3, 200, F, H), (-0.003, 200, INC, INC)])
def test_fig1_is_three_way(change, reps, down, up):
    m = _fig1(change, reps)
    assert FJ.judge_fig1(m, ctx(), "bn", "<").verdict == down
    assert FJ.judge_fig1(m, ctx(), "bn", ">").verdict == up


def test_fig1_never_fails_a_claim_and_its_reversal_on_the_same_data():
    for seed in range(20):
        m = _fig1(0.0, 200, seed)
        vs = {FJ.judge_fig1(m, ctx(), "bn", d).verdict for d in "<>"}
        assert vs != {F}


def test_fig1_vanilla_rise_is_not_confirmed_on_a_bn_chain():
    """The re-stated vanilla claim (|cos| at 50 above at 10) can fail where it runs: fed a
    BN chain from the same orthogonal inputs (|cos| flat after a few layers) it does not
    hold, while the old reading (above layer 0, where |cos| = 0) holds on any chain."""
    from simulations import get_backend, initial_representation, simulate_chain
    be = get_backend("numpy", seed=3)
    rec = simulate_chain(be, initial_representation(be, "orthogonal", 400, 32, 2), 50, "bn")
    m = samples([({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": np.abs(rec.cos01)})], d=32)
    assert FJ.judge_fig1(m, ctx(), "vanilla", ">", start=10).verdict != H
    assert FJ.judge_fig1(m, ctx(), "vanilla", ">").verdict == H  # from layer 0 it cannot fail
    with pytest.raises(ValueError, match="start"):
        FJ.judge_fig1(m, ctx(), "vanilla", ">", start=50)


# --- Theorem 1 / Lemma 2 / Corollary 3 bounds ----------------------------------------
def _grid_row(n, d, layer, gap, w2, alpha=0.69, shift=0.0, seed=0):
    """A grid row; ``lip_x``/``lip_y``: the three Lipschitz functionals of W H and of
    G/sqrt(n), W H's shifted up by ``shift`` (a lower bound on W_2 of about ``shift``)."""
    k = gap.size
    g = rng(seed + 100)
    lip_y = g.normal(0, 1e-3, (k, 3))
    return ({"n": n, "d": d, "layer": layer},
            {"gap": gap, "gap_next": gap, "w2sq": w2, "alpha_l": np.full(k, alpha), "alpha_prev": np.full(k, alpha),
             "lip_x": shift + g.normal(0, 1e-3, (k, 3)), "lip_y": lip_y})


def test_thm1_bound_holds_fails_and_needs_an_informative_row():
    g = rng()
    small = g.uniform(0.004, 0.006, 256)
    ok = samples([_grid_row(2, 16384, 20, small, small**2)])
    assert J.judge_thm1_bound(ok, ctx()).verdict == H
    # above the bound (about 0.067 here) but below the largest gap sqrt(1/2): fails
    bad = samples([_grid_row(2, 16384, 20, g.uniform(0.3, 0.32, 256), small)])
    assert J.judge_thm1_bound(bad, ctx()).verdict == F
    # at d = 64 the bound exceeds sqrt(1 - 1/n): the row cannot fail, so no holds
    vac = samples([_grid_row(2, 64, 20, small, small**2)])
    ev = J.judge_thm1_bound(vac, ctx())
    assert ev.verdict == INC and ev.informative is False


def test_thm1_underpowered_is_inconclusive_not_fails():
    gap = rng(4).uniform(0.0, 0.14, 200)  # mean at the bound (about 0.067), wide spread
    ev = J.judge_thm1_bound(samples([_grid_row(2, 16384, 20, gap, gap**2)]), ctx())
    assert ev.verdict == INC


def test_lemma2_paired_difference():
    g = rng(1)
    gap = g.uniform(0.05, 0.06, 256)
    assert J.judge_lemma2(samples([_grid_row(2, 64, 5, gap, gap**2)]), ctx()).verdict == H
    # the conditional W_2^2 (an upper bound on W_2^2 of the laws) above 2 n V: no evidence against the statement
    ev = J.judge_lemma2(samples([_grid_row(2, 64, 5, gap, 5 * gap)]), ctx())
    assert ev.verdict == INC and ev.details[0]["rejected_but_cannot_fail"]
    # the lower confidence bound on W_2 of the laws, squared, above 2 n E[V] (about 0.22): rejected
    ev = J.judge_lemma2(samples([_grid_row(2, 64, 5, gap, 5 * gap, shift=0.6)]), ctx())
    assert ev.verdict == F and ev.counterexample["L_sq"] > ev.counterexample["bound"]
    # a lower bound below the bound decides nothing
    assert J.judge_lemma2(samples([_grid_row(2, 64, 5, gap, gap**2, shift=0.3)]), ctx()).verdict == H
    # 2 n E[V] above the largest W_2^2: uninformative
    big = g.uniform(0.5, 0.6, 256)
    ev = J.judge_lemma2(samples([_grid_row(2, 64, 5, big, big**2)]), ctx())
    assert ev.verdict == INC and ev.details[0]["informative"] is False


def test_cor3_index_readings():
    g = rng(2)
    w2 = g.uniform(1e-4, 2e-4, 256)
    rows = [_grid_row(2, 16384, ell, w2, w2, alpha=0.7) for ell in (1, 20)]
    m = samples(rows)
    printed = J.judge_cor3(m, ctx())
    corrected = J.judge_cor3(m, ctx(), index="corrected")
    upper = [d for d in printed.details if "part" not in d]  # then one lower-bound row per row
    assert printed.verdict == H and len(upper) == 2 and len(printed.details) == 4
    assert corrected.verdict == H and [d["layer"] for d in corrected.details if "part" not in d] == [20]
    # the corrected bound (exponent l - 1) is the larger one
    assert corrected.details[0]["bound"] > printed.details[1]["bound"]
    # without the plateau term the bound at l = 40 (about 8e-9) is below L^2: fails only from the lower bound
    deep = samples([_grid_row(2, 16384, 40, w2, w2, alpha=0.7, shift=0.01)])
    assert J.judge_cor3(deep, ctx(), plateau_term=False).verdict == F
    assert J.judge_cor3(samples([_grid_row(2, 16384, 40, w2, w2, alpha=0.7)]), ctx(), plateau_term=False).verdict == INC


def test_smin_expectation_exact_part_decides_the_mutation():
    rows = [({"d": 8, "n": 2}, {"smin": rng(3).normal(1.9, 0.3, 1000)})]
    assert J.judge_smin_expectation(samples(rows), ctx()).verdict == H
    ev = J.judge_smin_expectation(samples(rows), ctx(), drop_sqrt_n=True)
    assert ev.verdict == F and ev.counterexample["n"] == 1  # E chi_d < sqrt(d) exactly


# --- width fits (Figure 2b, Table 1) ----------------------------------------------------
def _ladder(exponent, reps, rel_sd=0.02, seed=0, w2_exponent=-1.0, lower_exponent=-0.5):
    g = rng(seed)
    rows = []
    for d in (16, 32, 64, 128, 256, 512):
        mean = 0.53 * math.sqrt(4) * d**exponent * (1 + 3.0 / d)
        w2 = 0.5 * d**w2_exponent
        low = 0.3 * d**lower_exponent  # the gap in E f of the Lipschitz functionals
        rows.append(({"n": 4, "width": d}, {"caption_avg": mean * (1 + g.normal(0, rel_sd, reps)),
                                             "notebook_avg": mean * (1 + g.normal(0, rel_sd, reps)),
                                             "w2sq_avg": w2 * (1 + g.normal(0, rel_sd, reps)),
                                             "tail_slope": g.normal(0, 1e-5, reps),
                                             "lip_x": low * (1 + g.normal(0, rel_sd, (reps, 3))),
                                             "lip_y": low * g.normal(0, rel_sd, (reps, 3))}))
    return samples(rows, n=4, depth=600)


def test_plateau_exponent_three_way():
    assert FJ.judge_plateau(_ladder(-0.5, 40), ctx()).verdict == HA
    assert FJ.judge_plateau(_ladder(-1.0, 40), ctx()).verdict == F
    # enough chains for the tests (the pooled flatness test needs 200), too noisy to place the exponent
    assert FJ.judge_plateau(_ladder(-0.5, 40, rel_sd=0.2), ctx()).verdict == INC
    with pytest.raises(TooFewReplicates):  # below the minimum the tests refuse instead of deciding
        FJ.judge_plateau(_ladder(-0.5, 3, rel_sd=0.05), ctx())


def test_plateau_flatness_can_fail_alone():
    """The exponent part holds approximately on a d^-1/2 ladder; a stated slope of log V
    of 4e-4 per layer (twice the band) fails on the flatness part alone, which the
    counterexample names."""
    m = _ladder(-0.5, 40)
    ev = FJ.judge_plateau(m, ctx(), flat_target=4e-4)
    assert ev.verdict == F and ev.details[0]["verdict"] == "holds_approximately"
    assert ev.counterexample["part"] == "flat over layers 100..600" and ev.counterexample["target"] == 4e-4
    assert ev.shortfall is None and "inside 0.0004 +-0.0002 per layer" in ev.method
    assert "inside +-0.0002 per layer" in FJ.judge_plateau(m, ctx()).method


def test_plateau_lack_of_fit_widens_instead_of_failing():
    m = _ladder(-0.5, 40, rel_sd=0.002)
    # a bump the model cannot absorb: the residual-dof interval is wide, never a rejection
    bumped = Samples([Block(tuple(Row(r.labels, {**r.data, "caption_avg": r["caption_avg"] * (1.03 if i % 2 else 1)})
                                  for i, r in enumerate(m.rows)), meta=m.meta)])
    ev = FJ.judge_plateau(bumped, ctx())
    assert ev.details[0]["widened_for_lack_of_fit"] and ev.verdict != F


def test_radius_rate():
    assert FJ.judge_radius(_ladder(-0.5, 30), ctx()).verdict == H  # radius ~ d^-1/2 <= d^-1/4
    # a flat upper bound shows nothing; a flat lower bound rejects O(d^-1/4)
    assert FJ.judge_radius(_ladder(-0.5, 30, w2_exponent=0.0), ctx()).verdict == INC
    assert FJ.judge_radius(_ladder(-0.5, 30, w2_exponent=0.0, lower_exponent=0.0), ctx()).verdict == F
    # O(d^-1) is rejected by the lower bound's exponent (-1/2), not by the upper bound's
    ev = FJ.judge_radius(_ladder(-0.5, 30), ctx(), exponent=-1.0)
    assert ev.verdict == F and ev.counterexample["lower_bound"] == "sigma_max"
    assert FJ.judge_radius(_ladder(-0.5, 30, lower_exponent=-1.5), ctx(), exponent=-1.0).verdict == INC


def test_radius_of_the_papers_ball():
    """Read as about the ball the paper proves, the radius sqrt(6 n^2/(alpha sqrt d)) of
    Eq. 5 scales as d^-1/4 (exact), whatever the Monte Carlo says."""
    inconclusive_mc = _ladder(-0.5, 30, lower_exponent=-1.5)
    ev = FJ.judge_radius(inconclusive_mc, ctx(), exponent=-1.0, relation="=", paper_bound=True)
    assert ev.verdict == F and ev.counterexample["exponent"] == "-1/4"
    assert FJ.judge_radius(_ladder(-0.5, 30), ctx(), exponent=-0.25, paper_bound=True).verdict == H


# --- mean-corrected chain, ReLU, drift, phase diagram ------------------------------------
def _centered(excess, reps=200, seed=0, floor_scale=1.0):
    floor2 = floor_scale * centered_gap_floor(4) ** 2
    g = rng(seed)
    rows = [({"variant": "bn_centered", "width": d},
             {"plateau_sq": floor2 + excess / d + g.normal(0, 1e-3, reps)}) for d in (32, 64, 128, 256, 512)]
    return samples(rows, n=4, depth=200)


def test_centered_printed_fails_corrected_holds():
    m = _centered(0.5)
    assert FJ.judge_centered(m, ctx(), "printed").verdict == F
    assert FJ.judge_centered(m, ctx(), "corrected").verdict == HA
    assert FJ.judge_centered(m, ctx(), "corrected", scale=1.04).verdict == F


def test_centered_floor_identity_can_fail_alone():
    """Chains whose plateau tends to 1.01/(n(n-1)): with scale 1.01 the limit part holds
    approximately, and the sympy identity ||P/(n-1) - I/n||^2 = 1.01/(n(n-1)) fails alone
    (residual -1/(100 n (n-1))), named in the counterexample."""
    m = _centered(0.5, floor_scale=1.01)
    ev = FJ.judge_centered(m, ctx(), "corrected", scale=1.01)
    assert ev.verdict == F and "parts: limit holds_approximately" in ev.resolution
    assert ev.counterexample["part"] == "floor identity (sympy)"
    assert ev.counterexample["residual"] == "-1/(100*n*(n - 1))" and ev.shortfall is None
    sym = FJ.judge_centered(_centered(0.5), ctx(), "corrected").details[-1]
    assert sym["residual"] == "0" and sym["label"] == "sympy: ||P/(n-1) - I/n||_F^2 - 1/(n(n-1)) for symbolic n"


def _relu(bn_level, va_level, reps=200, seed=0):
    g = rng(seed)
    rows = []
    for d in (32, 128):
        bn = bn_level + g.normal(0, 0.01, reps)
        rows.append(({"variant": "bn_relu", "width": d},
                     {"plateau": bn, "first": bn, "last": bn, "late_a": bn,
                      "late_b": bn * (1 + g.normal(0, 0.005, reps))}))
        va = va_level + g.normal(0, 0.01, reps)
        rows.append(({"variant": "vanilla_relu", "width": d},
                     {"plateau": va, "first": va - 0.5, "last": va, "late_a": va, "late_b": va}))
    return samples(rows, n=4, depth=200)


def test_relu_order():
    assert FJ.judge_relu(_relu(0.3, 0.86), ctx()).verdict == H
    assert FJ.judge_relu(_relu(0.3, 0.86), ctx(), order="bn_above").verdict == F


def test_relu_each_part_can_fail_alone():
    """The vanilla growth and the BN flatness each turn the verdict to fails on their
    own, the other parts holding."""
    m = _relu(0.3, 0.86)
    for params, part in (({"vanilla_direction": "<"}, "vanilla-ReLU decline"),
                         ({"flat_target": 0.1}, "BN-ReLU depth-independent")):
        ev = FJ.judge_relu(m, ctx(), **params)
        assert ev.verdict == F and ev.counterexample["part"] == part
        assert {d.get("part") for d in ev.details if d["verdict"] == "fails"} == {part}
        assert {d["verdict"] for d in ev.details if d.get("part") != part} == {"holds"}
    for bad in ({"order": "below"}, {"vanilla_direction": ">="}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            FJ.judge_relu(m, ctx(), **bad)


def _relu_samples(bn_level: float, vanilla_level: float, seed: int):
    """Flat BN-ReLU and vanilla-ReLU plateaus at widths 32 and 128 (40 runs, sd 0.01), the
    vanilla gap growing by 0.0002 from first to last layer."""
    g = rng(seed)
    rows = []
    for d in (32, 128):
        bn = bn_level + g.normal(0, 0.01, 200)
        rows.append(({"variant": "bn_relu", "width": d},
                     {"plateau": bn, "first": bn, "last": bn, "late_a": bn, "late_b": bn.copy()}))
        va = vanilla_level + g.normal(0, 0.01, 200)
        rows.append(({"variant": "vanilla_relu", "width": d},
                     {"plateau": va, "first": va - 0.0002 + g.normal(0, 0.01, 200), "last": va, "late_a": va,
                      "late_b": va}))
    return samples(rows, n=4, depth=200)


def test_relu_shortfall_is_the_largest_of_its_undecided_parts():
    """Plateaus 0.003 apart and a vanilla growth of 0.0002: comparison and growth are
    both undecided, the growth much further from deciding; the judge reports the growth's
    shortfall, not the comparison's."""
    from theory.daneshmand2021.mc_judges import sub_context

    m = _relu_samples(bn_level=0.5, vanilla_level=0.503, seed=0)
    ev = FJ.judge_relu(m, ctx())
    sub = sub_context(ctx(), 3)
    grow = FJ.judge_variant_growth(m, sub, "vanilla_relu", ">")
    assert ev.verdict == INC and grow.verdict == INC
    assert ev.shortfall == pytest.approx(grow.shortfall) and ev.shortfall > 10


def test_relu_keeps_the_growth_shortfall_when_the_comparison_is_decided():
    """The comparison's own verdict is decided (plateaus 0.2 apart) while the growth is
    undecided: the combined inconclusive verdict still carries the growth's shortfall (it
    was lost when the shortfall was dropped on assignment, before the verdict was set)."""
    from theory.daneshmand2021.mc_judges import sub_context

    m = _relu_samples(bn_level=0.3, vanilla_level=0.5, seed=1)
    ev = FJ.judge_relu(m, ctx())
    grow = FJ.judge_variant_growth(m, sub_context(ctx(), 3), "vanilla_relu", ">")
    assert ev.verdict == INC and grow.verdict == INC
    assert [d["verdict"] for d in ev.details if "vanilla_minus_bn" in d] == ["holds", "holds"]
    assert ev.shortfall == pytest.approx(grow.shortfall) and ev.shortfall > 10


def _paths(level, pi_level, rho, reps, layers=41, plateau=0, sigma=0.05, phi=0.8, seed=0):
    """Per-run V over layers 0..layers-1: pi_level + (level - pi_level) rho^(l - plateau)
    (flat before ``plateau``) plus AR(1) noise across the layers of a run (sd ``sigma``)."""
    g = rng(seed)
    ell = np.arange(layers)
    mean = pi_level + (level - pi_level) * rho ** np.clip(ell - plateau, 0, None)
    e = np.empty((reps, layers))
    e[:, 0] = g.normal(0, sigma, reps)
    for k in range(1, layers):
        e[:, k] = phi * e[:, k - 1] + math.sqrt(1 - phi**2) * g.normal(0, sigma, reps)
    return mean + e


def _drift(pi_level, spike_level, reps=2000, seed=0, n=4, rho=0.85, start_level=0.87, step=-0.02):
    """Drift records: late means per start, and per-layer paths for the rate starts that
    decay geometrically (rate ``rho``, from ``start_level`` after a 5-layer plateau) to
    ``spike_level`` (the spike's late mean) or, for the aligned start, to ``pi_level``;
    the start at E_pi V moves by ``step`` at its first layer."""
    g = rng(seed)
    vmax = math.sqrt(1 - 1 / n)
    late = lambda level: level + g.normal(0, 0.02, reps)  # noqa: E731
    spike = _paths(start_level, spike_level, rho, reps, plateau=5, seed=seed + 1)
    rows = [({"start": "rank_one"}, {"late": np.full(reps, vmax)}),
            ({"start": "diagonal_spike"}, {"late": late(spike_level), "path": spike}),
            ({"start": "aligned"}, {"late": late(pi_level),
                                    "path": _paths(start_level, pi_level, rho, reps, plateau=2, seed=seed + 2)}),
            ({"start": "orthogonal"}, {"late": late(pi_level)}),
            ({"start": "gaussian"}, {"late": late(pi_level)}),
            ({"start": "stationary_level"}, {"late": late(pi_level), "v1": pi_level + step + g.normal(0, 0.05, reps)})]
    return samples(rows, n=n, d=16, depth=60, rate_layers=40, runs=reps // 2, v0=pi_level)


def test_drift_display_corrected():
    m = _drift(0.29, 0.29)
    ev = DJ.judge_drift(m, ctx(), "corrected")
    assert ev.verdict == H, ev.details
    assert ev.measured["rate"]["diagonal_spike"]["alpha_limits"][0] < 0.85 < ev.measured["rate"]["diagonal_spike"][
        "alpha_limits"][1]
    assert DJ.judge_drift(m, ctx(), "rank_one_included").verdict == F
    assert DJ.judge_drift(m, ctx(), max_rate=0.5).verdict == F  # a faster rate than the data's 0.85
    off = DJ.judge_drift(m, ctx(), limit_offset=2 * DJ.LIMIT_BAND)  # every start claimed twice the band above E_pi V
    assert off.verdict == F and off.failed_parts() == ["limit"]
    assert all(d["resolution_relative"] < DJ.LIMIT_BAND for d in ev.details if d["part"] == "limit")
    assert ev.details[-1]["pilot_runs"] == 1000 and ev.details[-1]["fit_runs"] == 1000
    assert DJ.judge_drift(_drift(0.29, 0.40), ctx(), "corrected").verdict == F  # the spike converges elsewhere
    with pytest.raises(ValueError, match="variant"):
        DJ.judge_drift(m, ctx(), "printed")


def test_drift_display_corrected_rejects_the_printed_constant_on_its_own_data():
    """The printed display (constant 1) fails at l = 1 from the start at E_pi V when its
    first step moves away; with no move it cannot be rejected, and the corrected parts
    are unaffected."""
    printed = DJ.judge_drift(_drift(0.29, 0.29), ctx(), printed=True)
    assert printed.verdict == F and printed.failed_parts() == ["printed display at l = 1 (constant 1)"]
    assert DJ.judge_drift(_drift(0.29, 0.29, step=0.0), ctx(), printed=True).verdict == INC
    assert DJ.judge_drift(_drift(0.29, 0.29, step=0.0), ctx()).verdict == H


def test_drift_display_corrected_no_decay_fails():
    """A start whose mean never moves (rho = 1) fails the limit part, and its rate part
    fails any claimed alpha well below 1."""
    m = _drift(0.29, 0.87, rho=1.0)
    assert DJ.judge_drift(m, ctx()).verdict == F
    r = DJ.geometric_decay_fit(m.row(start="diagonal_spike")["path"], m.row(start="gaussian")["late"], 1e-7, 0.9)
    assert r["verdict"] == F and r["window_from"] == 0


@pytest.mark.parametrize("rho", [0.6, 0.85, 0.95])
def test_geometric_decay_fit_recovers_the_rate(rho):
    path, ref = _paths(0.87, 0.29, rho, 4000, plateau=3), 0.29 + rng(9).normal(0, 0.02, 4000)
    r = DJ.geometric_decay_fit(path, ref, 1e-7)
    assert r["verdict"] == H, r
    assert r["rate_limits"][0] <= rho <= r["rate_limits"][1]
    assert r["window_from"] >= 3  # the plateau is skipped
    assert DJ.geometric_decay_fit(path, ref, 1e-7, max_rate=rho - 0.1)["verdict"] == F


def test_geometric_decay_fit_no_decay_is_not_a_holds():
    path, ref = _paths(0.87, 0.29, 1.0, 4000), 0.29 + rng(9).normal(0, 0.02, 4000)
    r = DJ.geometric_decay_fit(path, ref, 1e-7)
    assert r["verdict"] == INC  # slope 0 sits on the boundary of alpha < 1: never holds, cannot fail
    assert DJ.geometric_decay_fit(path, ref, 1e-7, max_rate=0.9)["verdict"] == F
    growth = DJ.geometric_decay_fit(_paths(0.30, 0.29, 1.1, 4000, layers=30, sigma=0.001), ref, 1e-7)
    assert growth["verdict"] == F and growth["slope"] > 0


def test_geometric_decay_fit_too_little_data_is_inconclusive():
    path, ref = _paths(0.87, 0.29, 0.85, 12, plateau=3), 0.29 + rng(9).normal(0, 0.02, 12)
    with pytest.raises(TooFewReplicates):  # 12 chains: below the fit's minimum per point, the fit refuses
        DJ.geometric_decay_fit(path, ref, 1e-7)
    r = DJ.geometric_decay_fit(path[:3], ref[:3], 1e-7)
    assert r["verdict"] == INC and "slope" not in r and len(r["layers"]) < DJ.MIN_RATE_LAYERS
    with pytest.raises(TooFewReplicates):  # the runner leaves such a look unjudged
        DJ.judge_drift(_drift(0.29, 0.29, reps=12), ctx())


def test_geometric_decay_fit_never_fails_a_true_rate():
    """True geometric decay at rate 0.85: the claim alpha <= 0.85 is never rejected."""
    for seed in range(10):
        path, ref = _paths(0.87, 0.29, 0.85, 300, seed=seed), 0.29 + rng(seed + 50).normal(0, 0.02, 300)
        assert DJ.geometric_decay_fit(path, ref, 1e-4, max_rate=0.85)["verdict"] != F


def _drift_step(v1_level, pi_level, v0=0.183, reps=16000, seed=0):
    g = rng(seed)
    rows = [({"start": "stationary_level"}, {"v1": v1_level + g.normal(0, 0.1, reps)}),
            ({"start": "gaussian"}, {"late": pi_level + g.normal(0, 0.05, reps)})]
    return samples(rows, n=2, d=16, depth=60, v0=v0)


def test_drift_step_fails_only_when_the_first_step_moves_away_more_than_the_start_is_off():
    away = _drift_step(0.170, 0.183)  # V(H_0) = E_pi V, the first step moves 0.013 away
    assert DJ.judge_drift_step(away, ctx()).verdict == F
    assert DJ.judge_drift_step(away, ctx(), constant=10.0).verdict == INC  # a constant rescues it
    assert DJ.judge_drift_step(_drift_step(0.183, 0.183), ctx()).verdict == INC  # no move: no evidence
    closer = _drift_step(0.180, 0.150)  # start 0.033 off, the step 0.030 off: contracts
    assert DJ.judge_drift_step(closer, ctx()).verdict == INC


def _phase(power, at=(100, 100), below=(0, 100), outer=None):
    """A sweep whose boundary is the first grid width >= n^power, and fresh-run counts
    (holding, runs) at d* and at d*/2, and at 2 d* and d*/4 when ``outer`` gives them."""
    rows, grid = [], [2**k for k in range(1, 17)]
    for n in (2, 4, 8, 16, 32):
        for d in (d for d in grid if d >= n):
            ok = d >= n**power
            rows.append(({"n": n, "d": d, "role": "sweep"}, {"ratio": np.array([0.5 if ok else 0.01]),
                                                              "fraction": np.array([1.0 if ok else 0.3]),
                                                              "layers_run": np.array([1000 if ok else 50])}))
        top = next(d for d in grid if d >= max(n, n**power))
        sides = [("at", top, at), ("below", top // 2, below)]
        if outer:
            sides += [("at", 2 * top, outer[0]), ("below", top // 4, outer[1])]
        for side, d, (k, runs) in sides:
            if d >= n:
                rows.append(({"n": n, "d": d, "role": "confirm", "side": side},
                             {"runs_holding": np.array([k]), "runs": np.array([runs]), "layers_run": np.array([1000])}))
    return samples(rows, depth=1000, runs=10, factor=0.1)


def test_phase_boundary_exponent():
    assert FJ.judge_phase(_phase(1.5), ctx()).verdict == H
    assert FJ.judge_phase(_phase(3.0), ctx()).verdict == F


@pytest.mark.parametrize("at,below", [((97, 100), (0, 100)),  # 3 of 100 fail at d*: P(lit) >= 0.1 not shown
                                      ((100, 100), (70, 100)),  # 70 of 100 hold at d*/2: < 0.1 not shown
                                      ((60, 60), (0, 100))])  # too few runs to show it at all
def test_phase_needs_the_bracket_shown_by_fresh_runs(at, below):
    """The random boundary decides nothing until fresh runs bracket the switch-on width:
    either side unshown leaves both readings (holds and fails) inconclusive."""
    for power in (1.5, 3.0):
        ev = FJ.judge_phase(_phase(power, at, below), ctx())
        assert ev.verdict == INC
        assert "not bracketed" in ev.resolution and ev.margin is None
    # counts on the passing side of the measurement's rule for drawing further out: 2
    # failures of 100 at d*, 50 of 100 holding at d*/2
    ev = FJ.judge_phase(_phase(1.5, (98, 100), (50, 100)), ctx())
    assert ev.verdict == H and ev.measured["brackets_shown"] == "4 of 4"


def test_phase_bracket_reaches_one_step_further_and_widens_the_slope():
    """An unresolved side is settled one grid step out (2 d*, d*/4); the slope's interval
    then widens by that step's weight, and a margin that needed the tight bracket is lost."""
    tight = FJ.judge_phase(_phase(1.5), ctx())
    up = FJ.judge_phase(_phase(1.5, (90, 100), (0, 100), outer=((100, 100), (0, 100))), ctx())
    (lo_t, hi_t), (lo_w, hi_w) = tight.measured["slope_limits"], up.measured["slope_limits"]
    assert lo_w < lo_t < hi_t < hi_w and hi_w - lo_w == pytest.approx(2 * (hi_t - lo_t))
    assert up.measured["brackets"]["8"] == [16, 64] and up.verdict == INC  # 1.6 +- 0.8 straddles 2
    assert FJ.judge_phase(_phase(3.0, (90, 100), (0, 100), outer=((100, 100), (0, 100))), ctx()).verdict == F
    # below: d*/4 settles it where it is a pixel (n = 8: 32 -> 8); at n = 4 it is not (8 -> 2)
    down = FJ.judge_phase(_phase(1.5, (100, 100), (70, 100), outer=((100, 100), (0, 100))), ctx())
    assert down.measured["brackets"]["8"] == [8, 32] and down.measured["brackets"]["4"][0] is None
    assert down.verdict == INC
    # a side still unresolved one step out stays open
    assert FJ.judge_phase(_phase(1.5, (90, 100), (0, 100), outer=((90, 100), (0, 100))), ctx()).verdict == INC
    # below the batch size no test is needed (t(n) >= n): d* = n = 4 at power 1 brackets (2, 4]
    ev = FJ.judge_phase(_phase(1.0), ctx())
    assert ev.measured["brackets"]["4"] == [2, 4] and ev.verdict == H


def test_geometric_decay_fit_chooses_its_window_on_held_out_chains():
    """The window comes from the pilot chains alone: changing the fitted chains never
    moves it, and a bad pilot size is refused with its range."""
    path, ref = _paths(0.87, 0.29, 0.85, 2000, plateau=3), 0.29 + rng(9).normal(0, 0.02, 2000)
    a = DJ.geometric_decay_fit(path, ref, 1e-7, pilot=1000)
    other = np.concatenate([path[:1000], _paths(0.87, 0.29, 0.85, 1000, plateau=3, seed=5)])
    b = DJ.geometric_decay_fit(other, ref, 1e-7, pilot=1000)
    assert a["layers"] == b["layers"] and a["slope"] != b["slope"]
    for bad in (0, 2000):
        with pytest.raises(ValueError, match="pilot must be in"):
            DJ.geometric_decay_fit(path, ref, 1e-7, pilot=bad)
