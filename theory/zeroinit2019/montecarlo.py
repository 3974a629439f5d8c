"""Monte-Carlo measurements of the ZeroInit/Fixup submission, drawn in blocks.

Each ``*_block(ctx, block)`` returns one :class:`~theory.core.records.Block`: per
setting (row) a fixed number of independent replicates, each one network (with its own
inputs), its random stream named by (measurement, row, block). Quantities of different
blocks of one network are kept as separate rows or as separate columns of one row
(judges split alpha over them); they are never pooled as replicates.

Setup of the SGD measurements (Sec. 3): the premise 'the error signal passing to the
branch is O(1)' is realized by the linear loss l = mean_b <g, x_L> with g a uniformly random
unit vector fixed per network (so dl/dx_l = g at initialization, of norm exactly 1),
inputs x_0 ~ N(0, I/n), fresh inputs at every step and for the final measurement,
plain SGD.
"""
from __future__ import annotations

import math

import numpy as np

from simulations import build_classifier, loss_and_grad, synthetic_batch, to_host
from simulations.hessian import ResidualBlock, parameters, set_parameters
from simulations.relu_nets import (
    draw_branch_resnet,
    draw_mlp,
    draw_resnet,
    mlp_forward,
    resnet_backward,
    resnet_forward,
    sgd_step,
)

from ..core import Block, Row, Sampling

__all__ = ["HEADS", "HEADS_SAMPLING", "GROWTH", "GROWTH_BRANCHES", "HALF", "ONE_STEP", "FEW_STEPS", "OUTPUT_SCALE",
           "BN_STREAM", "DENSE", "ONE_STEP_DEPTHS", "FEW_STEP_DEPTHS", "SCHEMES", "BN_FIT_DEPTHS", "DENSE_DEPTHS",
           "DENSE_K0", "DENSE_GROWTH", "DENSE_METHOD"]

#: Widths of the random He MLPs of Eq. 5/10 (the last entry is the number of classes).
HEADS = ((8, 16, 10), (4, 32, 32, 10), (16, 8, 8, 8, 5), (3, 64, 64, 64, 64, 10))
ONE_STEP_DEPTHS = (4, 8, 16, 32, 64, 128)
FEW_STEP_DEPTHS = (2, 4, 8, 16, 32)
#: Few-step schemes: ZeroInit (branch scale L^-1/(2m-2)), zero last layers only (no
#: depth scaling) and principle (b) read as Var[F_l] = Theta(1/L) (scale L^-1/(4m-4)).
SCHEMES = {"zeroinit": ("zeroinit", 1.0), "zero_last": ("zero_last", 1.0), "variance_reading": ("zeroinit", 0.5)}
OUTPUT_DEPTHS = (2, 8, 32)
BN_FIT_DEPTHS = (4, 8, 16, 32, 64, 128)
DENSE_DEPTHS = (4, 16, 32)
#: Footnote 1's dense nets: input features, and features each layer adds.
DENSE_K0, DENSE_GROWTH = 64, 8
#: The method line of Footnote 1's check (zeroinit2019.fn1.densenet_bounded).
DENSE_METHOD = (f"dense-connectivity ReLU nets, He fan-in on the concatenation, growth {DENSE_GROWTH} features per "
                f"layer from {DENSE_K0} inputs, one network per replicate")


def heads_block(ctx, block: int, reps: int = 200, batch: int = 8, scale: float = 3.0) -> Block:
    """Per architecture, ``reps`` random He MLPs, each with ``batch`` inputs: per network
    the batch means of l - max z (Eq. 10) and of l - H(p) - max z + log c, which is
    G(W) ||W|| - (max z - log c) for any p.h. set W (Eq. 4-5:
    G(theta) ||theta|| = (1/M) sum_m (l_m - H(p_m))). The label is uniform and
    independent of the network (the theorem's setting), so each replicate averages l
    over the c labels (its conditional expectation given the network and the inputs:
    logsumexp(z) - mean_i z_i), which removes the label's sampling noise. Also the
    mean of the logits in units of the network's RMS logit and the balance of their
    signs, 2 P(z > 0) - 1 (App. A.2: z is symmetric with mean 0 under Assumption 2),
    and the batch mean of max z (the bounds' side, for their tightness)."""
    rows = []
    for a, widths in enumerate(HEADS):
        be = ctx.stream("zeroinit2019.heads", a, block)
        Ws = draw_mlp(be, widths, "he_fan_in", reps)
        xp = be.xp
        z = mlp_forward(Ws, be.normal((reps, batch, widths[0])) * scale, xp)["z"]
        zmax = z.max(-1, keepdims=True)
        e = xp.exp(z - zmax)
        lse = (zmax + xp.log(e.sum(-1, keepdims=True)))[..., 0]
        p = e / e.sum(-1, keepdims=True)
        ent = lse - (p * z).sum(-1)
        loss = lse - z.mean(-1)  # mean over the c labels
        u = z / xp.sqrt((z**2).mean(axis=(1, 2), keepdims=True))  # logits in units of the network's RMS logit
        rows.append(Row({"widths": widths}, {"eq10": to_host((loss - zmax[..., 0]).mean(-1)),
                                             "eq5": to_host((loss - ent - zmax[..., 0]).mean(-1)
                                                            + math.log(widths[-1])),
                                             "z_mean": to_host(u.mean(axis=(1, 2))),
                                             "z_sign": to_host(xp.sign(u).mean(axis=(1, 2))),
                                             "max_z": to_host(zmax[..., 0].mean(-1))}))
    return Block(rows, meta={"input_scale": scale, "batch": batch})


#: Branches W2 ReLU(W1 x) of the growth measurement: label, (init of W1, init of W2), kappa.
#: ``he_rule`` is He et al. (2015)'s own rule: gain 2 only where a ReLU feeds the layer,
#: so variance 1/n for W1 (it sees the residual stream) and 2/n for W2; it has the same
#: law as ``linear_fan_in`` (ReLU is positively homogeneous) but is drawn on its own.
GROWTH_BRANCHES = (("he_fan_in", ("he_fan_in", "he_fan_in"), 2.0),
                   ("linear_fan_in", ("he_fan_in", "linear_fan_in"), 1.0),
                   ("he_rule", ("linear_fan_in", "he_fan_in"), 1.0))


def growth_block(ctx, block: int, reps: int = 1000, inputs: int = 16, width: int = 16, blocks: int = 3) -> Block:
    """Residual streams x_{l+1} = x_l + W2 ReLU(W1 x_l) for the branches of
    ``GROWTH_BRANCHES``: He fan-in on both layers (kappa = 2), W2 at variance 1/n
    (kappa = 1), and He's rule (W1 1/n, W2 2/n; kappa = 1). Per network, averaged over ``inputs`` fixed inputs
    (the network's weights are the only randomness of Eq. 2; averaging over inputs
    seen by the same weights lowers the variance, not the mean), per block l:
    ||x_l||^2/||x_0||^2 ('ratio'), ||x_l - x_0||^2/||x_0||^2 ('dev', the variance over
    the weights for a fixed x_0, since E x_l = x_0), ||F_{l-1}||^2/||x_{l-1}||^2
    ('kappa') and 2 <x_{l-1} - x_0, F_{l-1}> / ||x_0||^2 ('cross')."""
    rows = []
    for j, (label, inits, kappa) in enumerate(GROWTH_BRANCHES):
        be = ctx.stream("zeroinit2019.growth", j, block)
        net = draw_resnet(be, width, blocks, inits, n_networks=reps)
        x0 = be.normal((reps, inputs, width))
        xs = resnet_forward(net, x0, be.xp)["x"]
        n0 = (x0**2).sum(-1)
        data = {}
        for l in range(1, blocks + 1):
            F = xs[l] - xs[l - 1]
            data[f"ratio_{l}"] = ((xs[l] ** 2).sum(-1) / n0).mean(-1)
            data[f"dev_{l}"] = (((xs[l] - x0) ** 2).sum(-1) / n0).mean(-1)
            data[f"kappa_{l}"] = ((F**2).sum(-1) / (xs[l - 1] ** 2).sum(-1)).mean(-1)
            data[f"cross_{l}"] = (2 * ((xs[l - 1] - x0) * F).sum(-1) / n0).mean(-1)
        rows.append(Row({"branch": label, "kappa": kappa}, {k: to_host(v) for k, v in data.items()}))
    return Block(rows, meta={"blocks": blocks, "width": width, "inputs": inputs})


def half_block(ctx, block: int, reps: int = 500, inputs: int = 16, width: int = 16, blocks: int = 4) -> Block:
    """x_l = s (x_{l-1} + F(x_{l-1})), s = 1/2 (the extraction's literal text) and
    1/sqrt(2) (the printed recurrence), kappa = 1 branches (He, then
    variance 1/n): ||x_l||^2/||x_0||^2 per network and block, averaged over ``inputs``
    inputs."""
    rows = []
    for k, (name, s) in enumerate((("half", 0.5), ("sqrt_half", 2**-0.5))):
        be = ctx.stream("zeroinit2019.half", k, block)
        fwd = resnet_forward(draw_branch_resnet(be, width, blocks, 2, "he_linear_last", reps),
                             be.normal((reps, inputs, width)), be.xp, s_out=s)
        sq = be.xp.stack([(a**2).sum(-1) for a in fwd["x"]], 1)  # (reps, blocks + 1, inputs)
        rows.append(Row({"recurrence": name}, {"ratio": to_host((sq[:, 1:] / sq[:, :1]).mean(-1))}))
    return Block(rows, meta={"blocks": blocks, "width": width, "inputs": inputs})


def _train(be, net, steps: int, lr: float, width: int, batch: int, N: int):
    """``steps`` SGD steps on l = mean_b <g, x_L>; returns the trained net and fresh inputs."""
    xp = be.xp
    g = be.normal((N, 1, width))
    g = g / xp.linalg.norm(g, axis=-1, keepdims=True)  # the error signal: a random unit direction
    for _ in range(steps):
        x = be.normal((N, batch, width)) / math.sqrt(width)
        fwd = resnet_forward(net, x, xp)
        net = sgd_step(net, resnet_backward(net, fwd, xp.broadcast_to(g / batch, x.shape), xp)["dW"], lr)
    return net, be.normal((N, batch, width)) / math.sqrt(width)


def one_step_block(ctx, block: int, reps: int = 16, width: int = 16, batch: int = 16, lr: float = 1.0) -> Block:
    """Per m and depth L: per network, after one SGD step from ZeroInit, the mean over
    blocks l and fresh inputs x of ||F_l(x)|| / ||x||, each branch applied to the same
    input (Sec. 3: 'the output of this branch scales its input by O(1/L)'; at
    initialization every block's input is the network's input)."""
    rows = []
    for m in (2, 3):
        for j, L in enumerate(ONE_STEP_DEPTHS):
            be = ctx.stream("zeroinit2019.one_step", m, j, block)
            xp = be.xp
            net, x = _train(be, draw_branch_resnet(be, width, L, m, "zeroinit", reps), 1, lr, width, batch, reps)
            nx = xp.linalg.norm(x, axis=-1)
            r = xp.stack([(xp.linalg.norm(resnet_forward([b], x, xp)["F"][0], axis=-1) / nx).mean(-1)
                          for b in net]).mean(0)
            rows.append(Row({"m": m, "depth": L}, {"scale": to_host(r)}))
    return Block(rows, meta={"width": width, "lr": lr})


def few_steps_block(ctx, block: int, reps: int = 16, width: int = 32, batch: int = 16, steps: int = 3,
                    lr: float = 0.1) -> Block:
    """Per scheme (SCHEMES) and depth: per network log(||x_L||^2/||x_0||^2) averaged over
    fresh inputs, after ``steps`` SGD updates (m = 2)."""
    rows = []
    for k, (name, (scheme, power)) in enumerate(SCHEMES.items()):
        for j, L in enumerate(FEW_STEP_DEPTHS):
            be = ctx.stream("zeroinit2019.few_steps", k, j, block)
            net, x = _train(be, draw_branch_resnet(be, width, L, 2, scheme, reps, power=power), steps, lr, width,
                            batch, reps)
            xp = be.xp
            fwd = resnet_forward(net, x, xp)
            if not all(bool(xp.all(xp.isfinite(a))) for a in fwd["x"]):
                raise FloatingPointError("training diverged: lower lr, steps or depths")
            ratio = (xp.log((fwd["x"][-1] ** 2).sum(-1)) - xp.log((fwd["x"][0] ** 2).sum(-1))).mean(-1)
            rows.append(Row({"scheme": name, "depth": L}, {"log_ratio": to_host(ratio)}))
    return Block(rows, meta={"steps": steps, "lr": lr, "width": width})


def output_scale_block(ctx, block: int, reps: int = 40, width: int = 16, batch: int = 64, classes: int = 10,
                       steps: int = 3, lr: float = 0.1) -> Block:
    """ZeroInit classifiers (simulations.hessian 'zeroinit': scalar biases and
    multiplier, zero last branch layers and classifier, first layers He x L^-1/2) at
    depths OUTPUT_DEPTHS. One replicate is a family of one network per depth sharing
    its random numbers (the same batches and labels, the same normals for the blocks
    they have in common): per depth, max_i z_i averaged over an evaluation batch at
    initialization and after ``steps`` SGD steps, and the family's log-log slope of the
    latter in depth. Families are independent; sharing within a family cancels the
    noise common to all depths (common random numbers)."""
    data_be = ctx.stream("zeroinit2019.output_scale.data", block)
    batches = [synthetic_batch(data_be, reps, batch, width, classes) for _ in range(steps + 1)]
    init, after = [], []
    for L in OUTPUT_DEPTHS:
        model = build_classifier(ctx.stream("zeroinit2019.output_scale.weights", block), "zeroinit", width, L, classes,
                                 reps)
        init.append(to_host(_logits(model, batches[-1][0], data_be.xp).max(-1).mean(-1)))
        for x, y in batches[:-1]:
            _, grads = loss_and_grad(model, x, y, data_be.xp)
            set_parameters(model, [p - lr * g for p, g in zip(parameters(model), grads)])
        after.append(to_host(_logits(model, batches[-1][0], data_be.xp).max(-1).mean(-1)))
    after = np.stack(after, 1)
    slope = np.polyfit(np.log(np.asarray(OUTPUT_DEPTHS, float)), np.log(after).T, 1)[0]
    return Block((Row({"depths": str(OUTPUT_DEPTHS)}, {"max_z_init": np.stack(init, 1), "max_z": after,
                                                       "slope": slope}),),
                 meta={"steps": steps, "lr": lr, "width": width, "depths": OUTPUT_DEPTHS})


def _logits(model, x, xp):
    for layer in model:
        x = layer.forward(x, None, None, xp)[0]
    return x


def bn_stream_block(ctx, block: int, reps: int = 40, width: int = 32, batch: int = 32) -> Block:
    """BatchNorm ResNets (simulations.hessian 'batchnorm': pre-activation branches
    BN-ReLU-W1-BN-ReLU-W2, He weights, batch statistics): per network the log-log
    slope of Var[x_l] - Var[x_0] over BN_FIT_DEPTHS, and the values there."""
    be = ctx.stream("zeroinit2019.bn_stream", block)
    x, _ = synthetic_batch(be, reps, batch, width, 2)
    layers = build_classifier(be, "batchnorm", width, max(BN_FIT_DEPTHS), 2, reps)
    xp = be.xp
    var = [x.var(axis=(1, 2))]
    for layer in layers:
        if not isinstance(layer, ResidualBlock):
            break
        x = layer.forward(x, None, None, xp)[0]
        var.append(x.var(axis=(1, 2)))
    var = to_host(xp.stack(var, 1))
    idx = np.asarray(BN_FIT_DEPTHS)
    vals = var[:, idx] - var[:, :1]
    slope = np.polyfit(np.log(idx.astype(float)), np.log(vals).T, 1)[0]
    return Block((Row({"blocks": max(BN_FIT_DEPTHS)}, {"slope": slope, "at": vals}),),
                 meta={"depths": BN_FIT_DEPTHS, "width": width, "batch": batch})


def dense_block(ctx, block: int, reps: int = 200, inputs: int = 8, k0: int = DENSE_K0,
                growth: int = DENSE_GROWTH) -> Block:
    """Densely connected bias-free ReLU nets without normalization (Footnote 1): layer i
    computes h_i = W_i ReLU([x_0, h_1, ..., h_{i-1}]) with W_i He fan-in on the
    concatenation. Per network and depth L, the mean square of layer L's features over
    that of the input, averaged over ``inputs`` inputs; layer L's own weights are
    averaged out exactly (E[ms(W relu(f)) | f] = 2 ||relu(f)||^2 / fan_in), which
    removes their variance and keeps the mean."""
    rows = []
    for j, L in enumerate(DENSE_DEPTHS):
        be = ctx.stream("zeroinit2019.dense", j, block)
        xp = be.xp
        feats = be.normal((reps, inputs, k0))
        ms0 = (feats**2).mean(-1)
        for _ in range(L - 1):
            W = be.normal((reps, growth, feats.shape[-1])) * math.sqrt(2.0 / feats.shape[-1])
            feats = xp.concatenate([feats, xp.maximum(feats, 0) @ xp.swapaxes(W, -1, -2)], axis=-1)
        last = 2.0 * (xp.maximum(feats, 0) ** 2).sum(-1) / feats.shape[-1]
        rows.append(Row({"depth": L}, {"ratio": to_host((last / ms0).mean(-1))}))
    return Block(rows, meta={"k0": k0, "growth": growth, "inputs": inputs})


# Sampling plans (blocks at the first look and at most, at --mc-scale 1). The first look
# reaches the tests' minimum replicates (theory.stats: 200 per sample of a mean test or
# Welch comparison, 20 per point of a fitted exponent), so no look is refused: heads 200,
# growth 1000, half 500, dense 200 per row; one-step 32 per point; few-steps 13 x 16 = 208
# per depth; output scale and BatchNorm 5 x 40 = 200 networks (their blocks are cheaper
# per network at 40 than at 8 or 16). Budgets allow two to four doublings for headroom.
HEADS_SAMPLING = Sampling(draw=heads_block, first=1, budget=64, threads=1)
GROWTH = Sampling(draw=growth_block, first=1, budget=16, threads=1)
HALF = Sampling(draw=half_block, first=1, budget=16, threads=1)
ONE_STEP = Sampling(draw=one_step_block, first=2, budget=16, threads=1)
FEW_STEPS = Sampling(draw=few_steps_block, first=13, budget=52, threads=1)
OUTPUT_SCALE = Sampling(draw=output_scale_block, first=5, budget=20, threads=1)
BN_STREAM = Sampling(draw=bn_stream_block, first=5, budget=20, threads=1)
DENSE = Sampling(draw=dense_block, first=1, budget=20, threads=1)
