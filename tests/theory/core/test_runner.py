"""The sequential runner: blocks are the same however they are drawn, looks stop at
the first decided verdict, the budget ends the loop, executors give the same data."""
import dataclasses
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from theory.core import (
    Block,
    Claim,
    Evidence,
    Mutation,
    Row,
    RunContext,
    Sampling,
    Verdict,
    clear_caches,
    evaluate,
    samples,
    set_executor,
)
from theory.stats import ALPHA_GUARD, CLAIM_ALPHA, MIN_REPLICATES, mean_equals, mean_within


def _draw(ctx, block):
    be = ctx.stream("tests.runner", block)
    return Block((Row({"k": 0}, {"x": np.asarray(be.normal((MIN_REPLICATES,)) + 1.0)}),))


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
    assert s["alpha_per_look"] == pytest.approx(CLAIM_ALPHA / (ALPHA_GUARD * s["planned_looks"]))
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
    """One replicate per block: a look below the tests' minimum (MIN_REPLICATES) is not
    judged, so the runner says inconclusive (with a hint) at a small budget and judges
    from the first look that has the minimum."""
    claim = _claim()
    claim = Claim(**{**{f: getattr(claim, f) for f in ("id", "where", "statement", "kind", "recorded", "judge")},
                     "measure": Sampling(draw=_draw_one_replicate, first=1, budget=1)})
    clear_caches()
    ev = evaluate(claim, RunContext(seed=9))
    assert ev.verdict == Verdict.INCONCLUSIVE and "2 replicates" in ev.method and "--mc-scale" in ev.settle
    more = Claim(**{**{f: getattr(claim, f) for f in ("id", "where", "statement", "kind", "recorded", "judge")},
                    "measure": Sampling(draw=_draw_one_replicate, first=MIN_REPLICATES // 4, budget=MIN_REPLICATES)})
    ev = evaluate(more, RunContext(seed=9))
    assert ev.sampling["looks"] == 3 and ev.sampling["blocks"] == MIN_REPLICATES and ev.measured is not None
    few = evaluate(more, RunContext(seed=9), tol=1e-4)  # undecided: the first two looks were not judged at all
    assert few.sampling["looks"] == 3 and few.verdict == Verdict.INCONCLUSIVE


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
    """A mean of 1 against target 1 +- 0.1: undecided at a tiny scale; the suggested
    --mc-scale decides it (the estimate stays near 1)."""
    ev = _hint(tol=0.1)
    assert ev.verdict == Verdict.INCONCLUSIVE and "if the estimate stays where it is" in ev.settle
    scale = int(ev.settle.split("--mc-scale ")[1].split()[0])
    clear_caches()
    claim = Claim(**{**{f: getattr(_claim(), f) for f in ("id", "where", "statement", "kind", "recorded")},
                     "measure": SAMPLING, "judge": _judge_with_shortfall})
    assert evaluate(claim, RunContext(seed=8, scale=scale), tol=0.1).verdict == Verdict.HOLDS


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
    level = ev.sampling["alpha_per_look"] / 2  # each tail at half the look's alpha
    assert ev.sampling["one_sample_tests"] == [{"replicates": n, "tests": 1,
                                                "largest_abs_skewness": round(abs(float(st.skew(x))), 3),
                                                "smallest_level": level}]
    skews = abs(float(st.skew(x))), abs(float(st.skew(x[: n // 2] ** 2)))
    assert ev.sampling["welch_tests"] == [{"replicates": [n // 2, n], "tests": 1,
                                           "largest_abs_skewness": round(max(skews), 3), "smallest_level": level}]


def test_groups_keep_the_smallest_level_over_tests_and_calls():
    from theory.core.runner import one_sample_summary
    from theory.stats import estimate
    from theory.stats.means import recording_tests

    x = np.random.default_rng(1).lognormal(0, 0.5, MIN_REPLICATES)
    with recording_tests() as seen:
        a, b, c = estimate(x), estimate(x[::-1]), estimate(x ** 2)
        a.interval(0.02)  # per tail 0.01
        a.interval(2e-4)  # per tail 1e-4
        b.interval(0.4)  # per tail 0.2
        c.p_value(1.0, "upper")  # no level
    (group,) = one_sample_summary(seen)
    assert group["tests"] == 3 and group["smallest_level"] == 1e-4
