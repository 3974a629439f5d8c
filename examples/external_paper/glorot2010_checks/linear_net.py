"""The network of Sec. 4.2.1 of Glorot & Bengio (2010) in its linear regime: tanh units
at initialization, where f'(0) = 1 (Eq. 4), so layer i + 1 computes z^{i+1} = z^i W^i
(the paper's row convention, s^i = z^i W^i with zero biases). Every layer applies its
weights and nothing after them: the output of the last layer is its pre-activation.

One replicate is one independent network (all its weights drawn afresh) and one input
x ~ N(0, I); numpy and CuPy alike (the backend's namespace).
"""
from __future__ import annotations

import math

INITS = ("standard", "normalized")


def uniform_limit(init: str, n_in: int, n_out: int) -> float:
    """The half-width a of U[-a, a]: 1/sqrt(n_in) for the standard init (Eq. 1, n the
    size of the previous layer), sqrt(6)/sqrt(n_in + n_out) for the normalized one (Eq. 16)."""
    if init not in INITS:
        raise ValueError(f"init must be one of {list(INITS)}, got {init!r}")
    return 1 / math.sqrt(n_in) if init == "standard" else math.sqrt(6) / math.sqrt(n_in + n_out)


def forward_variance(be, replicates: int, init: str, width: int, layer: int) -> dict:
    """Var[z^layer] / Var[x] per replicate, the variances taken over the units of one
    network (||z||^2 / n over ||x||^2 / n at equal widths n), after ``layer`` layers."""
    xp = be.xp
    x = be.normal((replicates, 1, width))
    a = uniform_limit(init, width, width)
    z = x
    for _ in range(layer):
        z = xp.matmul(z, be.uniform((replicates, width, width), -a, a))
    return {"ratio": (z * z).sum(axis=(-2, -1)) / (x * x).sum(axis=(-2, -1))}
