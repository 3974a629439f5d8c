"""Figure 3 of Daneshmand et al. (2021): pixel (n, d) is white when
A1(0.1 alpha_0, 1000) holds in all 10 independent runs (the smallest singular value of
every H_k, k = 1..1000, is at least 0.1 sigma_min(H_0)), black otherwise; the blue
curve is d = (n - 28)^1.8 (drawn for n > 28, where it is real). H_0 has iid
Gaussian entries, scaled to unit Frobenius norm like every H_k."""
from __future__ import annotations

import numpy as np

from .. import a1_margin, get_backend, initial_representation
from ..core.validation import check_int, check_positive, check_widths

DEFAULTS = {"batch_sizes": (2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64),
            "widths": (8, 16, 32, 64, 128, 256, 512, 1024, 2048),
            "depth": 1000, "runs": 10, "factor": 0.1}
QUICK = {"batch_sizes": (2, 4), "widths": (4, 8), "depth": 10, "runs": 2}


def check(settings: dict) -> dict:
    """The settings with each one checked (a ValueError names a bad one)."""
    out = dict(settings)
    for name in ("batch_sizes", "widths"):
        if name in out:
            out[name] = tuple(check_widths(name, out[name], low=1))
    for name in ("depth", "runs"):
        if name in out:
            out[name] = check_int(name, out[name], low=1)
    if "factor" in out:
        out["factor"] = check_positive("factor", out["factor"])
    return out


def compute(seed: int = 0, backend: str = "numpy", batch_sizes=DEFAULTS["batch_sizes"], widths=DEFAULTS["widths"],
            depth: int = 1000, runs: int = 10, factor: float = 0.1) -> dict:
    """holds[i, j] = 1 if A1 held in all runs at (batch_sizes[i], widths[j]), 0 if not,
    -1 where d < n (outside the paper's d >= n); ratio = min_k sigma_min(H_k)/alpha_0
    over the layers run (a pixel stops as soon as one run fails, see ``a1_margin``)."""
    from tqdm import tqdm

    s = check({"batch_sizes": batch_sizes, "widths": widths, "depth": depth, "runs": runs, "factor": factor})
    batch_sizes, widths, depth, runs, factor = s.values()
    be = get_backend(backend, seed=seed)
    holds = -np.ones((len(batch_sizes), len(widths)))
    ratio = np.full(holds.shape, np.nan)
    cells = [(i, j) for i, n in enumerate(batch_sizes) for j, d in enumerate(widths) if d >= n]
    for k, (i, j) in enumerate(tqdm(cells, desc="Figure 3 pixels", leave=False, disable=None)):
        n, d = batch_sizes[i], widths[j]
        sub = be.spawn(10_000 * i + j)
        r, _ = a1_margin(sub, initial_representation(sub, "gaussian", runs, d, n), depth, factor)
        holds[i, j] = float(np.all(r >= factor))
        ratio[i, j] = r.min()
    return {"batch_sizes": np.array(batch_sizes), "widths": np.array(widths), "holds": holds, "ratio": ratio}


def plot(data: dict, path_stem):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    ns, ws = data["batch_sizes"].astype(float), np.log2(data["widths"].astype(float))

    def edges(c):
        mid = (c[1:] + c[:-1]) / 2
        return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.set_facecolor("0.8")  # grey: d < n, outside the paper's range
    ax.pcolormesh(edges(ns), edges(ws), np.ma.masked_less(data["holds"].T, 0),
                  cmap=ListedColormap(["black", "white"]), vmin=0, vmax=1)
    nn = np.linspace(28.5, ns[-1], 200)
    if nn.size and nn[0] < ns[-1]:
        ax.plot(nn, 1.8 * np.log2(nn - 28), color="tab:blue", label="d = (n - 28)^1.8")
        ax.legend(loc="lower right", fontsize=7)
    ax.set_ylim(ws[0] - 0.5, ws[-1] + 0.5)
    ax.set_yticks(ws, [str(int(round(2**w))) for w in ws])
    ax.set_xlabel("batch size n")
    ax.set_ylabel("width d")
    ax.set_title("A1(0.1 alpha_0, depth) in all runs: white", fontsize=9)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
