"""Timing helpers shared by the benchmarks: device synchronization, best-of-n wall time,
and the matrix-multiply peak of the machine for a backend and dtype, measured in the run
that reports fractions of it."""
from __future__ import annotations

import time


def sync(xp) -> None:
    """Wait for the device (CuPy); nothing to wait for on numpy."""
    if xp.__name__ == "cupy":
        xp.cuda.Stream.null.synchronize()


def best_time(fn, xp, reps: int = 3, warmup: int = 1) -> float:
    """Best wall time of ``fn()`` over ``reps`` runs after ``warmup`` runs (seconds)."""
    for _ in range(warmup):
        fn()
    sync(xp)
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync(xp)
        best = min(best, time.perf_counter() - t)
    return best


def matmul_peak(be, n: int | None = None, reps: int = 5) -> float:
    """FLOP/s of one n x n matmul in the backend's dtype: 2 n^3 over the best time.

    ``n`` defaults to 2000 on numpy and 8192 on CuPy (a GPU needs a large product to
    reach its peak: cuBLAS runs 2000 x 2000 well under it)."""
    n = n or (8192 if be.name == "cupy" else 2000)
    a, b = be.normal((n, n)), be.normal((n, n))
    return 2.0 * n**3 / best_time(lambda: a @ b, be.xp, reps)
