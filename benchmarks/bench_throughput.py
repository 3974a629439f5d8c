"""Simulator throughput as a fraction of this machine's float64 matmul peak, measured
in the same run, for the Figure 1 MLP and ResNet at width ~1000 (Arpit et al. 2019,
App. A.1-A.2); the time spent drawing weights (orthogonalization included) is reported
beside it. Usage: python benchmarks/bench_throughput.py [--backend cupy]"""
from __future__ import annotations

import argparse
import time

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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    a = p.parse_args(argv)
    be = get_backend(a.backend, seed=0)
    peak = matmul_peak(be)
    print(f"float64 matmul peak: {peak / 1e9:.1f} GFLOP/s ({a.backend})")
    for arch in ("mlp", "resnet"):
        for init in ("proposed_orthogonal", "proposed_he"):
            rate, t_draw, t_run = bench(be, arch, init)
            print(f"{arch:6s} {init:20s} {rate / 1e9:7.1f} GFLOP/s = {rate / peak:5.1%} of peak; "
                  f"forward+backward {t_run:.2f} s, drawing weights {t_draw:.2f} s")


if __name__ == "__main__":
    main()
