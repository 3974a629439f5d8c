"""Provenance of a generated artifact (a figure, a report): the commit of the code that
made it, whether the working tree had uncommitted changes to tracked files, and the
library versions. Shared by the figures command and the claims report.

>>> sorted(provenance())[:3]
['commit', 'dirty', 'machine']
"""
from __future__ import annotations

import platform
import subprocess
from pathlib import Path

__all__ = ["GENERATED", "git_state", "provenance"]

_ROOT = Path(__file__).resolve().parents[2]


def _git(*args) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


#: Generated outputs: regenerating them does not make the code differ from its commit.
GENERATED = ("figures", "paper_checks.md", "paper_checks.json", "calibration.json")


def git_state() -> dict:
    """{"commit": HEAD or None, "dirty": True when tracked files other than the
    generated outputs (``GENERATED``) differ from HEAD}."""
    status = _git("status", "--porcelain", "--untracked-files=no", "--", ".", *(f":!{g}" for g in GENERATED))
    return {"commit": _git("rev-parse", "HEAD") or None, "dirty": None if status is None else bool(status)}


def provenance() -> dict:
    """Commit, dirty flag, Python and library versions, machine."""
    import numpy
    import scipy

    out = {**git_state(), "python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
           "machine": platform.machine()}
    for name in ("mpmath", "sympy", "matplotlib"):
        try:
            out[name] = __import__(name).__version__
        except ImportError:  # pragma: no cover - all are dependencies
            out[name] = None
    return out
