"""BN-chain simulators (Daneshmand et al. 2021) against the authors' notebook, on the
same work, side by side in one process:

- Figure 2 right panel as in the notebook: n = 4, widths 16..512, 500 layers, 20 runs;
- Figure 2 left panel as in the notebook: n = 4, widths 32 and 512, 50 layers, 20 runs.

Ours uses the Gram-law sampler (d n^2 per layer instead of d^2 n); also reported: the
matmul flops per second of our chain as a fraction of the float64 matmul peak measured
in the same run, and the time per layer split into drawing Gaussians and the rest.

The peer is timed only when its notebook is given (it is never copied here):
    python benchmarks/bench_bn_chains.py --peer-notebook PATH/Figures_1_2_6.ipynb
(e.g. PATH from the fetched snapshot of hadidaneshmand/batchnorm21). The notebook's
code cells are executed as they are, up to their plotting lines.
"""
from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
from timing import matmul_peak

from simulations import get_backend, initial_representation, simulate_chain

RIGHT = {"widths": (16, 32, 64, 128, 256, 512), "n": 4, "depth": 500, "runs": 20}
LEFT = {"widths": (32, 512), "n": 4, "depth": 50, "runs": 20}


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def ours(work: dict, dtype: str = "float64") -> dict:
    be = get_backend(seed=0, dtype=dtype)
    flops = 0.0
    t = time.perf_counter()
    for d in work["widths"]:
        H0 = initial_representation(be, "diagonal_spike", work["runs"], d, work["n"])
        simulate_chain(be, H0, work["depth"])
        # per layer and run: X^T X (observe) and G F^T, 2 d n^2 flops each
        flops += work["runs"] * work["depth"] * 2 * (2 * d * work["n"] ** 2)
    wall = time.perf_counter() - t
    return {"seconds": wall, "matmul_flops_per_s": flops / wall}


def rng_share(work: dict) -> float:
    """Seconds spent drawing the Gaussian matrices alone for the same work."""
    g = np.random.default_rng(0)
    return sum(_timed(lambda: [g.standard_normal((work["runs"], d, work["n"])) for _ in range(work["depth"])])
               for d in work["widths"])


def peer(path: str, marker: str, stop: str) -> float:
    """Execute the notebook cell that contains ``marker`` up to the line starting with
    ``stop`` (its plotting) and return the wall time."""
    cells = json.load(open(path))["cells"]
    src = next("".join(c["source"]) for c in cells if c["cell_type"] == "code" and marker in "".join(c["source"]))
    code = src.split(stop)[0]
    ns = {"np": np, "math": math, "__name__": "peer"}
    return _timed(lambda: exec(compile(code, path, "exec"), ns))  # noqa: S102 - timing the peer as published


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--peer-notebook", help="path to the authors' Figures_1_2_6.ipynb")
    a = p.parse_args(argv)
    peak = matmul_peak(get_backend(seed=0))
    print(f"float64 matmul peak: {peak / 1e9:.1f} GFLOP/s")
    for name, work, marker, stop in (("Figure 2 right", RIGHT, "ds = [16,32,64,128,256,512]", "arrayres"),
                                     ("Figure 2 left", LEFT, "## Figure 2.a", "    labeli")):
        o = ours(work)
        line = (f"{name}: ours {o['seconds']:.2f} s ({o['matmul_flops_per_s'] / peak:.1%} of peak in matmul flops; "
                f"Gaussian draws alone {rng_share(work):.2f} s)")
        if a.peer_notebook:
            t = peer(a.peer_notebook, marker, stop)
            line += f"; notebook {t:.2f} s; ratio {t / o['seconds']:.1f}x"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
