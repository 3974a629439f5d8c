"""Sec. 6 (related work) of the ZeroInit/Fixup submission on LSUV (Mishkin & Matas 2015):
'dividing the weight parameters of the layers by the observed standard deviation of
their output using the first mini-batch ... achieves the linear scaling of the variance
obtained by BatchNorm, but leads the variance of the parameters at different depth
Var[W_l] = O(1/l)'.

Setup: the ``lsuv`` networks of :mod:`simulations.hessian.classifiers` (dense pre-activation
ResNets, orthonormal start, every linear layer rescaled to unit output variance on the
first batch, tolerance 0.1), width 32, batch 1024 of N(0, I) inputs, up to 512 blocks.
Per network and block l: Var[x_l] over the batch and features, and the empirical
variance of the entries of the branch's first and second weight matrices.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sst

from simulations import get_backend
from simulations.core import to_host
from simulations.hessian import ResidualBlock, build_classifier, synthetic_batch
from ..evidence import Evidence, Verdict
from ..judging import mc_alpha

H, F, I = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE
BLOCKS = 512
#: Depths at which the power laws are fitted (the claims are asymptotic in l).
FIT_DEPTHS = (64, 128, 256, 512)
WIDTH, BATCH = 32, 1024
#: Exponent resolution, as for the other power laws of this paper.
EXPONENT_TOLERANCE = 0.05


def lsuv_measure(ctx, networks: int = 48) -> dict:
    """Per network (rows) and block l = 0..BLOCKS (columns): Var[x_l]; per block l >= 1:
    variance of the entries of the branch's first and second weight matrix."""
    n = max(4, int(round(networks * ctx.scale)))
    be = get_backend(ctx.backend, seed=ctx.seed).spawn(4300)
    xp = be.xp
    x, _ = synthetic_batch(be, n, BATCH, WIDTH, 2)
    layers = build_classifier(be, "lsuv", WIDTH, BLOCKS, 2, n, data=x)
    var_x, w1, w2 = [xp.var(x, axis=(1, 2))], [], []
    for layer in layers:
        if not isinstance(layer, ResidualBlock):
            break
        x = layer.forward(x, None, None, xp)[0]
        var_x.append(xp.var(x, axis=(1, 2)))
        first, second = layer.params  # the lsuv branch: Linear, ReLU, Linear
        w1.append(xp.var(first, axis=(1, 2)))
        w2.append(xp.var(second, axis=(1, 2)))
    return {"var_x": to_host(xp.stack(var_x, 1)), "var_w1": to_host(xp.stack(w1, 1)),
            "var_w2": to_host(xp.stack(w2, 1)), "networks": n}


def _slopes(samples):
    """Per network, the least-squares slope of log(sample) on log(l) over FIT_DEPTHS (the
    depths of one network are correlated, so the networks are the independent units)."""
    ls = np.asarray(FIT_DEPTHS)
    return np.polyfit(np.log(ls), np.log(samples[:, ls - 1]).T, 1)[0]


def judge_lsuv(m, ctx, quantity: str = "stream", exponent: float = 1.0, subtests: int = 1) -> Evidence:
    """quantity 'stream': Var[x_l] - Var[x_0] ~ l^exponent (the 'linear scaling');
    'w1'/'w2': Var[W_l] of the branch's first/second layer ~ l^exponent. t-interval of
    the mean per-network log-log slope over FIT_DEPTHS; fails if it excludes
    ``exponent``, holds if it contains it and is narrower than +-EXPONENT_TOLERANCE
    (alpha split over ``subtests``)."""
    alpha = mc_alpha(subtests)
    samples = {"stream": m["var_x"][:, 1:] - m["var_x"][:, :1], "w1": m["var_w1"], "w2": m["var_w2"]}[quantity]
    slopes = _slopes(samples)
    mean, se = float(slopes.mean()), float(slopes.std(ddof=1) / math.sqrt(slopes.size))
    half = float(sst.t.isf(alpha / 2, slopes.size - 1)) * se
    lo, hi = mean - half, mean + half
    verdict = (H if half <= EXPONENT_TOLERANCE else I) if lo <= exponent <= hi else F
    measured = {"exponent": mean, "interval": [lo, hi]}
    ls = np.asarray(FIT_DEPTHS)
    return Evidence(
        verdict=verdict, measured=measured, expected=exponent,
        margin=(min(exponent - lo, hi - exponent) if verdict != F else -min(abs(exponent - lo), abs(exponent - hi))),
        margin_unit="exponent units between the claimed exponent and the interval's nearer end",
        method=f"{m['networks']} LSUV networks (dense pre-activation ResNets, width {WIDTH}, {BLOCKS} blocks, batch "
               f"{BATCH}); per-network log-log slope over blocks {FIT_DEPTHS}, t-interval, alpha = {alpha:.2e}",
        resolution=f"exponent interval half-width {half:.3f} (required <= {EXPONENT_TOLERANCE})",
        counterexample={"quantity": quantity, **measured, "claimed": exponent} if verdict == F else None,
        details=[{"quantity": quantity, "block": int(l), "mean": float(samples[:, l - 1].mean())} for l in ls])
