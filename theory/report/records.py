"""Evaluate claims into JSON records, with the provenance of the run.

Every number of the report comes from here: nothing is typed by hand.
"""
from __future__ import annotations

import time

from simulations.core.provenance import provenance
from ..core import RunContext, evaluate, jsonable
from ..core.runner import with_headroom
from ..core.claims import Claim

__all__ = ["record", "run_records", "provenance"]


def record(claim: Claim, ctx: RunContext) -> dict:
    """One claim evaluated: its declaration and the evidence, as JSON."""
    t0 = time.perf_counter()
    ev = with_headroom(claim, ctx, evaluate(claim, ctx))
    return {"id": claim.id, "paper": claim.paper, "where": claim.where, "statement": claim.statement,
            "kind": claim.kind, "verdict": ev.verdict.value, "recorded_verdict": claim.recorded.value,
            "corrects": claim.corrects, "slow": claim.slow, "monte_carlo": claim.monte_carlo, "note": claim.note,
            "rerun": claim.rerun, "seconds": round(time.perf_counter() - t0, 2), "evidence": ev.to_json(),
            "plot": jsonable(ev.plot)}


def run_records(claims, ctx: RunContext, progress: bool = True) -> list:
    """Evaluate ``claims`` in order (progress bar with ``progress``)."""
    from tqdm import tqdm

    return [record(c, ctx) for c in tqdm(list(claims), desc="claims", disable=not progress)]
