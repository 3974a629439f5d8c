"""Judges of theory/daneshmand2021/chain_shapes.py on synthetic slopes with known truth."""
import numpy as np
import pytest

from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.daneshmand2021 import chain_shapes as CS

H, F = Verdict.HOLDS, Verdict.FAILS


def ctx(alpha=1e-6):
    return JudgeContext(RunContext(), alpha)


def _decay(stretch_rates, reps=200, seed=0):
    g = np.random.default_rng(seed)
    rates = np.asarray(stretch_rates, float)
    vals = {f"slope_{a}_{b}": r + g.normal(0, 0.005, reps) for (a, b), r in zip(CS.STRETCHES, rates)}
    vals["slope_all"] = rates.mean() + g.normal(0, 0.002, reps)
    return Samples([Block((Row({"d": 32}, vals),), meta={"n": 4, "depth": 20})])


def test_linear_decay_three_way():
    straight, bent = _decay([-0.1] * 4), _decay([-0.005, -0.15, -0.1, -0.09])
    assert CS.judge_linear_decay(straight, ctx()).verdict == H
    assert CS.judge_linear_decay(bent, ctx()).verdict == F  # flat first stretch
    assert CS.judge_linear_decay(bent, ctx(), linear=False).verdict == H
    assert CS.judge_linear_decay(bent, ctx(), direction=">", linear=False).verdict == F
    with pytest.raises(ValueError, match="linear=False"):
        CS.judge_linear_decay(bent, ctx(), direction=">")


def test_linear_decay_upper_side_can_fail_alone():
    """Every stretch within the stated band (0.5 to 1.5 x the rate): holds. The second
    stretch falls at 1.4 x the rate: a 10% upper side fails on that stretch's upper row
    alone (every lower row holds), named in the counterexample."""
    m = _decay([-0.08, -0.14, -0.09, -0.09])
    assert CS.judge_linear_decay(m, ctx()).verdict == H
    ev = CS.judge_linear_decay(m, ctx(), upper_tol=0.1)
    failing = [d["part"] for d in ev.details if d.get("verdict") == "fails"]
    assert ev.verdict == F and failing == ["layers 6..10 fall at <= 1.1 x the rate"]
    assert ev.counterexample["part"] == failing[0]
    assert all(d["verdict"] == "holds" for d in ev.details if ">=" in d.get("part", ""))
    assert "falls at 0.5 to 1.1 x the overall rate" in ev.method
    assert "within +-0.5 of the overall rate" in CS.judge_linear_decay(m, ctx(), upper_tol=0.5).method
    with pytest.raises(ValueError, match="upper_tol must be None or a number >= 0"):
        CS.judge_linear_decay(m, ctx(), upper_tol=-0.1)


def test_aligned_threshold_and_layer():
    """Almost aligned at the judged depth holds; Figure 1's last layer (|cos| near 0.72)
    fails at 0.9 and holds at 0.5; a layer that was not drawn is refused by name."""
    g = np.random.default_rng(1)
    x = np.zeros((2000, CS.ALIGN_DEPTH + 1))
    x[:, 50] = np.clip(0.72 + g.normal(0, 0.05, 2000), 0, 1)
    x[:, -1] = np.clip(0.97 + g.normal(0, 0.02, 2000), 0, 1)
    m = Samples([Block((Row({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": x}),),
                       meta={"d": 32, "depth": CS.ALIGN_DEPTH})])
    assert CS.judge_aligned(m, ctx()).verdict == H
    failing = CS.judge_aligned(m, ctx(), layer=50)
    assert failing.verdict == F and failing.margin < 0
    assert CS.judge_aligned(m, ctx(), layer=50, threshold=0.5).verdict == H
    with pytest.raises(ValueError, match="layer must be in 0..400"):
        CS.judge_aligned(m, ctx(), layer=401)


def test_aligned_cannot_confirm_on_few_runs_where_student_t_would():
    """A pile just below 1 (a sample in which the law's thin low tail is absent): the
    one-sided Student-t limit would confirm a mean above 0.98 from 100 runs; the
    empirical-Bernstein limit cannot at 100 runs (its 1/n term alone is about 0.3 there)
    and says how far short it is; from many runs it confirms."""
    from scipy import stats as st

    x = np.zeros((100, CS.ALIGN_DEPTH + 1))
    x[:, -1] = 0.995 + np.linspace(-1e-3, 1e-3, 100)
    v = x[:, -1]
    assert v.mean() - st.t.isf(1e-6, 99) * v.std(ddof=1) / 10 > 0.98
    m = Samples([Block((Row({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": x}),),
                       meta={"d": 32, "depth": CS.ALIGN_DEPTH})])
    ev = CS.judge_aligned(m, ctx(), threshold=0.98)
    assert ev.verdict == Verdict.INCONCLUSIVE and ev.shortfall > 1
    big = np.repeat(x, 30, axis=0)
    m = Samples([Block((Row({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": big}),),
                       meta={"d": 32, "depth": CS.ALIGN_DEPTH})])
    assert CS.judge_aligned(m, ctx(), threshold=0.98).verdict == H
    x[0, -1] = 1.5
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        CS.judge_aligned(Samples([Block((Row({"variant": "vanilla", "start": "orthogonal"}, {"abs_cos": x}),),
                                        meta={"d": 32, "depth": CS.ALIGN_DEPTH})]), ctx())
