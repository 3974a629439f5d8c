"""The depth sweep of Eq. 11 at fixed ||theta_ph|| (theory.zeroinit2019.depth_sweep): the
hand-written gradients against finite differences and Euler's identity (Eq. 8), the
antithetic twin, and the judge on synthetic records with known truth (holds, fails,
underpowered, uninformative rows)."""
import math

import numpy as np
import pytest

from simulations import get_backend
from theory.core import JudgeContext, RunContext, Samples, Verdict
from theory.core.records import Block, Row
from theory.stats import MIN_REPLICATES, TooFewReplicates
from theory.zeroinit2019 import depth_sweep as D

CTX = JudgeContext(RunContext(), 1e-6 / 5)
H, F, INC = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
LOGC = math.log(D.CLASSES)


def _nets(depth=3, reps=4, seed=0):
    be = get_backend(seed=seed).child("test_depth_sweep", depth)
    return be, D.draw_sweep(be, depth, reps, width=6, classes=4, batch=3)


@pytest.mark.parametrize("sign", (1.0, -1.0))
@pytest.mark.parametrize("which", ("W_first_layer", "W_classifier"))
def test_gradients_match_finite_differences(which, sign):
    be, nets = _nets()
    out = D.loss_and_grads(nets, be.xp, sign)
    direction = np.random.default_rng(1).normal(size=nets[which].shape)
    eps = 1e-6
    plus = D.loss_and_grads({**nets, which: nets[which] + eps * direction}, be.xp, sign)["loss"]
    minus = D.loss_and_grads({**nets, which: nets[which] - eps * direction}, be.xp, sign)["loss"]
    grad = out["dW_" + which[2:]]
    if which == "W_classifier":  # the twin's p.h. set is sign * W_fc
        grad = sign * grad
    np.testing.assert_allclose((plus - minus) / (2 * eps), (grad * direction).sum(axis=(-2, -1)), rtol=1e-6, atol=1e-9)


def test_euler_identity_and_fixed_norms():
    be, nets = _nets(depth=5, reps=16)
    for sign in (1.0, -1.0):
        out = D.loss_and_grads(nets, be.xp, sign)
        for s in ("first_layer", "classifier"):
            assert np.max(np.abs(out[f"euler_{s}"])) < 1e-10 * (1 + np.max(np.abs(out["g_times_norm"])))
    norms = D.ph_norms(6, 4)
    for s in ("first_layer", "classifier"):
        np.testing.assert_allclose(np.sqrt((nets[f"W_{s}"] ** 2).sum(axis=(-2, -1))), norms[s], rtol=1e-12)


def test_twin_cancels_the_label_term():
    """l - H = p^T z - z_y, and the twin has z -> -z: the pair mean of G ||theta|| does not
    depend on the labels, while each twin's does."""
    be, nets = _nets(depth=2, reps=8)
    other = {**nets, "labels": (nets["labels"] + 1) % 4}
    a, b = ([D.loss_and_grads(n, be.xp, s)["g_times_norm"] for s in (1.0, -1.0)] for n in (nets, other))
    np.testing.assert_allclose((a[0] + a[1]) / 2, (b[0] + b[1]) / 2, rtol=1e-12, atol=1e-12)
    assert np.max(np.abs(a[0] - b[0])) > 1e-3
    pair = D.sweep_networks(be.child("again"), 2, 8, width=6, classes=4, batch=3)
    assert set(pair) == set(D.SCALARS) and all(np.all(np.isfinite(v)) for v in pair.values())


def test_block_rows_are_host_arrays_per_depth():
    block = D.depth_block(RunContext(), 0, reps=3)
    assert [r.depth for r in block.rows] == list(D.DEPTHS)
    for r in block.rows:
        assert set(r.data) == set(D.SCALARS) and all(isinstance(v, np.ndarray) and v.shape == (3,)
                                                     for v in r.data.values())
    assert block.meta["norms"] == D.ph_norms()


def _record(n, seed, ratio=(2.0, 1.3), slack=1.5, sd=0.1, scale=1.0, depths=D.DEPTHS):
    """Per depth: E[max z] = 0.5 * 1.4^L * scale, E[G ||theta||] = E[max z] - log c + slack,
    E||grad_s|| = ratio_s E[max z] (lognormal-ish multiplicative noise sd)."""
    g = np.random.default_rng(seed)
    rows = []
    for L in depths:
        m = 0.5 * 1.4**L * scale * np.exp(g.normal(0, sd, n) - sd**2 / 2)
        rows.append(Row({"depth": L}, {"max_z": m, "g_times_norm": m - LOGC + slack + g.normal(0, sd, n),
                                      "grad_first_layer": ratio[1] * m * (1 + g.normal(0, sd, n)),
                                      "grad_classifier": ratio[0] * m * (1 + g.normal(0, sd, n))}))
    return Samples([Block(rows, meta={"width": D.WIDTH, "classes": D.CLASSES, "batch": D.BATCH, "depths": depths,
                                      "norms": D.ph_norms()})])


@pytest.mark.parametrize("seed", (0, 1, 2))
def test_judge_on_known_truth(seed):
    assert D.judge_eq11_depth(_record(400, seed), CTX).verdict == H
    # a ratio below Omega's constant 0.5/||theta|| at every depth (W_fc: 0.5/sqrt(10) = 0.158)
    assert D.judge_eq11_depth(_record(400, seed, ratio=(0.1, 1.3)), CTX).verdict == F
    # Eq. 11 violated: E[G ||theta||] below E[max z] - log c by 0.5
    assert D.judge_eq11_depth(_record(400, seed, slack=-0.5), CTX).verdict == F
    # the mutations: log c dropped (slack 1.5 < log c); Omega constant x8 (4/sqrt(10) = 1.26 > ratio 1.0)
    assert D.judge_eq11_depth(_record(400, seed), CTX, log_c_term=0.0).verdict == F
    assert D.judge_eq11_depth(_record(400, seed, ratio=(1.0, 1.0)), CTX, omega_factor=8.0).verdict == F


def test_judge_underpowered_is_inconclusive():
    # every row true (ratio 0.4 >= 0.5/sqrt(10) and >= (1 - log c/E[max z])/sqrt(10)), the minimum of 200
    # replicates per row, too noisy (sd 1) to decide
    ev = D.judge_eq11_depth(_record(MIN_REPLICATES, 3, ratio=(0.4, 0.4), sd=1.0), CTX)
    assert ev.verdict == INC and ev.counterexample is None
    with pytest.raises(TooFewReplicates):  # below the minimum the judge refuses
        D.judge_eq11_depth(_record(MIN_REPLICATES - 1, 3, ratio=(0.4, 0.4), sd=1.0), CTX)


def test_rows_below_log_c_are_uninformative():
    ev = D.judge_eq11_depth(_record(400, 4, scale=0.05, depths=(1, 2)), CTX)
    eq11 = [d for d in ev.details if not d["part"].startswith("Omega")]
    assert eq11 and not any(d["informative"] for d in eq11)
    assert all(d["informative"] for d in ev.details if d["part"].startswith("Omega"))
    assert ev.verdict == H  # the Omega rows bite at every depth
