"""Figure 1 of Arpit et al. (2019) at network level (App. A.1-A.2), drawn in blocks.

The four panels plot, per layer (MLP, top) or block (ResNet, bottom), the norm ratio of
hidden activations to the input (left) and of gradients to the injected error (right),
for He directions with g = 1 and the proposed gains with orthogonal or He directions.
The checks compare E[ratio^2] with its exact expectation given the widths:

- MLP forward, ||h^l||^2/||x||^2: 1 (proposed), n_l/(n_0 2^l) (g = 1);
- MLP backward, error e injected at the last pre-activation a^L (as the authors'
  notebook does), ||dl/da^i||^2/||e||^2: n_i/n_L (proposed), 2^-(L-i) (g = 1);
- ResNet forward, ||h^b||^2/||x||^2: (1+1/B)^b (proposed, gamma = 1/B on FC2),
  (3/2)^b (g = 1, alpha = 1);
- ResNet backward, error at h^B, ||dl/dh^b||^2/||dl/dh^B||^2: (1+1/B)^(B-b), (3/2)^(B-b).

One replicate is one group of independent networks that share one draw of the layer
widths, each network fed ``inputs`` independent inputs (and errors): the replicate is
the mean over the group's networks and inputs of ratio / expectation, so replicates
are iid. Different layers of one network are different rows (never pooled); judges
split alpha over rows.
"""
from __future__ import annotations

import numpy as np

from simulations import build_mlp, build_resnet, forward, times_weight, to_host

from ..core import Block, Row, Sampling
from .montecarlo import squared_ratios

__all__ = ["MLP", "RESNET", "MLP_PANELS", "RESNET_PANELS", "mlp_panels_block", "resnet_panels_block",
           "preactivation_log_grads"]

#: App. A.1: 20 layers, inputs in R^500, widths ~U(150, 250) per layer (the solid lines).
MLP = {"depth": 20, "n0": 500, "width": (150, 250), "inputs": 16,
       "forward_layers": (1, 5, 10, 15, 20), "backward_layers": (2, 5, 10, 15, 19),
       # (init, groups per block, networks per group): one network per replicate, so that the first
       # look (8 blocks) already has 256 or 384 replicates per row (theory.stats.MIN_REPLICATES = 200)
       "inits": (("proposed_orthogonal", 32, 1), ("proposed_he", 48, 1), ("he", 48, 1))}
#: App. A.2: 40 blocks FC1 -> ReLU -> FC2, residual width 500, hidden widths ~U(150, 250)
#: per block (the caption; the notebook fixes 200). The g = 1 curve leaves the panel's
#: y-range (ratio 4) after block 6 forward and before block 34 backward: it is checked
#: on the blocks where it is drawn.
RESNET = {"blocks": 40, "d": 500, "width": (150, 250), "inputs": 8,
          "forward": {"proposed": (1, 10, 20, 30, 40), "he": (1, 3, 5, 6)},
          "backward": {"proposed": (2, 10, 20, 30, 39), "he": (34, 36, 38, 39)},
          # one network per replicate and block: 200 blocks reach MIN_REPLICATES at one look (a network
          # costs about 0.3 s with He and 1 s with orthogonal directions; one network varies by <= 10%)
          "inits": (("proposed_orthogonal", 1, 1), ("proposed_he", 1, 1), ("he", 1, 1))}


def preactivation_log_grads(ops, tape, error, xp):
    """log||dl/da^i|| for i = 1..L of an MLP, with dl/da^L = ``error``: the recursion
    dl/da^{i} = 1(a^i) * (W_eff^{i+1 T} dl/da^{i+1}) (Eq. 4-5 with the gains inside
    W_eff), renormalized at every layer like the forward tape. Entry i - 1 is layer i."""
    delta = error
    norm = xp.sqrt(xp.sum(delta * delta, axis=-1))
    logs = [xp.log(norm)]
    delta = delta / norm[..., None]
    for k in range(len(ops) - 1, 0, -1):
        _, w, _ = tape.caches[k]
        d = times_weight(delta, w, xp) * tape.caches[k - 1][2]
        norm = xp.sqrt(xp.sum(d * d, axis=-1))
        with np.errstate(divide="ignore"):
            logs.append(logs[-1] + xp.log(norm))
        delta = d / xp.where(norm == 0, 1, norm)[..., None]
    return xp.stack(logs[::-1], axis=-1)


def _mlp_group(be, init: str, nets: int) -> tuple:
    """(forward, backward) ratio / expectation, averaged over one group's networks and
    inputs, at the layers of MLP["forward_layers"] and MLP["backward_layers"]."""
    xp, L, n0, (lo, hi), k = be.xp, MLP["depth"], MLP["n0"], MLP["width"], MLP["inputs"]
    widths = [n0] + [int(w) for w in be.integers(lo, hi + 1, L)]
    ops = build_mlp(be, widths, init, n_networks=nets)
    tape = forward(ops, be.normal((nets, k, n0)), xp, renormalize=True)
    lf = to_host(2 * (tape.log_norms - tape.log_norms[..., :1]))
    la = to_host(2 * preactivation_log_grads(ops, tape, be.normal((nets, k, widths[-1])), xp))
    la = la - la[..., -1:]
    he = init == "he"
    fwd = [np.exp(lf[..., l]).mean() / (widths[l] / (n0 * 2.0**l) if he else 1.0) for l in MLP["forward_layers"]]
    bwd = [np.exp(la[..., i - 1]).mean() / (2.0 ** -(L - i) if he else widths[i] / widths[L])
           for i in MLP["backward_layers"]]
    return fwd, bwd


def _panel_rows(ctx, block: int, stream: str, inits, group, coord: str, forward_at, backward_at) -> list:
    """Rows of one panel pair: per init, ``groups`` replicates of ``nets`` networks each,
    ``group(be, init, nets) -> (forward ratios, backward ratios)`` at ``forward_at(init)``
    and ``backward_at(init)``."""
    rows = []
    for i, (init, groups, nets) in enumerate(inits):
        pairs = [group(ctx.stream(stream, i, block, r), init, nets) for r in range(groups)]
        f, b = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        rows += [Row({"init": init, "pass": "forward", coord: x}, {"ratio_over_prediction": f[:, j]})
                 for j, x in enumerate(forward_at(init))]
        rows += [Row({"init": init, "pass": "backward", coord: x}, {"ratio_over_prediction": b[:, j]})
                 for j, x in enumerate(backward_at(init))]
    return rows


def mlp_panels_block(ctx, block: int) -> Block:
    """Figure 1 top: per init, ``groups`` replicates of ``nets`` networks each."""
    rows = _panel_rows(ctx, block, "arpit2019.fig1_mlp", MLP["inits"], _mlp_group, "layer",
                       lambda init: MLP["forward_layers"], lambda init: MLP["backward_layers"])
    return Block(rows, meta={"depth": MLP["depth"], "inputs": MLP["inputs"],
                             "nets_per_group": {init: nets for init, _, nets in MLP["inits"]}})


def _resnet_group(be, init: str, nets: int) -> tuple:
    xp, B, d, (lo, hi), k = be.xp, RESNET["blocks"], RESNET["d"], RESNET["width"], RESNET["inputs"]
    hidden = [int(w) for w in be.integers(lo, hi + 1, B)]
    ops = build_resnet(be, [d, d], [B], [hidden], init, n_networks=nets, alpha=1.0)
    lf, lg = (to_host(v) for v in squared_ratios(ops, be.normal((nets, k, d)), be.normal((nets, k, d)), xp))
    rate = 1.5 if init == "he" else 1 + 1 / B
    key = _resnet_key(init)
    fwd = [np.exp(lf[..., b]).mean() / rate**b for b in RESNET["forward"][key]]
    bwd = [np.exp(lg[..., b]).mean() / rate ** (B - b) for b in RESNET["backward"][key]]
    return fwd, bwd


def _resnet_key(init: str) -> str:
    return "he" if init == "he" else "proposed"


def resnet_panels_block(ctx, block: int) -> Block:
    """Figure 1 bottom: per init, ``groups`` replicates of ``nets`` networks each."""
    rows = _panel_rows(ctx, block, "arpit2019.fig1_resnet", RESNET["inits"], _resnet_group, "block",
                       lambda init: RESNET["forward"][_resnet_key(init)],
                       lambda init: RESNET["backward"][_resnet_key(init)])
    return Block(rows, meta={"blocks": RESNET["blocks"], "inputs": RESNET["inputs"],
                             "nets_per_group": {init: nets for init, _, nets in RESNET["inits"]}})


# Sampling plans: every look has at least MIN_REPLICATES = 200 replicates per row. The MLP's
# single networks vary by up to about 60% (He directions, layer 20): 8 blocks give 256-384
# replicates, about the power-0.9 size for a 20% band (theory.kinds.replicates_for), 32 blocks
# four times that. The ResNet's vary by at most about 10%: one look of 200 blocks resolves
# the 10% band about three times over, so no second look is planned.
MLP_PANELS = Sampling(draw=mlp_panels_block, first=8, budget=32, threads=1)
RESNET_PANELS = Sampling(draw=resnet_panels_block, first=200, budget=200, threads=1)
