"""paper_checks.md (theory/report/markdown.py): findings first, grouped by severity with
wording and stand-in failures after the errors of the paper, one readable line each
linked to its claim; papers cited by their public reference, not a local path; the
evidence plots shown inline; calibration and provenance summarised at the top and
detailed in the appendix; a true step that does not follow never shows as sound."""
import json
import re
from pathlib import Path

from theory.core.registry import papers
from theory.report.markdown import anchor, calibration_summary, render_markdown
from theory.report.records import with_declarations

ROOT = Path(__file__).resolve().parents[3]


def _data():
    data = json.loads((ROOT / "paper_checks.json").read_text())
    return {**data, "claims": with_declarations(data["claims"])}


def _classified(data, classes):
    """``data`` with the first failing claims of arpit2019 given the ``classes``."""
    failing = [r for r in data["claims"] if r["paper"] == "arpit2019" and r["verdict"] == "fails"]
    for r, sev in zip(failing, classes):
        r["severity"], r["impact"] = sev, f"a {sev} of the paper"
    return [r["id"] for r in failing[:len(classes)]]


def test_findings_come_first_grouped_by_severity_errors_before_the_rest():
    data = _data()
    ids = _classified(data, ["wording", "stand-in", "misprint", "result", "step"])
    md = render_markdown(data, {}, ["## Calibration", ""], None)
    headings = [h for h in re.findall(r"^#+ .*$", md, re.M)]
    assert headings[:3] == ["# Paper checks", "## Summary", "## Findings"]
    arpit = md[md.index("### Arpit"):md.index("### Daneshmand")]
    order = [arpit.index(f"#### {t}") for t in ("Wrong results", "Proof steps", "Misprints", "Wording", "Stand-in")]
    assert order == sorted(order)
    line = next(x for x in arpit.splitlines() if x.startswith(f"- [`{ids[3]}`](#{anchor(ids[3])})"))
    assert ": a result of the paper. Measured " in line and "{" not in line
    assert md.index("## Findings") < md.index('<a id="arpit2019">') < md.index("## Appendix A") < \
        md.index("## Calibration")


def test_the_summary_says_the_run_and_the_calibration_in_two_lines():
    md = (ROOT / "paper_checks.md").read_text()
    top = md[:md.index("## Summary")]
    assert top.count("\nRun: ") == 1 and top.count("\nCalibration: ") == 1
    assert "Measured at" not in top and len(top.splitlines()) < 10
    assert calibration_summary(None).startswith("Calibration: not measured yet")


def test_papers_are_cited_by_their_public_reference_not_a_path():
    md = (ROOT / "paper_checks.md").read_text()
    assert "../shared/papers" not in md and ".txt" not in md
    for p in papers():
        assert p.url.startswith("https://") and f"[{p.reference}]({p.url})" in md
    assert "arXiv:1906.02341" in md and "arXiv:2106.03970" in md and "arXiv:1901.09321" in md


def test_evidence_plots_are_images_and_every_claim_links_resolve():
    md = (ROOT / "paper_checks.md").read_text()
    data = json.loads((ROOT / "paper_checks.json").read_text())
    with_plots = [r["id"] for r in data["claims"] if r.get("plot")]
    for cid in with_plots:
        assert f"![Evidence plot of {cid}](figures/evidence/{cid}.png)" in md
    targets = set(re.findall(r"\]\(#([^)]+)\)", md))
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
             for h in re.findall(r"^#+ (.*)$", md, re.M)} | set(re.findall(r'<a id="([^"]+)">', md))
    assert targets - slugs == set()


def test_a_true_step_that_does_not_follow_is_a_finding_and_not_sound_in_the_coverage_map():
    data = _data()
    rec = next(r for r in data["claims"] if r["id"] == "arpit2019.thm8.proof.eq59_corrected")
    rec["evidence"]["follows"] = {"cites": ["Eq. 56", "Eq. 58"], "follows": False, "why": "two errors cancel"}
    rec["severity"], rec["impact"] = "step", "the conclusion survives"
    md = render_markdown(data, {}, [], None)
    findings = md[md.index("## Findings"):md.index('<a id="arpit2019">')]
    assert "arpit2019.thm8.proof.eq59_corrected" in findings and "true; does not follow from Eq. 56, Eq. 58" in findings
    rows = [x for x in md.splitlines() if x.startswith("| ") and "(#arpit2019thm8proofeq59_corrected) (" in x]
    assert rows and all("true, does not follow (step)" in x for x in rows)
