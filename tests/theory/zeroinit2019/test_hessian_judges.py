"""The Table 1 and LSUV judges on synthetic measurements with known answers: a ratio
inside, outside and across a band; exact power laws with and without noise."""
import numpy as np
import pytest
from hypothesis import given, settings

from theory import Context, Verdict
from theory.zeroinit2019 import hessian_table1 as T
from theory.zeroinit2019 import lsuv_checks as Q
from tests.strategies import seeds


def _table1(ratio, spread, n, seed):
    g = np.random.default_rng(seed)
    norms = {}
    for s in T.TABLE1_SCHEMES:
        norms[(s, 10)] = np.exp(g.normal(0.0, spread, n))
        norms[(s, 64)] = np.exp(g.normal(np.log(ratio), spread, n))
    return {"norms": norms, "max_iterations": 1, "networks": n}


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_ratio_judge_on_known_ratios(seed):
    ctx = Context()
    assert T.judge_ratio(_table1(1.2, 0.05, 400, seed), ctx, "zeroinit", "small").verdict == Verdict.HOLDS
    assert T.judge_ratio(_table1(30.0, 0.05, 400, seed), ctx, "zeroinit", "small").verdict == Verdict.FAILS
    assert T.judge_ratio(_table1(3.0, 0.5, 20, seed), ctx, "zeroinit", "small").verdict == Verdict.INCONCLUSIVE
    assert T.judge_ratio(_table1(1e4, 0.5, 40, seed), ctx, "baseline", "very_large").verdict == Verdict.HOLDS
    assert T.judge_ratio(_table1(0.01, 0.5, 40, seed), ctx, "baseline", "depth_affected_down").verdict == Verdict.HOLDS


def _lsuv(n, noise, seed):
    g = np.random.default_rng(seed)
    ls = np.arange(Q.BLOCKS + 1)
    jitter = np.exp(g.normal(0, noise, (n, 1)) * np.log(ls[1:] + 1))  # per-network exponent noise
    var_x = np.concatenate([np.ones((n, 1)), 1 + ls[1:] * jitter], axis=1)
    return {"var_x": var_x, "var_w1": 1 / ls[None, 1:] / jitter, "var_w2": np.ones((n, Q.BLOCKS)) * jitter,
            "networks": n}


@pytest.mark.parametrize("quantity, right, wrong", [("stream", 1.0, 2.0), ("w1", -1.0, -2.0), ("w2", 0.0, -1.0)])
def test_lsuv_judge_resolves_exact_power_laws(quantity, right, wrong):
    m = _lsuv(50, 1e-4, 0)
    assert Q.judge_lsuv(m, Context(), quantity, right).verdict == Verdict.HOLDS
    assert Q.judge_lsuv(m, Context(), quantity, wrong).verdict == Verdict.FAILS


def test_lsuv_judge_is_inconclusive_when_networks_disagree():
    m = _lsuv(10, 0.05, 1)
    assert Q.judge_lsuv(m, Context(), "stream", 1.0).verdict == Verdict.INCONCLUSIVE
