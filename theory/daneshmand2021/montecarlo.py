"""Monte-Carlo measurements for Daneshmand et al. (2021). Each takes a Context (seed,
scale, backend) and returns host-side records; the unit of replication is one
independent chain (all weights of all layers drawn afresh).

Chains use the exact Gram-law sampler of :mod:`simulations.bn_chains.chain` (its agreement
in law with materialized weights is tested in tests/simulations/bn_chains/test_chain.py).
"""
from __future__ import annotations

import numpy as np

from simulations import (Backend, a1_margin, eq6_weight, get_backend, initial_representation, orthogonality_gap,
                         simulate_chain)
from .formulas import w2sq_from_spectra

__all__ = ["chain_grid", "w2_samples", "decay_rows", "width_ladder", "fig1_rows", "variant_rows", "smin_rows", "eq6_rows",
           "phase_diagram", "per_run_slope"]

#: (n, d) pairs of the bound checks: the bound is informative only when d >> 9 n^3.
GRID = ((2, 64), (2, 1024), (4, 128), (4, 1024), (8, 512))
#: layers at which Theorem 1, Lemma 2 and Corollary 3 are evaluated.
LAYERS = (1, 5, 20, 50, 100)


def _backend(ctx, key: int) -> Backend:
    return get_backend(ctx.backend, seed=ctx.seed).spawn(2021_0000 + key)


def _runs(ctx, base: int, low: int = 30) -> int:
    return max(low, int(round(base * ctx.scale)))


def per_run_slope(y: np.ndarray, layers) -> np.ndarray:
    """OLS slope of y[:, layers] on the layer index, one per run."""
    x = np.asarray(list(layers), float)
    yy = y[:, list(layers)]
    xc = x - x.mean()
    return (yy - yy.mean(axis=1, keepdims=True)) @ xc / np.sum(xc**2)


def chain_grid(ctx, grid=GRID, depth: int = max(LAYERS), base: int = 100) -> dict:
    """Theorem 1 / Lemma 2 / Corollary 3: per (n, d), per layer in LAYERS, the per-run
    V(H_l), the conditional W_2^2 of W_l H_l, and alpha = min over runs and layers
    1..l of sigma_min(H_k). Inputs are iid Gaussian (scaled to unit Frobenius norm),
    where A1 holds with the largest alpha; from the diagonal spike alpha ~ 1e-6."""
    rows = []
    for i, (n, d) in enumerate(grid):
        be = _backend(ctx, 100 + i)
        runs = _runs(ctx, base)
        rec = simulate_chain(be, initial_representation(be, "gaussian", runs, d, n), depth, keep_eigs=True)
        smin = np.exp(rec.log_smin)
        w2 = w2sq_from_spectra(rec.eigs)
        for ell in LAYERS:
            rows.append({"n": n, "d": d, "layer": ell, "runs": runs, "gap": rec.gap[:, ell],
                         "gap_next": rec.gap[:, ell + 1] if ell + 1 <= depth else None,
                         "w2sq": w2[:, ell], "alpha": float(smin[:, 1:ell + 1].min()),
                         "alpha_run": smin[:, 1:ell + 1].min(axis=1)})
    return {"rows": rows, "depth": depth}


def w2_samples(ctx, shapes=((2, 2), (4, 2)), layers=(1, 10), base: int = 400, splits: int = 8) -> dict:
    """Lemma 2 from samples: per (d, n) and layer, ``splits`` independent estimates of the
    empirical W_2^2 between N samples of W_l H_l (one chain each, from the diagonal
    spike) and N samples of G/sqrt(n), beside the same estimator between two samples of
    G/sqrt(n) (its bias floor), and E[V(H_l)]."""
    from .formulas import w2sq_empirical

    rows = []
    for i, (d, n) in enumerate(shapes):
        be = _backend(ctx, 900 + i)
        N = _runs(ctx, base, low=200)
        for ell in layers:
            est, floor, gaps = [], [], []
            for s in range(splits):
                H0 = initial_representation(be, "diagonal_spike", N, d, n)
                rec = simulate_chain(be, H0, ell)
                H = rec.final
                WH = (be.normal((N, d, d)) / np.sqrt(d)) @ H
                G = be.normal((N, d, n)) / np.sqrt(d * n)
                G2 = be.normal((N, d, n)) / np.sqrt(d * n)
                est.append(w2sq_empirical(WH, G))
                floor.append(w2sq_empirical(G2, G))
                gaps.append(rec.gap[:, -1])
            rows.append({"d": d, "n": n, "layer": ell, "samples": N, "w2sq_hat": np.array(est),
                         "floor": np.array(floor), "gap": np.concatenate(gaps)})
    return {"rows": rows}


def decay_rows(ctx, widths=(32, 512), n: int = 4, depth: int = 50, base: int = 200) -> dict:
    """Figure 2a: log V(H_l) over the first layers from the diagonal spike, BN and vanilla."""
    out = {}
    for i, d in enumerate(widths):
        for j, variant in enumerate(("bn", "vanilla")):
            be = _backend(ctx, 200 + 10 * i + j)
            runs = _runs(ctx, base)
            rec = simulate_chain(be, initial_representation(be, "diagonal_spike", runs, d, n), depth, variant)
            out[(variant, d)] = {"log_gap": np.log(rec.gap), "runs": runs}
    return {"rows": out, "n": n, "depth": depth}


def width_ladder(ctx, widths=(16, 32, 64, 128, 256, 512), batch_sizes=(4, 8), depth: int = 600,
                 base: int = 30) -> dict:
    """Figure 2b: per run, the mean of V(H_l) over layers 100..600 (the caption), over
    layers 1..500 (the authors' notebook), the mean conditional W_2^2 over 100..600
    and the slope of V over 100..600."""
    rows = []
    for i, n in enumerate(batch_sizes):
        for j, d in enumerate(widths):
            be = _backend(ctx, 300 + 20 * i + j)
            runs = _runs(ctx, base)
            rec = simulate_chain(be, initial_representation(be, "diagonal_spike", runs, d, n), depth,
                                 keep_eigs=True)
            tail = slice(100, depth + 1)
            rows.append({"n": n, "width": d, "runs": runs, "caption_avg": rec.gap[:, tail].mean(axis=1),
                         "notebook_avg": rec.gap[:, 1:501].mean(axis=1),
                         "w2sq_avg": w2sq_from_spectra(rec.eigs[:, tail]).mean(axis=1),
                         "tail_slope": per_run_slope(np.log(rec.gap), range(100, depth + 1))})
    return {"rows": rows, "depth": depth}


def fig1_rows(ctx, d: int = 32, depth: int = 50, base: int = 400) -> dict:
    """Figure 1: |cos| of two samples, BN from nearly aligned, vanilla from orthogonal."""
    out = {}
    for j, (variant, start) in enumerate((("bn", "aligned"), ("vanilla", "orthogonal"))):
        be = _backend(ctx, 400 + j)
        runs = _runs(ctx, base)
        rec = simulate_chain(be, initial_representation(be, start, runs, d, 2), depth, variant)
        out[variant] = {"abs_cos": np.abs(rec.cos01), "gap": rec.gap, "runs": runs}
    return {"rows": out, "d": d, "depth": depth}


def variant_rows(ctx, widths=(32, 128, 512), n: int = 4, depth: int = 200, base: int = 60) -> dict:
    """Per variant and width: per-run mean V over layers depth/2..depth from Gaussian inputs."""
    rows = []
    for i, variant in enumerate(("bn", "bn_centered", "vanilla", "bn_relu", "vanilla_relu")):
        for j, d in enumerate(widths):
            be = _backend(ctx, 500 + 10 * i + j)
            runs = _runs(ctx, base)
            rec = simulate_chain(be, initial_representation(be, "gaussian", runs, d, n), depth, variant)
            rows.append({"variant": variant, "width": d, "n": n, "runs": runs,
                         "plateau": rec.gap[:, depth // 2:].mean(axis=1), "first": rec.gap[:, 0],
                         "last": rec.gap[:, -1]})
    return {"rows": rows, "depth": depth}


def smin_rows(ctx, shapes=((2, 1), (8, 2), (32, 4), (128, 8), (512, 16)), base: int = 20000) -> dict:
    """Sec. 3.3: sigma_min of a d x n matrix of iid N(0, 1) entries (not normalized)."""
    rows = []
    for i, (d, n) in enumerate(shapes):
        be = _backend(ctx, 600 + i)
        reps = _runs(ctx, base, low=1000)
        smin = []
        for start in range(0, reps, 2000):
            H = be.normal((min(2000, reps - start), d, n))
            lam = be.xp.linalg.eigvalsh(be.xp.swapaxes(H, -1, -2) @ H)
            smin.append(np.sqrt(np.clip(np.asarray(lam[..., 0]), 0, None)))
        rows.append({"d": d, "n": n, "smin": np.concatenate(smin), "bound": np.sqrt(d) - np.sqrt(n)})
    return {"rows": rows}


def eq6_rows(ctx, shapes=((2, 2), (2, 3), (3, 3), (3, 5), (4, 8), (8, 16)), base: int = 5000) -> dict:
    """Sec. 5.2, Eq. 6 on random H (d x n, n >= d): V(H), V(W H) per variant, and the
    spread of the row Gram of W H (0 = orthonormal rows up to scale)."""
    rows = []
    for i, (d, n) in enumerate(shapes):
        be = _backend(ctx, 700 + i)
        reps = _runs(ctx, base, low=500)
        # Half Gaussian, half strongly anisotropic (rows scaled by 10^-k), to probe the boundary.
        H = be.normal((reps, d, n))
        H[reps // 2:] *= (10.0 ** -np.arange(d))[:, None]
        row = {"d": d, "n": n, "reps": reps, "gap_H": orthogonality_gap(H)}
        for variant in ("printed", "orthogonal", "whitening"):
            WH = eq6_weight(H, variant) @ H
            G = WH @ np.swapaxes(WH, -1, -2)
            G = G / np.trace(G, axis1=-2, axis2=-1)[:, None, None] * d
            row[f"gap_{variant}"] = orthogonality_gap(WH)
            row[f"rows_off_{variant}"] = np.linalg.norm((G - np.eye(d)).reshape(reps, -1), axis=-1)
        rows.append(row)
    return {"rows": rows}


def phase_diagram(ctx, batch_sizes=(2, 4, 8, 16, 24, 32, 48), widths=(8, 16, 32, 64, 128, 256, 512, 1024, 2048),
                  depth: int = 1000, runs: int = 10, factor: float = 0.1) -> dict:
    """Figure 3: does A1(0.1 alpha_0, 1000) hold in all ``runs`` runs at (n, d)?
    H_0 has iid N(0, 1) entries scaled to unit Frobenius norm (the scale of every H_l).
    A pixel stops early once a run has failed (``layers_run`` < depth)."""
    from tqdm import tqdm

    cells = []
    pairs = [(n, d) for n in batch_sizes for d in widths if d >= n]
    for k, (n, d) in enumerate(tqdm(pairs, desc="Figure 3 pixels", leave=False)):
        be = _backend(ctx, 800 + k)
        ratio, layers = a1_margin(be, initial_representation(be, "gaussian", runs, d, n), depth, factor)
        cells.append({"n": n, "d": d, "holds_all": bool(np.all(ratio >= factor)),
                      "fraction": float(np.mean(ratio >= factor)), "ratio_min": float(ratio.min()),
                      "layers_run": layers})
    return {"cells": cells, "depth": depth, "runs": runs, "factor": factor}
