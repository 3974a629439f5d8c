"""Measurements on ReLU networks for Daneshmand et al. (2021): Footnote 2 (Eq. 6's
initialization through ReLU layers keeps Sigma_l invertible) and the ConvNet panel of
Appendix Figure 6 (random convolutional networks with and without BN).

The settings follow the authors' notebooks (github.com/hadidaneshmand/batchnorm21):
``Figures_3_4.ipynb`` cell 14 (``improved_init``: batch of 3 x width samples, the first
layer keeps its Xavier weights, every later layer gets Eq. 6 from the SVD of its input)
and ``Figure_5.ipynb`` cells 3-4 (``ConvNet2D``: 30 x [ReLU -> 3x3 convolution, 100
channels, stride 1 -> BatchNorm2d or nothing], batch 8; its padding mode is the class
default 'reflect', since ``default_convnet`` does not pass its ``padding_mode='zero'``).
"""
from __future__ import annotations

import numpy as np

from simulations import gap_from_gram, haar_orthogonal, to_host
from simulations.bn_chains import eq6_weight
from simulations.relu_nets import conv2d

from ..core import Block, Row, Sampling
from .montecarlo import correlated_input

__all__ = ["footnote2_measure", "convnet_block", "CONVNET", "CONVNET_DEEP"]


def _relu_net_eq6(be, variant: str, d: int, n: int, layers: int, haar=None) -> dict:
    """One ReLU MLP of width d on a batch of n samples: layer 1 Gaussian (Xavier up to
    scale), layers 2..``layers`` initialized by Eq. 6 (``variant``: an
    :data:`~simulations.bn_chains.EQ6_VARIANTS` entry, or ``"haar"``: V' Haar-random,
    drawn afresh per layer from the host stream ``haar``, W = V' W(V' = I)) from the SVD
    of their input; the whole network runs on the host in float64. Returns
    log10 cond(H_l) per layer, and the first layer where Sigma_l is singular (None if
    never)."""
    rng = be.host_rng
    H = np.maximum(rng.standard_normal((d, d)) @ rng.standard_normal((d, n)), 0)
    conds, singular = [], None
    for layer in range(2, layers + 1):
        s = np.linalg.svd(H, compute_uv=False)
        conds.append(float(np.log10(s[0] / s[-1])) if s[-1] > 0 else np.inf)
        if s[-1] <= s[0] * d * np.finfo(float).eps:
            singular = layer
            break
        if variant == "haar":
            W = haar_orthogonal(haar, 1, d, d)[0] @ eq6_weight(H, "orthogonal")
        else:
            W = eq6_weight(H, variant)
        H = np.maximum(W @ H, 0)
    return {"log10_cond": conds, "singular_at": singular}


def footnote2_measure(ctx, d: int = 50, n: int = 150, layers: int = 15, runs: int = 8) -> dict:
    """Footnote 2 in ReLU MLPs: per variant of V' (``printed``: sliced from V, as the
    formula and the authors' code; orthogonal V' as the text describes it:
    ``orthogonal`` V' = I and ``flipped`` V' = -I, with the SVD's signs fixed by
    :func:`~simulations.bn_chains.eq6_weight`, and ``haar``: V' Haar-random per layer),
    ``runs`` networks with inputs of iid N(0, 1) entries (n = 3 d as in the authors'
    ``improved_init``)."""
    out = {"d": d, "n": n, "layers": layers, "runs": runs}
    for variant in ("printed", "orthogonal", "flipped", "haar"):
        be = ctx.stream("daneshmand2021.footnote2", variant)
        haar = ctx.host_stream("daneshmand2021.footnote2", variant, "haar")
        out[variant] = [_relu_net_eq6(be, variant, d, n, layers, haar) for _ in range(runs)]
    return out


def _reflect_conv(x, W, xp):
    """3x3 convolution, stride 1, 'reflect' padding (torch's padding_mode='reflect')."""
    pad = W.shape[-1] // 2
    widths = [(0, 0)] * (x.ndim - 2) + [(pad, pad), (pad, pad)]
    return conv2d(xp.pad(x, widths, mode="reflect"), W, stride=1, pad=0, xp=xp)


def _convnet_gaps(be, x, depth: int, channels: int, bn: bool):
    """V per layer (input included) of 30 x [ReLU -> conv 3x3 -> BatchNorm2d or nothing]
    for one batch x (B, C, H, W); BN centres and scales each channel over the batch and
    the positions (its affine part starts at the identity). V is scale-free, so the
    weights are N(0, 1) (Xavier only rescales)."""
    xp = be.xp
    gaps = []
    for layer in range(depth + 1):
        F = x.reshape(x.shape[0], -1)
        gaps.append(float(to_host(gap_from_gram(F @ F.T, xp))))
        if layer == depth:
            break
        W = be.normal((channels, x.shape[1], 3, 3))
        x = _reflect_conv(xp.maximum(x, 0), W, xp)
        if bn:
            x = x - x.mean(axis=(0, 2, 3), keepdims=True)
            x = x / xp.sqrt((x**2).mean(axis=(0, 2, 3), keepdims=True) + 1e-30)
        x = x / xp.linalg.norm(x)
    return np.asarray(gaps)


#: Depth to which the BN ConvNets are continued past Figure 6's 30 layers: whether the
#: level the figure shows stays constant with regard to depth (the last five layers,
#: 70..75, against the figure's last five, 25..30).
CONVNET_DEEP = 75


def convnet_block(ctx, block: int, depth: int = 30, channels: int = 100, batch: int = 8, size: int = 16,
                  nets: int = 4, rho: float = 0.8, deep: int = CONVNET_DEEP) -> Block:
    """Appendix Figure 6 (ConvNet panel): per network (one batch of ``batch`` 3 x size x
    size images with pairwise cosine ~ ``rho``, a stand-in for CIFAR-10), V at the input
    and at layer ``depth`` (the figure's last), and its means over layers 20..25 and
    25..30 (the last third: with BN the ConvNet's gap takes about 20 layers to reach its
    level), with and without BN (independent networks). The BN networks continue to
    layer ``deep`` (their first ``depth`` layers are the same draws): ``deep`` is the
    mean V over its last five layers."""
    if deep < depth:
        raise ValueError(f"deep must be at least depth ({depth}), got {deep}")
    rows = []
    for j, bn in enumerate((True, False)):
        vals = {k: np.empty(nets) for k in ("first", "last", "early", "late") + (("deep",) if bn else ())}
        for r in range(nets):
            be = ctx.stream("daneshmand2021.convnet", j, block, r)
            x = correlated_input(be, 1, 3 * size * size, batch, rho)[0].T.reshape(batch, 3, size, size)
            g = _convnet_gaps(be, x, deep if bn else depth, channels, bn)
            vals["first"][r], vals["last"][r] = g[0], g[depth]
            vals["early"][r], vals["late"][r] = g[20:26].mean(), g[25:31].mean()
            if bn:
                vals["deep"][r] = g[deep - 5:deep + 1].mean()
        rows.append(Row({"variant": "bn" if bn else "vanilla"}, vals))
    return Block(rows, meta={"depth": depth, "channels": channels, "batch": batch, "size": size, "rho": rho,
                             "deep": deep})


#: 4 networks per variant and block: 200 at the first look (a mean test's minimum,
#: theory.stats.MIN_REPLICATES), one doubling as headroom; about 2 s per network on one core.
CONVNET = Sampling(draw=convnet_block, first=50, budget=100, threads=1)
