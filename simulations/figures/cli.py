"""Regenerate every figure into figures/: ``python -m simulations.figures``
(or ``paperchecks-figures``). Each figure writes PNG, PDF, the data (.npz) and its
provenance (.json: seed, backend, settings, git commit and dirty flag, library versions, wall time).

Each figure module has ``compute(seed, backend, **settings) -> dict`` and
``plot(data, path_stem)``, plus ``DEFAULTS`` (the paper's settings) and ``QUICK``
(a small run used by the smoke tests). ``--set name=value`` overrides one setting.
"""
from __future__ import annotations

import argparse
import ast
import json
import time
from pathlib import Path

import numpy as np

from ..core.provenance import git_state
from . import (arpit2019_fig1, daneshmand2021_fig1, daneshmand2021_fig2, daneshmand2021_fig3, defazio_bottou_fig1,
               defazio_bottou_fig2)

FIGURES = {
    "arpit2019_fig1": arpit2019_fig1,
    "daneshmand2021_fig1": daneshmand2021_fig1,
    "daneshmand2021_fig2": daneshmand2021_fig2,
    "daneshmand2021_fig3": daneshmand2021_fig3,
    "defazio_bottou_fig1": defazio_bottou_fig1,
    "defazio_bottou_fig2": defazio_bottou_fig2,
}




def _parse_set(items) -> dict:
    out = {}
    for item in items or ():
        if "=" not in item:
            raise SystemExit(f"--set expects name=value, got {item!r}")
        k, v = item.split("=", 1)
        try:
            out[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            out[k] = v
    return out


def provenance(name: str, seed: int, backend: str, settings: dict, wall: float, start: dict | None = None) -> dict:
    """What a reader needs to rerun a figure: seed, backend, settings, the commit (and
    whether the tree had uncommitted changes, then or since ``start``, the state when the
    figure began), library versions."""
    from ..core.backend import get_backend
    from ..core.provenance import provenance as code_provenance

    return {"figure": name, "seed": seed, "backend": get_backend(backend, seed=seed).describe(),
            "settings": settings, **code_provenance(start),
            "command": f"python -m simulations.figures --only {name} --seed {seed} --backend {backend}",
            "wall_seconds": round(wall, 2)}


def make_figure(name: str, out: Path, seed: int = 0, backend: str = "numpy", quick: bool = False,
                overrides: dict | None = None) -> dict:
    """Compute, plot and save one figure; returns its provenance record."""
    mod = FIGURES[name]
    settings = {**mod.DEFAULTS, **(mod.QUICK if quick else {}), **(overrides or {})}
    start = git_state()
    t0 = time.perf_counter()
    data = mod.compute(seed=seed, backend=backend, **settings)
    mod.plot(data, out / name)
    np.savez_compressed(out / f"{name}_data.npz", **{k.replace("/", "__"): np.asarray(v) for k, v in data.items()})
    prov = provenance(name, seed, backend, settings, time.perf_counter() - t0, start)
    (out / f"{name}_provenance.json").write_text(json.dumps(prov, indent=1, default=str) + "\n")
    return prov


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="paperchecks-figures", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="figures", help="output folder (default: figures)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--only", action="append", choices=sorted(FIGURES), help="figure name (repeatable)")
    p.add_argument("--quick", action="store_true", help="small smoke-test sizes, not the paper's")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override one setting")
    a = p.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    overrides = _parse_set(a.set)
    for name in FIGURES:
        if a.only and name not in a.only:
            continue
        prov = make_figure(name, out, a.seed, a.backend, a.quick, overrides)
        print(f"{name}: {prov['wall_seconds']:.1f} s")
    return 0
