"""Provenance of a generated artifact (a figure, a report): the commit of the code that
made it, whether the working tree had uncommitted changes (to tracked files, or untracked
files in the code's packages, :data:`CODE_PACKAGES`: a new paper package not yet added
is code the commit lacks), and the library versions. Shared by the figures command, the
claims report and the calibration.

A run that takes minutes can outlive its commit (a commit or an edit made while it
runs; processes it starts later import the new code). So a run takes the state when it
starts and records it with :func:`state_since`: the starting commit, dirty when the tree
was dirty then or differs at the end.

>>> sorted(provenance())[:3]
['commit', 'dirty', 'machine']
"""
from __future__ import annotations

import platform
import subprocess
from pathlib import Path

__all__ = ["GENERATED", "CODE_PACKAGES", "git_state", "state_since", "provenance"]

_ROOT = Path(__file__).resolve().parents[2]


def _git(*args) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


#: Generated outputs: regenerating them does not make the code differ from its commit.
GENERATED = ("figures", "paper_checks.md", "paper_checks.json", "calibration.json")


#: The packages whose untracked files are code too (files git ignores are not).
CODE_PACKAGES = ("theory", "simulations")


def _code_paths() -> tuple:
    """git pathspecs of the code: every tracked file but the generated outputs."""
    return ("--", ".", *(f":!{g}" for g in GENERATED))


def _untracked_code() -> str | None:
    """The untracked, not ignored files under :data:`CODE_PACKAGES` (None where git
    cannot tell)."""
    return _git("ls-files", "--others", "--exclude-standard", "--", *CODE_PACKAGES)


def git_state() -> dict:
    """{"commit": HEAD or None, "dirty": True when tracked files other than the
    generated outputs (``GENERATED``) differ from HEAD, or an untracked file lies in
    the code's packages (``CODE_PACKAGES``)}."""
    status = _git("status", "--porcelain", "--untracked-files=no", *_code_paths())
    untracked = _untracked_code()
    dirty = None if status is None or untracked is None else bool(status or untracked)
    return {"commit": _git("rev-parse", "HEAD") or None, "dirty": dirty}


def state_since(start: dict | None = None) -> dict:
    """The code of a run that began in the state ``start`` (a :func:`git_state`): its
    commit, dirty when it was dirty then or when the code (tracked files but the
    generated outputs) now differs from that commit, by an edit or a commit made during
    the run (a commit of generated outputs alone does not count); None where git cannot
    tell. An untracked file in the code's packages made during the run counts as an
    edit. Without ``start``, the state now.

    >>> state_since(git_state()) == git_state()  # nothing changed in between
    True
    """
    if start is None:
        return git_state()
    if start["dirty"] is None or start["commit"] is None:
        return {"commit": start["commit"], "dirty": None}
    if start["dirty"]:
        return dict(start)
    changed = _git("diff", "--name-only", start["commit"], *_code_paths())
    untracked = _untracked_code()  # none at the start (it was clean): any now came during the run
    dirty = None if changed is None or untracked is None else bool(changed or untracked)
    return {"commit": start["commit"], "dirty": dirty}


def provenance(start: dict | None = None) -> dict:
    """Commit, dirty flag, Python and library versions, machine; with ``start`` (the
    :func:`git_state` taken when the run began), the code state over the run
    (:func:`state_since`)."""
    import numpy
    import scipy

    out = {**state_since(start), "python": platform.python_version(),
           "numpy": numpy.__version__, "scipy": scipy.__version__, "machine": platform.machine()}
    for name in ("mpmath", "sympy", "matplotlib"):
        try:
            out[name] = __import__(name).__version__
        except ImportError:  # pragma: no cover - all are dependencies
            out[name] = None
    return out
