"""Evaluate claims into JSON records, with the provenance of the run.

Every number of the report comes from here: nothing is typed by hand.
"""
from __future__ import annotations

import platform
import subprocess
import time
from pathlib import Path

from ..core import RunContext, evaluate, jsonable
from ..core.claims import Claim

__all__ = ["record", "run_records", "provenance"]

ROOT = Path(__file__).resolve().parents[2]


def _git(*args) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def provenance() -> dict:
    """Commit, dirty flag (tracked files changed) and library versions of this run."""
    import mpmath
    import numpy
    import scipy
    import sympy

    status = _git("status", "--porcelain", "--untracked-files=no")
    return {"commit": _git("rev-parse", "HEAD"), "dirty": None if status is None else bool(status),
            "python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
            "mpmath": mpmath.__version__, "sympy": sympy.__version__, "machine": platform.machine()}


def record(claim: Claim, ctx: RunContext) -> dict:
    """One claim evaluated: its declaration and the evidence, as JSON."""
    t0 = time.perf_counter()
    ev = evaluate(claim, ctx)
    return {"id": claim.id, "paper": claim.paper, "where": claim.where, "statement": claim.statement,
            "kind": claim.kind, "verdict": ev.verdict.value, "recorded_verdict": claim.recorded.value,
            "corrects": claim.corrects, "slow": claim.slow, "monte_carlo": claim.monte_carlo, "note": claim.note,
            "rerun": claim.rerun, "seconds": round(time.perf_counter() - t0, 2), "evidence": ev.to_json(),
            "plot": jsonable(ev.plot)}


def run_records(claims, ctx: RunContext, progress: bool = True) -> list:
    """Evaluate ``claims`` in order (progress bar with ``progress``)."""
    from tqdm import tqdm

    return [record(c, ctx) for c in tqdm(list(claims), desc="claims", disable=not progress)]
