"""Judges of Theorem 1 on networks and of Sec. 2's mini-batch remark, on synthetic
records with known truth: exactly true, true but underpowered, and false."""
import numpy as np
import pytest

from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.defazio_bottou.mc_judges import judge_minibatch_layers, judge_thm1_networks, per_group
from theory.judges import judge_means
from theory.stats import MIN_REPLICATES, TooFewReplicates

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
WIDTHS = (16, 32, 64, 128, 256)
CTX = JudgeContext(RunContext(), 1e-6)


def _thm1(limit=1.0, n=400, seed=0, slope=6.0, spread=4.0):
    """nu/gamma per network: limit + slope/w, spread shrinking as 1/w (as measured)."""
    rng = np.random.default_rng(seed)
    rows = [Row({"width": w, "layer": layer}, {"ratio": limit + slope / w + spread / w * rng.standard_normal(n)})
            for w in WIDTHS for layer in (1, 2)]
    return Samples([Block(rows, meta={"batch": 32})])


def test_thm1_exactly_true_holds_approximately():
    ev = judge_thm1_networks(_thm1(), CTX)
    assert ev.verdict == HA
    assert {d["layer"] for d in ev.details} == {1, 2} and ev.plot["kind"] == "limit"


def test_thm1_underpowered_is_inconclusive_with_a_shortfall():
    """At the limit fit's minimum replicates per width, widely spread networks leave the
    limit undecided; below it the judge refuses to decide."""
    ev = judge_thm1_networks(_thm1(n=MIN_REPLICATES, spread=30.0), CTX)
    assert ev.verdict == INC and ev.shortfall > 1
    with pytest.raises(TooFewReplicates, match="replicates per point"):
        judge_thm1_networks(_thm1(n=MIN_REPLICATES - 1), CTX)


def test_thm1_wrong_limit_fails():
    ev = judge_thm1_networks(_thm1(limit=1.1), CTX)
    assert ev.verdict == F and ev.counterexample["layer"] in (1, 2) and ev.counterexample["part"] == "limit"
    assert ev.failed_parts() == ["limit"]
    both = judge_thm1_networks(_thm1(limit=1.1), CTX, spread="grows")
    assert both.verdict == F and both.counterexample["part"] == "limit; concentration"


def test_thm1_one_bad_layer_fails_the_claim():
    s = _thm1()
    rows = [Row(r.labels, {"ratio": r["ratio"] + (0.1 if r.layer == 2 else 0.0)}) for r in s.rows]
    ev = judge_thm1_networks(Samples([Block(rows, meta={"batch": 32})]), CTX)
    assert ev.verdict == F and ev.measured["layer"] == 2


def test_thm1_no_concentration_is_not_shown():
    """Networks whose spread does not shrink: the concentration part cannot hold."""
    rng = np.random.default_rng(1)
    rows = [Row({"width": w, "layer": layer}, {"ratio": 1.0 + 0.05 * rng.standard_normal(4000)})
            for w in WIDTHS for layer in (1, 2)]
    ev = judge_thm1_networks(Samples([Block(rows, meta={"batch": 32})]), CTX)
    assert ev.verdict == INC


def test_thm1_concentration_fails_alone_when_the_spread_grows():
    """The limit holds but single networks spread out with width: the concentration
    part alone fails the claim, and the counterexample names it."""
    rng = np.random.default_rng(4)
    rows = [Row({"width": w, "layer": layer}, {"ratio": 1.0 + 6.0 / w + w / 1000 * rng.standard_normal(400)})
            for w in WIDTHS for layer in (1, 2)]
    ev = judge_thm1_networks(Samples([Block(rows, meta={"batch": 32})]), CTX)
    assert ev.verdict == F and ev.counterexample["part"] == "concentration"
    assert "limit holds_approximately" in ev.resolution and "concentration fails" in ev.resolution


def test_thm1_spread_grows_mutation_fails_on_concentrating_networks():
    """The mutation 'the spread grows' on networks that do concentrate (limit exact):
    fails by the concentration part only."""
    ev = judge_thm1_networks(_thm1(), CTX, spread="grows")
    assert ev.verdict == F and ev.counterexample["part"] == "concentration"
    assert "limit holds_approximately" in ev.resolution and "(claimed: the spread grows)" in ev.method
    assert judge_thm1_networks(_thm1(), CTX, spread="shrinks").verdict == HA


def test_thm1_spread_is_validated():
    with pytest.raises(ValueError, match="spread must be one of"):
        judge_thm1_networks(_thm1(), CTX, spread="constant")


def test_per_group_splits_alpha_over_groups():
    seen = []

    def judge(rows, c):
        seen.append(c.alpha)
        return judge_means(rows, lambda r: r["x"], lambda r: 1.0, ("g",), 0.1, "m", c)

    rng = np.random.default_rng(2)
    groups = {g: [{"g": g, "x": 1 + 0.01 * rng.standard_normal(MIN_REPLICATES)}] for g in "abc"}
    ev = per_group(groups, judge, CTX, "g")
    assert seen == pytest.approx([CTX.alpha / 3] * 3) and ev.verdict == H


def _minibatch(per_layer, n=300, seed=3, noise=0.05):
    """Per (B, layer) ratios nu/gamma = per_layer[B][layer] * lognormal noise (``noise``
    of the layer's own), the same network's layers correlated (a shared factor)."""
    rng = np.random.default_rng(seed)
    rows = []
    for B, means in per_layer.items():
        shared = rng.standard_normal(n)
        for layer, mu in enumerate(means):
            rows.append(Row({"B": B, "layer": layer},
                            {"ratio": mu * np.exp(0.1 * shared + noise * rng.standard_normal(n))}))
    return Samples([Block(rows, meta={"width": 128})])


def test_minibatch_layer_independent_ratios_hold():
    m = _minibatch({1: (1.0, 1.0, 1.0), 2: (2.0, 2.0, 2.0)})
    assert judge_minibatch_layers(m, CTX, sizes=(1, 2), layers=(1, 2)).verdict == H


def test_minibatch_layer_dependent_ratios_fail_with_the_layer_named():
    m = _minibatch({1: (1.0, 1.0, 1.0), 2: (2.0, 2.2, 2.4)})
    ev = judge_minibatch_layers(m, CTX, sizes=(2,), layers=(1, 2))
    assert ev.verdict == F and ev.counterexample["B"] == 2


def test_minibatch_underpowered_is_inconclusive():
    """At the minimum replicates, noisy layer ratios leave the band undecided; below it
    the judge refuses to decide."""
    m = _minibatch({2: (2.0, 2.0, 2.0)}, n=MIN_REPLICATES, noise=0.5)
    assert judge_minibatch_layers(m, CTX, sizes=(2,), layers=(1, 2)).verdict == INC
    with pytest.raises(TooFewReplicates, match="at least"):
        judge_minibatch_layers(_minibatch({2: (2.0, 2.0, 2.0)}, n=MIN_REPLICATES - 1), CTX, sizes=(2,))


def test_within_band_margin_is_measured_from_the_band_edge():
    """A mean measurably off target but inside a statement's own band holds, and its
    margin (standard errors to the rejection line) is positive; outside the band it fails
    with a negative margin."""
    rng = np.random.default_rng(7)
    half = np.log1p(0.1)
    inside = [{"g": 0, "x": 0.079 + 0.01 * rng.standard_normal(20000)}]
    ev = judge_means(inside, lambda r: r["x"], lambda r: 0.0, ("g",), half, "m", CTX, relative=False, within=True)
    assert ev.verdict == H and ev.margin > 0 and "band edge" in ev.margin_unit
    outside = [{"g": 0, "x": 0.12 + 0.01 * rng.standard_normal(20000)}]
    ev = judge_means(outside, lambda r: r["x"], lambda r: 0.0, ("g",), half, "m", CTX, relative=False, within=True)
    assert ev.verdict == F and ev.margin < 0


def test_thm1_undecided_concentration_gives_the_shortfall():
    """The limit holds (a loose band) while the spread is the same at every width
    (concentration undecided): the inconclusive verdict carries the concentration's
    shortfall, not None."""
    rng = np.random.default_rng(3)
    rows = [Row({"width": w, "layer": layer}, {"ratio": 1.0 + 0.02 * rng.standard_normal(400)})
            for w in WIDTHS for layer in (1, 2)]
    ev = judge_thm1_networks(Samples([Block(rows, meta={"batch": 32})]), CTX, tol=0.5)
    assert ev.verdict == INC and "concentration inconclusive" in ev.resolution
    assert 1 < ev.shortfall < float("inf")
