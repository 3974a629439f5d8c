"""Evaluate claims into JSON records, with the provenance of the run.

Every number of the report comes from here: nothing is typed by hand.
"""
from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from simulations.core.provenance import provenance

from ..core import RunContext, evaluate, jsonable
from ..core.claims import Claim
from ..core.notes import NoteFieldError, fill_note
from ..core.render import declaration

__all__ = ["record", "run_records", "provenance", "package_provenance", "merge_reruns", "with_declarations",
           "DECLARED"]

#: What a record takes from the catalogue's declaration beside the evidence (a record
#: written before one of these existed takes it from the catalogue when rendered).
DECLARED = ("severity", "impact", "cites", "mutations")


def record(claim: Claim, ctx: RunContext) -> dict:
    """One claim evaluated: its declaration and the evidence, as JSON (the note filled
    from the evidence, :mod:`theory.core.notes`; where it cannot be, an empty note and
    ``note_error``)."""
    t0 = time.perf_counter()
    ev = evaluate(claim, ctx)
    evidence = ev.to_json()
    try:
        note = {"note": fill_note(claim.note, evidence, claim.id)}
    except NoteFieldError as exc:
        note = {"note": "", "note_error": str(exc)}
    declared = declaration(claim)
    return {**{k: declared[k] for k in ("id", "paper", "where", "statement", "kind")}, "verdict": ev.verdict.value,
            **{k: v for k, v in declared.items() if k not in ("id", "paper", "where", "statement", "kind", "rerun")},
            **note, "rerun": claim.rerun, "seconds": round(time.perf_counter() - t0, 2), "evidence": evidence,
            "plot": jsonable(ev.plot)}


def _git(folder: Path, *args) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def package_state(source: str | None) -> dict:
    """{"commit", "dirty"} of the git checkout that holds the package folder ``source``
    (dirty: tracked files under the folder that holds the package differ from the commit,
    or the package has untracked files); both None when the package is not in a git
    checkout (an installed copy, a folder git ignores, such as a virtual environment
    inside another repository)."""
    none = {"commit": None, "dirty": None}
    if not source:
        return none
    pkg = Path(source)
    commit = _git(pkg, "rev-parse", "HEAD")
    if commit is None or _git(pkg, "check-ignore", "-q", ".") is not None:
        return none  # not in a checkout, or in one that ignores it (a venv's site-packages)
    status = _git(pkg.parent, "status", "--porcelain", "--untracked-files=no", "--", ".")
    untracked = _git(pkg, "ls-files", "--others", "--exclude-standard", "--", ".")
    return {"commit": commit, "dirty": None if status is None or untracked is None else bool(status or untracked)}


def package_provenance(keys) -> list:
    """The provenance of each installed paper among ``keys`` (paper key order), recorded
    beside paperchecks' own: its distribution's name and version and, where its source
    is a git checkout, the commit and dirty flag (:func:`package_state`); [] for the
    built-in papers, which are paperchecks' own code."""
    from ..core.registry import distribution

    out = []
    for key in sorted(set(keys)):
        d = distribution(key)
        if d is not None:
            out.append({"paper": key, "distribution": d["distribution"], "version": d["version"],
                        **package_state(d["source"])})
    return out


def with_declarations(records: list) -> list:
    """``records`` with the declared fields (:data:`DECLARED`) a record lacks taken from
    the catalogue's claim of the same id (a report written before they existed); a claim
    no longer in the catalogue keeps its record as it is."""
    from ..core.registry import claims

    live = {c.id: c for c in claims()}
    out = []
    for r in records:
        missing = [k for k in DECLARED if k not in r]
        if missing and r["id"] in live:
            declared = declaration(live[r["id"]])
            r = {**r, **{k: declared[k] for k in missing}}
        out.append(r)
    return out


def merge_reruns(reruns: list, prov: dict, paper: str | None, ids) -> list:
    """The reruns of a report after one more partial run (``--paper`` or ``--claim``) of
    the claims ``ids`` at provenance ``prov``: each earlier rerun keeps only the claims
    this one did not rerun (one left with none is dropped; a paper's rerun that lost some
    of its claims is no longer the whole paper's), and this one is added. The report's own
    ``provenance`` stays that of its last whole run, so each paper keeps its commit.

    >>> old = merge_reruns([], {"commit": "a"}, "p", ["p.x", "p.y"])
    >>> merge_reruns(old, {"commit": "b"}, None, ["p.y"])
    [{'provenance': {'commit': 'a'}, 'paper': None, 'claims': ['p.x']}, {'provenance': {'commit': 'b'}, 'paper': None, \
'claims': ['p.y']}]
    """
    ids = list(ids)
    again = set(ids)
    out = []
    for r in reruns:
        left = [i for i in r["claims"] if i not in again]
        if left:
            out.append({**r, "paper": r["paper"] if len(left) == len(r["claims"]) else None, "claims": left})
    return out + [{"provenance": prov, "paper": paper, "claims": ids}]


def run_records(claims, ctx: RunContext, progress: bool = True, partial: Path | None = None) -> list:
    """Evaluate ``claims`` in order (progress bar with ``progress``, on a terminal only:
    tqdm's ``disable=None``, so a log gets no carriage-return updates). A note whose fields
    the evidence cannot fill stops the report, but only after every claim has run, with
    every such field listed and (``partial``) the records written there to read the
    evidence the fields should name."""
    from tqdm import tqdm

    out = [record(c, ctx) for c in tqdm(list(claims), desc="claims", disable=None if progress else True)]
    unfilled = [r["note_error"] for r in out if "note_error" in r]
    if unfilled:
        if partial is not None:
            partial.write_text(json.dumps({"claims": out}, indent=1) + "\n")
        raise NoteFieldError("notes whose fields this run's evidence cannot fill (no report written"
                             + (f"; the records are in {partial}" if partial is not None else "") + "):\n"
                             + "\n".join(unfilled))
    return out
