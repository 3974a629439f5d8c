"""Monte-Carlo measurements for Arpit et al. (2019), drawn in blocks.

Each ``*_block(ctx, block)`` returns one :class:`~theory.core.records.Block`: per
setting (row) a fixed number of independent replicates, their random streams named
by (measurement, row, block), so block b holds the same numbers however the work is
split. The unit of replication is an independent draw of the weights (one network).
Arrays cross to the host here, once, with ``to_host``.

Samples are stored at unit gain where the claimed gain enters as a square factor, so
that judges can apply the printed (or a mutated) gain without re-simulating.
"""
from __future__ import annotations

import math

import numpy as np

from simulations import (
    CONTROL_LAWS,
    ISOTROPIC_LAWS,
    WNLinear,
    WNResidual,
    backward,
    build_resnet,
    forward,
    sample_rows,
    to_host,
)

from ..core import Block, Row, Sampling

__all__ = ["THEOREM_SHAPES", "squared_ratios", "SINGLE_LAYER", "CONTROLS", "LEMMA1", "GAINS", "RESNETS",
           "RESNET_WIDTHS",
           "MULTISTAGE"]

#: (n, m) = (fan-in, fan-out) for the single-layer theorems, m > n included.
THEOREM_SHAPES = ((8, 8), (16, 4), (4, 16))


def _u(law: str, n: int, be):
    """The fixed vector u: along the distorted direction for the controls."""
    u = np.zeros(n)
    if law == "shifted_gaussian":
        u[:] = 1 / math.sqrt(n)
    else:
        u[0] = 1.0
    return be.asarray(u)


def _unit_rows(R, xp):
    return R / xp.sqrt(xp.sum(R * R, axis=-1, keepdims=True))


def _positive_inputs(be, reps: int, n: int):
    """One ReLU-output-like input per replicate: max(g, 0) + 0.1, g ~ N(0, I)."""
    xp = be.xp
    return xp.maximum(be.normal((reps, n)), 0) + 0.1


def _exact(x, xp):
    """Per-replicate values rounded to 12 decimals (far below every tolerance): a
    quantity that is constant on every draw (||R_hat^T u||^2 for orthogonal rows)
    then has exactly zero sample variance instead of a floating-point one that a
    t-test would read as signal."""
    return np.round(to_host(x), 12)


def single_layer_block(ctx, block: int, reps: int = 4_000) -> Block:
    """Theorems 1 and 2 at unit gain, per isotropic law (or Haar-orthogonal rows) and
    shape (n, m):

    - ``thm1``: Theorem 1's ||ReLU(R_hat u)||^2 / ||u||^2 averaged over the antithetic
      pair R and -R, i.e. ||R_hat u||^2 / (2 ||u||^2) (times 2n/m gives ||v||^2). Every
      law here is symmetric (R and -R have the same law: isotropic rows, Haar
      matrices), so the pair average has the same expectation with less variance;
    - ``thm2_masked``: ||z * (R_hat^T u)||^2 / ||u||^2, u in R^m, z iid Bernoulli(1/2)
      (times 2 gives Theorem 2's ||v||^2). Here u = 1/sqrt(m) (all ones): with a basis
      vector u, R_hat^T u is one row and footnote 8's comparison would be vacuous;
    - ``thm2``: its conditional expectation given the weights, ||R_hat^T u||^2 / 2 (the
      mask is independent of the weights with E z_i = E z_i^2 = 1/2: Rao-Blackwellized,
      the same mean with the mask's variance removed).
    """
    rows = []
    for i, law in enumerate(ISOTROPIC_LAWS):
        for j, (n, m) in enumerate(THEOREM_SHAPES):
            be = ctx.stream("arpit2019.single_layer", i, j, block)
            xp = be.xp
            Rh = _unit_rows(sample_rows(law, be, reps, m, n), xp)
            a = xp.matmul(Rh, _u(law, n, be))
            back = xp.matmul(xp.swapaxes(Rh, -1, -2), _u("shifted_gaussian", m, be))  # u = 1/sqrt(m)
            z = be.uniform(back.shape) < 0.5
            rows.append(Row({"law": law, "n": n, "m": m},
                            {"thm1": _exact(xp.sum(a * a, axis=-1) / 2, xp),
                             "thm2": _exact(xp.sum(back * back, axis=-1) / 2, xp),
                             "thm2_masked": to_host(xp.sum((back * z) ** 2, axis=-1))}))
    return Block(rows)


def controls_block(ctx, block: int, reps: int = 4_000) -> Block:
    """Theorem 1's ||ReLU(R_hat u)||^2 / ||u||^2 at unit gain (no antithetic pairing:
    the shifted law is not symmetric) for the non-isotropic control laws, u along the
    distorted direction."""
    rows = []
    for i, law in enumerate(CONTROL_LAWS):
        for j, (n, m) in enumerate(THEOREM_SHAPES):
            be = ctx.stream("arpit2019.controls", i, j, block)
            xp = be.xp
            a = xp.matmul(_unit_rows(sample_rows(law, be, reps, m, n), xp), _u(law, n, be))
            rows.append(Row({"law": law, "n": n, "m": m}, {"thm1": to_host(xp.sum(xp.maximum(a, 0) ** 2, axis=-1))}))
    return Block(rows)


def lemma1_block(ctx, block: int, m: int = 4, n: int = 12, reps: int = 50_000) -> Block:
    """Codes (0..2^m - 1) of the ReLU-mask patterns 1(W h > 0) for h >= 0 (a ReLU
    output, one per replicate), for Gaussian and Haar-orthogonal W (Lemma 1)."""
    rows = []
    for i, law in enumerate(("gaussian", "haar_orthogonal")):
        be = ctx.stream("arpit2019.lemma1", i, block)
        xp = be.xp
        h = _positive_inputs(be, reps, n)
        mask = xp.matmul(sample_rows(law, be, reps, m, n), h[..., None])[..., 0] > 0
        code = xp.sum(mask * (2 ** xp.arange(m)), axis=-1)
        rows.append(Row({"law": law, "m": m, "n": n}, {"code": to_host(code).astype(np.int16)}))
    return Block(rows)


def gain_block(ctx, block: int, shapes=((16, 8), (8, 16)), reps: int = 4_000) -> Block:
    """One WN ReLU layer at unit gain, Haar-orthogonal and Gaussian directions, each
    draw averaged with its antithetic twin -W (both laws are symmetric; -W flips the
    ReLU mask to its complement): forward ||ReLU(W_hat h)||^2/||h||^2 and backward
    ||W_hat^T (mask * e)||^2/||e||^2 with e ~ N(0, I) independent of the layer."""
    rows = []
    for i, law in enumerate(("haar_orthogonal", "gaussian")):
        for j, (n_in, n_out) in enumerate(shapes):
            be = ctx.stream("arpit2019.gains", i, j, block)
            xp = be.xp
            W = _unit_rows(sample_rows(law, be, reps, n_out, n_in), xp)
            h = _positive_inputs(be, reps, n_in)
            a = xp.matmul(W, h[..., None])[..., 0]
            fwd = xp.sum(a * a, axis=-1) / (2 * xp.sum(h * h, axis=-1))
            e = be.normal((reps, n_out))
            Wt = xp.swapaxes(W, -1, -2)
            d_pos = xp.matmul(Wt, ((a > 0) * e)[..., None])[..., 0]
            d_neg = xp.matmul(Wt, ((a <= 0) * e)[..., None])[..., 0]
            bwd = (xp.sum(d_pos * d_pos, axis=-1) + xp.sum(d_neg * d_neg, axis=-1)) / (2 * xp.sum(e * e, axis=-1))
            rows.append(Row({"law": law, "n_in": n_in, "n_out": n_out},
                            {"fwd": _exact(fwd, xp), "bwd": _exact(bwd, xp)}))
    return Block(rows)


def _flip_branches(ops) -> list:
    """The antithetic twin of a ResNet: every block's last layer W2 replaced by -W2
    (F_b -> -F_b). Haar and Gaussian directions are symmetric, so the twin has the
    same law; their average has the same expectation, and the cross terms
    2 alpha <h, F_b(h)> of the first block cancel exactly in it."""
    out = []
    for op in ops:
        if isinstance(op, WNResidual):
            fc2 = WNLinear(v=-op.fc2.v, g=op.fc2.g, b=op.fc2.b)
            out.append(WNResidual(op.fc1, fc2, op.alpha))
        else:
            out.append(op)
    return out


def squared_ratios(ops, x, e, xp) -> tuple:
    """Per network and input: log of ||h^b||^2/||x||^2 (b = 0..B) and of
    ||dl/dh^b||^2/||dl/dh^B||^2 with dl/dh^B = e (b = 0..B)."""
    tape = forward(ops, x, xp, renormalize=True)
    lg, _ = backward(ops, tape, e, xp)
    return 2 * (tape.log_norms - tape.log_norms[..., :1]), 2 * (lg - lg[..., -1:])


def _resnet_ratios(be, B: int, d: int, k: int, init: str, N: int, antithetic: bool = False) -> dict:
    """Per-network squared ratios of N networks: forward ||h^B||^2/||x||^2, backward at
    the last block ||dl/dh^{B-1}||^2/||dl/dh^B||^2, at h^1 ||dl/dh^1||^2/||dl/dh^B||^2
    and at the input ||dl/dh^0||^2/||dl/dh^B||^2 (each averaged with the antithetic
    twin if ``antithetic``), and the (unsquared) norm ratios of the network itself
    (forward, backward at the input and at h^1)."""
    xp = be.xp
    ops = build_resnet(be, [d, d], [B], [k], init, n_networks=N)
    x, e = be.normal((N, 1, d)), be.normal((N, 1, d))
    lf, lg = squared_ratios(ops, x, e, xp)
    out = {"fwd_norm": to_host(xp.exp(lf[:, 0, -1] / 2)), "bwd_norm": to_host(xp.exp(lg[:, 0, 0] / 2)),
           "bwd_h1_norm": to_host(xp.exp(lg[:, 0, 1] / 2))}
    def pick(f, g):
        return {"fwd": xp.exp(f[:, 0, -1]), "bwd_last": xp.exp(g[:, 0, -2]), "bwd_h1": xp.exp(g[:, 0, 1]),
                "bwd_input": xp.exp(g[:, 0, 0])}

    sq = pick(lf, lg)
    if antithetic:
        twin = pick(*squared_ratios(_flip_branches(ops), x, e, xp))
        sq = {k2: (v + twin[k2]) / 2 for k2, v in sq.items()}
    return {**out, **{k2: to_host(v) for k2, v in sq.items()}}


def resnet_block(ctx, block: int, blocks=(1, 2, 8), reps: int = 1_000) -> Block:
    """WN ResNets with the proposed gains (alpha absorbed into FC2), per init and B,
    residual width 16 and hidden width 24 (fan-in != fan-out inside the block); each
    network averaged with its antithetic twin (W2 -> -W2 in every block)."""
    rows = []
    for i, init in enumerate(("proposed_orthogonal", "proposed_he")):
        for j, B in enumerate(blocks):
            be = ctx.stream("arpit2019.resnets", i, j, block)
            rows.append(Row({"init": init, "B": B}, _resnet_ratios(be, B, 16, 24, init, reps, antithetic=True)))
    return Block(rows)


def resnet_width_block(ctx, block: int, B: int = 4, widths=(8, 16, 32, 64, 128), reps: int = 500) -> Block:
    """Norm (not squared) ratios of Theorems 3-4 over a width ladder (d = k = width): forward
    ||h^B||/||x||, backward at the input ||dl/dh^0||/||dl/dh^B|| and at h^1 (Eq. 8 as printed)."""
    rows = []
    for j, w in enumerate(widths):
        r = _resnet_ratios(ctx.stream("arpit2019.resnet_widths", j, block), B, w, w, "proposed_he", reps)
        rows.append(Row({"width": w, "B": B},
                        {"fwd": r["fwd_norm"], "bwd": r["bwd_norm"], "bwd_h1": r["bwd_h1_norm"]}))
    return Block(rows)


#: Networks per block of the multi-stage check: the Hanin scheme's large early branches
#: (g = 0.9^b) make its ratio the most variable.
MULTISTAGE_REPS = {"proposed_orthogonal": 1_000, "hanin_stagewise": 2_000, "pytorch_default": 1_000}


def multistage_block(ctx, block: int, dims=(8, 16, 24), blocks=(3, 6)) -> Block:
    """||out||^2/||in||^2 of a multi-stage WN ResNet (projection shortcuts between
    stages, hidden width = stage width) for the proposed, Hanin and PyTorch schemes,
    each network averaged with its antithetic twin (W2 -> -W2 in every block; the
    projections are kept)."""
    rows = []
    for i, (init, reps) in enumerate(MULTISTAGE_REPS.items()):
        be = ctx.stream("arpit2019.multistage", i, block)
        xp = be.xp
        ops = build_resnet(be, list(dims), list(blocks), list(dims[1:]), init, n_networks=reps)
        x = be.normal((reps, 1, dims[0]))
        pair = [forward(o, x, xp, renormalize=True).log_norms for o in (ops, _flip_branches(ops))]
        ratio = sum(xp.exp(2 * (ln[:, 0, -1] - ln[:, 0, 0])) for ln in pair) / 2
        rows.append(Row({"init": init}, {"fwd": to_host(ratio)}))
    return Block(rows, meta={"dims": dims, "blocks": blocks})


# Sampling plans (blocks at the first look and at most, at --mc-scale 1).
SINGLE_LAYER = Sampling(draw=single_layer_block, first=16, budget=32, threads=1)
CONTROLS = Sampling(draw=controls_block, first=8, budget=32, threads=1)
LEMMA1 = Sampling(draw=lemma1_block, first=1, budget=16, threads=1)
GAINS = Sampling(draw=gain_block, first=8, budget=32, threads=1)
RESNETS = Sampling(draw=resnet_block, first=16, budget=32, threads=1)
RESNET_WIDTHS = Sampling(draw=resnet_width_block, first=4, budget=64, threads=1)
MULTISTAGE = Sampling(draw=multistage_block, first=16, budget=32, threads=1)
