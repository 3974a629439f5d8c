"""Evaluate claims into JSON records, with the provenance of the run.

Every number of the report comes from here: nothing is typed by hand.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from simulations.core.provenance import provenance
from ..core import RunContext, evaluate, jsonable
from ..core.claims import Claim
from ..core.notes import NoteFieldError, fill_note

__all__ = ["record", "run_records", "provenance"]


def record(claim: Claim, ctx: RunContext) -> dict:
    """One claim evaluated: its declaration and the evidence, as JSON (the note's fields
    filled from the evidence, :mod:`theory.core.notes`; where they cannot be, the note
    as declared and ``note_error``)."""
    t0 = time.perf_counter()
    ev = evaluate(claim, ctx)
    evidence = ev.to_json()
    try:
        note = {"note": fill_note(claim.note, evidence, claim.id)}
    except NoteFieldError as exc:
        note = {"note": claim.note, "note_error": str(exc)}
    return {"id": claim.id, "paper": claim.paper, "where": claim.where, "statement": claim.statement,
            "kind": claim.kind, "verdict": ev.verdict.value, "recorded_verdict": claim.recorded.value,
            "corrects": claim.corrects, "slow": claim.slow, "monte_carlo": claim.monte_carlo, **note,
            "rerun": claim.rerun, "seconds": round(time.perf_counter() - t0, 2), "evidence": evidence,
            "plot": jsonable(ev.plot)}


def run_records(claims, ctx: RunContext, progress: bool = True, partial: Path | None = None) -> list:
    """Evaluate ``claims`` in order (progress bar with ``progress``). A note whose fields
    the evidence cannot fill stops the report, but only after every claim has run, with
    every such field listed and (``partial``) the records written there to read the
    evidence the fields should name."""
    from tqdm import tqdm

    out = [record(c, ctx) for c in tqdm(list(claims), desc="claims", disable=not progress)]
    unfilled = [r["note_error"] for r in out if "note_error" in r]
    if unfilled:
        if partial is not None:
            partial.write_text(json.dumps({"claims": out}, indent=1) + "\n")
        raise NoteFieldError("notes whose fields this run's evidence cannot fill (no report written"
                             + (f"; the records are in {partial}" if partial is not None else "") + "):\n"
                             + "\n".join(unfilled))
    return out
