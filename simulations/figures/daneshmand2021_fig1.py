"""Figure 1 of Daneshmand et al. (2021): |cosine similarity| of two samples across
50 layers, BN chain from nearly aligned samples vs vanilla linear chain from
orthogonal samples, d = 32, mean and 95% interval over independent runs."""
from __future__ import annotations

import numpy as np

from .. import get_backend, initial_representation, simulate_chain
from ..core.validation import check_int, check_positive

DEFAULTS = {"d": 32, "depth": 50, "runs": 20, "eps": 1e-3}
QUICK = {"d": 8, "depth": 5, "runs": 4}


def check(settings: dict) -> dict:
    """The settings with each one checked (a ValueError names a bad one): two samples
    need a width d >= 2, a 95% interval two runs."""
    out = dict(settings)
    for name, low in (("d", 2), ("depth", 0), ("runs", 2)):
        if name in out:
            out[name] = check_int(name, out[name], low=low)
    if "eps" in out:
        out["eps"] = check_positive("eps", out["eps"])
    return out


def compute(seed: int = 0, backend: str = "numpy", d: int = 32, depth: int = 50, runs: int = 20,
            eps: float = 1e-3) -> dict:
    """Per chain, |cos| of samples 0 and 1 at layers 0..depth, shape (runs, depth + 1)."""
    be = get_backend(backend, seed=seed)
    d, depth, runs, eps = check({"d": d, "depth": depth, "runs": runs, "eps": eps}).values()
    out = {}
    for k, (variant, start) in enumerate((("bn", "aligned"), ("vanilla", "orthogonal"))):
        sub = be.spawn(k)
        rec = simulate_chain(sub, initial_representation(sub, start, runs, d, 2, eps=eps), depth, variant)
        out[f"{variant}/abs_cos"] = np.abs(rec.cos01)
    return out


def plot(data: dict, path_stem):
    """Mean over runs with a 95% t-interval of the mean."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from scipy import stats

    fig, ax = plt.subplots(figsize=(5, 3.5))
    for variant, color, label in (("bn", "tab:red", "BN"), ("vanilla", "tab:blue", "Vanilla")):
        a = data[f"{variant}/abs_cos"]
        x = np.arange(a.shape[1])
        m, se = a.mean(0), a.std(0, ddof=1) / np.sqrt(a.shape[0])
        t = stats.t.ppf(0.975, a.shape[0] - 1)
        ax.plot(x, m, "o-" if variant == "bn" else "s-", ms=3, color=color, label=label)
        ax.fill_between(x, m - t * se, m + t * se, color=color, alpha=0.2)
    ax.set_xlabel("layer")
    ax.set_ylabel("|cosine similarity|")
    ax.legend()
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{path_stem}.{ext}", dpi=130)
    plt.close(fig)
