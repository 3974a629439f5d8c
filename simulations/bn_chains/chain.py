"""Chains of random batch-normalized layers (Daneshmand et al., 2021, Eq. 1).

    H_{l+1} = BN(W_l phi(H_l)) / sqrt(d),   BN(M) = diag(M M^T)^{-1/2} M,
    W_l ~ N(0, I_d / d),

with batch size ``n`` (columns of H) and width ``d`` (rows); ``phi`` is the identity
(the paper's linear network) or ReLU (the conjecture of its Appendix G / Figure 6).
Variants: ``"bn"`` (Eq. 1), ``"bn_centered"`` (the usual BN with mean correction,
which Sec. 2.1 sets aside), ``"vanilla"`` (H_{l+1} = W_l H_l, tracked at unit
Frobenius norm with the log-norm kept separately) and the ReLU versions
``"bn_relu"``, ``"vanilla_relu"``, ``"bn_centered_relu"`` (ReLU, linear layer, then
mean-corrected BN: the layer of torch's BatchNorm1d MLPs).

Two samplers of the same chain:

- ``method="direct"`` draws every d x d matrix W_l (cost d^2 n per layer);
- ``method="gram"`` uses that, given X = phi(H_l), the rows of W_l X are iid
  N(0, X^T X / d): with F the symmetric square root of X^T X it draws M = G F^T,
  G iid N(0, 1/d) of shape d x n (cost d n^2 per layer). The whole chain, not only one layer, has the same law
  under both samplers (tested in tests/simulations/bn_chains/test_chain.py).

Every record is on the host: the orthogonality gap V(H_l) of Eq. 2, log of the
smallest singular value of H_l (Assumption A1), the cosine of samples 0 and 1
(Figure 1), and, for vanilla chains, log ||H_l||_F.

>>> from simulations.core import get_backend
>>> be = get_backend(seed=0)
>>> H0 = initial_representation(be, "diagonal_spike", runs=3, d=64, n=4)
>>> rec = simulate_chain(be, H0, depth=30)
>>> rec.gap.shape, bool(rec.gap[:, -1].max() < rec.gap[:, 0].min())
((3, 31), True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.backend import Backend, to_host
from ..core.namespace import array_namespace, tiny
from ..core.validation import check_choice, check_finite, check_int, check_positive, entry_point

__all__ = ["VARIANTS", "STARTS", "METHODS", "ChainRecord", "orthogonality_gap", "gap_from_gram", "batch_norm",
           "initial_representation", "simulate_chain", "centered_gap_floor", "a1_margin",
           "gaussian_pair_singular_values"]

VARIANTS = ("bn", "bn_centered", "vanilla", "bn_relu", "vanilla_relu", "bn_centered_relu")
STARTS = ("diagonal_spike", "gaussian", "aligned", "orthogonal")
METHODS = ("gram", "direct")


@entry_point
def gap_from_gram(C, xp=None):
    """V from the Gram matrix C = H^T H (..., n, n), finite: ||C / tr C - I_n / n||_F (Eq. 2)."""
    xp = xp or array_namespace(C)
    if C.ndim < 2 or C.shape[-1] != C.shape[-2]:
        raise ValueError(f"C must have shape (..., n, n), got shape {tuple(C.shape)}")
    check_finite("C", C)
    n = C.shape[-1]
    tr = xp.trace(C, axis1=-2, axis2=-1)[..., None, None]
    return xp.linalg.norm((C / tr - xp.eye(n, dtype=C.dtype) / n).reshape(C.shape[:-2] + (n * n,)), axis=-1)


@entry_point
def orthogonality_gap(H, xp=None):
    """Orthogonality gap V(H) of Eq. 2 for H of shape (..., d, n), H != 0.

    >>> import numpy as np
    >>> float(orthogonality_gap(np.eye(3)[:, :2]))  # orthonormal columns
    0.0
    >>> round(float(orthogonality_gap(np.ones((3, 2)))), 6)  # aligned: sqrt(1 - 1/n)
    0.707107
    """
    xp = xp or array_namespace(H)
    H = xp.asarray(H)
    if H.ndim < 2:
        raise ValueError(f"H must have shape (..., d, n), got shape {H.shape}")
    check_finite("H", H)
    peak = xp.max(xp.abs(H), axis=(-2, -1), keepdims=True)
    if bool(xp.any(peak == 0)):
        raise ValueError("H must be non-zero: V is defined on R^{d x n} minus 0")
    H = H / peak  # V is scale invariant; rescaling first keeps H^T H from under/overflowing
    return gap_from_gram(xp.swapaxes(H, -1, -2) @ H, xp)


def centered_gap_floor(n: int) -> float:
    """The smallest V reachable when every H has columns summing to 0 (mean-corrected
    BN): V(H) >= ||P/(n-1) - I/n||_F = 1/sqrt(n(n-1)), P = I - 11^T/n.

    >>> round(centered_gap_floor(2), 12)  # two samples are forced to be anti-aligned
    0.707106781187
    """
    n = check_int("n", n, low=2)
    return 1.0 / float(np.sqrt(n * (n - 1)))


@entry_point
def batch_norm(M, xp=None, centered: bool = False):
    """BN(M) = diag(M M^T)^{-1/2} M along the batch (last) axis, M finite; ``centered``
    first subtracts each row's batch mean. A zero row (possible after ReLU) is left at 0."""
    xp = xp or array_namespace(M)
    check_finite("M", M)
    if centered:
        M = M - M.mean(axis=-1, keepdims=True)
    norms = xp.linalg.norm(M, axis=-1, keepdims=True)
    return M / xp.where(norms > 0, norms, 1)


def initial_representation(be: Backend, start: str, runs: int, d: int, n: int, eps: float = 1e-3,
                           floor: float = 1e-6):
    """H_0 of shape (runs, d, n), scaled to unit Frobenius norm.

    - ``"diagonal_spike"`` (Figure 2): diagonal with entries ``floor`` and H[0, 0] = 1;
    - ``"gaussian"``: iid N(0, 1) entries (Sec. 3.3, Figure 3);
    - ``"aligned"`` (Figure 1, BN): every sample is e_1 plus ``eps`` times its own e_k;
    - ``"orthogonal"`` (Figure 1, vanilla): sample k is e_k.
    """
    check_choice("start", start, STARTS)
    runs = check_int("runs", runs, low=1)
    d = check_int("d", d, low=1)
    n = check_int("n", n, low=1, high=d, why="the paper assumes width d >= batch size n")
    eps = check_positive("eps", eps)
    floor = check_positive("floor", floor)
    xp = be.xp
    if start == "gaussian":
        H = be.normal((runs, d, n))
    else:
        H = np.zeros((d, n))
        idx = np.arange(n)
        if start == "diagonal_spike":
            H[idx, idx] = floor
            H[0, 0] = 1.0
        elif start == "aligned":
            H[0, :] = 1.0
            H[idx[1:], idx[1:]] = eps
        else:
            H[idx, idx] = 1.0
        H = xp.broadcast_to(be.asarray(H), (runs, d, n)).copy()
    return H / xp.linalg.norm(H.reshape(runs, -1), axis=-1)[:, None, None]


@dataclass
class ChainRecord:
    """Host-side per-layer records, arrays of shape (runs, depth + 1); layer 0 is H_0.
    ``cos01`` is the cosine of samples 0 and 1 (0 if either representation is exactly 0)."""

    variant: str
    method: str
    d: int
    n: int
    gap: np.ndarray
    log_smin: np.ndarray
    cos01: np.ndarray
    log_norm: np.ndarray
    eigs: np.ndarray | None = None  # (runs, depth + 1, n): eigenvalues of H^T H (trace 1), if kept
    final: object = None  # H at the last layer, on the device (to continue the chain)

    @property
    def runs(self) -> int:
        return self.gap.shape[0]


def _gram_sqrt(K, xp):
    """The symmetric square root F = Q diag(sqrt(lam)) Q^T of symmetric PSD K (..., n, n)
    (F F^T = K; K may be singular). Any F with F F^T = K gives G F^T the same law; this
    one is unique, hence continuous in K, so rounding moves a chain by rounding only.
    The factor Q diag(sqrt(lam)) is not: its column signs (and its basis of a repeated
    eigenvalue) jump with rounding, and so would the chain drawn from the same G."""
    lam, Q = xp.linalg.eigh(K)
    return (Q * xp.sqrt(xp.clip(lam, 0, None))[..., None, :]) @ xp.swapaxes(Q, -1, -2)


def _layer_input(H, variant, xp):
    return xp.maximum(H, 0) if variant.endswith("relu") else H


def _step(be: Backend, H, variant: str, method: str, factor=None):
    """One layer: returns (H_next at unit Frobenius norm, log of the norm removed, that
    norm per run; 0 where the run vanished, whose H_next is then 0).
    ``factor`` is F with F F^T = H^T H when already known (linear variants)."""
    xp = be.xp
    runs, d, n = H.shape
    X = _layer_input(H, variant, xp)
    bn = variant.startswith("bn")
    # BN(c M) = BN(M) for c > 0: BN chains skip W's scale 1 / sqrt(d), a pass over the draws
    if method == "direct":
        W = be.normal((runs, d, d))
        M = (W if bn else W / math.sqrt(d)) @ X
    else:
        F = factor if factor is not None else _gram_sqrt(xp.swapaxes(X, -1, -2) @ X, xp)
        G = be.normal((runs, d, n))
        M = (G if bn else G / math.sqrt(d)) @ xp.swapaxes(F, -1, -2)
    if bn:
        return _batch_norm_unit(M, xp, centered=variant.startswith("bn_centered"))
    norm = xp.linalg.norm(M.reshape(runs, -1), axis=-1)
    # a run whose representation vanished (every row 0 after ReLU) stays at 0 and is
    # reported once the chain has run, not by a host round trip per layer
    scale = xp.where(norm > 0, norm, 1)
    return M / scale[:, None, None], xp.log(scale), norm


def _batch_norm_unit(M, xp, centered: bool):
    """``batch_norm(M)`` at unit Frobenius norm per run, in place in one scaling pass,
    as ``_step`` returns it: BN gives each non-zero row unit norm, so the norm of BN(M)
    is sqrt(number of non-zero rows) and needs no second pass over M. Zero rows stay 0;
    a run with no non-zero row is returned as 0 with norm 0, and a run with a row that
    is not finite (never seen from a finite H) with norm NaN, so that the chain names
    this layer (``_raise_if_vanished``)."""
    if centered:
        M -= M.mean(axis=-1, keepdims=True)
    sq = xp.einsum("...ij,...ij->...i", M, M)  # each row's sum of squares
    live = sq > 0
    norm = xp.sqrt(xp.sum(live, axis=-1).astype(M.dtype))
    norm = xp.where(xp.all(xp.isfinite(sq), axis=-1), norm, xp.nan)
    scale = xp.where(norm > 0, norm, 1)
    M *= (xp.where(live, 1 / xp.sqrt(xp.where(live, sq, 1)), 0) / scale[:, None])[..., None]
    return M, xp.log(scale), norm


def _observe(H, xp):
    """gap, log sigma_min, cos01, trace-one eigenvalues, and the symmetric square root F
    of H^T H (see :func:`_gram_sqrt`), from one ``eigh``."""
    C = xp.swapaxes(H, -1, -2) @ H
    raw, Q = xp.linalg.eigh(C)
    raw = xp.clip(raw, 0, None)
    tr = xp.trace(C, axis1=-2, axis2=-1)
    lam = raw / xp.where(tr > 0, tr, 1)[..., None]  # H = 0 only in a vanished run (see _step)
    # C / tr C and I / n commute, so V = ||lam - 1/n||_2 (Eq. 2) from the spectrum just computed
    gap = xp.sqrt(xp.sum((lam - 1.0 / lam.shape[-1]) ** 2, axis=-1))
    log_smin = 0.5 * xp.log(xp.clip(lam[..., 0], tiny(lam), None))  # the dtype's floor: 1e-300 is 0 in float32
    if H.shape[-1] > 1:
        den = C[..., 0, 0] * C[..., 1, 1]
        # a sample whose representation is exactly 0 (possible after ReLU) has cosine 0
        cos = C[..., 0, 1] / xp.sqrt(xp.where(den > 0, den, 1)) * (den > 0)
    else:
        cos = xp.zeros(H.shape[0], dtype=H.dtype)
    return gap, log_smin, cos, lam, (Q * xp.sqrt(raw)[..., None, :]) @ xp.swapaxes(Q, -1, -2)


def _raise_if_vanished(norms: np.ndarray, variant: str) -> None:
    """``FloatingPointError`` naming the first layer at which some run's representation
    vanished (or, never seen, was not finite); ``norms`` (runs, depth) are the norms the
    layers removed, on the host."""
    dead = ~(norms > 0)
    if dead.any():
        first = int(np.argmax(dead.any(axis=0)))
        finite = not np.isnan(norms[:, first]).any()
        raise FloatingPointError(f"representation {'vanished' if finite else 'was not finite'} in the {variant} chain "
                                 f"at layer {first + 1} in {int(dead.any(axis=1).sum())} of {norms.shape[0]} runs"
                                 + (" (all rows zero after ReLU)" if finite else ""))


@entry_point
def simulate_chain(be: Backend, H0, depth: int, variant: str = "bn", method: str = "gram",
                   progress: bool = False, keep_eigs: bool = False) -> ChainRecord:
    """Run ``depth`` layers of the chain from H0 (runs, d, n); see the module docstring.
    Every layer, the last included, applies the variant's whole map: phi (identity or
    ReLU) before the weights, then BN for the BN variants (Eq. 1), so the last record is
    of H after its weights (and BN), never rectified after them.

    Every layer's H is kept at unit Frobenius norm. For BN variants no scale is
    accumulated (``log_norm`` is log ||H_0||_F at layer 0 and 0 after it): Eq. 1 divides
    BN(.), whose d rows have unit norm, by sqrt(d), so ||H_l||_F = 1 for l >= 1. For vanilla chains
    the removed scale is accumulated in ``log_norm`` so that thousands of layers neither
    overflow nor underflow.
    """
    check_choice("variant", variant, VARIANTS)
    check_choice("method", method, METHODS)
    depth = check_int("depth", depth, low=0)
    xp = be.xp
    H = xp.asarray(H0, dtype=be.dtype)
    if H.ndim != 3:
        raise ValueError(f"H0 must have shape (runs, d, n), got shape {H.shape}")
    runs, d, n = H.shape
    check_int("n", n, low=1, high=d, why="the paper assumes width d >= batch size n")
    check_finite("H0", H)
    col = xp.linalg.norm(H, axis=-2)
    if not bool(xp.all(col > 0)):
        raise ValueError("H0 must have no zero column (a zero sample stays zero and V cannot vanish)")
    fro = xp.linalg.norm(H.reshape(runs, -1), axis=-1)
    H = H / fro[:, None, None]
    out = {k: [] for k in ("gap", "log_smin", "cos01", "log_norm", "eigs")}
    log_norm = xp.log(fro)
    layers = range(depth + 1)
    if progress:
        from tqdm import tqdm

        layers = tqdm(layers, desc=f"{variant} chain d={d} n={n}", leave=False, disable=None)
    factor = None
    linear = not variant.endswith("relu")
    vanilla = variant.startswith("vanilla")
    zeros = xp.zeros_like(log_norm)  # BN chains keep ||H||_F = 1: no scale removed after layer 0
    removed = []  # the norm each layer removed, per run, checked for 0 after the last layer
    for layer in layers:
        if layer:
            H, lg, norm = _step(be, H, variant, method, factor if linear else None)
            log_norm = log_norm + lg if vanilla else zeros
            removed.append(norm)
        gap, log_smin, cos, lam, factor = _observe(H, xp)
        for k, v in (("gap", gap), ("log_smin", log_smin), ("cos01", cos), ("log_norm", log_norm)):
            out[k].append(v)
        if keep_eigs:
            out["eigs"].append(lam)
    if removed:
        _raise_if_vanished(to_host(xp.stack(removed, axis=-1)), variant)
    eig_list = out.pop("eigs")
    eigs = to_host(xp.stack(eig_list, axis=1)) if keep_eigs else None
    rec = {k: to_host(xp.stack(v, axis=-1)) for k, v in out.items()}
    return ChainRecord(variant, method, d, n, eigs=eigs, final=H, **rec)


@entry_point
def a1_margin(be: Backend, H0, depth: int, factor: float = 0.1, variant: str = "bn", chunk: int = 50,
              stop: str = "any"):
    """Assumption A1(factor * alpha_0, depth) of Daneshmand et al. (2021) per run.

    Returns ``(ratio, layers_run)``: ratio[r] = min over the layers k >= 1 that run r ran
    (all ``layers_run`` of them, except for a run dropped under ``stop="all"``) of
    sigma_min(H_k) / sigma_min(H_0). The chain runs in chunks and stops early:
    with ``stop="any"`` once some run has ratio < factor (A1 then fails for the batch of
    runs), so a failing (n, d) costs a few chunks instead of ``depth`` layers; with
    ``stop="all"`` once every run has, and a failed run leaves the batch at once (its
    outcome is final: its ratio can only fall further), so every run's outcome is known.
    """
    depth = check_int("depth", depth, low=1)
    factor = check_positive("factor", factor)
    chunk = check_int("chunk", chunk, low=1)
    check_choice("stop", stop, ("any", "all"))
    xp = be.xp
    H = xp.asarray(H0, dtype=be.dtype)
    check_finite("H0", H)
    rec = simulate_chain(be, H, 0, variant)
    log_alpha0 = rec.log_smin[:, 0]
    ratio = np.full(log_alpha0.shape, np.inf)
    live = np.arange(ratio.size)  # runs whose outcome is still open
    H = rec.final
    done = 0
    while done < depth:
        step = min(chunk, depth - done)
        try:
            rec = simulate_chain(be, H, step, variant)
        except FloatingPointError as err:  # its layers count from the chunk's start
            raise FloatingPointError(f"{err}, counting from layer {done} of this A1 run") from err
        ratio[live] = np.minimum(ratio[live], np.exp(rec.log_smin[:, 1:].min(axis=1) - log_alpha0[live]))
        done += step
        failed = ratio < factor
        if failed.all() or (stop == "any" and failed.any()):
            break
        H = rec.final
        if failed[live].any():  # stop="all": a failed run is decided; drop it (its
            keep = np.nonzero(~failed[live])[0]  # collapsing chain would only cost time)
            live, H = live[keep], H[xp.asarray(keep)]
    return ratio, done


@entry_point
def gaussian_pair_singular_values(be: Backend, lam, d: int, draws: int = 1):
    """Singular values of draws of W H and of G/sqrt(n) (Lemma 2 of Daneshmand et al.
    2021, Eq. 4), for trace-one Gram spectra ``lam`` (..., n) of H (the ``eigs`` of a
    :class:`ChainRecord`). W is d x d and G is d x n, both with iid N(0, 1/d) entries.

    Given H with H^T H = Q diag(lam) Q^T, the rows of W H are iid N(0, H^T H / d), so W H
    has the law of G' diag(sqrt(lam)) Q^T with G' iid N(0, 1/d) (d x n), and its singular
    values those of G' diag(sqrt(lam)) (Q^T is orthogonal): cost d n^2 per draw, exact in
    law. Returns ``(sv_WH, sv_G)``, each of shape (..., draws, n) in ascending order, on
    the device; the two are independent and every draw is fresh (``be``'s stream).
    """
    d = check_int("d", d, low=1)
    draws = check_int("draws", draws, low=1)
    xp = be.xp
    lam = check_finite("lam", be.asarray(lam))
    lam = xp.clip(lam, 0, None)
    n = lam.shape[-1]
    shape = tuple(lam.shape[:-1]) + (draws, d, n)
    X = be.normal(shape) * (xp.sqrt(lam / d)[..., None, None, :])
    Y = be.normal(shape) / math.sqrt(d * n)

    def sv(M):
        return xp.sqrt(xp.clip(xp.linalg.eigvalsh(xp.swapaxes(M, -1, -2) @ M), 0, None))

    return sv(X), sv(Y)
