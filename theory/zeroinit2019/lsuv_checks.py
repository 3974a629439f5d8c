"""Sec. 5 (related work) of the ZeroInit/Fixup submission on LSUV (Mishkin & Matas 2015):
'dividing the weight parameters of the layers by the observed standard deviation of
their output using the first mini-batch ... achieves the linear scaling of the variance
obtained by BatchNorm, but leads the variance of the parameters at different depth
Var[W_l] = O(1/l)'.

Setup: the ``lsuv`` networks of :mod:`simulations.hessian` (dense pre-activation
ResNets, orthonormal start, every linear layer rescaled to unit output variance on the
first mini-batch, tolerance 0.1), width 32, a mini-batch of ``BATCH`` N(0, I) inputs,
``BLOCKS`` blocks. Per network and block l: Var[x_l] over the batch and features, and
the empirical variance of the entries of block l's first and second weight matrices.

The unit of replication is a network; the depths of one network are dependent, so each
network contributes one number per quantity: its least-squares log-log slope over
FIT_DEPTHS (16..512). The slopes scatter because each network's stream variance
wanders around its mean (finite-width cross terms between x_l and F_l(x_l)); the
mini-batch size does not change that scatter, so a small one (``BATCH``) keeps each
network cheap and the claim is decided by the number of networks.
"""
from __future__ import annotations

import numpy as np

from simulations import build_classifier, synthetic_batch, to_host
from simulations.hessian import ResidualBlock

from .. import stats
from ..core import Block, Evidence, Row, Sampling, Verdict
from ..judges import exponent_verdict

__all__ = ["BLOCKS", "FIT_DEPTHS", "WIDTH", "BATCH", "EXPONENT_TOLERANCE", "lsuv_block", "LSUV", "slope_evidence",
           "judge_lsuv"]

INC = Verdict.INCONCLUSIVE
BLOCKS = 512
FIT_DEPTHS = (16, 32, 64, 128, 256, 512)
WIDTH, BATCH, PER_BLOCK = 32, 32, 50
#: Exponent tolerance, as for every power law of this paper.
EXPONENT_TOLERANCE = 0.05


def _slopes(values: np.ndarray, depths) -> np.ndarray:
    """Per network (rows), the least-squares slope of log(values) on log(depth)."""
    return np.polyfit(np.log(np.asarray(depths, float)), np.log(values).T, 1)[0]


def lsuv_block(ctx, block: int) -> Block:
    """PER_BLOCK independent LSUV networks (each calibrated on its own mini-batch): per
    network the log-log slopes over FIT_DEPTHS of Var[x_l] - Var[x_0] (the stream) and
    of the entry variances of block l's first (w1, fed by x_(l-1)) and second (w2)
    weight matrices, and those quantities at FIT_DEPTHS."""
    be = ctx.stream("zeroinit2019.lsuv", block)
    xp = be.xp
    x, _ = synthetic_batch(be, PER_BLOCK, BATCH, WIDTH, 2)
    layers = build_classifier(be, "lsuv", WIDTH, BLOCKS, 2, PER_BLOCK, data=x)
    var_x, w1, w2 = [xp.var(x, axis=(1, 2))], [], []
    for layer in layers:
        if not isinstance(layer, ResidualBlock):
            break
        x = layer.forward(x, None, None, xp)[0]
        var_x.append(xp.var(x, axis=(1, 2)))
        first, second = layer.params  # the lsuv branch: ReLU, Linear, ReLU, Linear
        w1.append(xp.var(first, axis=(1, 2)))
        w2.append(xp.var(second, axis=(1, 2)))
    var_x, w1, w2 = (to_host(xp.stack(v, 1)) for v in (var_x, w1, w2))
    idx = np.asarray(FIT_DEPTHS)
    values = {"stream": var_x[:, idx] - var_x[:, :1], "w1": w1[:, idx - 1], "w2": w2[:, idx - 1]}
    data = {f"{k}_slope": _slopes(v, FIT_DEPTHS) for k, v in values.items()}
    data.update({f"{k}_at": v for k, v in values.items()})
    return Block((Row({"blocks": BLOCKS}, data),), meta={"depths": FIT_DEPTHS})


#: First look 4 x 50 = 200 networks, the minimum of the mean test of the slopes (theory.stats).
LSUV = Sampling(draw=lsuv_block, first=4, budget=16, threads=1)


def slope_evidence(slopes, values, depths, claimed: float, tol: float, ctx, method: str, what: str) -> Evidence:
    """The mean of per-network log-log slopes (Student-t interval at ctx.alpha) against
    ``claimed``: fails when the interval excludes it, holds when it lies within
    claimed +- tol, else inconclusive (with the shortfall)."""
    e = stats.estimate(slopes, what)
    lo, hi = e.interval(ctx.alpha)
    verdict = exponent_verdict(lo, hi, claimed, tol)
    half = (hi - lo) / 2
    # an equality with tolerance: held inside claimed +- tol or failed by excluding claimed,
    # each end measured on its own side (the skewness-corrected interval is asymmetric)
    shortfall = stats.shortfall(e.mean, (lo, hi), claimed, (claimed - tol, claimed + tol)) if verdict == INC else None
    geo = np.exp(np.log(values).mean(0))
    measured = {"exponent": e.mean, "interval": [lo, hi], "networks": e.n}
    return Evidence(
        verdict=verdict, measured=measured, expected=claimed,
        margin=min(claimed - lo, hi - claimed) if lo <= claimed <= hi else -min(abs(claimed - lo), abs(claimed - hi)),
        margin_unit="exponent units from the claimed exponent to the nearer interval end (negative: excluded)",
        method=f"{method}; per-network least-squares slope of log({what}) on log(depth) over {list(depths)}; "
               f"Student-t interval of their mean ({e.n} networks, df {e.df:.0f}), alpha = {ctx.alpha:.2e}",
        resolution=f"exponent interval half-width {half:.3f} (tolerance +-{tol:g})",
        counterexample={**measured, "claimed": claimed} if verdict == Verdict.FAILS else None,
        shortfall=shortfall,
        details=[{"depth": int(d), f"geometric_mean_{what}": float(g)} for d, g in zip(depths, geo)],
        plot={"kind": "power_law", "xlabel": "depth l", "ylabel": what,
              "series": [{"label": f"{what} (geometric mean over {e.n} networks)", "x": list(map(float, depths)),
                          "y": [float(g) for g in geo], "se": None, "exponent": e.mean, "interval": [lo, hi]}]},
    )


def judge_lsuv(m, ctx, quantity: str = "stream", exponent: float = 1.0):
    """quantity 'stream': Var[x_l] - Var[x_0] ~ l^exponent (the 'linear scaling');
    'w1'/'w2': Var[W_l] of block l's first/second layer ~ l^exponent."""
    r = m.rows[0]
    what = {"stream": "Var[x_l] - Var[x_0]", "w1": "Var[W_l,1]", "w2": "Var[W_l,2]"}[quantity]
    return slope_evidence(r[f"{quantity}_slope"], r[f"{quantity}_at"], m.meta["depths"], exponent, EXPONENT_TOLERANCE,
                          ctx, f"LSUV networks (dense pre-activation ResNets, width {WIDTH}, {BLOCKS} blocks, "
                               f"mini-batch {BATCH})", what)
