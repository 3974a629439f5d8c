"""Monte-Carlo measurements of proof steps of Arpit et al. (2019): the per-unit
expectations of the proof of Theorem 5 (Eq. 10-17) and footnote 4's deeper residual
blocks. Blocks as in :mod:`.montecarlo`: one replicate is one independent weight draw,
streams named by (measurement, row, block)."""
from __future__ import annotations

import math

from simulations import ISOTROPIC_LAWS, draw_layer, sample_rows, to_host, wn_forward

from ..core import Block, Row, Sampling

__all__ = ["UNITS", "DEEP_BLOCKS", "unit_block", "deep_block_block"]


def unit_block(ctx, block: int, n: int = 4, m: int = 4, reps: int = 40_000) -> Block:
    """Proof of Theorem 5, Eq. 12-17, per law and unit i in {1, m}: m v_i^2 / ||u||^2 with
    v = ReLU(sqrt(2n/m) R_hat u), u = e_1, i.e. 2n max(0, cos theta_i)^2 (no antithetic
    pairing: the ReLU's half is what Eq. 17 computes). The laws differ in their radial
    part only (Eq. 15-16: it drops out); Haar rows are not independent (Eq. 12: each
    row is still marginally uniform)."""
    rows = []
    for i, law in enumerate(ISOTROPIC_LAWS):
        be = ctx.stream("arpit2019.units", i, block)
        xp = be.xp
        # iid rows: units 1 and m are two independent rows; Haar rows: the whole matrix
        R = sample_rows(law, be, reps, m, n) if law == "haar_orthogonal" else sample_rows(law, be, reps, 2, n)
        cos = R[..., 0] / xp.sqrt(xp.sum(R * R, axis=-1))
        for unit, col in ((1, 0), (m, -1)):
            rows.append(Row({"law": law, "unit": unit, "n": n, "m": m},
                            {"unit_value": to_host(2 * n * xp.maximum(cos[:, col], 0) ** 2)}))
    return Block(rows)


def _deep_residual(be, x, B: int, depth: int, d: int, k: int, flip: bool):
    """h^B of a ResNet whose blocks are depth x [FC -> ReLU] -> FC (footnote 4) with the
    proposed gains: gamma = 2 on the ReLU layers, 1/B on the last (alpha absorbed);
    Gaussian directions. ``flip`` negates every last layer (the antithetic twin)."""
    xp = be.xp
    N = x.shape[0]
    h = x
    layers = []
    for _ in range(B):
        widths = [d] + [k] * depth + [d]
        block = [draw_layer(be, N, a, b, "gaussian", math.sqrt(2.0 * a / b)) for a, b in zip(widths[:-2], widths[1:-1])]
        block.append(draw_layer(be, N, k, d, "gaussian", math.sqrt(k / (B * d))))
        layers.append(block)
    outs = []
    for sign in ((1.0, -1.0) if flip else (1.0,)):
        h = x
        for block in layers:
            z = h
            for layer in block[:-1]:
                z = xp.maximum(wn_forward(layer, z, xp, bias=False), 0)  # draw_layer: zero biases
            h = h + sign * wn_forward(block[-1], z, xp, bias=False)
        outs.append(xp.sum(h * h, axis=-1)[:, 0] / xp.sum(x * x, axis=-1)[:, 0])
    return sum(outs) / len(outs)


def deep_block_block(ctx, block: int, B: int = 2, depths=(1, 2, 3), d: int = 8, k: int = 12,
                     reps: int = 4_000) -> Block:
    """Footnote 4: ||h^B||^2/||x||^2 for residual blocks of ``depth`` ReLU layers and a
    linear last layer, each network averaged with its antithetic twin (last layers
    negated)."""
    rows = []
    for i, depth in enumerate(depths):
        be = ctx.stream("arpit2019.deep_blocks", i, block)
        x = be.normal((reps, 1, d))
        rows.append(Row({"depth": depth, "B": B}, {"fwd": to_host(_deep_residual(be, x, B, depth, d, k, True))}))
    return Block(rows)


UNITS = Sampling(draw=unit_block, first=8, budget=16, threads=1)
DEEP_BLOCKS = Sampling(draw=deep_block_block, first=12, budget=24, threads=1)
