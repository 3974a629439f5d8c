"""Monte-Carlo measurements for Arpit et al. (2019). Each returns host-side rows;
the unit of replication is an independent draw of the weights (one network).

Samples are stored at unit gain where the claimed gain enters as a square factor,
so that judges can apply the printed (or a mutated) gain without re-simulating.
"""
from __future__ import annotations

import math

import numpy as np

from simulations import (CONTROL_LAWS, ISOTROPIC_LAWS, build_resnet, backward, forward, get_backend,
                         sample_rows, to_host)
from simulations.core import Backend

__all__ = [
    "THEOREM_SHAPES", "single_layer_rows", "lemma1_counts", "gain_rows", "resnet_rows",
    "resnet_width_ladder", "multistage_rows", "mlp_rows",
]

#: (n, m) = (fan-in, fan-out) for the single-layer theorems, m > n included.
THEOREM_SHAPES = ((16, 16), (32, 8), (8, 32))


def _backend(ctx, key: int) -> Backend:
    return get_backend(ctx.backend, seed=ctx.seed).spawn(key)


def _reps(ctx, base: int) -> int:
    return max(100, int(round(base * ctx.scale)))


def _u(law: str, n: int, be: Backend):
    """The fixed vector u: along the distorted direction for the controls."""
    u = np.zeros(n)
    if law == "shifted_gaussian":
        u[:] = 1 / math.sqrt(n)
    else:
        u[0] = 1.0
    return be.asarray(u)


def _unit_rows(R, xp):
    return R / xp.sqrt(xp.sum(R * R, axis=-1, keepdims=True))


def single_layer_rows(ctx, laws=ISOTROPIC_LAWS + CONTROL_LAWS, shapes=THEOREM_SHAPES, base: int = 300000,
                      chunk: int = 50000) -> dict:
    """Theorems 1 and 2 at unit gain, per (law, n, m):

    - ``thm1``: ||ReLU(R_hat u)||^2 / ||u||^2 (times 2n/m gives Theorem 1's ||v||^2);
    - ``thm2``: ||z * (R_hat^T u)||^2 / ||u||^2, u in R^m, z iid Bernoulli(1/2)
      (times 2 gives Theorem 2's ||v||^2). Here u = 1/sqrt(m) (all ones): with a basis
      vector u, R_hat^T u is one row and footnote 8's comparison would be vacuous.
    """
    rows = []
    for i, law in enumerate(laws):
        for j, (n, m) in enumerate(shapes):
            be = _backend(ctx, 1000 + 37 * i + j)
            xp = be.xp
            t1, t2 = [], []
            reps = _reps(ctx, base)
            for start in range(0, reps, chunk):
                k = min(chunk, reps - start)
                Rh = _unit_rows(sample_rows(law, be, k, m, n), xp)
                a = xp.matmul(Rh, _u(law, n, be))
                t1.append(to_host(xp.sum(xp.maximum(a, 0) ** 2, axis=-1)))
                back = xp.matmul(xp.swapaxes(Rh, -1, -2), _u("shifted_gaussian", m, be))  # u = 1/sqrt(m)
                z = be.uniform(back.shape) < 0.5
                t2.append(to_host(xp.sum((back * z) ** 2, axis=-1)))
            rows.append({"law": law, "n": n, "m": m, "thm1": np.concatenate(t1), "thm2": np.concatenate(t2)})
    return {"rows": rows}


def lemma1_counts(ctx, m: int = 4, n: int = 12, base: int = 200000) -> dict:
    """Counts of the 2^m ReLU-mask patterns 1(W h > 0) for a fixed h >= 0 (a ReLU
    output), for Gaussian and Haar-orthogonal W (Lemma 1)."""
    rows = []
    for i, law in enumerate(("gaussian", "haar_orthogonal")):
        be = _backend(ctx, 3000 + i)
        xp = be.xp
        reps = _reps(ctx, base)
        h = xp.maximum(be.normal((n,)), 0) + 0.1
        mask = xp.matmul(sample_rows(law, be, reps, m, n), h) > 0
        code = to_host(xp.sum(mask * (2 ** xp.arange(m)), axis=-1)).astype(int)
        rows.append({"law": law, "m": m, "n": n, "counts": np.bincount(code, minlength=2**m)})
    return {"rows": rows}


def gain_rows(ctx, shapes=((32, 16), (16, 32)), base: int = 180000) -> dict:
    """One WN ReLU layer at unit gain, Haar-orthogonal and Gaussian directions:
    forward ||ReLU(W_hat h)||^2/||h||^2 and backward ||W_hat^T (mask * e)||^2/||e||^2
    with e ~ N(0, I) independent of the layer."""
    rows = []
    for i, law in enumerate(("haar_orthogonal", "gaussian")):
        for j, (n_in, n_out) in enumerate(shapes):
            be = _backend(ctx, 4000 + 10 * i + j)
            xp = be.xp
            reps = _reps(ctx, base)
            W = _unit_rows(sample_rows(law, be, reps, n_out, n_in), xp)
            h = xp.maximum(be.normal((n_in,)), 0) + 0.1
            a = xp.matmul(W, h)
            fwd = xp.sum(xp.maximum(a, 0) ** 2, axis=-1) / xp.sum(h * h)
            e = be.normal((reps, n_out))
            d = xp.matmul(xp.swapaxes(W, -1, -2), ((a > 0) * e)[..., None])[..., 0]
            bwd = xp.sum(d * d, axis=-1) / xp.sum(e * e, axis=-1)
            rows.append({"law": law, "n_in": n_in, "n_out": n_out, "fwd": to_host(fwd), "bwd": to_host(bwd)})
    return {"rows": rows}


def _resnet_ratios(be, B, d, k, init, reps, chunk=500):
    """Per-network squared ratios: forward ||h^B||^2/||x||^2, backward at the last block
    ||dl/dh^{B-1}||^2/||dl/dh^B||^2 and at the input ||dl/dh^0||^2/||dl/dh^B||^2."""
    xp = be.xp
    out = {"fwd": [], "bwd_last": [], "bwd_input": [], "fwd_norm": [], "bwd_norm": []}
    for start in range(0, reps, chunk):
        N = min(chunk, reps - start)
        ops = build_resnet(be, [d, d], [B], [k], init, n_networks=N)
        tape = forward(ops, be.normal((N, 1, d)), xp, renormalize=True)
        lf = tape.log_norms[:, 0, -1] - tape.log_norms[:, 0, 0]
        lg, _ = backward(ops, tape, be.normal((N, 1, d)), xp)
        lg = lg[:, 0, :] - lg[:, 0, -1:]
        out["fwd"].append(to_host(xp.exp(2 * lf)))
        out["fwd_norm"].append(to_host(xp.exp(lf)))
        out["bwd_last"].append(to_host(xp.exp(2 * lg[:, -2])))
        out["bwd_input"].append(to_host(xp.exp(2 * lg[:, 0])))
        out["bwd_norm"].append(to_host(xp.exp(lg[:, 0])))
    return {key: np.concatenate(v) for key, v in out.items()}


def resnet_rows(ctx, blocks=(1, 2, 8), base: int = 120000) -> dict:
    """WN ResNets with the proposed gains (alpha absorbed into FC2), per B and law,
    residual width 16 and hidden width 24 (fan-in != fan-out inside the block)."""
    rows = []
    for i, init in enumerate(("proposed_orthogonal", "proposed_he")):
        for j, B in enumerate(blocks):
            be = _backend(ctx, 5000 + 10 * i + j)
            reps = _reps(ctx, base)
            rows.append({"init": init, "B": B, **_resnet_ratios(be, B, 16, 24, init, reps)})
    return {"rows": rows}


def resnet_width_ladder(ctx, B: int = 4, widths=(8, 16, 32, 64, 128), base: int = 4000) -> dict:
    """Norm (not squared) ratios of Theorems 3-4 over a width ladder (d = k = width)."""
    rows = []
    for j, w in enumerate(widths):
        be = _backend(ctx, 6000 + j)
        reps = _reps(ctx, base)
        r = _resnet_ratios(be, B, w, w, "proposed_he", reps)
        rows.append({"width": w, "B": B, "fwd": r["fwd_norm"], "bwd": r["bwd_norm"]})
    return {"rows": rows}


def multistage_rows(ctx, dims=(8, 16, 24), blocks=(3, 6), base: int = 30000) -> dict:
    """||out||^2/||in||^2 of a multi-stage WN ResNet (projection shortcuts between
    stages, hidden width = stage width) for the proposed, Hanin and PyTorch schemes."""
    rows = []
    for i, init in enumerate(("proposed_orthogonal", "hanin_stagewise", "pytorch_default")):
        be = _backend(ctx, 7000 + i)
        xp = be.xp
        reps = _reps(ctx, base)
        ops = build_resnet(be, list(dims), list(blocks), list(dims[1:]), init, n_networks=reps)
        tape = forward(ops, be.normal((reps, 1, dims[0])), xp, renormalize=True)
        lf = tape.log_norms[:, 0, -1] - tape.log_norms[:, 0, 0]
        rows.append({"init": init, "dims": dims, "blocks": blocks, "fwd": to_host(xp.exp(2 * lf))})
    return {"rows": rows}


def mlp_rows(ctx, depth: int = 20, n0: int = 500, width=(150, 250), base: int = 1500) -> dict:
    """||h^L||^2/||x||^2 of WN ReLU MLPs whose layer widths are drawn iid uniform on
    ``width`` per network, for He (g = 1) and the proposed gains. Each sample is
    divided by its exact conditional expectation given the widths:
    1 for the proposed gains, prod_l n_l / (2 n_{l-1}) = n_L / (n_0 2^L) for g = 1."""
    from simulations import build_mlp

    rows = []
    for i, init in enumerate(("proposed_orthogonal", "proposed_he", "he")):
        be = _backend(ctx, 8000 + i)
        reps = _reps(ctx, base)
        vals = np.empty(reps)
        for r in range(reps):
            widths = [n0] + list(be.integers(width[0], width[1] + 1, depth))
            ops = build_mlp(be, widths, init)
            tape = forward(ops, be.normal((1, 1, n0)), be.xp, renormalize=True)
            lf = float(to_host(tape.log_norms[0, 0, -1] - tape.log_norms[0, 0, 0]))
            scale = 1.0 if init != "he" else widths[-1] / (widths[0] * 2.0**depth)
            vals[r] = math.exp(2 * lf) / scale
        rows.append({"init": init, "depth": depth, "ratio_over_prediction": vals})
    return {"rows": rows}
