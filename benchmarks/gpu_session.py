"""Every GPU measurement of the project, in one command, with a log per step.

    python benchmarks/gpu_session.py --out DIR [--only STEP ...] [--workers N] [--dry-run]

Steps, in order (``--only`` picks some; each runs under its own time limit, so a slow
step cannot eat the others' time; the limits add up to more than one 10-minute call of
a lent machine, so there run a few steps per call with ``--only``):

- ``info``: the device, the driver and the versions of Python, numpy, CuPy and CUDA;
- ``tests``: ``pytest tests -m gpu``, every simulator test that takes a backend, on CuPy;
- ``claims``: ``pytest theory --backend cupy``, the whole catalogue, with its durations;
- ``figures``: ``python -m simulations.figures --backend cupy``, at the papers' settings,
  into ``DIR/figures`` (the committed ``figures/`` are left as they are);
- ``bench_1024``: the throughput benchmark at WN width 1024 with 8 networks batched
  (one 1024 product alone runs at about a third of the cuBLAS peak) and 8 x 64 BN chains;
- ``bench_4096``: the WN and BN cases at width 4096, formed and factored Haar draws;
- ``bench_haar``: ``benchmarks/bench_haar.py``, each Haar construction and the triangular
  inverses inside the reflector ones, by method, and the formation of Q by formation
  block, at the WN layers' shapes.

Each step writes ``DIR/STEP.log`` (the benchmarks also ``DIR/STEP.json``) and the session
writes ``DIR/session.json`` (each step's command, exit status and seconds). Steps run
from the repository root on this checkout's code (``PYTHONPATH``), with Hypothesis's
derandomized ``ci`` profile (which keeps no example database) and no bytecode written,
so that nothing lands in the repository; a step past its limit is stopped with all its processes (the
pytest-xdist workers too). On a machine without a CUDA device the session stops before
the first step, unless ``--dry-run`` (which prints the commands only).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WN_BN_4096 = ("wn_mlp_he", "wn_mlp_orthogonal", "wn_mlp_orthogonal_reflectors", "wn_mlp_orthogonal_factored",
              "wn_resnet_orthogonal", "wn_resnet_orthogonal_factored", "bn_chain_gram")


def steps(out: Path, workers: int) -> dict:
    """Step name -> (argv, time limit in seconds)."""
    py, bench = sys.executable, str(ROOT / "benchmarks" / "bench_throughput.py")
    info = ("import sys, numpy, cupy; d = cupy.cuda.runtime.getDeviceProperties(0); "
            "print(d['name'].decode(), d['totalGlobalMem'] // 2**20, 'MiB;', 'python', sys.version.split()[0], "
            "'numpy', numpy.__version__, 'cupy', cupy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion(), "
            "'driver', cupy.cuda.runtime.driverGetVersion())")
    return {
        "info": ([py, "-c", info], 60),
        "tests": ([py, "-m", "pytest", "tests", "-m", "gpu", "-q", "-n", str(min(workers, 8))], 300),
        "claims": ([py, "-m", "pytest", "theory", "--backend", "cupy", "-q", "-n", str(workers), "--durations=15"],
                   540),
        "figures": ([py, "-m", "simulations.figures", "--backend", "cupy", "--out", str(out / "figures")], 400),
        "bench_1024": ([py, bench, "--backend", "cupy", "--size", "1.024", "--networks", "8",
                        "--json", str(out / "bench_1024.json")], 500),
        "bench_4096": ([py, bench, "--backend", "cupy", "--size", "4.096", *[f"--only={c}" for c in WN_BN_4096],
                        "--json", str(out / "bench_4096.json")], 500),
        "bench_haar": ([py, str(ROOT / "benchmarks" / "bench_haar.py"), "--backend", "cupy",
                        "--json", str(out / "bench_haar.json")], 300),
    }


#: The steps' environment on top of this process's (see the module text).
STEP_ENV = {"PYTHONPATH": str(ROOT), "HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONUNBUFFERED": "1"}


def run_step(name: str, argv: list, limit: float, out: Path) -> dict:
    """Run one step from the repository root with its output in ``out/name.log``; past
    ``limit`` seconds its whole process group is killed."""
    t = time.perf_counter()
    with open(out / f"{name}.log", "w") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **STEP_ENV},
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc = "timeout"
    return {"step": name, "command": argv, "limit_s": limit, "returncode": rc,
            "seconds": round(time.perf_counter() - t, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="directory for the logs (created if missing)")
    p.add_argument("--only", action="append", choices=list(steps(Path("."), 1)), help="step name (repeatable)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="pytest-xdist workers (default: the cores; the GPU tests use at most 8)")
    p.add_argument("--dry-run", action="store_true", help="print the commands and exit")
    a = p.parse_args(argv)
    if a.workers < 1:
        p.error(f"--workers must be >= 1, got {a.workers}")
    out = Path(a.out).resolve()
    plan = {k: v for k, v in steps(out, a.workers).items() if not a.only or k in a.only}
    if a.dry_run:
        for name, (cmd, limit) in plan.items():
            print(f"{name} (limit {limit} s): {' '.join(cmd)}")
        return 0
    sys.path.insert(0, str(ROOT))
    from simulations import cupy_available

    if not cupy_available():
        print("no CUDA device that CuPy can use: nothing to measure (see --dry-run for the plan)", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for name, (cmd, limit) in plan.items():
        done.append(run_step(name, cmd, limit, out))
        print(f"{name}: exit {done[-1]['returncode']}, {done[-1]['seconds']} s", flush=True)
        (out / "session.json").write_text(json.dumps(done, indent=1))
    return 0 if all(d["returncode"] == 0 for d in done) else 1


if __name__ == "__main__":
    raise SystemExit(main())
