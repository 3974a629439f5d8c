"""The Table 1 and LSUV judges on synthetic records with known answers: a ratio inside,
outside and across a band; per-network slopes exactly at, near and away from the
claimed exponent."""
import numpy as np
import pytest
from hypothesis import given, settings

from tests.strategies import seeds
from theory.core import Block, JudgeContext, Row, RunContext, Samples, Verdict
from theory.stats import MIN_REPLICATES, TooFewReplicates
from theory.zeroinit2019 import hessian_table1 as T
from theory.zeroinit2019 import lsuv_checks as Q

CTX = JudgeContext(RunContext(), 1e-6 / 3)


def _table1(ratio, spread, n, seed, scheme="zeroinit"):
    g = np.random.default_rng(seed)
    rows = [Row({"scheme": scheme, "depth": 10}, {"log_norm": g.normal(0.0, spread, n), "iterations": np.full(n, 9.0)}),
            Row({"scheme": scheme, "depth": 64}, {"log_norm": g.normal(np.log(ratio), spread, n),
                                                   "iterations": np.full(n, 9.0)})]
    return Samples([Block(rows, meta={"scheme": scheme})])


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_ratio_judge_on_known_ratios(seed):
    assert T.judge_ratio(_table1(1.2, 0.05, 400, seed), CTX, "small").verdict == Verdict.HOLDS
    assert T.judge_ratio(_table1(30.0, 0.05, 400, seed), CTX, "small").verdict == Verdict.FAILS
    assert T.judge_ratio(_table1(3.0, 0.5, 200, seed), CTX, "small").verdict == Verdict.INCONCLUSIVE
    assert T.judge_ratio(_table1(1e4, 0.5, 200, seed, "baseline"), CTX, "very_large").verdict == Verdict.HOLDS
    assert T.judge_ratio(_table1(0.01, 0.5, 200, seed, "half_scaling"), CTX,
                         "depth_affected_down").verdict == Verdict.HOLDS


def test_ratio_judge_reports_a_shortfall_when_straddling():
    ev = T.judge_ratio(_table1(3.3, 0.5, 200, 1), CTX, "small")
    assert ev.verdict == Verdict.INCONCLUSIVE and ev.shortfall > 1
    assert ev.plot["kind"] == "means"
    with pytest.raises(TooFewReplicates):  # a Welch comparison needs 200 networks per depth
        T.judge_ratio(_table1(3.3, 0.5, MIN_REPLICATES - 1, 1), CTX, "small")


def _lsuv(n, slope_sd, seed, shift=0.0):
    g = np.random.default_rng(seed)
    depths = np.asarray(Q.FIT_DEPTHS, float)
    data = {}
    for q, e in (("stream", 1.0), ("w1", -1.0), ("w2", 0.0)):
        s = e + shift + g.normal(0, slope_sd, n)
        data[f"{q}_slope"] = s
        data[f"{q}_at"] = depths[None, :] ** s[:, None]
    return Samples([Block((Row({"blocks": Q.BLOCKS}, data),), meta={"depths": Q.FIT_DEPTHS})])


@pytest.mark.parametrize("quantity, right, wrong", [("stream", 1.0, 2.0), ("w1", -1.0, -2.0), ("w2", 0.0, -1.0)])
def test_lsuv_judge_resolves_exact_power_laws(quantity, right, wrong):
    m = _lsuv(200, 1e-4, 0)
    assert Q.judge_lsuv(m, CTX, quantity, right).verdict == Verdict.HOLDS
    assert Q.judge_lsuv(m, CTX, quantity, wrong).verdict == Verdict.FAILS


def test_lsuv_judge_is_inconclusive_when_networks_disagree():
    ev = Q.judge_lsuv(_lsuv(200, 0.5, 1), CTX, "stream", 1.0)
    assert ev.verdict == Verdict.INCONCLUSIVE and ev.shortfall > 1


def test_lsuv_judge_fails_an_exponent_off_by_twice_the_tolerance():
    m = _lsuv(400, 0.05, 2, shift=2 * Q.EXPONENT_TOLERANCE)
    assert Q.judge_lsuv(m, CTX, "w1", -1.0).verdict == Verdict.FAILS


def test_table1_block_names_a_bad_model():
    with pytest.raises(ValueError, match="model must be 'flat' or 'groups'"):
        T.table1_block(RunContext(), 0, "batchnorm", model="conv")


def test_batchnorm_is_measured_on_the_grouped_analogue():
    """Table 1's BatchNorm row uses the WRN analogue with groups; the other rows the flat one."""
    assert {s: T.SAMPLINGS[s].draw.keywords["model"] for s in T.SAMPLINGS} == {
        "baseline": "flat", "half_scaling": "flat", "lsuv": "flat", "zeroinit": "flat", "batchnorm": "groups"}
