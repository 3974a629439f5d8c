"""paper_checks.md (for reviewers) and paper_checks.json (for machines), generated
from the catalogue: every number in them comes from running the checks.

``write_report`` evaluates every claim; ``paper=KEY`` or ``claim_ids=[...]`` evaluates
only those and merges them into the existing JSON (valid because each claim's alpha
is fixed: no other claim's numbers move), which must come from the same settings.
``render_report`` evaluates nothing: it rewrites paper_checks.md from the existing JSON
and calibration.json (after a calibration run), leaving the JSON, its provenance and the
evidence plots as they are.
"""
from __future__ import annotations

import json
from pathlib import Path

from simulations.core.provenance import git_state

from ..core import RunContext
from ..core.notes import NoteFieldError
from ..core.registry import claims, get, paper as paper_of
from .markdown import render_markdown
from .plots import plot_path, write_plots
from .records import provenance, run_records

__all__ = ["write_report", "render_report", "rendered_markdown", "render_markdown", "load_report", "ReportError",
           "PartialRefreshError", "NoteFieldError", "REPORT_JSON", "REPORT_MD", "PARTIAL_JSON", "CALIBRATION_JSON"]


class ReportError(ValueError):
    """The report files in a directory cannot serve the request (none there to render)."""


class PartialRefreshError(ReportError):
    """A partial refresh (``--paper``/``--claim``) that the existing report cannot take."""

REPORT_JSON, REPORT_MD = "paper_checks.json", "paper_checks.md"
#: Where a run that stops on unfillable note fields leaves its records (git-ignored).
PARTIAL_JSON = "paper_checks.partial.json"
CALIBRATION_JSON = "calibration.json"


def load_report(root) -> dict:
    return json.loads((Path(root) / REPORT_JSON).read_text())


def _calibration_lines(root: Path, records: list) -> list:
    path = root / CALIBRATION_JSON
    if not path.exists():
        return ["## Calibration", "", f"Not measured yet: run `python -m theory calibrate` (writes {CALIBRATION_JSON}).", ""]
    from ..calibration.render import render_calibration

    return render_calibration(json.loads(path.read_text()))


def write_report(root: Path | str = ".", ctx: RunContext | None = None, paper: str | None = None,
                 claim_ids=None, progress: bool = True, plots: bool = True) -> list:
    """Evaluate the catalogue (or one paper, or some claims) and write the report."""
    ctx = ctx or RunContext()
    root = Path(root)
    start = git_state()
    if paper is None and not claim_ids:
        chosen = list(claims())
        old = []
    else:
        chosen = list(paper_of(paper).claims) if paper else [get(i) for i in claim_ids]
        if not (root / REPORT_JSON).exists():
            raise PartialRefreshError(f"no {REPORT_JSON} in {root} to merge into: run a full report first")
        old_data = load_report(root)
        if old_data["context"] != ctx.to_json():
            raise PartialRefreshError(f"the settings must match the existing report's {old_data['context']} for a "
                                      f"partial refresh, got {ctx.to_json()}: run a full report")
        old = old_data["claims"]
        have = {r["id"] for r in old} | {c.id for c in chosen}
        missing = [c.id for c in claims() if c.id not in have]
        if missing:
            raise PartialRefreshError(f"the existing report lacks {len(missing)} claims (first: {missing[0]}): "
                                      "run a full report")
    fresh = {r["id"]: r for r in run_records(chosen, ctx, progress, partial=root / PARTIAL_JSON)}
    kept = {r["id"]: r for r in old}
    records = [fresh.get(c.id) or kept.get(c.id) for c in claims()]
    data = {"provenance": provenance(start), "context": ctx.to_json(), "claims": records}
    (root / REPORT_JSON).write_text(json.dumps(data, indent=1) + "\n")
    figure_paths = write_plots(records if plots else [], root) if plots else {}
    (root / REPORT_MD).write_text(render_markdown(data, figure_paths, _calibration_lines(root, records)))
    return records


def rendered_markdown(root: Path | str = ".") -> str:
    """paper_checks.md as the existing paper_checks.json and calibration.json in ``root``
    render it (the evidence plots that exist are linked), evaluating nothing."""
    return _render(Path(root))[0]


def render_report(root: Path | str = ".") -> list:
    """Rewrite paper_checks.md from the existing paper_checks.json and calibration.json
    (:func:`rendered_markdown`): the JSON (and the commit it names), the evidence plots
    and every number stay as the run that made them left them. Returns the records."""
    text, records = _render(Path(root))
    (Path(root) / REPORT_MD).write_text(text)
    return records


def _render(root: Path) -> tuple:
    if not (root / REPORT_JSON).exists():
        raise ReportError(f"no {REPORT_JSON} in {root} to render: run a full report first")
    data = load_report(root)
    records = data["claims"]
    plots = {r["id"]: plot_path(r["id"]).as_posix() for r in records
             if r.get("plot") and (root / plot_path(r["id"])).exists()}
    return render_markdown(data, plots, _calibration_lines(root, records)), records
