"""Diagonal and off-diagonal blocks of the per-sample Gauss-Newton matrix of a
sequential ReLU network with a quadratic loss z^T R z (Defazio & Bottou, Sec. 5.1,
Theorem 2 and Figures 1-2), for numpy and CuPy.

For one input (the paper's batch size 1, Sec. 2), with J_l = dz/dW_l (c x P_l) and
S = R + R^T the Hessian of the loss in z, the Gauss-Newton block of weights (l, r)
is G_lr = J_l^T S J_r. On the diagonal (l = r) it equals the true Hessian block of a
bias-free ReLU net almost everywhere: the output is linear in W_l alone (the masks
are locally constant), so d^2 z / dW_l^2 = 0. Off the diagonal it does not: z is
bilinear in (W_l, W_r), and the Hessian block adds sum_k (dloss/dz_k) d^2 z_k /
dW_l dW_r to G_lr (tests/simulations/test_gauss_newton.py). Its squared Frobenius norm is

    ||G_lr||_F^2 = tr(S M_l S M_r),   M_l = J_l J_l^T (c x c),

so no P_l x P_r matrix is formed. M_l comes from the output Jacobian at y_l
(Phi_l, c x out_l, one backward pass per output unit): for a dense layer
M_l = ||x_l||^2 Phi_l Phi_l^T; for a convolution J_l[k] = Phi_l[k] @ patches(x_l).
The average squared singular value of G_ll is ||G_ll||_F^2 / P_l, which is also
E_r[(G_ll r)_i^2] for r with iid unit-variance entries (the paper's E[(G_l r)^2]).
"""
from __future__ import annotations

import numpy as np

from ..core.backend import to_host
from ..core.namespace import array_namespace
from ..core.validation import check_finite, check_int, entry_point
from .conv import patches
from .sequential import layer_geometry, layer_input_grad, net_backward, net_forward, param_count

__all__ = ["output_jacobians", "jacobian_grams", "block_frobenius_sq", "mean_sq_singular_values", "scaling_vs_hessian"]


@entry_point
def output_jacobians(spec, Ws, fwd: dict, xp=None) -> list:
    """Phi_l = dz/dy_l per sample, shape (B, c, out_l...), from c unit probes."""
    xp = xp or array_namespace(fwd["z"])
    B, c = fwd["z"].shape
    probes = xp.broadcast_to(xp.eye(c, dtype=fwd["z"].dtype), (B, c, c))
    return net_backward(spec, Ws, fwd, probes, xp, input_grad=False)["dy"]


@entry_point
def jacobian_grams(spec, fwd: dict, phis: list, xp=None, chunk: int = 128) -> list:
    """M_l = J_l J_l^T per sample, shape (B, c, c), for every layer."""
    xp = xp or array_namespace(phis)
    chunk = check_int("chunk", chunk, low=1)
    grams = []
    for layer, x, phi in zip(spec, fwd["x"], phis):
        B, c = phi.shape[:2]
        if layer["kind"] == "fc":
            grams.append((phi @ xp.swapaxes(phi, -1, -2)) * (x * x).sum(-1)[:, None, None])
            continue
        out = []
        for s in range(0, B, chunk):
            cols, _ = patches(x[s:s + chunk], layer["k"], layer["stride"], layer["pad"], xp)  # (b, P, Ck^2)
            ph = phi[s:s + chunk].reshape(cols.shape[0], c * layer["out"], -1)  # (b, c O, P)
            J = (ph @ cols).reshape(cols.shape[0], c, -1)  # (b, c, O C k^2)
            out.append(J @ xp.swapaxes(J, -1, -2))
        grams.append(xp.concatenate(out, axis=0))
    return grams


@entry_point
def block_frobenius_sq(grams: list, S, xp=None):
    """||G_lr||_F^2 = tr(S M_l S M_r) per sample, shape (B, L, L); ``S`` finite."""
    xp = xp or array_namespace(S, grams)
    check_finite("S", S)
    SM = [S @ M for M in grams]  # (B, c, c)
    L = len(grams)
    out = xp.empty((SM[0].shape[0], L, L), dtype=SM[0].dtype)
    for l in range(L):
        for r in range(l, L):
            v = (SM[l] * xp.swapaxes(SM[r], -1, -2)).sum(axis=(-1, -2))
            out[:, l, r] = v
            out[:, r, l] = v
    return out


def mean_sq_singular_values(spec, frob_sq):
    """Average squared singular value per block: ||G_lr||_F^2 / sqrt(P_l P_r) (the
    diagonal is ||G_ll||_F^2 / P_l, the mean over the P_l singular values); frob_sq on
    either backend, in its dtype."""
    P = np.array([param_count(layer) for layer in spec], float)
    return frob_sq / array_namespace(frob_sq).asarray(np.sqrt(np.outer(P, P)), dtype=frob_sq.dtype)


@entry_point
def scaling_vs_hessian(spec, Ws, x, R, xp=None) -> dict:
    """One setup of Defazio & Bottou's Figure 1-2 experiment: input batch x, random
    quadratic loss z^T R z per sample. Returns host-side arrays:

    - ``blocks`` (L, L): batch mean of the per-sample average squared singular value
      of every Gauss-Newton block (diagonal: E[(G_l r)^2], the paper's 'actual');
    - ``gamma_eq2`` (L,): the numbered Eq. 2, gamma_l = varsigma_l / (n_{l+1} n_l k_l^2
      E[W_l^2]^2) with varsigma_l = n_l rho_l^2 E[dx_l^2] E[x_l^2] (Eq. 1; rho_l the
      layer's input size, dx_l the loss gradient at the layer's input, E[W_l^2] the
      drawn weights' second moment);
    - ``gamma_rho_in`` (L,): Eq. 2's extrinsic form as printed,
      n_l k_l^2 rho_l^2 E[x_l^2]^2 E[dx_{l+1}^2] / E[x_{l+1}^2] with rho_l the layer's
      input size; ``gamma_rho_out`` (L,): the same with the output size rho_{l+1}
      (equal for dense and stride-1 'same' layers);
    - ``theorem2`` (L,): Theorem 2's main term n_l E[x_l^2]^2 E[dx_{l+1}^2]/E[x_{l+1}^2]
      and ``order_term`` (L,): its O(n_l E[x_l^2]^2 / (n_{l+1} E[x_{l+1}^2])) scale.
    Moments are means over the batch and all entries; dx_{l+1} is the gradient of the
    per-sample loss at the layer's output (batch size 1, Sec. 2)."""
    xp = xp or array_namespace(x, R)
    c = spec[-1]["out"]
    if tuple(R.shape) != (c, c):
        raise ValueError(f"R must have shape ({c}, {c}) (the output width of the spec), got shape {tuple(R.shape)}")
    check_finite("x", x)
    check_finite("R", R)
    S = R + R.T
    fwd = net_forward(spec, Ws, x, xp)
    phis = output_jacobians(spec, Ws, fwd, xp)
    Sz = fwd["z"] @ S  # per-sample dloss/dz; dy_l = Phi_l^T Sz, no second backward pass
    dys = [(Sz[:, :, None] * phi.reshape(phi.shape[:2] + (-1,))).sum(1).reshape(phi.shape[:1] + phi.shape[2:])
           for phi in phis]
    frob = block_frobenius_sq(jacobian_grams(spec, fwd, phis, xp), S, xp)
    blocks = mean_sq_singular_values(spec, to_host(frob.mean(0)))
    # dx_l = dL/dx_l (Eq. 1's Delta x_l at the layer's input) from dy_l through W_l^T
    dxs = [layer_input_grad(layer, W, dy, x.shape[-2:], xp) for layer, W, x, dy in zip(spec, Ws, fwd["x"], dys)]
    # E[x_l^2], E[y_l^2], E[dy_l^2], E[dx_l^2], E[W_l^2] of every layer, read from the device at once
    moments = to_host(xp.stack([(a * a).mean() for five in zip(fwd["x"], fwd["y"], dys, dxs, Ws) for a in five]))
    out = {k: [] for k in ("gamma_eq2", "gamma_rho_in", "gamma_rho_out", "theorem2", "order_term")}
    for layer, (ex, ey, edy, edx, ew) in zip(spec, moments.reshape(-1, 5).tolist()):
        g = layer_geometry(layer)
        base = g["n"] * ex**2 * edy / ey
        varsigma = g["n"] * g["rho_in"] ** 2 * edx * ex  # Eq. 1
        out["gamma_eq2"].append(varsigma / (layer["out"] * g["n"] * g["k"] ** 2 * ew**2))
        out["gamma_rho_in"].append(base * g["k"] ** 2 * g["rho_in"] ** 2)
        out["gamma_rho_out"].append(base * g["k"] ** 2 * g["rho_out"] ** 2)
        out["theorem2"].append(base)
        out["order_term"].append(g["n"] * ex**2 / (layer["out"] * ey))
    return {"blocks": blocks, **{k: np.array(v) for k, v in out.items()}}
