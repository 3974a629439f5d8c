"""Theorem 1 of Defazio & Bottou on real random networks: the weight-to-gradient ratio
nu_l = E[dW_l^2]/E[W_l^2] (batch size 1: per-sample dW = dy x^T) against the extrinsic
scaling factor gamma_l = n_l E[x_l^2]^2 E[dy_l^2] / E[y_l^2], for geometric-init ReLU
MLPs with a random quadratic loss z^T R z (R iid normal), as in their Figure 1 setup
(without convolutions). The model's assumptions hold only as width -> infinity; the
ratio nu/gamma per network is recorded per width."""
from __future__ import annotations

import numpy as np

from simulations import get_backend
from simulations.relu_nets import draw_mlp, mlp_backward, mlp_forward

__all__ = ["thm1_networks"]


def thm1_networks(ctx, widths=(16, 32, 64, 128, 256), base: int = 200, batch: int = 32, classes: int = 10) -> dict:
    rows = []
    for i, w in enumerate(widths):
        be = get_backend(ctx.backend, seed=ctx.seed).spawn(3000 + i)
        N = max(30, int(round(base * ctx.scale)))
        arch = [w, w, 2 * w, w, classes]
        Ws = draw_mlp(be, arch, "geometric", N)
        fwd = mlp_forward(Ws, be.normal((N, batch, w)), np)
        R = be.normal((N, classes, classes))
        bwd = mlp_backward(Ws, fwd, fwd["z"] @ (R + np.swapaxes(R, -1, -2)), np)
        ratios = []
        for layer in (1, 2):  # interior layers (ReLU input on both sides)
            x, dy, y = fwd["x"][layer], bwd["dy"][layer], fwd["y"][layer]
            nu = ((dy**2).mean(-1) * (x**2).mean(-1)).mean(-1) / (Ws[layer] ** 2).mean(axis=(1, 2))
            gamma = arch[layer] * (x**2).mean(axis=(1, 2)) ** 2 * (dy**2).mean(axis=(1, 2)) / (y**2).mean(axis=(1, 2))
            ratios.append(nu / gamma)
        rows.append({"width": w, "networks": N, "ratio": np.concatenate(ratios)})
    return {"rows": rows}
