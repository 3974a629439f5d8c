"""Simulator throughput as a fraction of this machine's float64 matmul peak, measured
in the same run, for the Figure 1 MLP and ResNet at width ~1000 (Arpit et al. 2019,
App. A.1-A.2); the time spent drawing weights (orthogonalization included) is reported
beside it. Usage: python benchmarks/bench_throughput.py [--backend cupy]

With ``--peer-notebook PATH/synthetic_data_experiment.ipynb`` (the authors' notebook,
e.g. from the fetched snapshot of victorcampos7/weightnorm-init; never copied here) the
whole of Figure 1 is also timed side by side in this process: the notebook's compute
cells executed as published (setup, MLP and ResNet cells; one network per curve, its
inputs one at a time, its per-layer prints discarded) and ours on the same work
(``simulations.figures.arpit2019_fig1.compute`` with one network per curve)."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import time

import numpy as np

from simulations import backward, build_mlp, build_resnet, forward, get_backend, network_flops


def _sync(xp):
    if xp.__name__ == "cupy":
        xp.cuda.Stream.null.synchronize()


def matmul_peak(be, n=2000, reps=5) -> float:
    xp = be.xp
    a, b = be.normal((n, n)), be.normal((n, n))
    a @ b
    _sync(xp)
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        a @ b
        _sync(xp)
        best = min(best, time.perf_counter() - t)
    return 2 * n**3 / best


def bench(be, arch: str, init: str, inputs: int = 1000):
    t = time.perf_counter()
    ops = (build_mlp(be, [500] + [1000] * 20, init) if arch == "mlp"
           else build_resnet(be, [500, 500], [40], [1000], init))
    _sync(be.xp)
    t_draw = time.perf_counter() - t
    x = be.normal((1, inputs, 500))
    t = time.perf_counter()
    tape = forward(ops, x, be.xp, renormalize=True)
    backward(ops, tape, be.normal((1, inputs, tape.output.shape[-1])), be.xp)
    _sync(be.xp)
    t_run = time.perf_counter() - t
    return network_flops(ops, inputs) / t_run, t_draw, t_run


#: Lines that mark the notebook's compute cells: setup, MLP function and loop, ResNet ones.
PEER_CELLS = {"setup": "N=1000 # number of samples", "mlp": ("def get_norm_ratios(", "data_dict[name] = get_norm_ratios"),
              "resnet": ("def get_norm_ratios_resnet(", "data_dict_resnet[name] = get_norm_ratios_resnet")}


def peer_figure1(path: str) -> dict:
    """Seconds of the notebook's MLP and ResNet halves of Figure 1, executed as published."""
    import tqdm

    cells = ["".join(c["source"]) for c in json.load(open(path))["cells"] if c["cell_type"] == "code"]

    def cell(marker):
        return next(c for c in cells if marker in c)

    ns = {"np": np, "math": math, "tqdm": tqdm, "__name__": "peer"}
    out = {}
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        exec(compile(cell(PEER_CELLS["setup"]) + "\n" + cell("data_dict_resnet = {}"), path, "exec"), ns)  # noqa: S102
        for half in ("mlp", "resnet"):
            define, loop = PEER_CELLS[half]
            exec(compile(cell(define), path, "exec"), ns)  # noqa: S102 - the peer as published
            t = time.perf_counter()
            exec(compile(cell(loop), path, "exec"), ns)  # noqa: S102
            out[half] = time.perf_counter() - t
    return out


def ours_figure1() -> float:
    from simulations.figures.arpit2019_fig1 import compute

    t = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        compute(seed=0, n_networks=1, n_inputs=1000)
    return time.perf_counter() - t


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--peer-notebook", help="path to the authors' synthetic_data_experiment.ipynb")
    a = p.parse_args(argv)
    be = get_backend(a.backend, seed=0)
    peak = matmul_peak(be)
    print(f"float64 matmul peak: {peak / 1e9:.1f} GFLOP/s ({a.backend})")
    for arch in ("mlp", "resnet"):
        for init in ("proposed_orthogonal", "proposed_he"):
            rate, t_draw, t_run = bench(be, arch, init)
            print(f"{arch:6s} {init:20s} {rate / 1e9:7.1f} GFLOP/s = {rate / peak:5.1%} of peak; "
                  f"forward+backward {t_run:.2f} s, drawing weights {t_draw:.2f} s")
    if a.peer_notebook:
        o = ours_figure1()
        t = peer_figure1(a.peer_notebook)
        total = t["mlp"] + t["resnet"]
        print(f"Figure 1, one network per curve (3 inits x 2 widths x MLP/ResNet, 1000 inputs): ours {o:.1f} s; "
              f"notebook {total:.1f} s (MLP cells {t['mlp']:.1f} s, ResNet cells {t['resnet']:.1f} s); "
              f"ratio {total / o:.1f}x")


if __name__ == "__main__":
    main()
