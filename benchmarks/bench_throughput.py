"""Throughput of every simulator family as a fraction of this machine's matrix-multiply
peak, measured in the same run for the same backend and dtype (float64 and float32).
Usage: python benchmarks/bench_throughput.py [--backend cupy] [--dtype float64] [--quick]
[--size X] [--networks N] [--only NAME] [--json PATH]

Flop counts (stated per case, matmul flops 2 m n k only; elementwise work is not counted):

- ``wn_mlp_*``: the Figure 1 WN MLP of Arpit et al. (App. A.1), widths [500] + [1000] * 20,
  1000 inputs, forward and input-gradient backward: ``network_flops`` (4 n_in n_out per input
  and layer). Weight drawing is timed inside the end-to-end figure; the Haar sampler's own
  flops are 2 k^2 (p - k/3) + 128 p k per p x k matrix for the drawn reflectors (orgqr-like
  formation in blocks of 128; the numpy default), 4 k^2 (p - k/3) for Householder QR
  (geqrf + orgqr) and 3 (4 p k^2 + k^3) for shifted CholeskyQR3; ``factored`` keeps the
  reflectors unformed where fan_out <= fan_in (``simulations.core.haar_factor``: 4 b_i^2 (p - j_i)
  for its blocks of b_i <= ``APPLY_BLOCK`` reflectors from j_i, about 4 b (p k - k^2/2), then 2 k (2p - k)
  per input and product, which is the dense product's count for a square layer) and forms the
  others as ``reflectors`` does;
  ``useful`` counts the network only (as dense products), ``executed`` adds the sampler.
- ``wn_resnet_orthogonal``: 40 blocks of widths 500 -> 1000 -> 500 (App. A.2), same counts.
- ``--networks N`` batches N independent networks in every WN case but the side-by-side
  ones (one batched product per layer, N times the flops; each network has its own
  draws) and runs 64 N chains in ``bn_chain_gram``. A GPU needs it at width 1024: there
  one 1024 product runs at about a third of the cuBLAS peak (H100, stop 16 of issue 11).
- ``wn_mlp_*_side_by_side``: the WN MLP case, two networks per thread on Figure 1's default
  threads (one per BLAS thread, at most 4), draws overlapping products; wall time of all.
- ``bn_chain_gram``: Daneshmand et al.'s chain with the Gram-law sampler, 2 d n^2 for
  H^T H and 2 d n^2 for G F^T per layer and run (the n x n eigh is not counted). Its row
  also gives a *dense-equivalent* fraction: the dense chain's products W H (2 d^2 n per
  layer and run, d^2 normals each) divided by the Gram chain's time and the peak. The
  Gram law does d / (2 n) times fewer flops than those products, so its own fraction of
  the peak stays low by design; the dense-equivalent one says how it compares with a
  dense run of the same law, whose time its products alone bound from below (above 100%:
  faster than any dense run on this machine, normals not even counted).
- ``relu_mlp_ensemble`` / ``relu_resnet_ensemble``: many small bias-free nets in one batched
  matmul per layer; forward, backward to the input and (ResNet) to every weight.
- ``hessian_hvp``: Table 1 classifiers (ZeroInit/Fixup), one exact Hessian-vector product:
  9 matmuls per linear layer (7 for the first, whose input has no tangent).

Ceiling (printed for the WN cases and the BN chain, whose draws are timed against their
flops; not for the side-by-side cases, whose draws overlap the products): even with every
matmul at the peak, the end-to-end time is at least ``useful / peak + sampler / peak +
draw floor``, where the draw floor is the measured time of drawing the same standard
normals alone (the WN layers' directions, or the Gram-law chain's Gaussian factors). So
``useful / peak / (that sum)`` bounds the end-to-end fraction on this machine: a case far
below 100% is bound by its random numbers or its sampler, not by its code.

With ``--peer-notebook PATH/synthetic_data_experiment.ipynb`` (the authors' notebook, e.g.
from the fetched snapshot of victorcampos7/weightnorm-init; never copied here) the whole
of Figure 1 is also timed side by side in this process: the notebook's compute cells
executed as published (setup, MLP and ResNet cells; one network per curve, its inputs one
at a time, its per-layer prints discarded) and ours on the same work
(``simulations.figures.arpit2019_fig1.compute`` with one network per curve)."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import time

import numpy as np
from timing import best_time, matmul_peak, sync

from simulations import (
    Linear,
    ResidualBlock,
    backward,
    build_classifier,
    build_mlp,
    build_resnet,
    draw_branch_resnet,
    draw_mlp,
    forward,
    get_backend,
    hvp,
    initial_representation,
    layers_of,
    mlp_backward,
    mlp_forward,
    network_flops,
    parameters,
    resnet_backward,
    resnet_forward,
    simulate_chain,
    synthetic_batch,
)
from simulations.core.haar_factor import APPLY_BLOCK
from simulations.core.random_matrices import REFLECTOR_BLOCK, default_haar_method, reflector_draw_shapes
from simulations.core.validation import check_int


def haar_flops(method: str, p: int, k: int) -> float:
    """Flops of one p x k (p >= k) Haar draw (module text); ``factored`` is the unformed
    draw of a layer with fan_out <= fan_in."""
    if method == "factored":  # per block of b_i reflectors from j0: U^T U and U S^{-T}
        return sum(4.0 * min(APPLY_BLOCK, k - j0) ** 2 * (p - j0) for j0 in range(0, k, APPLY_BLOCK))
    if method == "reflectors":
        return 2.0 * k * k * (p - k / 3) + REFLECTOR_BLOCK * p * k
    return 4.0 * k * k * (p - k / 3) if method == "householder" else 3.0 * (4.0 * p * k * k + k**3)


def draw_floor(be, shapes, reps: int = 2) -> float:
    """Best time of drawing standard normals of ``shapes`` (one array each) on ``be``."""
    def draw():
        for shape in shapes:
            be.normal(shape)
    return best_time(draw, be.xp, reps=reps, warmup=0)


def _normals_of(layer, init: str, method: str) -> list:
    """Shapes of the normal draws of one WN layer's directions (the sampler's own, for all
    the layer's networks)."""
    reps, p, k = layer.shape[0], max(layer.fan_in, layer.fan_out), min(layer.fan_in, layer.fan_out)
    if "orthogonal" in init and method in ("reflectors", "factored"):
        return reflector_draw_shapes(reps, p, k)
    return [(reps, p, k)]


def _wn(be, arch: str, init: str, haar_method, size: float, networks: int = 1):
    """Draw and run ``networks`` Figure 1 WN nets batched; returns (useful flops, sampler
    flops, draw s, run s, the normals drawn as a list of shapes)."""
    width, inputs = int(1000 * size), int(1000 * size)
    n0 = width // 2
    t = time.perf_counter()
    ops = (build_mlp(be, [n0] + [width] * 20, init, networks, haar_method=haar_method) if arch == "mlp"
           else build_resnet(be, [n0, n0], [40], [width], init, networks, haar_method=haar_method))
    sync(be.xp)
    t_draw = time.perf_counter() - t
    x, e = be.normal((networks, inputs, n0)), be.normal((networks, inputs, n0 if arch == "resnet" else width))
    t = time.perf_counter()
    tape = forward(ops, x, renormalize=True)
    backward(ops, tape, e)
    sync(be.xp)
    t_run = time.perf_counter() - t
    method = haar_method or default_haar_method(be.name, layers_of(ops)[0].shape[0])
    sampler = networks * sum(haar_flops("reflectors" if method == "factored" and l.factor is None else method,
                                        max(l.fan_in, l.fan_out), min(l.fan_in, l.fan_out)) for l in layers_of(ops))
    normals = [shape for layer in layers_of(ops) for shape in _normals_of(layer, init, method)]
    return network_flops(ops, inputs, networks), (sampler if "orthogonal" in init else 0.0), t_draw, t_run, normals


def wn_case(arch, init, haar_method=None):
    def run(be, size, networks=1):
        # best of two end-to-end runs, each with fresh weights
        runs = [_wn(be.child(rep), arch, init, haar_method, size, networks) for rep in range(2)]
        useful, sampler, t_draw, t_run, normals = min(runs, key=lambda r: r[2] + r[3])
        return {"useful_flops": useful, "sampler_flops": sampler, "draw_s": t_draw, "run_s": t_run,
                "draw_floor_s": draw_floor(be.child("floor"), normals), "networks": networks}
    return run


def wn_side_by_side_case(arch, init):
    """Networks side by side, as Figure 1 of Arpit et al. runs them
    (:func:`simulations.figures.arpit2019_fig1.side_by_side`): the figure's default number of
    threads, two networks per thread, one network's draws and elementwise work overlapping
    another's products. Draws and runs overlap, so only the wall time of all of them is
    measured (``run_s``; ``draw_s`` is 0), which also holds each network's input and error
    draws (``wn_case`` leaves those out): the row's only fraction is the end-to-end one.
    No ceiling is given: the one of :func:`ceiling_fraction` adds the draw floor to the
    flops' time, which bounds runs one after the other, not overlapped ones."""
    def run(be, size):
        from concurrent.futures import ThreadPoolExecutor

        from simulations.figures.arpit2019_fig1 import default_workers, side_by_side

        workers = default_workers(be.name)
        nets = 2 * workers
        best, rows = float("inf"), []
        for rep in range(2):  # best of two, each with fresh weights
            t = time.perf_counter()
            with side_by_side(workers), ThreadPoolExecutor(workers) as pool:
                rows = list(pool.map(lambda i: _wn(be.child(rep, i), arch, init, None, size), range(nets)))
            best = min(best, time.perf_counter() - t)
        return {"useful_flops": sum(r[0] for r in rows), "sampler_flops": sum(r[1] for r in rows),
                "draw_s": 0.0, "run_s": best, "workers": workers,
                "overlapped": f"{nets} networks on {workers} thread{'s' * (workers > 1)}"}
    return run


def bn_chain_case(be, size, networks=1):
    """The chain draws its Gaussian factor G (runs, d, n) inside every layer (``run_s``
    includes it); the draw floor is those ``depth`` draws alone."""
    runs, d, n, depth = 64 * networks, int(512 * size), 16, 50
    H0 = initial_representation(be, "gaussian", runs, d, n)
    t = best_time(lambda: simulate_chain(be, H0, depth), be.xp, reps=2)
    return {"useful_flops": runs * (2 * depth + 1) * 2.0 * d * n * n, "draw_s": 0.0, "run_s": t,
            "draw_floor_s": draw_floor(be.child("floor"), [(runs, d, n)] * depth), "networks": networks,
            "dense_flops": runs * depth * 2.0 * d * d * n}


def relu_mlp_case(be, size):
    N, batch, widths = int(512 * size), 64, [64, 64, 64, 64, 64, 10]
    t = time.perf_counter()
    Ws = draw_mlp(be, widths, "he_fan_in", N)
    sync(be.xp)
    t_draw = time.perf_counter() - t
    x, dz = be.normal((N, batch, widths[0])), be.normal((N, batch, widths[-1]))
    t = best_time(lambda: mlp_backward(Ws, mlp_forward(Ws, x), dz), be.xp, reps=3)
    flops = 2 * 2.0 * N * batch * sum(a * b for a, b in zip(widths[:-1], widths[1:]))
    return {"useful_flops": flops, "draw_s": t_draw, "run_s": t}


def relu_resnet_case(be, size):
    N, batch, width, blocks = int(256 * size), 64, 64, 8
    t = time.perf_counter()
    net = draw_branch_resnet(be, width, blocks, 2, "he", N)
    sync(be.xp)
    t_draw = time.perf_counter() - t
    x, g = be.normal((N, batch, width)), be.normal((N, batch, width))
    t = best_time(lambda: resnet_backward(net, resnet_forward(net, x), g), be.xp, reps=3)
    return {"useful_flops": 3 * 2.0 * N * batch * width * width * 2 * blocks, "draw_s": t_draw, "run_s": t}


def _linear_sizes(layers, out):
    for layer in layers:
        if isinstance(layer, ResidualBlock):
            _linear_sizes(layer.branch, out)
        elif isinstance(layer, Linear):
            out.append(layer.params[0].shape)
    return out


def hessian_case(be, size):
    N, batch, width, blocks = 8, int(512 * size), 128, 8
    x, y = synthetic_batch(be, N, batch, width, 10)
    model = build_classifier(be, "baseline", width, blocks, 10, N)
    v = [be.normal(p.shape) for p in parameters(model)]
    t = best_time(lambda: hvp(model, x, y, v), be.xp, reps=3)
    sizes = _linear_sizes(model, [])
    flops = sum((7 if i == 0 else 9) * 2.0 * batch * s[0] * s[1] * s[2] for i, s in enumerate(sizes))
    return {"useful_flops": flops, "draw_s": 0.0, "run_s": t}


CASES = {
    "wn_mlp_orthogonal": wn_case("mlp", "proposed_orthogonal"),
    "wn_mlp_orthogonal_householder": wn_case("mlp", "proposed_orthogonal", "householder"),
    "wn_mlp_orthogonal_cholesky": wn_case("mlp", "proposed_orthogonal", "cholesky"),
    "wn_mlp_orthogonal_reflectors": wn_case("mlp", "proposed_orthogonal", "reflectors"),
    "wn_mlp_orthogonal_factored": wn_case("mlp", "proposed_orthogonal", "factored"),
    "wn_mlp_he": wn_case("mlp", "proposed_he"),
    "wn_resnet_orthogonal": wn_case("resnet", "proposed_orthogonal"),
    "wn_resnet_orthogonal_factored": wn_case("resnet", "proposed_orthogonal", "factored"),
    "wn_mlp_he_side_by_side": wn_side_by_side_case("mlp", "proposed_he"),
    "wn_mlp_orthogonal_side_by_side": wn_side_by_side_case("mlp", "proposed_orthogonal"),
    "bn_chain_gram": bn_chain_case,
    "relu_mlp_ensemble": relu_mlp_case,
    "relu_resnet_ensemble": relu_resnet_case,
    "hessian_hvp": hessian_case,
}
#: The cases that take ``networks`` (``--networks``).
BATCHED = {name for name in CASES if name.startswith("wn_") and not name.endswith("side_by_side")} | {"bn_chain_gram"}


def ceiling_fraction(useful: float, sampler: float, floor_s: float, peak: float) -> float:
    """The end-to-end fraction of ``peak`` reachable when every flop (the network's and the
    sampler's) runs at the peak and only the normal draws take their measured time.

    >>> ceiling_fraction(4e9, 0.0, 0.0, 1e9), ceiling_fraction(4e9, 4e9 / 3, 0.0, 1e9)
    (1.0, 0.75)
    >>> round(ceiling_fraction(1e9, 0.0, 9.0, 1e9), 3)
    0.1
    """
    return useful / peak / (useful / peak + sampler / peak + floor_s)


def measure(backend: str, dtype: str, names, size: float, networks: int = 1) -> list:
    """Each case against the peak measured just before it (the machine may be shared, and
    its load drift between cases); ``networks`` batched in the cases that batch them
    (module text), one elsewhere."""
    be = get_backend(backend, seed=0, dtype=dtype)
    print(f"{dtype} ({backend}); fractions of the matmul peak measured right before each case")
    rows = []
    for name in names:
        peak = matmul_peak(be)
        r = CASES[name](be.child(name), size, *([networks] if name in BATCHED else []))
        total = r["draw_s"] + r["run_s"]
        r.update(name=name, dtype=dtype, backend=backend, peak=peak,
                 end_to_end_fraction=r["useful_flops"] / total / peak)
        line = f"  {name:30s} peak {peak / 1e9:5.1f} GFLOP/s; "
        if r.get("networks", 1) > 1:
            line += f"{r['networks']}{' x 64 chains' if name.startswith('bn') else ' networks'} batched; "
        if "overlapped" in r:
            line += (f"end to end (drawing included, {r['overlapped']}) {r['end_to_end_fraction']:6.1%}; "
                     f"wall {r['run_s']:.2f} s")
        else:
            r["run_fraction"] = r["useful_flops"] / r["run_s"] / peak
            line += (f"run {r['run_fraction']:6.1%}, end to end (drawing included) "
                     f"{r['end_to_end_fraction']:6.1%}; draw {r['draw_s']:.2f} s, run {r['run_s']:.2f} s")
        if r.get("sampler_flops"):
            r["executed_fraction"] = (r["useful_flops"] + r["sampler_flops"]) / total / peak
            line += f"; with the Haar sampler's flops {r['executed_fraction']:6.1%}"
        if "dense_flops" in r:
            r["dense_equivalent_fraction"] = r["dense_flops"] / total / peak
            line += f"; dense-equivalent {r['dense_equivalent_fraction']:6.1%} (the dense chain's W H products)"
        if "draw_floor_s" in r:
            r["ceiling_fraction"] = ceiling_fraction(r["useful_flops"], r.get("sampler_flops", 0.0),
                                                     r["draw_floor_s"], peak)
            line += (f"; ceiling {r['ceiling_fraction']:6.1%} (normals alone {r['draw_floor_s']:.3f} s, "
                     f"every flop at the peak)")
        print(line, flush=True)
        rows.append(r)
    return rows


#: Lines that mark the notebook's compute cells: setup, MLP function and loop, ResNet ones.
PEER_CELLS = {"setup": "N=1000 # number of samples",
              "mlp": ("def get_norm_ratios(", "data_dict[name] = get_norm_ratios"),
              "resnet": ("def get_norm_ratios_resnet(", "data_dict_resnet[name] = get_norm_ratios_resnet")}


def peer_figure1(path: str) -> dict:
    """Seconds of the notebook's MLP and ResNet halves of Figure 1, executed as published."""
    import tqdm

    cells = ["".join(c["source"]) for c in json.load(open(path))["cells"] if c["cell_type"] == "code"]

    def cell(marker):
        return next(c for c in cells if marker in c)

    ns = {"np": np, "math": math, "tqdm": tqdm, "__name__": "peer"}
    quiet = contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO())

    def run(source: str) -> float:
        t = time.perf_counter()
        with quiet[0], quiet[1]:
            exec(compile(source, path, "exec"), ns)  # noqa: S102 - the peer as published
        return time.perf_counter() - t

    run(cell(PEER_CELLS["setup"]) + "\n" + cell("data_dict_resnet = {}"))
    out = {}
    for half in ("mlp", "resnet"):
        define, loop = PEER_CELLS[half]
        run(cell(define))
        out[half] = run(cell(loop))
        print(f"  notebook {half} cells: {out[half]:.1f} s", flush=True)  # a cut-off run still tells this much
    return out


def ours_figure1(backend: str = "numpy") -> float:
    """Seconds of our Figure 1 at the notebook's work (one network per curve; its
    results come back to the host, so the time includes the device's work)."""
    from simulations.figures.arpit2019_fig1 import compute

    t = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        compute(seed=0, n_networks=1, n_inputs=1000, backend=backend)
    return time.perf_counter() - t


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"--size must be > 0, got {text}")
    return value


def _count(text: str) -> int:
    try:
        return check_int("--networks", int(text), low=1)
    except ValueError as err:  # int("1.5") or check_int
        raise argparse.ArgumentTypeError(f"--networks must be an integer >= 1, got {text}") from err


def _default_cases(backend: str) -> list:
    """Every case but the one that repeats ``wn_mlp_orthogonal`` with its default method
    (for one network, as the WN cases draw)."""
    same = f"wn_mlp_orthogonal_{default_haar_method(backend, 1)}"
    return [name for name in CASES if name != same]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--dtype", action="append", choices=("float64", "float32"), help="default: both")
    p.add_argument("--only", action="append", choices=sorted(CASES), help="case name (repeatable)")
    p.add_argument("--quick", action="store_true", help="a quarter of the sizes (smoke test)")
    p.add_argument("--size", type=_positive, default=None,
                   help="multiply every case's size (WN width and inputs, BN width, networks in the ensembles, "
                        "Hessian batch; default 1, 0.25 with --quick; e.g. 4.096 on a GPU for WN width 4096)")
    p.add_argument("--networks", type=_count, default=1,
                   help="networks batched in each WN case (the side-by-side ones and the ensembles ignore it), "
                        "64 x N chains in the BN case (default 1; e.g. 8 on a GPU at --size 1.024)")
    p.add_argument("--json", help="write the rows to this file")
    p.add_argument("--peer-notebook", help="path to the authors' synthetic_data_experiment.ipynb")
    a = p.parse_args(argv)
    rows = []
    for dtype in a.dtype or ("float64", "float32"):
        rows += measure(a.backend, dtype, a.only or _default_cases(a.backend), a.size or (0.25 if a.quick else 1.0),
                        a.networks)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if a.peer_notebook:
        if a.backend == "cupy":
            ours_figure1(a.backend)  # warm-up: CuPy compiles its kernels on first use
        o = ours_figure1(a.backend)
        print(f"Figure 1, one network per curve, ours ({a.backend}): {o:.2f} s", flush=True)
        t = peer_figure1(a.peer_notebook)
        total = t["mlp"] + t["resnet"]
        print(f"Figure 1, one network per curve (3 inits x 2 widths x MLP/ResNet, 1000 inputs): "
              f"ours ({a.backend}) {o:.2f} s; notebook {total:.1f} s "
              f"(MLP cells {t['mlp']:.1f} s, ResNet cells {t['resnet']:.1f} s); "
              f"ratio {total / o:.1f}x")


if __name__ == "__main__":
    main()
