"""Readable text of a claim's evidence: one renderer for the pytest failure text, the
pytest terminal summary and ``python -m theory check``."""
from __future__ import annotations

import json

from .claims import Claim
from .evidence import Evidence, jsonable

__all__ = ["render_evidence", "short", "one_line"]


def short(x, limit: int = 300) -> str:
    """A compact text of a measured or expected value."""
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, (dict, list, tuple)):
        text = json.dumps(jsonable(x), default=str)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return str(x)


def render_evidence(claim: Claim, ev: Evidence, title: str | None = None) -> str:
    """The claim, the verdict against the recorded one, and the evidence, as prose."""
    lines = [title or f"Claim {claim.id} ({claim.paper}, {claim.where})",
             f"  Statement: {claim.statement}",
             f"  Verdict: {ev.verdict.words} (recorded: {claim.recorded.words})",
             f"  Measured: {short(ev.measured)}",
             f"  Expected: {short(ev.expected)}"]
    if ev.margin is not None:
        lines.append(f"  Margin: {short(ev.margin)} ({ev.margin_unit})")
    lines += [f"  Method: {ev.method}", f"  Resolution: {short(ev.resolution)}"]
    if ev.informative is False:
        lines.append("  Informative: no (the check could not have failed here)")
    if ev.sampling:
        s = ev.sampling
        lines.append(f"  Sampling: look {s['looks']} of {s['planned_looks']}, {s['replicates_per_row']} replicates per row "
                     f"({s['blocks']} of {s['budget_blocks']} blocks), alpha {s['alpha_per_look']:.1e} per look, "
                     f"stopped: {s['stopped']}")
    if ev.counterexample is not None:
        lines.append(f"  Counterexample: {short(ev.counterexample)}")
    if ev.settle:
        lines.append(f"  To settle: {ev.settle}")
    if claim.corrects:
        lines.append(f"  Corrects: {claim.corrects}")
    lines.append(f"  Rerun: {claim.rerun}")
    return "\n".join(lines)


def one_line(claim: Claim, ev: Evidence) -> str:
    """Where, measured vs expected, in one line (terminal summaries)."""
    return f"{claim.id} ({claim.where}): measured {short(ev.measured, 120)}; printed {short(ev.expected, 80)}"
