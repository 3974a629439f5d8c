"""The strided-LeNet experiment behind Defazio & Bottou's Figures 1 and 2 (Sec. 5.1
and 6.1), computed once per settings and shared by both figures and by the claims.

A setup draws the weights of the strided LeNet (:func:`simulations.relu_nets.lenet_spec`)
under one initialization, a batch of iid N(0, 1) 3 x 32 x 32 inputs and a random
loss z^T R z (R iid N(0, 1), 10 x 10), and records
:func:`simulations.relu_nets.scaling_vs_hessian`. The paper's 100 setups are
split evenly over the four initializations it compares (geometric, Kaiming fan-in,
Kaiming fan-out, Xavier).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import get_backend
from ..relu_nets import draw_net, lenet_spec, scaling_vs_hessian

INITS = ("geometric", "he_fan_in", "he_fan_out", "xavier")
LABELS = {"geometric": "geometric", "he_fan_in": "Kaiming fan-in", "he_fan_out": "Kaiming fan-out",
          "xavier": "Xavier"}
LAYERS = ("conv1", "conv2", "fc1", "fc2", "fc3")


@lru_cache(maxsize=4)
def lenet_setups(seed: int = 0, backend: str = "numpy", setups: int = 100, batch: int = 1024, size: int = 32,
                 dtype: str = "float64") -> dict:
    """Per initialization: ratio of Eq. 2's gamma (rho_l and rho_{l+1} readings) to
    the actual E[(G_l r)^2], shape (setups_per_init, 5), and the block matrices of
    average squared singular values, shape (setups_per_init, 5, 5)."""
    from tqdm import tqdm

    if setups < len(INITS) or setups % len(INITS):
        raise ValueError(f"setups must be a positive multiple of {len(INITS)}, got {setups}")
    spec = lenet_spec(size=size)
    be = get_backend(backend, seed=seed, dtype=dtype)
    per = setups // len(INITS)
    out = {}
    bar = tqdm(total=setups, desc="LeNet setups", disable=None)
    for i, init in enumerate(INITS):
        recs = []
        for s in range(per):
            sub = be.spawn(1000 * i + s)
            Ws = draw_net(sub, spec, init)
            recs.append(scaling_vs_hessian(spec, Ws, sub.normal((batch, 3, size, size)), sub.normal((10, 10)), sub.xp))
            bar.update()
        actual = np.array([np.diag(r["blocks"]) for r in recs])
        out[f"{init}/ratio_rho_in"] = np.array([r["gamma_rho_in"] for r in recs]) / actual
        out[f"{init}/ratio_rho_out"] = np.array([r["gamma_rho_out"] for r in recs]) / actual
        out[f"{init}/blocks"] = np.array([r["blocks"] for r in recs])
    bar.close()
    return out
