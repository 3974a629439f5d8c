"""paper_checks.md and paper_checks.html (for reviewers) and paper_checks.json (for
machines), generated from the catalogue: every number in them comes from running the
checks.

``write_report`` evaluates every claim of the built-in papers; ``paper=KEY`` or
``claim_ids=[...]`` evaluates only those and merges them into the existing JSON (valid
because each claim's alpha is fixed: no other claim's numbers move), which must come
from the same settings; the JSON then records the commit of that run for the claims it
reran (``reruns``) and keeps the commit of the last whole run (``provenance``) for the
others. A paper reported into a directory without a report gets a report of its own
(how an installed paper is reported).
``render_report`` evaluates nothing: it rewrites paper_checks.md and paper_checks.html
from the existing JSON and calibration.json (after a calibration run), leaving the JSON,
its provenance and the evidence plots as they are.
"""
from __future__ import annotations

import json
from pathlib import Path

from simulations.core.provenance import git_state

from ..core import RunContext
from ..core.notes import NoteFieldError
from ..core.registry import claims, get
from ..core.registry import paper as paper_of
from .calibration import render_calibration
from .html import render_html
from .markdown import CALIBRATION_DOCS, installed_only, render_markdown
from .plots import plot_path, write_plots
from .records import merge_reruns, package_provenance, provenance, run_records, with_declarations

__all__ = ["write_report", "render_report", "rendered_markdown", "rendered_html", "render_markdown", "render_html",
           "load_report", "ReportError", "PartialRefreshError", "NoteFieldError", "REPORT_JSON", "REPORT_MD",
           "REPORT_HTML", "PARTIAL_JSON", "CALIBRATION_JSON"]


class ReportError(ValueError):
    """The report files in a directory cannot serve the request (none there to render)."""


class PartialRefreshError(ReportError):
    """A partial refresh (``--paper``/``--claim``) that the existing report cannot take."""

REPORT_JSON, REPORT_MD, REPORT_HTML = "paper_checks.json", "paper_checks.md", "paper_checks.html"
#: Where a run that stops on unfillable note fields leaves its records (git-ignored).
PARTIAL_JSON = "paper_checks.partial.json"
CALIBRATION_JSON = "calibration.json"


def load_report(root) -> dict:
    return json.loads((Path(root) / REPORT_JSON).read_text())


def _calibration(root: Path, data: dict) -> tuple:
    """calibration.json in ``root`` (None when there is none) and the lines of the
    report's Calibration section (for installed papers alone, where the suite's is)."""
    path = root / CALIBRATION_JSON
    if not path.exists() and installed_only(data):
        return None, ["## Calibration", "",
                      "Not part of this report: the judges and sequential tests it uses are the paperchecks "
                      "suite's, and their false-alarm rates and resolution, measured on synthetic data with known "
                      f"truth, are in the paperchecks repository (`{CALIBRATION_DOCS}`).", ""]
    if not path.exists():
        return None, ["## Calibration", "",
                      f"Not measured yet: run `python -m theory calibrate` (writes {CALIBRATION_JSON}).", ""]
    data = json.loads(path.read_text())
    return data, render_calibration(data)


def _write(root: Path, data: dict, plots: dict) -> None:
    """paper_checks.md and paper_checks.html from the JSON ``data`` and the plots there."""
    data = {**data, "claims": with_declarations(data["claims"])}
    calibration, lines = _calibration(root, data)
    (root / REPORT_MD).write_text(render_markdown(data, plots, lines, calibration))
    (root / REPORT_HTML).write_text(render_html(data, plots, root, calibration))


def write_report(root: Path | str = ".", ctx: RunContext | None = None, paper: str | None = None,
                 claim_ids=None, progress: bool = True, plots: bool = True) -> list:
    """Evaluate the catalogue (or one paper, or some claims) and write the report."""
    ctx = ctx or RunContext()
    root = Path(root)
    start = git_state()
    old_data = None
    if paper is None and not claim_ids:
        chosen = list(claims(builtin_only=True))  # the suite's catalogue; an installed paper is reported by --paper
        old = []
    elif paper and not (root / REPORT_JSON).exists():
        chosen, old = list(paper_of(paper).claims), []  # a report of this paper alone (an installed paper's)
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
        scope = {r["paper"] for r in old} | {c.paper for c in chosen}
        missing = [c.id for c in claims() if c.paper in scope and c.id not in have]
        if missing:
            raise PartialRefreshError(f"the existing report lacks {len(missing)} claims (first: {missing[0]}): "
                                      "run a full report")
    root.mkdir(parents=True, exist_ok=True)
    packages = package_provenance(c.paper for c in chosen)  # installed papers: their package beside paperchecks
    fresh = {r["id"]: r for r in run_records(chosen, ctx, progress, partial=root / PARTIAL_JSON)}
    prov = {**provenance(start), **({"papers": packages} if packages else {})}
    kept = {r["id"]: r for r in old}
    records = [fresh.get(c.id) or kept.get(c.id) for c in claims() if c.id in fresh or c.id in kept]
    if old_data is None:
        data = {"provenance": prov, "context": ctx.to_json(), "claims": records}
    else:  # a partial run: its commit for the claims it reran, the others keep theirs
        live = {c.id for c in claims()}
        reruns = [{**r, "claims": [i for i in r["claims"] if i in live]} for r in old_data.get("reruns", [])]
        data = {"provenance": old_data["provenance"], "context": ctx.to_json(), "claims": records,
                "reruns": merge_reruns([r for r in reruns if r["claims"]], prov, paper,
                                       [c.id for c in chosen])}
    (root / REPORT_JSON).write_text(json.dumps(data, indent=1) + "\n")
    figure_paths = write_plots(records if plots else [], root) if plots else {}
    _write(root, data, figure_paths)
    return records


def rendered_markdown(root: Path | str = ".") -> str:
    """paper_checks.md as the existing paper_checks.json and calibration.json in ``root``
    render it (the evidence plots that exist are shown), evaluating nothing."""
    root = Path(root)
    data, plots = _existing(root)
    data = {**data, "claims": with_declarations(data["claims"])}
    calibration, lines = _calibration(root, data)
    return render_markdown(data, plots, lines, calibration)


def rendered_html(root: Path | str = ".") -> str:
    """paper_checks.html as the existing files in ``root`` render it, evaluating nothing."""
    root = Path(root)
    data, plots = _existing(root)
    data = {**data, "claims": with_declarations(data["claims"])}
    return render_html(data, plots, root, _calibration(root, data)[0])


def render_report(root: Path | str = ".") -> list:
    """Rewrite paper_checks.md and paper_checks.html from the existing paper_checks.json,
    calibration.json and evidence plots: the JSON (and the commits it names), the plots
    and every number stay as the run that made them left them. Returns the records."""
    root = Path(root)
    data, plots = _existing(root)
    _write(root, data, plots)
    return data["claims"]


def _existing(root: Path) -> tuple:
    """The report's JSON in ``root`` and its evidence plots there ({claim id: path})."""
    if not (root / REPORT_JSON).exists():
        raise ReportError(f"no {REPORT_JSON} in {root} to render: run a full report first")
    data = load_report(root)
    plots = {r["id"]: plot_path(r["id"]).as_posix() for r in data["claims"]
             if r.get("plot") and (root / plot_path(r["id"])).exists()}
    return data, plots
