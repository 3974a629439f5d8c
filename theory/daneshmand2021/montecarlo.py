"""Monte-Carlo measurements of Daneshmand, Joudaki & Bach (2021), drawn in blocks.

Each ``*_block(ctx, block)`` returns one :class:`~theory.core.records.Block`: per row
(a setting) a fixed number of replicates, one replicate = one independent chain (all
weights of all layers drawn afresh). Every random stream is
``ctx.stream("daneshmand2021.<measurement>", row, block)``, so block b holds the same
numbers whatever was drawn before. Layers of one chain are never pooled: a per-run
summary (a mean over layers, a slope) is the replicate.

Chains use the exact Gram-law sampler of :mod:`simulations.bn_chains.chain` (its agreement
in law with materialized weights is tested in tests/simulations/bn_chains/test_chain.py),
which makes widths up to 65536 cheap (cost d n^2 per layer).
"""
from __future__ import annotations

import math

import numpy as np

from simulations import a1_margin, array_namespace, initial_representation, orthogonality_gap, simulate_chain, to_host
from simulations.bn_chains import eq6_weight, gaussian_pair_singular_values

from ..core import Block, Row, Sampling
from .formulas import w2sq_from_spectra

__all__ = ["GRID", "LAYERS", "chain_grid_block", "width_ladder_block", "fig1_block", "variant_block",
           "centered_block", "smin_block", "drift_block", "phase_block", "boundary_width", "confirm_rows",
           "CONFIRM_TESTS_PER_N", "per_run_slope",
           "grid_runs", "CHAIN_GRID", "WIDTH_LADDER", "FIG1", "VARIANTS", "CENTERED", "SMIN", "DRIFT",
           "DRIFT_STEP", "DRIFT_STEP_V0", "drift_step_block", "DRIFT_STARTS", "DRIFT_RATE_STARTS",
           "DRIFT_RATE_LAYERS", "RISE_FROM", "DRIFT_LEVEL_START", "DRIFT_LEVEL_V0", "level_start",
           "PHASE", "one_step_block", "ln_block", "fig6a_block", "fig4a_block", "correlated_input", "ONE_STEP",
           "LAYER_NORM", "FIG6A", "FIG4A", "W2_LAYERS", "LIPSCHITZ", "W2_DRAWS", "w2_draws", "lipschitz_summaries"]

#: (n, d) cells of the bound checks. Theorem 1's bound is below the largest gap
#: sqrt(1 - 1/n) only for d > 9 n^4/(n - 1) (alpha <= 1/sqrt(n)); Corollary 3's below the
#: largest W_2^2 = 2 - 2/sqrt(n) only for d > 9 n^5/(1 - 1/sqrt(n))^2: n = 2 from d = 4096,
#: n = 4 only at d = 65536 (layers >= 20), a cell left out: the tests need 200 chains per
#: cell (theory.stats.MIN_REPLICATES), which cost minutes there. The small cells are where
#: Lemma 2 bites.
GRID = ((2, 64), (4, 128), (8, 512), (2, 1024), (2, 4096), (2, 16384), (4, 16384))
#: layers l at which Theorem 1 (V(H_{l+1})), Lemma 2 and Corollary 3 (W_l H_l) are evaluated.
LAYERS = (1, 5, 10, 20)
#: the grid's rows: LAYERS and l = 40, where Corollary 3's depth term 4 n (1 - 2 alpha/3)^l is
#: below the lower bound on W_2^2 of the laws (Lemma 2 and Corollary 3 only; Theorem 1 keeps LAYERS).
W2_LAYERS = LAYERS + (40,)
#: 1-Lipschitz functionals (Frobenius norm) of a d x n matrix M, through its singular values
#: (Weyl/Mirsky: ||sigma(A) - sigma(B)||_2 <= ||A - B||_F): sigma_max, -sigma_min and
#: (sigma_max - sigma_min)/sqrt(2), oriented so that E f(W_l H_l) >= E f(G/sqrt(n)) is expected.
LIPSCHITZ = ("sigma_max", "minus_sigma_min", "spread")
#: fresh draws of W_l H_l given H_l (and of G/sqrt(n)) per chain and grid row up to width 1024,
#: averaged within the run; fewer above (``w2_draws``), where a draw costs most.
W2_DRAWS = 8


def w2_draws(d: int) -> int:
    """Draws of W_l H_l per chain and grid row at width d: W2_DRAWS up to 1024, then
    fewer in proportion to the width, at least 1.

    >>> [w2_draws(d) for d in (64, 1024, 4096, 65536)]
    [8, 8, 2, 1]
    """
    return max(1, W2_DRAWS * 1024 // max(d, 1024))


def _key(name: str) -> str:
    return f"daneshmand2021.{name}"


def per_run_slope(y: np.ndarray, layers) -> np.ndarray:
    """OLS slope of y[:, layers] on the layer index, one per run (a per-run summary,
    not a fit across replicates).

    >>> per_run_slope(np.array([[0.0, 1.0, 2.0, 3.0]]), range(4)).tolist()
    [1.0]
    """
    x = np.asarray(list(layers), float)
    yy = y[:, list(layers)]
    xc = x - x.mean()
    return (yy - yy.mean(axis=1, keepdims=True)) @ xc / np.sum(xc**2)


def lipschitz_summaries(sv, axes=(-2,)):
    """The :data:`LIPSCHITZ` functionals of matrices with singular values ``sv`` (..., n),
    ascending, averaged over ``axes`` (the draws of one run); last axis: the functionals."""
    xp = array_namespace(sv)
    f = xp.stack([sv[..., -1], -sv[..., 0], (sv[..., -1] - sv[..., 0]) / math.sqrt(2.0)], axis=-1)
    return f.mean(axis=tuple(axes))  # the stacked axis replaces n: the other axes keep their place


def _law_functionals(be, lam, d: int, draws: int, axes=(-2,)):
    """(runs, ..., 3) device arrays of the Lipschitz functionals of W_l H_l (given the
    chains' trace-one spectra ``lam``) and of independent G/sqrt(n), averaged over ``axes``."""
    sx, sy = gaussian_pair_singular_values(be, lam, d, draws)
    return lipschitz_summaries(sx, axes), lipschitz_summaries(sy, axes)


def grid_runs(d: int) -> int:
    """Chains per block in a grid cell: at least :data:`theory.stats.MIN_REPLICATES` in
    every cell, so that the first look can be judged; more in the narrow cells, where a
    chain is cheap and Lemma 2's per-run difference inherits V's spread.

    >>> [grid_runs(d) for d in (64, 4096, 16384)]
    [512, 256, 200]
    """
    return 512 if d <= 1024 else (256 if d <= 4096 else 200)


def chain_grid_block(ctx, block: int, grid=GRID, layers=W2_LAYERS) -> Block:
    """Theorem 1, Lemma 2, Corollary 3: per (n, d) cell and layer l, per run: V(H_l),
    V(H_{l+1}), the conditional W_2^2 of W_l H_l given H_l (closed form of
    :func:`~.formulas.w2sq_from_spectra`; averaged over H it is an upper bound on W_2^2 of
    the laws), and sigma_min(H_k) minimized over k = 1..l (``alpha_l``) and over k = 1..l-1
    (``alpha_prev``, +inf at l = 1: A1(alpha, 0) is void). H_0 is iid Gaussian scaled to
    unit Frobenius norm. For a lower bound on W_2 of the laws: ``lip_x`` (runs, 3), the
    :data:`LIPSCHITZ` functionals of W_l H_l averaged over :func:`w2_draws` fresh draws of W_l
    given the run's H_l, and ``lip_y``, the same of as many independent draws of G/sqrt(n)
    (drawn after the chain from the cell's stream, so the chain's numbers are unchanged)."""
    depth = max(layers) + 1
    rows = []
    for i, (n, d) in enumerate(grid):
        be = ctx.stream(_key("chain_grid"), i, block)
        runs = grid_runs(d)
        rec = simulate_chain(be, initial_representation(be, "gaussian", runs, d, n), depth, keep_eigs=True)
        smin = np.exp(rec.log_smin)
        w2 = w2sq_from_spectra(rec.eigs)
        fx, fy = _law_functionals(be, rec.eigs[:, list(layers)], d, w2_draws(d))  # (runs, layers, 3)
        fx, fy = to_host(be.xp.stack([fx, fy]))  # one host transfer per cell
        for k, ell in enumerate(layers):
            prev = smin[:, 1:ell].min(axis=1) if ell > 1 else np.full(runs, np.inf)
            rows.append(Row({"n": n, "d": d, "layer": ell},
                            {"gap": rec.gap[:, ell], "gap_next": rec.gap[:, ell + 1], "w2sq": w2[:, ell],
                             "alpha_l": smin[:, 1:ell + 1].min(axis=1), "alpha_prev": prev,
                             "lip_x": fx[:, k], "lip_y": fy[:, k]}))
    return Block(rows, meta={"depth": depth})


def width_ladder_block(ctx, block: int, widths=(32, 64, 128, 256, 512), n: int = 4, depth: int = 600,
                       runs: int = 20) -> Block:
    """Figure 2 (right) and Table 1: per width and run, the mean of V(H_l) over layers
    100..600 (the caption), over layers 1..500 (the authors' notebook), the mean
    conditional W_2^2 over 100..600 (an upper bound on the mean W_2^2 of the laws), the
    OLS slope of log V over 100..600, and for a lower bound on W_2 of the laws ``lip_x``
    (runs, 3): the :data:`LIPSCHITZ` functionals of one fresh draw of W_l H_l given the
    run's H_l at every 5th layer of 100..600, averaged over those layers, and ``lip_y``:
    the same of as many independent draws of G/sqrt(n) (drawn after the chain)."""
    rows = []
    tail = slice(100, depth + 1)
    for j, d in enumerate(widths):
        be = ctx.stream(_key("width_ladder"), j, block)
        rec = simulate_chain(be, initial_representation(be, "diagonal_spike", runs, d, n), depth, keep_eigs=True)
        fx, fy = to_host(be.xp.stack(_law_functionals(be, rec.eigs[:, 100::5], d, 1, axes=(1, 2))))
        rows.append(Row({"n": n, "width": d},
                        {"caption_avg": rec.gap[:, tail].mean(axis=1), "notebook_avg": rec.gap[:, 1:501].mean(axis=1),
                         "w2sq_avg": w2sq_from_spectra(rec.eigs[:, tail]).mean(axis=1),
                         "tail_slope": per_run_slope(np.log(rec.gap), range(100, depth + 1)),
                         "lip_x": fx, "lip_y": fy}))
    return Block(rows, meta={"depth": depth, "n": n})


def fig1_block(ctx, block: int, d: int = 32, depth: int = 50, runs: int = 200) -> Block:
    """Figure 1: |cos| of two samples at layers 0..depth; BN chain from nearly aligned
    inputs (e_1 and e_1 + 1e-3 e_2), vanilla chain from orthogonal inputs."""
    rows = []
    for j, (variant, start) in enumerate((("bn", "aligned"), ("vanilla", "orthogonal"))):
        be = ctx.stream(_key("fig1"), j, block)
        rec = simulate_chain(be, initial_representation(be, start, runs, d, 2), depth, variant)
        rows.append(Row({"variant": variant, "start": start}, {"abs_cos": np.abs(rec.cos01)}))
    return Block(rows, meta={"d": d, "depth": depth})


def _plateau_rows(ctx, name, variants, widths, n, depth, runs, block):
    rows = []
    for i, variant in enumerate(variants):
        for j, d in enumerate(widths):
            be = ctx.stream(_key(name), i, j, block)
            k = runs if d <= 128 else max(2, runs // 2)  # wide chains cost most and vary least
            rec = simulate_chain(be, initial_representation(be, "gaussian", k, d, n), depth, variant)
            half = depth // 2
            rows.append(Row({"variant": variant, "width": d},
                            {"plateau": rec.gap[:, half:].mean(axis=1),
                             "plateau_sq": (rec.gap[:, half:] ** 2).mean(axis=1),
                             "first": rec.gap[:, 0], "last": rec.gap[:, -1],
                             "late_a": rec.gap[:, half:half + depth // 4].mean(axis=1),
                             "late_b": rec.gap[:, half + depth // 4:].mean(axis=1)}))
    return rows


def variant_block(ctx, block: int, widths=(32, 128, 512), n: int = 4, depth: int = 120, runs: int = 400) -> Block:
    """Per variant (BN, vanilla, and their ReLU versions) and width, per run from
    Gaussian H_0 (``runs`` chains per block up to width 128, half as many above): V at
    layer 0 and at the last layer, the mean of V over layers depth/2..depth, and its two
    halves (depth/2..3depth/4 and 3depth/4..depth)."""
    rows = _plateau_rows(ctx, "variants", ("bn", "vanilla", "bn_relu", "vanilla_relu"), widths, n, depth, runs, block)
    return Block(rows, meta={"depth": depth, "n": n})


def centered_block(ctx, block: int, widths=(32, 64, 128, 256, 512), n: int = 4, depth: int = 200,
                   runs: int = 400) -> Block:
    """The mean-corrected BN chain of Sec. 2.1 over a width ladder (per-run plateau over
    layers depth/2..depth, Gaussian H_0)."""
    return Block(_plateau_rows(ctx, "centered", ("bn_centered",), widths, n, depth, runs, block),
                 meta={"depth": depth, "n": n})


def smin_block(ctx, block: int, shapes=((8, 2), (32, 4), (128, 8), (512, 16)), draws: int = 250) -> Block:
    """Sec. 3.3: sigma_min of a d x n matrix of iid N(0, 1) entries (not normalized)."""
    rows = []
    for i, (d, n) in enumerate(shapes):
        be = ctx.stream(_key("smin"), i, block)
        H = be.normal((draws, d, n))
        lam = to_host(be.xp.linalg.eigvalsh(be.xp.swapaxes(H, -1, -2) @ H))
        rows.append(Row({"d": d, "n": n}, {"smin": np.sqrt(np.clip(lam[..., 0], 0, None))}))
    return Block(rows)


#: Full-rank starts of the corrected drift display (Sec. 3.2), all with V(H_0) well away
#: from E_pi V: the diagonal spike (Figure 2), the near-aligned start (columns e_1 + 1e-3 e_k)
#: and orthogonal columns (V(H_0) = 0, below E_pi V); Gaussian H_0 gives E_pi V.
DRIFT_STARTS = ("diagonal_spike", "aligned", "orthogonal")
#: Starts whose per-layer means are recorded for the rate (layers 0..DRIFT_RATE_LAYERS):
#: the two near-rank-deficient ones, far above E_pi V and slow enough to resolve many layers.
DRIFT_RATE_STARTS = ("diagonal_spike", "aligned")
DRIFT_RATE_LAYERS = 40
#: A full-rank start of the drift measurement with V(H_0) near E_pi V (d = 16, n = 4):
#: equal column norms and pairwise cosine c, V(H_0) = c sqrt(1 - 1/n) =
#: :data:`DRIFT_LEVEL_V0`. Its first layer moves E V(H_1) away from E_pi V by more than the
#: start is off, the printed display's counterexample inside the corrected claim's data.
DRIFT_LEVEL_START = "stationary_level"
#: V(H_0) of :data:`DRIFT_LEVEL_START`, near E_pi V at d = 16, n = 4 (about 0.294).
DRIFT_LEVEL_V0 = 0.294


def level_start(d: int, n: int, v0: float = DRIFT_LEVEL_V0) -> np.ndarray:
    """The d x n start of :data:`DRIFT_LEVEL_START`: columns of unit norm with pairwise
    cosine c = v0 / sqrt(1 - 1/n) (Gram (1 - c) I + c 1 1^T), so V(H_0) = v0.

    >>> H = level_start(16, 4)
    >>> G = H.T @ H / np.trace(H.T @ H)
    >>> round(float(np.linalg.norm(G - np.eye(4) / 4)), 12)
    0.294
    """
    c = v0 / math.sqrt(1 - 1 / n)
    if not 0 <= c < 1:
        raise ValueError(f"v0 must be in [0, sqrt(1 - 1/n)) (a full-rank start), got {v0!r} at n = {n}")
    H = np.zeros((d, n))
    H[:n] = np.linalg.cholesky((1 - c) * np.eye(n) + c * np.ones((n, n))).T
    return H


def drift_block(ctx, block: int, d: int = 16, n: int = 4, depth: int = 60, runs: int = 1000) -> Block:
    """Sec. 3.2's geometric-drift display with phi = V (corrected reading): per run, the
    mean of V over layers 40..60 from a rank-one H_0 (all columns equal; outside the
    paper's assumption), from each of :data:`DRIFT_STARTS`, from a Gaussian H_0 (the
    replicates of E_pi V) and from :data:`DRIFT_LEVEL_START` (with its V(H_1), ``v1``);
    for :data:`DRIFT_RATE_STARTS` also ``path``, V(H_l) for l = 0..DRIFT_RATE_LAYERS (one
    chain per run: its layers are one replicate vector)."""
    rows = []
    for j, start in enumerate(("rank_one",) + DRIFT_STARTS + ("gaussian", DRIFT_LEVEL_START)):
        be = ctx.stream(_key("drift"), j, block)
        if start == "rank_one":
            H0 = be.xp.broadcast_to(be.normal((runs, d, 1)), (runs, d, n)).copy()
        elif start == DRIFT_LEVEL_START:
            H0 = be.xp.asarray(np.broadcast_to(level_start(d, n), (runs, d, n)), dtype=be.dtype).copy()
        else:
            H0 = initial_representation(be, start, runs, d, n)
        rec = simulate_chain(be, H0, depth)
        data = {"late": rec.gap[:, 40:].mean(axis=1)}
        if start in DRIFT_RATE_STARTS:
            data["path"] = rec.gap[:, :DRIFT_RATE_LAYERS + 1].copy()
        if start == DRIFT_LEVEL_START:
            if not np.allclose(rec.gap[:, 0], DRIFT_LEVEL_V0, rtol=0, atol=1e-9):
                raise ValueError(f"the start's V(H_0) must be {DRIFT_LEVEL_V0} in every run")
            data["v1"] = rec.gap[:, 1].copy()
        rows.append(Row({"start": start}, data))
    return Block(rows, meta={"d": d, "n": n, "depth": depth, "rate_layers": DRIFT_RATE_LAYERS, "runs": runs,
                             "v0": DRIFT_LEVEL_V0})


#: V(H_0) of the full-rank start of the drift display's counterexample: near E_pi V at
#: d = 16, n = 2 (about 0.183). The judge estimates E_pi V itself and needs only
#: |V(H_0) - E_pi V| small next to the first step's move.
DRIFT_STEP_V0 = 0.183


def drift_step_block(ctx, block: int, d: int = 16, n: int = 2, depth: int = 60, runs: int = 4000) -> Block:
    """Sec. 3.2's display at l = 1 from a full-rank start (inside the paper's
    linear-independence assumption): per run, V(H_1) from the fixed orthogonal-column
    H_0 = [sqrt(lam) e_1, sqrt(1 - lam) e_2] with V(H_0) = sqrt(2) (lam - 1/2) =
    ``DRIFT_STEP_V0`` (n = 2), and, on an independent stream, the mean of V over layers
    40..60 of a chain from a Gaussian H_0 (replicates of E_pi V)."""
    if n != 2:
        raise ValueError(f"n must be 2 (the start is built from V for two columns), got {n}")
    be = ctx.stream(_key("drift_step"), block)
    xp = be.xp
    lam = 0.5 + DRIFT_STEP_V0 / math.sqrt(2)
    H0 = xp.zeros((runs, d, n), dtype=be.dtype)
    H0[:, 0, 0] = math.sqrt(lam)
    H0[:, 1, 1] = math.sqrt(1 - lam)
    step = simulate_chain(be, H0, 1)
    if not np.allclose(step.gap[:, 0], DRIFT_STEP_V0, rtol=0, atol=1e-12):
        raise ValueError(f"the start's V(H_0) must be {DRIFT_STEP_V0} in every run")
    pi_be = be.child("stationary")
    late = simulate_chain(pi_be, initial_representation(pi_be, "gaussian", runs, d, n), depth).gap[:, 40:].mean(axis=1)
    return Block((Row({"start": "stationary_level"}, {"v1": step.gap[:, 1]}),
                  Row({"start": "gaussian"}, {"late": late})),
                 meta={"d": d, "n": n, "depth": depth, "v0": DRIFT_STEP_V0})


def one_step_block(ctx, block: int, cells=((2, 16), (2, 128), (2, 1024), (4, 128), (4, 1024), (8, 1024)),
                   kinds=("orthogonal", "gaussian", "linear", "geometric"), reps: int = 200) -> Block:
    """One layer of the BN chain from fixed H (the same H in every block, drawn from a
    stream named by the row only): per replicate V(H_+), with V(H) and sigma_min(H) of
    the fixed H. Spectra of H: equal singular values (orthogonal), iid Gaussian entries,
    singular values 1..n (linear) and 10^-k (geometric)."""
    rows = []
    for i, (n, d) in enumerate(cells):
        for j, kind in enumerate(kinds):
            fixed = ctx.stream(_key("one_step.H"), i, j)
            H = _fixed_h(fixed, kind, d, n)
            be = ctx.stream(_key("one_step"), i, j, block)
            rec = simulate_chain(be, np.broadcast_to(H, (reps, d, n)).copy(), 1)
            rows.append(Row({"n": n, "d": d, "kind": kind},
                            {"gap_next": rec.gap[:, 1], "gap_H": rec.gap[:, 0], "smin_H": np.exp(rec.log_smin[:, 0])}))
    return Block(rows)


def _fixed_h(be, kind: str, d: int, n: int) -> np.ndarray:
    rng = be.host_rng
    if kind == "gaussian":
        return rng.standard_normal((d, n))
    U = np.linalg.qr(rng.standard_normal((d, n)))[0]
    Vt = np.linalg.qr(rng.standard_normal((n, n)))[0]
    s = {"orthogonal": np.ones(n), "linear": np.arange(1.0, n + 1), "geometric": 10.0 ** -np.arange(n)}[kind]
    return (U * s) @ Vt


#: Layer from which the rise of |cos| from orthogonal inputs is judged (Figure 1's
#: vanilla chain and Sec. 6's LN chain): at layer 0 |cos| is exactly 0, so a rise from
#: there cannot fail.
RISE_FROM = 10


def ln_block(ctx, block: int, d: int = 32, depth: int = 50, runs: int = 200) -> Block:
    """Sec. 6, layer normalization (each sample scaled to unit norm over its features,
    no centring) against the vanilla chain driven by the same weights, from orthogonal
    inputs (n = 2): per run the largest difference of |cos| along the path, the change
    of the LN chain's |cos| from layer 0 to the last layer (``ln_change``) and from layer
    :data:`RISE_FROM` to the last (``ln_rise``)."""
    be = ctx.stream(_key("layer_norm"), block)
    xp = be.xp
    H = initial_representation(be, "orthogonal", runs, d, 2)
    Hv, Hl = H, H
    cos_v, cos_l = [], []
    for layer in range(depth + 1):
        if layer:
            W = be.normal((runs, d, d)) / np.sqrt(d)
            Hv, Hl = W @ Hv, W @ Hl
            Hv = Hv / xp.linalg.norm(Hv.reshape(runs, -1), axis=-1)[:, None, None]  # V is scale-free
            Hl = Hl / xp.linalg.norm(Hl, axis=-2, keepdims=True)
        for X, out in ((Hv, cos_v), (Hl, cos_l)):
            a, b = X[..., 0], X[..., 1]
            out.append(xp.abs(xp.sum(a * b, -1)) / (xp.linalg.norm(a, axis=-1) * xp.linalg.norm(b, axis=-1)))
    cv, cl = to_host(xp.stack(cos_v, 1)), to_host(xp.stack(cos_l, 1))
    return Block((Row({"d": d}, {"max_path_difference": np.max(np.abs(cv - cl), axis=1),
                                 "ln_change": cl[:, -1] - cl[:, 0], "ln_rise": cl[:, -1] - cl[:, RISE_FROM]}),),
                 meta={"d": d, "depth": depth, "rise_from": RISE_FROM})


def correlated_input(be, runs: int, d: int, n: int, rho: float):
    """H_0 whose samples share a common direction: column k = sqrt(rho) g + sqrt(1-rho) g_k
    (pairwise cosine about rho), a stand-in for natural-image batches."""
    return np.sqrt(rho) * be.normal((runs, d, 1)) + np.sqrt(1 - rho) * be.normal((runs, d, n))


def fig6a_block(ctx, block: int, d: int = 100, n: int = 8, depth: int = 30, runs: int = 200, rho: float = 0.8) -> Block:
    """Appendix Figure 6 (MLP panel) in the authors' setting (Figure_5.ipynb,
    paper_fig6a): ReLU -> linear -> torch-style BN (mean-centred) or nothing, width 100,
    batch 8, 30 layers, from correlated inputs (pairwise cosine ~ ``rho``). Per run: V
    at layer 0 and at the last layer, and the means of V over layers 20..25 and 25..30."""
    rows = []
    for j, variant in enumerate(("bn_centered_relu", "vanilla_relu")):
        be = ctx.stream(_key("fig6a"), j, block)
        rec = simulate_chain(be, correlated_input(be, runs, d, n, rho), depth, variant)
        rows.append(Row({"variant": variant}, {"first": rec.gap[:, 0], "last": rec.gap[:, -1],
                                               "early": rec.gap[:, 20:26].mean(axis=1),
                                               "late": rec.gap[:, 25:31].mean(axis=1)}))
    return Block(rows, meta={"d": d, "n": n, "depth": depth, "rho": rho})


def fig4a_block(ctx, block: int, d: int = 800, n: int = 100, depths=(15, 30, 45, 60, 75), runs: int = 8) -> Block:
    """Figure 4 (left), red curve: the orthogonality gap of the last hidden layer of a
    random vanilla ReLU MLP (width 800) against depth, on batches of 100 (the training
    batch is 500; V's growth with depth does not hinge on it, and the cost does). A network of depth L
    has L - 1 hidden layers after the input layer; one chain per run gives every depth
    (the prefix of a deeper network has the law of a shallower one). Gaussian inputs
    stand in for CIFAR-10; the weight scale (Xavier) does not change V."""
    be = ctx.stream(_key("fig4a"), block)
    rec = simulate_chain(be, initial_representation(be, "gaussian", runs, d, n), max(depths) - 1, "vanilla_relu")
    return Block((Row({"d": d, "n": n}, {f"gap_depth_{L}": rec.gap[:, L - 1] for L in depths}),),
                 meta={"depths": depths, "d": d, "n": n})


def boundary_width(col) -> int | None:
    """The first width of a column [(d, all runs hold), ...] from which A1 holds at every
    larger width of the grid (None: it fails at the widest)."""
    ok_from = None
    for d, holds in sorted(col, reverse=True):
        if not holds:
            break
        ok_from = d
    return ok_from


#: A fixed design rule (not a test): fresh runs past which the nearer width of a side
#: counts as unresolved and the next grid width out is drawn too: more than 2% failing at
#: d* (past that the judge cannot show P(lit) >= 0.1 with 100 runs at the catalogue's
#: alpha), more than half holding at d*/2 (it can show P(lit) < 0.1 up to about 55%).
EXTEND_AT, EXTEND_BELOW = 0.02, 0.5
#: The most fresh-run widths :func:`confirm_rows` draws per batch size (two per side):
#: the judge's Bonferroni split, fixed in advance whatever is drawn.
CONFIRM_TESTS_PER_N = 4


def confirm_rows(n: int, top, widths, confirm_runs, holding) -> list:
    """Fresh single runs, each to its own outcome, at the sweep's boundary d* = ``top`` and
    at d*/2 (``confirm_runs`` of each), and one grid step further out on a side whose
    count is unresolved (:data:`EXTEND_AT`, :data:`EXTEND_BELOW`): at 2 d* and at d*/4.
    ``holding(d, runs)`` draws the runs at width d and returns how many hold."""
    if top is None:
        return []
    out = []
    for side, first, outer, count, extend in (("at", top, 2 * top, confirm_runs[0], lambda k, N: N - k > EXTEND_AT * N),
                                              ("below", top // 2, top // 4, confirm_runs[1],
                                               lambda k, N: k > EXTEND_BELOW * N)):
        for d in (first, outer):
            if d < n or d not in widths:
                break
            k = int(holding(d, count))
            out.append(Row({"n": n, "d": d, "role": "confirm", "side": side},
                           {"runs_holding": np.asarray([k]), "runs": np.asarray([count])}))
            if not extend(k, count):
                break
    return out


def phase_block(ctx, block: int, batch_sizes=(2, 4, 8, 16, 24, 32, 48),
                widths=(8, 16, 32, 64, 128, 256, 512, 1024, 2048), depth: int = 1000, runs: int = 10,
                factor: float = 0.1, confirm_runs=(100, 100)) -> Block:
    """Figure 3: does A1(0.1 alpha_0, 1000) hold in all ``runs`` runs at (n, d)? H_0
    has iid N(0, 1) entries scaled to unit Frobenius norm (the scale of every H_l). A
    pixel stops early once a run has failed. One block: the caption fixes 10 runs.

    The sweep's boundary d*(n) is itself random. Rows with ``role="confirm"``
    (:func:`confirm_rows`) redraw, in fresh streams, single runs at d* and d*/2 (and one
    step further out where those are unresolved), each run to its own outcome: the counts
    that bracket the pixel's switch-on width (the judge's test)."""
    rows, cols = [], {}
    pairs = [(n, d) for n in batch_sizes for d in widths if d >= n]
    for k, (n, d) in enumerate(pairs):
        be = ctx.stream(_key("phase"), k, block)
        ratio, layers = a1_margin(be, initial_representation(be, "gaussian", runs, d, n), depth, factor)
        cols.setdefault(n, []).append((d, bool(np.all(ratio >= factor))))
        rows.append(Row({"n": n, "d": d, "role": "sweep"}, {"ratio": np.asarray([ratio.min()]),
                                                             "fraction": np.asarray([float(np.mean(ratio >= factor))]),
                                                             "layers_run": np.asarray([layers])}))
    for n in batch_sizes:
        def holding(d, count, n=n):
            be = ctx.stream(_key("phase_confirm"), n, d, block)
            ratio, _ = a1_margin(be, initial_representation(be, "gaussian", count, d, n), depth, factor, stop="all")
            return np.sum(ratio >= factor)

        rows += confirm_rows(n, boundary_width(cols[n]), widths, confirm_runs, holding)
    return Block(rows, meta={"depth": depth, "runs": runs, "factor": factor})


def eq6_gaps(H, variants=("printed", "orthogonal", "whitening"), power=None) -> dict:
    """V(H), V(W H) and the spread of the row Gram of W H (0 = orthonormal rows up to
    scale) for Eq. 6's variants, H of shape (..., d, n); ``power``: the exponent of Sigma
    (None: each variant's own, :func:`~simulations.bn_chains.eq6_weight`)."""
    d = H.shape[-2]
    out = {"gap_H": orthogonality_gap(H)}
    for variant in variants:
        WH = eq6_weight(H, variant, power=power) @ H
        G = WH @ np.swapaxes(WH, -1, -2)
        G = G / np.trace(G, axis1=-2, axis2=-1)[..., None, None] * d
        out[f"gap_{variant}"] = orthogonality_gap(WH)
        out[f"rows_off_{variant}"] = np.linalg.norm((G - np.eye(d)).reshape(G.shape[:-2] + (-1,)), axis=-1)
    return out


# Sampling plans (blocks at the first look and at most, at --mc-scale 1).
CHAIN_GRID = Sampling(draw=chain_grid_block, first=1, budget=2, threads=1)
WIDTH_LADDER = Sampling(draw=width_ladder_block, first=1, budget=8, threads=1)
FIG1 = Sampling(draw=fig1_block, first=1, budget=4, threads=1)
VARIANTS = Sampling(draw=variant_block, first=1, budget=4, threads=1)
CENTERED = Sampling(draw=centered_block, first=1, budget=4, threads=1)
SMIN = Sampling(draw=smin_block, first=4, budget=64, threads=1)
DRIFT = Sampling(draw=drift_block, first=2, budget=16, threads=1)
DRIFT_STEP = Sampling(draw=drift_step_block, first=2, budget=32, threads=1)
PHASE = Sampling(draw=phase_block, first=1, budget=1, threads=1)
ONE_STEP = Sampling(draw=one_step_block, first=1, budget=8, threads=1)
LAYER_NORM = Sampling(draw=ln_block, first=1, budget=4, threads=1)
FIG6A = Sampling(draw=fig6a_block, first=1, budget=4, threads=1)
#: 8 networks a block: 200 at the first look (a mean test's minimum), one doubling as
#: headroom; about 0.3 s per network on one core.
FIG4A = Sampling(draw=fig4a_block, first=25, budget=50, threads=1)
