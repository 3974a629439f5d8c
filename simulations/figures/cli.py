"""Regenerate every figure into figures/: ``python -m simulations.figures``
(or ``paperchecks-figures``). Each figure writes PNG, PDF, the data (.npz) and its
provenance (.json: seed, backend, versions, settings, wall time)."""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from . import arpit2019_fig1

FIGURES = {"arpit2019_fig1": arpit2019_fig1}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="paperchecks-figures", description=__doc__)
    p.add_argument("--out", default="figures")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--networks", type=int, default=5)
    p.add_argument("--inputs", type=int, default=1000)
    p.add_argument("--only", choices=sorted(FIGURES))
    a = p.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, mod in FIGURES.items():
        if a.only and name != a.only:
            continue
        t0 = time.perf_counter()
        data = mod.compute(seed=a.seed, n_networks=a.networks, n_inputs=a.inputs, backend=a.backend)
        mod.plot(data, out / name)
        np.savez_compressed(out / f"{name}_data.npz", **{k.replace("/", "__"): v for k, v in data.items()})
        import matplotlib
        import scipy

        prov = {"figure": name, "seed": a.seed, "backend": a.backend, "networks": a.networks, "inputs": a.inputs,
                "python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
                "matplotlib": matplotlib.__version__, "wall_seconds": time.perf_counter() - t0}
        (out / f"{name}_provenance.json").write_text(json.dumps(prov, indent=1) + "\n")
        print(f"{name}: {prov['wall_seconds']:.1f} s")
    return 0
