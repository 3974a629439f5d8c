"""The sequential runner: blocks are the same however they are drawn, looks stop at
the first decided verdict, the budget ends the loop, executors give the same data."""
import dataclasses
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from theory.core import (Block, Claim, Evidence, Mutation, Row, RunContext, Sampling, Verdict, clear_caches, evaluate,
                         samples, set_executor)
from theory.stats import mean_equals, mean_within


def _draw(ctx, block):
    be = ctx.stream("tests.runner", block)
    return Block((Row({"k": 0}, {"x": np.asarray(be.normal((50,)) + 1.0)}),))


SAMPLING = Sampling(draw=_draw, first=1, budget=64)


def _judge(m, ctx, target=1.0, tol=0.2):
    t = mean_equals(m.row(k=0)["x"], target, ctx.alpha, tol)
    return Evidence(t.verdict, t.estimate, target, "test", t.resolution, shortfall=None)


def _claim(**kw):
    return Claim(id="tests.runner", where="-", statement="E x = 1", kind="identity", recorded=Verdict.HOLDS,
                 measure=SAMPLING, judge=_judge, mutations=(Mutation("2", {"target": 2.0}),), **kw)


def test_blocks_do_not_depend_on_how_they_are_drawn():
    clear_caches()
    ctx = RunContext(seed=5)
    all_at_once = samples(SAMPLING, ctx, 4).row(k=0)["x"]
    clear_caches()
    samples(SAMPLING, ctx, 1)
    samples(SAMPLING, ctx, 3)
    assert np.array_equal(samples(SAMPLING, ctx, 4).row(k=0)["x"], all_at_once)


def test_executor_gives_the_same_blocks():
    clear_caches()
    ctx = RunContext(seed=6)
    serial = samples(SAMPLING, ctx, 6).row(k=0)["x"]
    clear_caches()
    with ThreadPoolExecutor(2) as pool:
        set_executor(pool)
        try:
            parallel = samples(SAMPLING, ctx, 6).row(k=0)["x"]
        finally:
            set_executor(None)
    assert np.array_equal(serial, parallel)


def test_sequential_looks_stop_when_decided():
    clear_caches()
    ev = evaluate(_claim(), RunContext(seed=7))
    s = ev.sampling
    assert ev.verdict == Verdict.HOLDS and s["stopped"] == "decided" and s["looks"] < s["planned_looks"]
    assert s["alpha_per_look"] == pytest.approx(1e-6 / s["planned_looks"])
    wrong = evaluate(_claim(), RunContext(seed=7), target=2.0)
    assert wrong.verdict == Verdict.FAILS and wrong.sampling["looks"] == 1


def test_budget_ends_an_undecidable_claim_with_a_hint():
    clear_caches()
    ev = evaluate(_claim(), RunContext(seed=8, scale=0.02), tol=1e-4)
    assert ev.verdict == Verdict.INCONCLUSIVE and ev.sampling["stopped"] == "sample budget"
    assert ev.settle


def _draw_one_replicate(ctx, block):
    be = ctx.stream("tests.runner.one", block)
    return Block((Row({"k": 0}, {"x": np.asarray(be.normal((1,)) + 1.0)}),))


def test_too_few_replicates_is_inconclusive_then_judged():
    """One replicate per block: a one-block look cannot estimate a variance, so the
    runner says inconclusive (with a hint) at a tiny scale and judges from the next look."""
    claim = _claim()
    claim = Claim(**{**{f: getattr(claim, f) for f in ("id", "where", "statement", "kind", "recorded", "judge")},
                     "measure": Sampling(draw=_draw_one_replicate, first=1, budget=1)})
    clear_caches()
    ev = evaluate(claim, RunContext(seed=9))
    assert ev.verdict == Verdict.INCONCLUSIVE and "2 replicates" in ev.method and "--mc-scale" in ev.settle
    more = Claim(**{**{f: getattr(claim, f) for f in ("id", "where", "statement", "kind", "recorded", "judge")},
                    "measure": Sampling(draw=_draw_one_replicate, first=1, budget=64)})
    ev = evaluate(more, RunContext(seed=9))
    assert ev.sampling["looks"] > 1 and ev.measured is not None


def _judge_with_shortfall(m, ctx, target=1.0, tol=0.2, within=False):
    t = (mean_within if within else mean_equals)(m.row(k=0)["x"], target, ctx.alpha, tol, relative=False)
    return Evidence(t.verdict, t.estimate, target, "test", t.resolution,
                    shortfall=t.shortfall if t.verdict == Verdict.INCONCLUSIVE else None)


def _hint(**params):
    claim = Claim(**{**{f: getattr(_claim(), f) for f in ("id", "where", "statement", "kind", "recorded")},
                     "measure": SAMPLING, "judge": _judge_with_shortfall})
    clear_caches()
    return evaluate(claim, RunContext(seed=8, scale=0.02), **params)


def test_settle_hint_suggests_a_scale_that_settles_it():
    """A mean of 1 against target 1 +- 0.3: undecided at a tiny scale; the suggested
    --mc-scale decides it (the estimate stays near 1)."""
    ev = _hint(tol=0.3)
    assert ev.verdict == Verdict.INCONCLUSIVE and "if the estimate stays where it is" in ev.settle
    scale = int(ev.settle.split("--mc-scale ")[1].split()[0])
    clear_caches()
    claim = Claim(**{**{f: getattr(_claim(), f) for f in ("id", "where", "statement", "kind", "recorded")},
                     "measure": SAMPLING, "judge": _judge_with_shortfall})
    assert evaluate(claim, RunContext(seed=8, scale=scale), tol=0.3).verdict == Verdict.HOLDS


def test_settle_hint_on_the_band_edge_suggests_no_scale():
    """|E x - 1.2| <= 0.2 with E x = 1 exactly: the estimate sits on the band edge."""
    ev = _hint(target=1.2, tol=0.2, within=True)
    assert ev.verdict == Verdict.INCONCLUSIVE
    assert ("band edge" in ev.settle) == (ev.shortfall == float("inf"))
    if ev.shortfall != float("inf"):  # near the edge: a scale is suggested, far above the tiny one
        assert int(ev.settle.split("--mc-scale ")[1].split()[0]) >= 1


def test_settle_hint_without_a_shortfall_says_so():
    clear_caches()
    ev = evaluate(_claim(), RunContext(seed=8, scale=0.02), tol=1e-4)
    assert "gives no shortfall" in ev.settle


def test_sampling_records_the_last_look_s_one_sample_and_welch_tests():
    """The runner records the mean tests of the look it stops at, one-sample and Welch
    apart: replicate counts, how many, the largest absolute sample skewness."""
    from scipy import stats as st

    from theory.stats import difference

    def judge(m, ctx):
        x = m.row(k=0)["x"]
        difference(x, x[: x.size // 2] ** 2).interval(ctx.alpha)
        return _judge(m, ctx)

    clear_caches()
    ev = evaluate(dataclasses.replace(_claim(), judge=judge), RunContext(seed=1))
    n = ev.sampling["replicates_per_row"]
    x = samples(SAMPLING, RunContext(seed=1), ev.sampling["blocks"]).row(k=0)["x"]
    level = ev.sampling["alpha_per_look"] / 2  # both intervals two-sided at the look's alpha
    assert ev.sampling["one_sample_tests"] == [{"replicates": n, "tests": 1,
                                                "largest_abs_skewness": round(abs(float(st.skew(x))), 3),
                                                "smallest_level": level, "largest_level": level,
                                                "tests_without_level": 0}]
    skews = abs(float(st.skew(x))), abs(float(st.skew(x[: n // 2] ** 2)))
    assert ev.sampling["welch_tests"] == [{"replicates": [n // 2, n], "tests": 1, "largest_abs_skewness": round(max(skews), 3),
                                           "smallest_level": level, "largest_level": level,
                                           "tests_without_level": 0}]


def test_alpha_headroom_is_the_largest_factor_that_keeps_the_verdict_on_the_same_data():
    """A judge that fails while its alpha is at least 1e-11 has a headroom of the largest
    power of ten f with alpha_per_look / f >= 1e-11; a clear effect keeps its verdict to
    the smallest alpha probed; an undecided verdict and an exact claim have none."""
    from theory.core.runner import HEADROOM_FACTORS, alpha_headroom, headroom_text, with_headroom

    def threshold_judge(m, ctx):
        m.row(k=0)
        v = Verdict.FAILS if ctx.alpha >= 1e-11 else Verdict.INCONCLUSIVE
        return Evidence(v, 0.0, 1.0, "test", 0.1, shortfall=None)

    clear_caches()
    ctx = RunContext(seed=3)
    claim = dataclasses.replace(_claim(), judge=threshold_judge)
    ev = evaluate(claim, ctx)
    a = ev.sampling["alpha_per_look"]
    expected = max(f for f in HEADROOM_FACTORS if a / f >= 1e-11)
    assert alpha_headroom(claim, ctx, ev) == expected and expected < HEADROOM_FACTORS[-1]
    assert with_headroom(claim, ctx, ev).sampling["alpha_headroom"] == expected
    far = evaluate(_claim(), ctx, target=5.0)  # x has mean 1: rejected by far more than any alpha probed
    assert far.verdict == Verdict.FAILS and alpha_headroom(_claim(params={"target": 5.0}), ctx, far) == HEADROOM_FACTORS[-1]
    undecided = evaluate(_claim(), RunContext(seed=3, scale=0.02), tol=1e-4)
    assert undecided.verdict == Verdict.INCONCLUSIVE and alpha_headroom(_claim(), ctx, undecided) is None
    assert headroom_text(None) == "" and "already moves" in headroom_text(1.0)


def test_alpha_headroom_probes_the_last_look_s_data_without_drawing_and_stops_at_the_first_change():
    """The probe judges the look the run stopped at (its look number and replicates),
    draws nothing, keeps only the contiguous run of factors with the same verdict, honours
    the overrides the run was given, and refuses a context whose claim alpha differs."""
    from theory.core import runner
    from theory.core.runner import alpha_headroom

    seen = []

    def late_judge(m, ctx, dip=1e-9):
        seen.append((ctx.look, m.replicates))
        decided = ctx.look >= 2 and not dip * 1e-2 < ctx.alpha < dip  # moves below dip, comes back far below it
        return Evidence(Verdict.FAILS if decided else Verdict.INCONCLUSIVE, 0.0, 1.0, "test", 0.1, shortfall=None)

    clear_caches()
    ctx = RunContext(seed=4)
    claim = dataclasses.replace(_claim(), judge=late_judge)
    ev = evaluate(claim, ctx)
    assert ev.verdict == Verdict.FAILS and ev.sampling["looks"] == 2
    blocks = {k: len(v) for k, v in runner._BLOCKS.items()}
    seen.clear()
    h = alpha_headroom(claim, ctx, ev)
    a = ev.sampling["alpha_per_look"]
    assert h == max(f for f in runner.HEADROOM_FACTORS if a / f >= 1e-9)  # not the larger factors where it returns
    assert set(seen) == {(2, ev.sampling["replicates_per_row"])}
    assert {k: len(v) for k, v in runner._BLOCKS.items()} == blocks
    assert alpha_headroom(claim, ctx, ev, dip=1e-30) == runner.HEADROOM_FACTORS[-1]  # overrides reach the judge
    with pytest.raises(ValueError, match="does not reproduce its verdict"):
        alpha_headroom(claim, ctx, ev, dip=10 * a)  # a judge that no longer decides at the run's own alpha
    with pytest.raises(ValueError, match="claim_alpha must be the run's"):
        alpha_headroom(claim, RunContext(seed=4, claim_alpha=1e-3), ev)


def test_alpha_headroom_is_none_where_nothing_was_decided_or_sampled():
    from theory.core.records import TooFewReplicates
    from theory.core.runner import alpha_headroom, with_headroom

    def too_few_when_probed(m, ctx):
        if ctx.alpha < 1e-7:
            raise TooFewReplicates("x must hold at least 2 replicates")
        return Evidence(Verdict.FAILS, 0.0, 1.0, "test", 0.1, shortfall=None)

    clear_caches()
    ctx = RunContext(seed=2)
    claim = dataclasses.replace(_claim(), judge=too_few_when_probed)
    assert alpha_headroom(claim, ctx, evaluate(claim, ctx)) is None
    exact = Evidence(Verdict.HOLDS, 0.0, 0.0, "exact", 0.0)
    assert with_headroom(_claim(), ctx, exact).sampling is None  # no sampling record: nothing added


def test_groups_keep_the_smallest_and_largest_level_over_tests_and_calls():
    from theory.core.runner import one_sample_summary
    from theory.stats import estimate
    from theory.stats.means import recording_tests

    x = np.random.default_rng(1).lognormal(0, 0.5, 30)
    with recording_tests() as seen:
        a, b, c = estimate(x), estimate(x[::-1]), estimate(x ** 2)
        a.interval(0.02)  # per side 0.01
        a.interval(1e-4, sides=1)  # per side 1e-4: a's range is (1e-4, 0.01)
        b.interval(0.2, sides=1)  # per side 0.2
        c.p_upper(1.0)  # no level
    (group,) = one_sample_summary(seen)
    assert (group["smallest_level"], group["largest_level"], group["tests_without_level"]) == (1e-4, 0.2, 1)
