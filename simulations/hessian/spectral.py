"""The spectral norm of a loss Hessian from exact Hessian-vector products, per network of
an ensemble, all networks in lock step: the power method the ZeroInit/Fixup submission
uses for its Table 1 (Sec. 4.1), Lanczos (the same norm in far fewer products), and the
dense Hessian for small models (the reference of the tests).

>>> from simulations.core import get_backend
>>> from simulations.hessian.classifiers import build_classifier, synthetic_batch
>>> be = get_backend(seed=0)
>>> x, y = synthetic_batch(be, n_networks=2, batch=16, width=3, classes=3)
>>> model = build_classifier(be, "baseline", width=3, blocks=1, classes=3, n_networks=2)
>>> import numpy as np
>>> exact = np.abs(np.linalg.eigvalsh(dense_hessian(model, x, y))).max(axis=1)
>>> bool(np.allclose(lanczos_norm(be, model, x, y, tol=1e-10)["norm"], exact, rtol=1e-6))
True
"""
from __future__ import annotations

import numpy as np

from ..core.backend import Backend, to_host
from ..core.namespace import array_namespace, tiny
from ..core.validation import check_int, check_positive, entry_point
from .classifiers import check_batch, hvp
from .layers import parameters

__all__ = ["power_method", "lanczos_norm", "dense_hessian"]


def _dot(a, b, xp):
    """Per-network inner product of two parameter lists."""
    return sum(xp.sum((u * w).reshape(u.shape[0], -1), axis=1) for u, w in zip(a, b))


def _norms(v, xp):
    return xp.sqrt(_dot(v, v, xp))


def _scaled(v, c):
    """Every array of ``v`` times the per-network factor ``c`` (N,)."""
    return [a * c.reshape((-1,) + (1,) * (a.ndim - 1)) for a in v]


@entry_point
def power_method(be: Backend, model, x, labels, tol: float = 1e-5, max_iter: int = 2000) -> dict:
    """||H||_2 per network by the power method on |H| (Sec. 4.1: 'power method ... tolerance
    1e-5'): v <- Hv/||Hv|| from a Gaussian start until the estimate ||Hv|| changes by less
    than ``tol`` relative, for every network. Returns the estimates (host array), the
    iterations used and whether every network met the tolerance."""
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_batch(model, x, labels)
    xp = be.xp
    params = parameters(model)
    v = [be.normal(p.shape) for p in params]
    v = _scaled(v, 1.0 / _norms(v, xp))
    est, zero = None, False
    for it in range(1, max_iter + 1):
        hv = hvp(model, x, labels, v, xp)
        n = _norms(hv, xp)
        if not bool(xp.all(xp.isfinite(n))):
            raise FloatingPointError("Hessian-vector product overflowed; lower the depth or use float64")
        done = est is not None and bool(xp.all(xp.abs(n - est) <= tol * n))
        est, zero = n, not bool(xp.all(n > 0))
        if done or zero:  # a zero Hessian (dead network) has its norm, 0, exactly
            break
        v = _scaled(hv, 1.0 / n)
    return {"norm": to_host(est), "iterations": it, "converged": done or zero}


@entry_point
def lanczos_norm(be: Backend, model, x, labels, tol: float = 1e-5, max_iter: int = 300) -> dict:
    """||H||_2 = max |eigenvalue| per network by Lanczos on the Hessian-vector products,
    all networks in lock step: the largest |Ritz value| of the tridiagonal matrix, until
    it changes by less than ``tol`` relative for every network. No reorthogonalization:
    its loss only duplicates converged Ritz values, it does not move the extreme one.
    Converges in far fewer products than :func:`power_method` (same return value)."""
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter, low=2)
    check_batch(model, x, labels)
    xp = be.xp
    params = parameters(model)
    N = params[0].shape[0]

    v = [be.normal(p.shape) for p in params]
    v = _scaled(v, 1.0 / _norms(v, xp))
    v_prev, beta = None, xp.zeros(N, dtype=be.dtype)
    alphas, betas, est, done = [], [], None, False
    for it in range(1, max_iter + 1):
        w = hvp(model, x, labels, v, xp)
        alpha = _dot(w, v, xp)
        w = [a - b for a, b in zip(w, _scaled(v, alpha))]
        if v_prev is not None:
            w = [a - b for a, b in zip(w, _scaled(v_prev, beta))]
        alphas.append(to_host(alpha))
        T = np.zeros((N, it, it))
        idx = np.arange(it)
        T[:, idx, idx] = np.stack(alphas, axis=1)
        if betas:
            off = np.stack(betas, axis=1)
            T[:, idx[:-1], idx[1:]] = off
            T[:, idx[1:], idx[:-1]] = off
        if not np.all(np.isfinite(T)):
            raise FloatingPointError("Hessian-vector product overflowed; lower the depth or use float64")
        new = np.abs(np.linalg.eigvalsh(T)).max(axis=1)
        beta = _norms(w, xp)
        breakdown = bool(xp.all(beta <= 1e-12 * xp.maximum(xp.abs(alpha), tiny(alpha))))
        done = est is not None and bool(np.all(np.abs(new - est) <= tol * new))
        est = new
        if done or breakdown:
            done = True
            break
        betas.append(to_host(beta))
        v_prev, v = v, _scaled(w, 1.0 / xp.maximum(beta, tiny(beta)))
    return {"norm": est, "iterations": it, "converged": done}


@entry_point
def dense_hessian(model, x, labels, xp=None) -> np.ndarray:
    """The full Hessian (N, P, P) from P Hessian-vector products (small models only), on
    the host in float64."""
    xp = xp or array_namespace(x)
    check_batch(model, x, labels)
    params = parameters(model)
    sizes = [int(np.prod(p.shape[1:])) for p in params]
    P = sum(sizes)
    if P > 4000:
        raise ValueError(f"the model has {P} parameters per network; dense_hessian needs <= 4000")
    N = params[0].shape[0]
    H = np.zeros((N, P, P))
    for k in range(P):
        e = np.zeros(P)
        e[k] = 1.0
        chunks, start = [], 0
        for p, s in zip(params, sizes):
            chunks.append(xp.broadcast_to(xp.asarray(e[start:start + s].reshape(p.shape[1:]), dtype=p.dtype),
                                          p.shape).copy())
            start += s
        hv = hvp(model, x, labels, chunks, xp)
        H[:, :, k] = np.concatenate([to_host(a).reshape(N, -1) for a in hv], axis=1)
    return H
