"""Convolution throughput (simulations.relu_nets.conv: im2col + one matmul, hand-written
backward) as a fraction of this machine's matmul peak measured in the same run, on
the strided LeNet's layers at batch 1024 (Defazio & Bottou, Figures 1-2), plus the
time of one full Figure 1-2 setup (forward, backward, 10 output probes, Gauss-Newton
blocks), in float64 and float32 (or the ``--dtype`` given).
Usage: python benchmarks/bench_conv.py [--backend cupy] [--dtype float32]"""
from __future__ import annotations

import argparse

from timing import best_time, matmul_peak

from simulations import (
    conv2d,
    conv2d_backward_input,
    conv2d_weight_grad,
    conv_output_size,
    draw_net,
    get_backend,
    lenet_spec,
    scaling_vs_hessian,
)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--dtype", action="append", choices=("float64", "float32"), help="default: both")
    p.add_argument("--batch", type=int, default=1024)
    a = p.parse_args(argv)
    for dtype in a.dtype or ("float64", "float32"):
        run(a.backend, dtype, a.batch)


def run(backend: str, dtype: str, batch: int):
    be = get_backend(backend, seed=0, dtype=dtype)
    xp = be.xp
    peak = matmul_peak(be)
    print(f"{dtype} matmul peak: {peak / 1e9:.1f} GFLOP/s ({backend})")
    for layer in lenet_spec()[:2]:
        C, O, k, s, size = layer["in"], layer["out"], layer["k"], layer["stride"], layer["size"]
        ho = conv_output_size(size, k, s, 0)
        x, W = be.normal((batch, C, size, size)), be.normal((O, C, k, k))
        dy = be.normal((batch, O, ho, ho))
        flops = 2 * batch * ho * ho * O * C * k * k  # per pass (forward, input grad, weight grad)
        for name, fn in (("forward", lambda: conv2d(x, W, s, 0)),
                         ("input grad", lambda: conv2d_backward_input(dy, W, (size, size), s, 0)),
                         ("weight grad", lambda: conv2d_weight_grad(dy, x, k, s, 0))):
            t = best_time(fn, xp)
            print(f"conv {C}->{O} k{k} s{s} {size}x{size} {name:11s} {flops / t / 1e9:7.2f} GFLOP/s = "
                  f"{flops / t / peak:6.1%} of peak ({t * 1e3:.1f} ms)")
    spec = lenet_spec()
    Ws = draw_net(be, spec, "geometric")
    x, R = be.normal((batch, 3, 32, 32)), be.normal((10, 10))
    t = best_time(lambda: scaling_vs_hessian(spec, Ws, x, R), xp, reps=2)
    print(f"one Figure 1-2 setup (batch {batch}): {t:.2f} s; 100 setups ~ {100 * t:.0f} s")


if __name__ == "__main__":
    main()
