"""The strided-LeNet experiment behind Defazio & Bottou's Figures 1 and 2 (Sec. 5.1
and 6.1), shared by both figures (:mod:`simulations.figures.defazio_bottou_fig1`,
``_fig2``) and by the claims that check them (``theory.defazio_bottou``).

A setup draws the weights of the strided LeNet (:func:`simulations.relu_nets.lenet_spec`)
under one initialization, a batch of iid N(0, 1) 3 x 32 x 32 inputs and a random
loss z^T R z (R iid N(0, 1), 10 x 10), and records
:func:`simulations.relu_nets.scaling_vs_hessian` (:func:`lenet_setup`). The
paper's 100 setups are split evenly over the four initializations it compares
(geometric, Kaiming fan-in, Kaiming fan-out, Xavier) (:func:`lenet_setups`).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core import Backend, check_choice, check_int, get_backend, to_host
from .gauss_newton import scaling_vs_hessian
from .sequential import draw_net, lenet_spec

__all__ = ["INITS", "LABELS", "LAYERS", "lenet_setup", "lenet_setups", "check_settings"]

INITS = ("geometric", "he_fan_in", "he_fan_out", "xavier")
LABELS = {"geometric": "geometric", "he_fan_in": "Kaiming fan-in", "he_fan_out": "Kaiming fan-out",
          "xavier": "Xavier"}
LAYERS = ("conv1", "conv2", "fc1", "fc2", "fc3")


def lenet_setup(be: Backend, init: str, batch: int = 1024, size: int = 32) -> dict:
    """One setup drawn from the stream ``be``: the ratio to the actual E[(G_l r)^2],
    shape (5,), of the numbered Eq. 2's gamma (``ratio_eq2``, what Figure 1 plots) and
    of the extrinsic display after it with rho_l (``ratio_rho_in``, as printed) and
    rho_{l+1} (``ratio_rho_out``), and the (5, 5) matrix of average squared singular
    values of the Gauss-Newton blocks (host arrays)."""
    spec = lenet_spec(size=size)
    rec = scaling_vs_hessian(spec, draw_net(be, spec, init), be.normal((batch, 3, size, size)), be.normal((10, 10)),
                             be.xp)
    actual = np.diag(rec["blocks"])
    return {"ratio_eq2": to_host(rec["gamma_eq2"]) / actual, "ratio_rho_in": to_host(rec["gamma_rho_in"]) / actual,
            "ratio_rho_out": to_host(rec["gamma_rho_out"]) / actual,
            "blocks": to_host(rec["blocks"])}


def check_settings(settings: dict) -> dict:
    """The settings of :func:`lenet_setups` (setups, batch, size, dtype) checked, each
    naming itself when bad: setups a positive multiple of the four initializations,
    batch >= 1, size at least the strided LeNet's 13."""
    out = dict(settings)
    if "setups" in out:
        s = out["setups"]
        if isinstance(s, bool) or not isinstance(s, int) or s < len(INITS) or s % len(INITS):
            raise ValueError(f"setups must be a positive multiple of {len(INITS)}, got {s!r}")
    if "batch" in out:
        out["batch"] = check_int("batch", out["batch"], low=1)
    if "size" in out:
        lenet_spec(size=out["size"])  # names the size when too small
    if "dtype" in out:
        check_choice("dtype", out["dtype"], ("float32", "float64"))
    return out


@lru_cache(maxsize=4)
def lenet_setups(seed: int = 0, backend: str = "numpy", setups: int = 100, batch: int = 1024, size: int = 32,
                 dtype: str = "float64") -> dict:
    """Per initialization: ratios of the numbered Eq. 2 and of the extrinsic display
    (rho_l and rho_{l+1} readings) to the actual E[(G_l r)^2], shape
    (setups_per_init, 5) (:func:`lenet_setup`), and the block matrices of average
    squared singular values, shape (setups_per_init, 5, 5)."""
    from tqdm import tqdm

    check_settings({"setups": setups, "batch": batch, "size": size, "dtype": dtype})
    be = get_backend(backend, seed=seed, dtype=dtype)
    per = setups // len(INITS)
    out = {}
    bar = tqdm(total=setups, desc="LeNet setups", disable=None)
    for i, init in enumerate(INITS):
        recs = []
        for s in range(per):
            recs.append(lenet_setup(be.spawn(1000 * i + s), init, batch, size))
            bar.update()
        for key in ("ratio_eq2", "ratio_rho_in", "ratio_rho_out", "blocks"):
            out[f"{init}/{key}"] = np.array([r[key] for r in recs])
    bar.close()
    return out
