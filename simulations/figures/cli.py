"""Regenerate every figure into figures/: ``python -m simulations.figures``
(or ``paperchecks-figures``). Each figure writes PNG, PDF, the data (.npz) and its
provenance (.json: seed, backend, settings, the command that reruns it (``--quick`` and
``--set`` included), git commit and dirty flag, library versions, wall time).

Each figure module has ``compute(seed, backend, **settings) -> dict``,
``plot(data, path_stem)`` and ``check(settings) -> settings`` (each setting checked,
a ValueError naming a bad one), plus ``DEFAULTS`` (the paper's settings) and ``QUICK``
(a small run used by the smoke tests). ``--set name=value`` overrides one setting of
every chosen figure that has it (a name none of them has is an error).

Bad input (an unknown figure or setting, a malformed ``--set``, a value out of its
range, a negative seed, ``--backend cupy`` where CuPy sees no CUDA device, an output
folder that cannot be made) gives a one-line error and exit status 2, before any
figure runs.
"""
from __future__ import annotations

import argparse
import ast
import inspect
import json
import shlex
import time
from pathlib import Path

import numpy as np

from ..core.provenance import git_state
from . import (
    arpit2019_fig1,
    daneshmand2021_fig1,
    daneshmand2021_fig2,
    daneshmand2021_fig3,
    defazio_bottou_fig1,
    defazio_bottou_fig2,
)

FIGURES = {
    "arpit2019_fig1": arpit2019_fig1,
    "daneshmand2021_fig1": daneshmand2021_fig1,
    "daneshmand2021_fig2": daneshmand2021_fig2,
    "daneshmand2021_fig3": daneshmand2021_fig3,
    "defazio_bottou_fig1": defazio_bottou_fig1,
    "defazio_bottou_fig2": defazio_bottou_fig2,
}


#: Options of the command that --set must not shadow.
_OPTIONS = {"seed": "--seed", "backend": "--backend"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2
        self.exit(2, f"{self.prog}: error: {message}\n")


class SettingError(ValueError):
    """A --set that names no setting of the chosen figures, or a value out of range."""


def settings_of(name: str) -> tuple:
    """The names ``--set`` may give figure ``name``: its compute's keyword parameters but
    the seed and the backend."""
    params = inspect.signature(FIGURES[name].compute).parameters
    return tuple(k for k in params if k not in _OPTIONS)


def _parse_set(items) -> dict:
    """{name: value} from ``--set name=value`` items (a value Python can read as a
    literal is read so, e.g. ``widths=(8,16)``; any other is a string)."""
    out = {}
    for item in items or ():
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise SettingError(f"--set expects NAME=VALUE with NAME a setting's name, got {item!r}")
        if name in _OPTIONS:
            raise SettingError(f"--set {name}: the {name} is an option of its own: use {_OPTIONS[name]}")
        try:
            out[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            out[name] = text
    return out


def figure_settings(name: str, quick: bool = False, overrides: dict | None = None) -> dict:
    """A figure's settings: its defaults, the quick sizes, and the ``overrides`` it has
    (:func:`settings_of`), each checked by the figure (a SettingError names a bad one)."""
    mod = FIGURES[name]
    mine = {k: v for k, v in (overrides or {}).items() if k in settings_of(name)}
    try:
        return mod.check({**mod.DEFAULTS, **(mod.QUICK if quick else {}), **mine})
    except ValueError as e:
        raise SettingError(f"{name}: {e}") from None


def _set_text(name: str, value) -> str:
    text = value if isinstance(value, str) else repr(value)
    return shlex.quote(f"{name}={text}")


def command(name: str, seed: int, backend: str, quick: bool = False, overrides: dict | None = None,
            out: str | Path | None = None) -> str:
    """The command line that reruns figure ``name`` as it was made: its seed and backend,
    ``--quick``, every ``--set`` it took and the output folder (when not the default).

    >>> command("daneshmand2021_fig1", 3, "numpy", quick=True, overrides={"runs": 3, "workers": 2})
    'python -m simulations.figures --only daneshmand2021_fig1 --seed 3 --backend numpy --quick --set runs=3'
    """
    parts = ["python -m simulations.figures", f"--only {name}", f"--seed {seed}", f"--backend {backend}"]
    if quick:
        parts.append("--quick")
    parts += [f"--set {_set_text(k, v)}" for k, v in (overrides or {}).items() if k in settings_of(name)]
    if out is not None and Path(out) != Path("figures"):
        parts.append(f"--out {shlex.quote(str(out))}")
    return " ".join(parts)


def provenance(name: str, seed: int, backend: str, settings: dict, wall: float, start: dict | None = None,
               command_line: str | None = None) -> dict:
    """What a reader needs to rerun a figure: seed, backend, settings, the command that
    reruns it (``command_line``; default: seed and backend only), the commit (and whether
    the tree had uncommitted changes, then or since ``start``, the state when the figure
    began), library versions."""
    from ..core.backend import get_backend
    from ..core.provenance import provenance as code_provenance

    return {"figure": name, "seed": seed, "backend": get_backend(backend, seed=seed).describe(),
            "settings": settings, **code_provenance(start),
            "command": command_line or command(name, seed, backend),
            "wall_seconds": round(wall, 2)}


def make_figure(name: str, out: Path, seed: int = 0, backend: str = "numpy", quick: bool = False,
                overrides: dict | None = None) -> dict:
    """Compute, plot and save one figure; returns its provenance record."""
    mod = FIGURES[name]
    settings = figure_settings(name, quick, overrides)
    start = git_state()
    t0 = time.perf_counter()
    data = mod.compute(seed=seed, backend=backend, **settings)
    mod.plot(data, out / name)
    np.savez_compressed(out / f"{name}_data.npz", **{k.replace("/", "__"): np.asarray(v) for k, v in data.items()})
    prov = provenance(name, seed, backend, settings, time.perf_counter() - t0, start,
                      command(name, seed, backend, quick, overrides, out))
    (out / f"{name}_provenance.json").write_text(json.dumps(prov, indent=1, default=str) + "\n")
    return prov


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return seed


def _fail(message: str) -> int:
    import sys

    print(f"paperchecks-figures: error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    p = _Parser(prog="paperchecks-figures", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="figures", help="output folder (default: figures)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of every draw (integer >= 0, default 0)")
    p.add_argument("--backend", default="numpy", choices=("numpy", "cupy"))
    p.add_argument("--only", action="append", choices=sorted(FIGURES), help="figure name (repeatable)")
    p.add_argument("--quick", action="store_true", help="small smoke-test sizes, not the paper's")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="override one setting of the chosen figures that have it (repeatable)")
    a = p.parse_args(argv)
    names = [name for name in FIGURES if not a.only or name in a.only]
    try:
        overrides = _parse_set(a.set)
        for key in overrides:
            if not any(key in settings_of(name) for name in names):
                known = sorted({k for name in names for k in settings_of(name)})
                raise SettingError(f"--set {key}: not a setting of {', '.join(names)}; the settings are "
                                   f"{', '.join(known)}")
        for name in names:  # every value checked before any figure runs
            figure_settings(name, a.quick, overrides)
    except SettingError as e:
        return _fail(str(e))
    if a.backend == "cupy":
        from ..core.backend import cupy_available

        if not cupy_available():
            return _fail("--backend cupy needs CuPy and a CUDA device, and CuPy sees none here (install "
                         "paperchecks[gpu] on a machine with a GPU); --backend must be numpy here")
    out = Path(a.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return _fail(f"--out must be a folder that can be made, got {a.out} ({e.strerror})")
    for name in names:
        prov = make_figure(name, out, a.seed, a.backend, a.quick, overrides)
        print(f"{name}: {prov['wall_seconds']:.1f} s")
    return 0
