"""Figure 1 of Arpit et al. (2019), all four panels (App. A.1-A.2): norm ratios of
hidden activations (left) and of their gradients (right) across the 20 layers of a
WN MLP (top) and the 40 blocks of a WN ResNet (bottom), 1000 Gaussian inputs in
R^500, widths ~U(150, 250) and ~U(950, 1050), for He with g = 1 and the proposed
gains with orthogonal or He directions. Several independent networks per curve."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits
from tqdm import tqdm

from .. import backward, build_mlp, build_resnet, forward, get_backend, to_host
from ..core.backend import available_cores
from ..core.validation import check_int

INITS = ("he", "proposed_orthogonal", "proposed_he")
WIDTHS = {"narrow": (150, 250), "wide": (950, 1050)}
STATS = ("mean", "std", "q05", "median", "q95")
#: Settings of the paper (App. A.1-A.2) and a small run for smoke tests.
DEFAULTS = {"n_networks": 5, "n_inputs": 1000}
QUICK = {"n_networks": 2, "n_inputs": 20, "dim": 30, "depth": 4, "blocks": 4}
_KEY_STRIDE = 1_000_003
#: At most this many networks at once by default (memory: about 1.2 GB per wide ResNet).
MAX_WORKERS = 4


def _blas_threads() -> int:
    """BLAS threads this process may use now: its cores, or fewer where a limit is set
    (the pytest plugin gives each xdist worker its share)."""
    counts = [info["num_threads"] for info in threadpool_info() if info.get("user_api") == "blas"]
    return max(1, min([available_cores(), *counts]))


def default_workers(backend: str) -> int:
    """Networks run side by side by default: on numpy one per BLAS thread this process may
    use (an xdist worker's share), at most :data:`MAX_WORKERS`; on CuPy one (a GPU runs
    one network's products at a time well)."""
    return min(_blas_threads(), MAX_WORKERS) if backend == "numpy" else 1


def side_by_side(workers: int):
    """The thread-count limit under which ``workers`` networks run side by side: their
    products share this process's BLAS threads, ``blas // workers`` each (threadpoolctl,
    process-wide)."""
    return threadpool_limits(max(1, _blas_threads() // workers))


def check(settings: dict) -> dict:
    """The settings with each one checked (a ValueError names a bad one)."""
    out = dict(settings)
    for name, low in (("n_networks", 1), ("n_inputs", 2), ("dim", 1), ("depth", 1), ("blocks", 1)):
        if name in out:
            out[name] = check_int(name, out[name], low=low)
    if out.get("workers") is not None:
        out["workers"] = check_int("workers", out["workers"], low=1)
    return out


def compute(seed: int = 0, n_networks: int = 5, n_inputs: int = 1000, dim: int = 500,
            depth: int = 20, blocks: int = 40, backend: str = "numpy", workers: int | None = None) -> dict:
    """Per (arch, width range, init, direction, statistic): an array of shape
    (n_networks, layers+1) holding, for each network, the mean, standard deviation,
    5% / 50% / 95% quantiles over the inputs of the norm ratio at each layer.

    ``workers`` threads run networks side by side (default on numpy: one per BLAS thread
    this process may use, at most :data:`MAX_WORKERS`, since each wide ResNet holds about
    1.2 GB; one on CuPy). With several, the products run on ``blas // workers`` BLAS
    threads in all (process-wide), so one network's draws and elementwise work (one thread
    each in numpy) overlap another's products: on 2 cores, Figure 1 at one network per
    curve took 18.1-20.0 s instead of 22.8-25.1 s serially. Network k of curve j draws
    from its own stream, a fixed function of (seed, j, k), so every random number is the
    same for any ``workers``; the results agree to rounding only (BLAS on another number
    of threads sums in another order: relative differences of 5.4e-15 at the paper's
    sizes).
    """
    be = get_backend(backend, seed=seed)
    s = check({"n_networks": n_networks, "n_inputs": n_inputs, "dim": dim, "depth": depth, "blocks": blocks})
    n_networks, n_inputs, dim, depth, blocks = (s[k] for k in ("n_networks", "n_inputs", "dim", "depth", "blocks"))
    workers = check_int("workers", default_workers(be.name) if workers is None else workers, low=1)
    jobs = [(a, w, i) for a in ("mlp", "resnet") for w in WIDTHS for i in INITS]
    tasks = [(j, k) for j in range(len(jobs)) for k in range(n_networks)]
    # Longest first, so that the last task to finish is a short one: wide before narrow,
    # ResNets (80 layers) before MLPs (20) of the same width.
    tasks.sort(key=lambda t: (jobs[t[0]][1] != "wide", jobs[t[0]][0] != "resnet"))
    settings = {"n_inputs": n_inputs, "dim": dim, "depth": depth, "blocks": blocks}

    def run(task):
        j, k = task
        return _one_network(be.spawn(_KEY_STRIDE * j + k), *jobs[j], **settings)

    results = {}
    with tqdm(total=len(tasks), desc="figure 1 networks", disable=None) as bar:
        if workers == 1:
            for task in tasks:
                results[task] = run(task)
                bar.update()
        else:
            with side_by_side(workers), ThreadPoolExecutor(workers) as pool:
                futures = {pool.submit(run, task): task for task in tasks}
                try:
                    for future in as_completed(futures):
                        results[futures[future]] = future.result()
                        bar.update()
                except BaseException:
                    for future in futures:  # a failed network stops the ones not yet started
                        future.cancel()
                    raise
    data = {}
    for j, (arch, wname, init) in enumerate(jobs):
        for d, direction in enumerate(("forward", "backward")):
            for stat in STATS:
                data[f"{arch}/{wname}/{init}/{direction}/{stat}"] = np.stack(
                    [results[j, k][d][stat] for k in range(n_networks)])
    return data


def _one_network(sub, arch: str, wname: str, init: str, n_inputs: int, dim: int, depth: int, blocks: int):
    """Forward and backward ratio summaries of one network drawn from the stream ``sub``."""
    xp = sub.xp
    lo, hi = WIDTHS[wname]
    if arch == "mlp":
        ops = build_mlp(sub, [dim] + list(sub.integers(lo, hi + 1, depth)), init)
    else:
        ops = build_resnet(sub, [dim, dim], [blocks], [list(sub.integers(lo, hi + 1, blocks))], init, alpha=1.0)
    x = sub.normal((1, n_inputs, dim))
    tape = forward(ops, x, xp, renormalize=True)
    e = sub.normal((1, n_inputs, tape.output.shape[-1]))
    lg, _ = backward(ops, tape, e, xp)
    return (_over_inputs(to_host(xp.exp(tape.log_norms - tape.log_norms[..., :1]))[0]),
            _over_inputs(to_host(xp.exp(lg - lg[..., -1:]))[0]))


def _over_inputs(ratios: np.ndarray) -> dict:
    """Summaries over the input axis of one network's (n_inputs, layers+1) ratios."""
    q = np.quantile(ratios, [0.05, 0.5, 0.95], axis=0)
    return {"mean": ratios.mean(axis=0), "std": ratios.std(axis=0, ddof=1),
            "q05": q[0], "median": q[1], "q95": q[2]}


def plot(data: dict, path_stem):
    """Four panels: per network, the mean over inputs (thin lines); across networks,
    the mean of those means (thick) and the band of the pooled 5%-95% input quantiles."""
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
                    key = f"{arch}/{wname}/{init}/{direction}"
                    per_net = data[f"{key}/mean"]
                    x = np.arange(per_net.shape[-1])
                    for curve in per_net:
                        ax.plot(x, curve, style, color=colors[init], lw=0.4, alpha=0.5)
                    ax.plot(x, per_net.mean(axis=0), style, color=colors[init], lw=1.5, label=f"{init}, {wname}")
                    ax.fill_between(x, data[f"{key}/q05"].min(axis=0), data[f"{key}/q95"].max(axis=0),
                                    color=colors[init], alpha=0.08)
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
