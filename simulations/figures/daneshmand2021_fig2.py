"""Figure 2 of Daneshmand et al. (2021). Left: log V(H_l) against l from the diagonal
H_0 with one large entry (d = 32 and 512). Right: log of the mean of V(H_l) over
layers 100..600 (the caption) against log d, with the fitted slope, for two batch
sizes; the authors' notebook averages over layers 1..500 instead, and that average
is stored beside it. Mean and 95% interval over independent runs."""
from __future__ import annotations

import numpy as np

from .. import get_backend, initial_representation, simulate_chain
from ..core.validation import check_choice, check_int, check_widths

DEFAULTS = {"runs": 20, "depth": 600, "widths": (16, 32, 64, 128, 256, 512, 1024, 2048, 4096),
            "batch_sizes": (4, 16), "left_widths": (32, 512), "left_depth": 50, "dtype": "float32"}
QUICK = {"runs": 3, "depth": 120, "widths": (8, 16, 32), "batch_sizes": (2, 4), "left_widths": (8,),
         "left_depth": 5}


#: The caption averages V over layers 100..depth.
FIRST_AVERAGED = 100


def check(settings: dict) -> dict:
    """The settings with each one checked (a ValueError names a bad one): the caption's
    average needs depth >= 100, the left panel's batch of 4 widths >= 4, each batch
    size a fitted slope over two widths at least as large."""
    out = dict(settings)
    for name, low in (("runs", 2), ("depth", FIRST_AVERAGED), ("left_depth", 0)):
        if name in out:
            out[name] = check_int(name, out[name], low=low,
                                  why="the caption averages layers 100..depth" if name == "depth" else "")
    for name, low in (("widths", 1), ("batch_sizes", 1), ("left_widths", 4)):
        if name in out:
            out[name] = tuple(check_widths(name, out[name], low=low))
    if "widths" in out and "batch_sizes" in out:
        for n in out["batch_sizes"]:
            if sum(d >= n for d in out["widths"]) < 2:
                raise ValueError(f"widths must hold at least two widths >= each batch size (a slope), got "
                                 f"{list(out['widths'])} for batch size {n}")
    if "dtype" in out:
        check_choice("dtype", out["dtype"], ("float32", "float64"))
    return out


def compute(seed: int = 0, backend: str = "numpy", runs: int = 20, depth: int = 600, widths=DEFAULTS["widths"],
            batch_sizes=DEFAULTS["batch_sizes"], left_widths=(32, 512), left_depth: int = 50,
            dtype: str = "float32") -> dict:
    """Left: per width, log V of shape (runs, left_depth + 1) at n = 4. Right: per
    batch size, per-run averages of shape (runs, len(widths)) under both layer ranges.
    float32 by default: V ~ 0.01 at d = 4096 is far above float32 rounding (1e-7), and
    drawing the Gaussian matrices, the bottleneck, is about twice as fast."""
    from tqdm import tqdm

    s = check({"runs": runs, "depth": depth, "widths": widths, "batch_sizes": batch_sizes,
               "left_widths": left_widths, "left_depth": left_depth, "dtype": dtype})
    runs, depth, widths, batch_sizes, left_widths, left_depth = (
        s[k] for k in ("runs", "depth", "widths", "batch_sizes", "left_widths", "left_depth"))
    be = get_backend(backend, seed=seed, dtype=dtype)
    out = {}
    for i, d in enumerate(left_widths):
        sub = be.spawn(100 + i)
        rec = simulate_chain(sub, initial_representation(sub, "diagonal_spike", runs, d, 4), left_depth)
        out[f"left/d{d}/log_gap"] = np.log(rec.gap.astype(float))
    jobs = [(n, d) for n in batch_sizes for d in widths if d >= n]
    caption = {n: [] for n in batch_sizes}
    notebook = {n: [] for n in batch_sizes}
    for k, (n, d) in enumerate(tqdm(jobs, desc="Figure 2 widths", leave=False, disable=None)):
        sub = be.spawn(1000 + k)
        rec = simulate_chain(sub, initial_representation(sub, "diagonal_spike", runs, d, n), depth)
        caption[n].append(rec.gap[:, 100:depth + 1].astype(float).mean(axis=1))
        notebook[n].append(rec.gap[:, 1:min(depth, 500) + 1].astype(float).mean(axis=1))
    for n in batch_sizes:
        out[f"right/n{n}/widths"] = np.array([d for d in widths if d >= n])
        out[f"right/n{n}/caption_avg"] = np.stack(caption[n], axis=1)
        out[f"right/n{n}/notebook_avg"] = np.stack(notebook[n], axis=1)
    return out


def slope(widths, per_run) -> float:
    """OLS slope of log(mean over runs) on log(width)."""
    return float(np.polyfit(np.log(widths), np.log(per_run.mean(axis=0)), 1)[0])


def plot(data: dict, path_stem):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from scipy import stats

    def band(ax, x, a, color, label, marker):
        m, se = a.mean(0), a.std(0, ddof=1) / np.sqrt(a.shape[0])
        t = stats.t.ppf(0.975, a.shape[0] - 1)
        ax.plot(x, m, marker + "-", ms=3, color=color, label=label)
        ax.fill_between(x, m - t * se, m + t * se, color=color, alpha=0.2)

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    colors = iter(("tab:blue", "tab:red", "tab:green", "tab:purple"))
    for key in sorted(k for k in data if k.startswith("left/")):
        a = data[key]
        band(left, np.arange(a.shape[1]), a, next(colors), f"d={key.split('/')[1][1:]}", "o")
    left.set_xlabel("layer l")
    left.set_ylabel("log V(H_l)")
    left.legend()
    colors = iter(("tab:blue", "tab:red", "tab:green", "tab:purple"))
    for key in sorted(k for k in data if k.endswith("/caption_avg")):
        n = key.split("/")[1]
        w = data[f"right/{n}/widths"]
        c = next(colors)
        band(right, np.log(w), np.log(data[key]), c, f"n={n[1:]}: layers 100-600, slope {slope(w, data[key]):.3f}", "o")
        nb = data[f"right/{n}/notebook_avg"]
        right.plot(np.log(w), np.log(nb.mean(0)), "x--", color=c, lw=0.8,
                   label=f"n={n[1:]}: layers 1-500 (notebook), slope {slope(w, nb):.3f}")
    right.set_xlabel("log d")
    right.set_ylabel("log mean V(H_l)")
    right.legend(fontsize=7)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
