"""Time of the Haar draws and of the triangular inverses inside them, by construction.

    python benchmarks/bench_haar.py [--backend cupy] [--dtype float64] [--quick] [--json PATH]

Two tables, best of 3 after a warm-up, with the matrix-multiply peak measured in the same
run:

- ``inverse``: ``upper_triangular_inverse`` of a batch of UT triangles of order 128
  (``REFLECTOR_BLOCK``) and 256 (``APPLY_BLOCK``), by ``linalg_inv`` (numpy: LAPACK LU
  and solve; CuPy: cuBLAS getrfBatched and getriBatched) and ``doubling`` (batched
  products), at batches 1, 16 (one 4096 draw's blocks of 256), 32 (its blocks of 128) and 64;
- ``draw``: one Haar draw of ``reps`` p x p matrices by each construction of
  ``haar_orthogonal`` and by ``haar_factor``, with its flops (``bench_throughput.haar_flops``)
  as a fraction of the peak;
- ``formation``: the formation step of ``reflectors`` alone (``q_from_reflectors``) on the
  same drawn reflectors, by formation block (64, 128 = ``REFLECTOR_BLOCK``, the default, 256
  and 512): any block gives the same Q up to rounding, wider ones launch fewer, wider
  products for a few more flops. Timed only: the draw's flop count does not apply to the
  formation alone, so these rows give no fraction of the peak.

The shapes are those of the throughput benchmark's WN layers, one network at width 4096
and 8 networks at width 1024, and those of Figure 1 of Arpit et al., which draws one
network at a time at widths near 200 and 1000 (``--quick``: orders 32 and 64 and widths
256 and 128, for a test).
"""
from __future__ import annotations

import argparse
import json

from bench_throughput import haar_flops
from timing import best_time, matmul_peak

from simulations import get_backend, haar_factor, haar_orthogonal
from simulations.core import provenance
from simulations.core.random_matrices import (
    HAAR_METHODS,
    _draw_reflectors,
    q_from_reflectors,
    reflector_half_norms,
    ut_triangle,
)
from simulations.core.triangular import TRIANGULAR_INVERSE_METHODS, upper_triangular_inverse


def _triangles(be, reps: int, n: int):
    v = be.xp.tril(be.normal((reps, 2 * n, n)))
    return ut_triangle(v, reflector_half_norms(v, be.xp), be.xp)


def inverse_rows(be, orders, batches) -> list:
    rows = []
    for n in orders:
        for reps in batches:
            s = _triangles(be, reps, n)
            for method in TRIANGULAR_INVERSE_METHODS:
                t = best_time(lambda: upper_triangular_inverse(s, be.xp, method), be.xp)
                rows.append({"table": "inverse", "order": n, "batch": reps, "method": method, "seconds": t})
    return rows


def draw_rows(be, shapes, peak: float) -> list:
    rows = []
    for reps, p in shapes:
        for method in HAAR_METHODS + ("factored",):
            if method == "factored":
                fn = lambda: haar_factor(be, reps, p, p)  # noqa: E731
            else:
                fn = lambda: haar_orthogonal(be, reps, p, p, method)  # noqa: E731
            t = best_time(fn, be.xp)
            flops = reps * haar_flops(method, p, p)
            rows.append({"table": "draw", "reps": reps, "p": p, "method": method, "seconds": t,
                         "flops": flops, "fraction": flops / t / peak})
    return rows


def formation_rows(be, shapes, blocks) -> list:
    rows = []
    for reps, p in shapes:
        v, d = _draw_reflectors(be, reps, p, p)
        for block in blocks:
            t = best_time(lambda: q_from_reflectors(v, d, be.xp, block=block), be.xp)
            rows.append({"table": "formation", "reps": reps, "p": p, "block": block, "seconds": t})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    ap.add_argument("--dtype", default="float64", choices=("float64", "float32"))
    ap.add_argument("--quick", action="store_true", help="small orders and widths (a test)")
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args(argv)
    be = get_backend(a.backend, seed=0, dtype=a.dtype)
    peak = matmul_peak(be)
    orders, batches = ((32, 64), (1, 4)) if a.quick else ((128, 256), (1, 16, 32, 64))
    shapes = ((1, 256), (2, 128)) if a.quick else ((1, 4096), (8, 1024), (1, 1000), (1, 200))
    print(f"{a.dtype} ({a.backend}); matmul peak {peak / 1e9:.1f} GFLOP/s")
    rows = inverse_rows(be, orders, batches)
    for r in rows:
        print(f"  inverse  order {r['order']:4d} batch {r['batch']:3d}  {r['method']:9s} {1e3 * r['seconds']:9.3f} ms")
    drawn = draw_rows(be, shapes, peak)
    for r in drawn:
        print(f"  draw     {r['reps']} x {r['p']:4d}  {r['method']:11s} {1e3 * r['seconds']:9.1f} ms  "
              f"{100 * r['fraction']:5.1f}% of the peak")
    formed = formation_rows(be, shapes, (16, 32) if a.quick else (64, 128, 256, 512))
    for r in formed:
        print(f"  formation {r['reps']} x {r['p']:4d}  block {r['block']:3d}   {1e3 * r['seconds']:9.1f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"backend": a.backend, "dtype": a.dtype, "peak": peak, "provenance": provenance(),
                       "rows": rows + drawn + formed}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
