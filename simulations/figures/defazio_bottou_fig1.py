"""Figure 1 of Defazio & Bottou: distribution, over 100 random setups, of the ratio of
the theoretical scaling (Eq. 2) to the actual average squared singular value
E[(G_l r)^2] of each weight layer's Gauss-Newton block, for the strided LeNet with
batch 1024 and 32 x 32 random inputs (Sec. 5.1).

The first panel is the figure as printed: the numbered Eq. 2, gamma_l = varsigma_l /
(n_{l+1} n_l k_l^2 E[W_l^2]^2) with Eq. 1's varsigma_l, from each setup's measured
moments. The other two show, on the same setups, the extrinsic display after Eq. 2 with
the layer's input size rho_l (as printed there) and with the output size rho_{l+1};
they differ only for the two stride-2 convolutions."""
from __future__ import annotations

import numpy as np

from ..relu_nets.lenet_experiment import INITS, LABELS, LAYERS, check_settings, lenet_setups

#: The figure's settings check (simulations.figures.cli calls each figure's ``check``).
check = check_settings

DEFAULTS = {"setups": 100, "batch": 1024, "size": 32}
QUICK = {"setups": 4, "batch": 16, "size": 32}


def compute(seed: int = 0, backend: str = "numpy", setups: int = 100, batch: int = 1024, size: int = 32) -> dict:
    """Ratios per initialization and reading, shape (setups / 4, 5 layers)."""
    data = lenet_setups(seed, backend, setups, batch, size)
    return {k: v for k, v in data.items() if "/ratio" in k}


def plot(data: dict, path_stem):
    """One box per layer, pooled over the initializations; markers per init."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.6), sharey=True)
    for ax, reading, title in ((axes[0], "ratio_eq2", "Figure 1 as printed: Eq. 2"),
                               (axes[1], "ratio_rho_in", "extrinsic display after Eq. 2, " r"$\rho_l$ = input size"),
                               (axes[2], "ratio_rho_out",
                                "extrinsic display after Eq. 2, " r"$\rho_{l+1}$ = output size")):
        pooled = np.concatenate([data[f"{i}/{reading}"] for i in INITS])
        ax.boxplot([pooled[:, l] for l in range(len(LAYERS))], showfliers=False)
        for j, init in enumerate(INITS):
            r = data[f"{init}/{reading}"]
            jitter = 1 + np.arange(len(LAYERS)) + (j - 1.5) * 0.08
            ax.plot(np.repeat(jitter[None], len(r), 0).ravel(), r.ravel(), ".", ms=2, alpha=0.5,
                    label=LABELS[init])
        ax.axhline(1.0, color="k", lw=0.8, ls="--")
        ax.set_yscale("log")
        ax.set_xticks(1 + np.arange(len(LAYERS)), LAYERS)
        ax.set_title(title, fontsize=9)
    axes[0].set_ylabel("theoretical scaling / actual")
    axes[-1].legend(fontsize=7, markerscale=4)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
