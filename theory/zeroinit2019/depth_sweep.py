"""Eq. 11 and App. A.2's closing sentence under the paper's scenario: the logits blow up
with depth while the p.h. set's scale ||theta_ph|| stays fixed (ZeroInit/Fixup
submission, Sec. 2 after Eq. 5 and App. A.2, Eq. 9-11; locations refer to
../shared/papers/zeroinit_fixup_iclr2019_submission.txt).

The paper (App. A.2, Eq. 9 and Eq. 11, and the sentence after Eq. 11):

    ||d l_avg / d theta_ph|| >= (1/M) sum_m (l(z^(m), y^(m)) - H(p^(m))) / ||theta_ph|| = G(theta_ph)   (Eq. 4/9)
    E G(theta_ph) >= (E[max_i z_i] - log c) / ||theta_ph||                                              (Eq. 5/11)
    'which shows that the gradient norm of a p.h. set is of the order Omega(E[max_i z_i]) at
    initialization.'

Sec. 2 applies this to depth: Eq. 2 makes the ResNet's output variance grow like 2^L, so
'these layers would suffer from the exploding gradient problem, if the logits z blow up at
initialization'. Here the p.h. set is rescaled to a fixed Frobenius norm r at every depth
(so Eq. 11's ||theta_ph|| is a constant, the conditional reading of
``zeroinit2019.eq5.conditional``), and the depth L is swept.

Setting (one replicate = one network with its own inputs and labels): inputs
u ~ N(0, I/n), n = WIDTH; first layer h_0 = ReLU(W_0 u) with W_0 He fan-in, rescaled to
||W_0||_F = sqrt(2 n) (its He expectation); L residual blocks
x_l = x_(l-1) + W_2 ReLU(W_1 x_(l-1)) under He's rule (W_1 variance 1/n, W_2 2/n; the
stream's second moment doubles per block, Eq. 2); logits z = W_fc x_L with W_fc of variance
1/n rescaled to ||W_fc||_F = sqrt(c); no biases, no normalization; labels uniform and
independent of the network; l_avg the mean cross-entropy over a batch of M = BATCH.
The p.h. sets are two of Sec. 2's examples: (1) the first layer W_0 (followed by a ReLU:
the rest of the net is p.h. in h_0) and (3) the layer before the softmax, W_fc.

Per network: ||d l_avg/d W_0||_F, ||d l_avg/d W_fc||_F (hand-written backward pass,
:mod:`simulations.relu_nets`), the batch mean of max_i z_i, and
G ||theta|| = (1/M) sum_m (l_m - H(p_m)) (the same for both sets: Eq. 8).
"""
from __future__ import annotations

import math

from simulations import to_host
from simulations.relu_nets import draw_resnet, resnet_backward, resnet_forward, softmax_xent

from ..core import Block, Row, Sampling
from ..judges import judge_bounds
from .tightness import difference_tightness

__all__ = ["DEPTHS", "WIDTH", "CLASSES", "BATCH", "BRANCH", "SCALARS", "ph_norms", "OMEGA_CONSTANT", "draw_sweep",
           "loss_and_grads", "sweep_networks", "depth_block", "DEPTH_SWEEP", "judge_eq11_depth"]

DEPTHS = (1, 2, 4, 8, 12, 16)
WIDTH, CLASSES, BATCH = 16, 10, 8
#: He's rule for the branch W_2 ReLU(W_1 x): kappa = 1, Var doubles per block (Eq. 2).
BRANCH = ("linear_fan_in", "he_fan_in")
#: Omega's constant: E||grad|| >= E[max z] / (2 ||theta_ph||), what Eq. 11 gives once
#: E[max z] >= 2 log c ((m - log c)/r >= m/(2r)).
OMEGA_CONSTANT = 0.5
#: The per-network quantities the judge reads.
SCALARS = ("grad_first_layer", "grad_classifier", "max_z", "g_times_norm")


def ph_norms(width: int = WIDTH, classes: int = CLASSES) -> dict:
    """The fixed Frobenius norm of each p.h. set: E||W||_F^2 under its init, W_0 He
    fan-in (2/n per entry, n x n entries) and W_fc variance 1/n (c x n entries)."""
    return {"first_layer": math.sqrt(2 * width), "classifier": math.sqrt(classes)}


def _unit_frobenius(W, xp):
    return W / xp.sqrt((W * W).sum(axis=(-2, -1), keepdims=True))


def draw_sweep(be, depth: int, reps: int, width: int = WIDTH, classes: int = CLASSES, batch: int = BATCH) -> dict:
    """``reps`` networks of the module docstring with ``depth`` residual blocks, drawn
    on the device of ``be``: the p.h. sets at their fixed norms (``W_first_layer``,
    ``W_classifier``), the residual blocks (``net``), inputs ``u`` and host labels."""
    xp = be.xp
    norms = ph_norms(width, classes)
    return {"W_first_layer": _unit_frobenius(be.normal((reps, width, width)), xp) * norms["first_layer"],
            "W_classifier": _unit_frobenius(be.normal((reps, classes, width)), xp) * norms["classifier"],
            "net": draw_resnet(be, width, depth, BRANCH, n_networks=reps),
            "u": be.normal((reps, batch, width)) / math.sqrt(width),
            "labels": be.integers(0, classes, (reps, batch))}


def loss_and_grads(nets: dict, xp, sign: float = 1.0) -> dict:
    """Forward and backward pass of :func:`draw_sweep`'s networks with W_fc -> sign W_fc,
    in the namespace ``xp``: per network l_avg (``loss``), ``max_z`` (batch mean of
    max_i z_i), ``g_times_norm`` = mean_m (l_m - H(p_m)) (Eq. 8), the gradients
    ``dW_first_layer`` and ``dW_classifier`` of l_avg, their Frobenius norms
    ``grad_*`` and the Euler residuals ``euler_*`` = <grad, theta> - g_times_norm
    (Eq. 8: zero up to rounding)."""
    W0, W, u, net = nets["W_first_layer"], sign * nets["W_classifier"], nets["u"], nets["net"]
    a = u @ xp.swapaxes(W0, -1, -2)
    fwd = resnet_forward(net, xp.maximum(a, 0), xp)
    xL = fwd["x"][-1]
    z = xL @ xp.swapaxes(W, -1, -2)
    loss, _, entropy, dz = softmax_xent(z, nets["labels"], xp)
    dz = dz / z.shape[-2]  # d l_avg / d z
    dWf = xp.swapaxes(dz, -1, -2) @ xL
    dx0 = resnet_backward(net, fwd, dz @ W, xp, weights=False)["dx"][0]
    dW0 = xp.swapaxes(dx0 * (a > 0), -1, -2) @ u
    gn = (loss - entropy).mean(-1)
    return {"loss": loss.mean(-1), "max_z": z.max(axis=-1).mean(-1), "g_times_norm": gn,
            "dW_first_layer": dW0, "dW_classifier": dWf,
            "grad_first_layer": xp.sqrt((dW0 * dW0).sum(axis=(-2, -1))),
            "grad_classifier": xp.sqrt((dWf * dWf).sum(axis=(-2, -1))),
            "euler_first_layer": (dW0 * W0).sum(axis=(-2, -1)) - gn,
            "euler_classifier": (dWf * W).sum(axis=(-2, -1)) - gn}


def sweep_networks(be, depth: int, reps: int, **shape) -> dict:
    """Per network of :func:`draw_sweep` (on the device of ``be``, namespace ``be.xp``)
    and its antithetic twin W_fc -> -W_fc (same inputs, labels and other weights;
    W_fc's law is symmetric, so the twin has the network's law), the twin-pair means of
    SCALARS (device arrays). In the pair mean the label term -z_y of l cancels exactly
    (z -> -z), which removes label noise that grows with the logits (App. A.2 uses
    E[y^T z] = 0 the same way before Eq. 10)."""
    nets = draw_sweep(be, depth, reps, **shape)
    twins = [loss_and_grads(nets, be.xp, s) for s in (1.0, -1.0)]
    return {k: (twins[0][k] + twins[1][k]) / 2 for k in SCALARS}


def depth_block(ctx, block: int, reps: int = 200) -> Block:
    """One row per depth in DEPTHS: ``reps`` independent networks (stream named by
    (measurement, depth index, block)), the per-network scalars of
    :func:`sweep_networks`, copied to the host once per row."""
    rows = []
    for j, L in enumerate(DEPTHS):
        be = ctx.stream("zeroinit2019.eq11_depth", j, block)
        out = sweep_networks(be, L, reps)
        host = to_host(be.xp.stack([out[k] for k in SCALARS], axis=1))
        rows.append(Row({"depth": L}, {k: host[:, i] for i, k in enumerate(SCALARS)}))
    return Block(rows, meta={"width": WIDTH, "classes": CLASSES, "batch": BATCH, "depths": DEPTHS,
                             "norms": ph_norms()})


DEPTH_SWEEP = Sampling(draw=depth_block, first=1, budget=16, threads=1)


def _rows(m, bound_factor: float, log_c_term: float, omega_factor: float) -> list:
    """The judged rows: per depth, Eq. 11 on G (product form, the same for both sets),
    and per depth and p.h. set, Eq. 4 + 11 on the gradient norm and the Omega bound.
    Each row's sample is a per-network difference whose mean must be >= 0; its
    ``floor`` is the mean that a zero gradient (or G = 0) would give."""
    logc = log_c_term * math.log(m.meta["classes"])
    out = []
    for r in m.rows:
        mz = r["max_z"]
        out.append({"part": "Eq. 11: E[G] ||theta|| - (E[max z] - log c)", "set": "either", "depth": r.depth,
                    "x": r["g_times_norm"] - bound_factor * (mz - logc),
                    "floor": -bound_factor * (float(mz.mean()) - logc),
                    "rhs": bound_factor * (float(mz.mean()) - logc)})
        for s, norm in m.meta["norms"].items():
            g = r[f"grad_{s}"]
            out.append({"part": "Eq. 4 + 11: E||grad|| - (E[max z] - log c)/||theta||", "set": s, "depth": r.depth,
                        "x": g - bound_factor * (mz - logc) / norm,
                        "floor": -bound_factor * (float(mz.mean()) - logc) / norm,
                        "rhs": bound_factor * (float(mz.mean()) - logc) / norm})
            k = omega_factor * OMEGA_CONSTANT / norm
            out.append({"part": f"Omega: E||grad|| - {omega_factor * OMEGA_CONSTANT:g} E[max z]/||theta||", "set": s,
                        "depth": r.depth, "x": g - k * mz, "floor": -k * float(mz.mean()), "rhs": k * float(mz.mean())})
    return out


def judge_eq11_depth(m, ctx, bound_factor: float = 1.0, log_c_term: float = 1.0, omega_factor: float = 1.0):
    """Eq. 11 and 'Omega(E[max z])' at fixed ||theta_ph|| over DEPTHS, one one-sided
    Student-t test per row (judge_bounds, alpha split over all rows):

    - Eq. 11 (product form): E[G ||theta||] >= E[max z] - log c, per depth;
    - Eq. 4 + 11: E||d l_avg/d theta_ph|| >= (E[max z] - log c)/||theta_ph||, per depth
      and set (W_0, W_fc);
    - Omega: E||d l_avg/d theta_ph|| >= OMEGA_CONSTANT E[max z]/||theta_ph||, per depth and
      set: a constant ratio of gradient norm to E[max z] across depths.

    A row is informative when its bound is above the value a zero gradient (G = 0)
    would give, i.e. for Eq. 11 when E[max z] > log c; uninformative rows cannot make
    the claim hold but can make it fail. ``bound_factor`` multiplies Eq. 11's right-hand
    side, ``log_c_term`` multiplies its log c (0: dropped) and ``omega_factor`` the Omega
    constant (mutations)."""
    rows = _rows(m, bound_factor, log_c_term, omega_factor)
    meta = m.meta
    ev = judge_bounds(rows, lambda r: r["x"], lambda r: 0.0, ("part", "set", "depth"),
                      f"bias-free ReLU ResNets without normalization (width {meta['width']}, He's-rule branches "
                      f"W2 ReLU(W1 x), c = {meta['classes']}, depths {list(meta['depths'])}), p.h. sets rescaled to "
                      f"fixed norms ({', '.join(f'{k} {v:.4g}' for k, v in meta['norms'].items())}), batch "
                      f"{meta['batch']}, uniform labels; per-network differences", ctx, claim=">=",
                      attainable=lambda r: r["floor"], what="E[difference]")
    for r, d in zip(rows, ev.details):
        d["mean_max_z"] = float(m.row(depth=r["depth"])["max_z"].mean())
    ev.tightness = difference_tightness(ev.details, [r["rhs"] for r in rows], ("part", "set", "depth"))
    ev.expected = {"Eq. 11": f"E[G] ||theta|| >= {bound_factor:g} (E[max z] - {log_c_term:g} log c)",
                   "Eq. 4 + 11": f"E||grad|| >= {bound_factor:g} (E[max z] - {log_c_term:g} log c)/||theta||",
                   "Omega": f"E||grad|| >= {omega_factor * OMEGA_CONSTANT:g} E[max z]/||theta|| at every depth"}
    return ev
