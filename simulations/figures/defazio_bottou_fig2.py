"""Figure 2 of Defazio & Bottou: heat maps of the average squared singular value of
each block of the per-sample Gauss-Newton matrix of the strided LeNet, blocked by
weight matrices (biases omitted), under each initialization (Sec. 6.1). The diagonal
blocks are the Hessian's; the off-diagonal Hessian blocks differ from the Gauss-Newton
ones (see :mod:`simulations.relu_nets.gauss_newton`): reading used, the Gauss-Newton blocks.
Shares its setups with Figure 1 (:mod:`simulations.relu_nets.lenet_experiment`).

Off-diagonal blocks (P_l x P_r) are normalized by sqrt(P_l P_r); the diagonal by P_l."""
from __future__ import annotations

import numpy as np

from ..relu_nets.lenet_experiment import INITS, LABELS, LAYERS, check_settings, lenet_setups

#: The figure's settings check (simulations.figures.cli calls each figure's ``check``).
check = check_settings

DEFAULTS = {"setups": 100, "batch": 1024, "size": 32}
QUICK = {"setups": 4, "batch": 16, "size": 32}


def compute(seed: int = 0, backend: str = "numpy", setups: int = 100, batch: int = 1024, size: int = 32) -> dict:
    """log10 of the mean over setups of every block's average squared singular value."""
    data = lenet_setups(seed, backend, setups, batch, size)
    return {f"{init}/log10_blocks": np.log10(data[f"{init}/blocks"].mean(0)) for init in INITS}


def plot(data: dict, path_stem):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(INITS), figsize=(12, 3.3))
    for ax, init in zip(axes, INITS):
        m = data[f"{init}/log10_blocks"]
        im = ax.imshow(m, cmap="viridis")  # yellow = larger, blue = smaller, as in the paper
        d = np.diag(m)
        ax.set_title(f"{LABELS[init]} (diagonal spread {d.max() - d.min():.2f})", fontsize=8)
        ax.set_xticks(range(len(LAYERS)), LAYERS, fontsize=6, rotation=45)
        ax.set_yticks(range(len(LAYERS)), LAYERS, fontsize=6)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04).ax.tick_params(labelsize=6)
    fig.suptitle("log10 average squared singular value per Hessian block (per-panel colour scale; spread in decades)",
                 fontsize=9)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
