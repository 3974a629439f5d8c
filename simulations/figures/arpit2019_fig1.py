"""Figure 1 of Arpit et al. (2019), all four panels (App. A.1-A.2): norm ratios of
hidden activations (left) and of their gradients (right) across the 20 layers of a
WN MLP (top) and the 40 blocks of a WN ResNet (bottom), 1000 Gaussian inputs in
R^500, widths ~U(150, 250) and ~U(950, 1050), for He with g = 1 and the proposed
gains with orthogonal or He directions. Several independent networks per curve."""
from __future__ import annotations

import numpy as np
from tqdm import tqdm

from .. import backward, build_mlp, build_resnet, forward, get_backend, to_host

INITS = ("he", "proposed_orthogonal", "proposed_he")
WIDTHS = {"narrow": (150, 250), "wide": (950, 1050)}


def compute(seed: int = 0, n_networks: int = 5, n_inputs: int = 1000, dim: int = 500,
            depth: int = 20, blocks: int = 40, backend: str = "numpy") -> dict:
    """Per (arch, width range, init): ratios of shape (n_networks, n_inputs, layers+1)."""
    be = get_backend(backend, seed=seed)
    xp = be.xp
    data = {}
    jobs = [(a, w, i) for a in ("mlp", "resnet") for w in WIDTHS for i in INITS]
    for arch, wname, init in tqdm(jobs, desc="figure 1 curves"):
        fwd, bwd = [], []
        for k in range(n_networks):
            sub = be.spawn(hash((arch, wname, init, k)) % 2**31)
            lo, hi = WIDTHS[wname]
            if arch == "mlp":
                ops = build_mlp(sub, [dim] + list(sub.integers(lo, hi + 1, depth)), init)
            else:
                ops = build_resnet(sub, [dim, dim], [blocks], [list(sub.integers(lo, hi + 1, blocks))], init,
                                   alpha=1.0)
            x = sub.normal((1, n_inputs, dim))
            tape = forward(ops, x, xp, renormalize=True)
            e = sub.normal((1, n_inputs, tape.output.shape[-1]))
            lg, _ = backward(ops, tape, e, xp)
            fwd.append(to_host(xp.exp(tape.log_norms - tape.log_norms[..., :1]))[0])
            bwd.append(to_host(xp.exp(lg - lg[..., -1:]))[0])
        data[f"{arch}/{wname}/{init}/forward"] = np.stack(fwd)
        data[f"{arch}/{wname}/{init}/backward"] = np.stack(bwd)
    return data


def plot(data: dict, path_stem):
    """Four panels: mean over inputs per network (thin) and across networks (band)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    colors = dict(zip(INITS, ("tab:red", "tab:blue", "tab:green")))
    for r, arch in enumerate(("mlp", "resnet")):
        for c, direction in enumerate(("forward", "backward")):
            ax = axes[r, c]
            for wname, style in (("narrow", "-"), ("wide", "--")):
                for init in INITS:
                    a = data[f"{arch}/{wname}/{init}/{direction}"]
                    per_net = a.mean(axis=1)
                    x = np.arange(a.shape[-1])
                    for curve in per_net:
                        ax.plot(x, curve, style, color=colors[init], lw=0.4, alpha=0.5)
                    m, s = a.mean(axis=(0, 1)), a.std(axis=(0, 1))
                    ax.plot(x, m, style, color=colors[init], lw=1.5, label=f"{init}, {wname}")
                    ax.fill_between(x, m - s, m + s, color=colors[init], alpha=0.08)
            ax.set_yscale("log")
            ax.set_xlabel("layer" if arch == "mlp" else "block")
            ax.set_ylabel("||h|| / ||x||" if direction == "forward" else "||dl/dh|| / ||dl/dh^L||")
            ax.set_title(f"{arch.upper()} {direction}")
            if arch == "resnet":
                ax.axhspan(np.sqrt(2), np.sqrt(np.e), color="grey", alpha=0.15)
    axes[0, 0].legend(fontsize=6)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
