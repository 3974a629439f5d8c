"""Report records: a claim's note is filled from its own evidence; a note the evidence
cannot fill stops the report after every claim has run, naming every such note."""
import json

import pytest

from theory.core import Claim, RunContext, Verdict
from theory.core.notes import NoteFieldError
from theory.judges import judge_exact
from theory.report.records import record, run_records

RAN = []


def _measure(ctx):
    return {"value": 0.123456}


def _judge(m, ctx):  # called once per claim (the measurement is cached)
    RAN.append(1)
    return judge_exact([{"label": "value", "ok": True, "measured": {"value": m["value"]}, "expected": "any",
                         "largest": m["value"]}], "test", "exact")


def _claim(cid, note):
    return Claim(id=cid, where="w", statement="s", kind="identity", recorded=Verdict.HOLDS, measure=_measure,
                 judge=_judge, note=note)


def test_record_fills_the_note_from_its_evidence():
    r = record(_claim("p.filled", lambda ev: f"value {ev['measured']['value']:.3f}, largest "
                                             f"{max(d['largest'] for d in ev['details']):.2g}"), RunContext())
    assert r["note"] == "value 0.123, largest 0.12" and r["evidence"]["measured"] == {"value": 0.123456}


def test_unfillable_notes_stop_the_report_after_every_claim_ran_and_name_every_field(tmp_path):
    RAN.clear()
    claims = [_claim("p.a", lambda ev: f"{ev['measured']['missing']}"),
              _claim("p.b", lambda ev: f"fine {ev['measured']['value']}"),
              _claim("p.c", lambda ev: f"{next(d['absent'] for d in ev['details'] if 'absent' in d):.2f}")]
    partial = tmp_path / "partial.json"
    with pytest.raises(NoteFieldError) as err:
        run_records(claims, RunContext(), progress=False, partial=partial)
    assert len(RAN) == 3
    text = str(err.value)
    assert "p.a" in text and "KeyError('missing')" in text and "p.c" in text and "p.b" not in text
    assert str(partial) in text
    kept = {r["id"]: r for r in json.loads(partial.read_text())["claims"]}
    assert kept["p.b"]["note"] == "fine 0.123456" and "note_error" in kept["p.a"]
    assert kept["p.a"]["note"] == "" and kept["p.a"]["evidence"]["measured"] == {"value": 0.123456}


def test_a_report_records_the_commit_it_started_at(tmp_path, monkeypatch):
    """write_report takes the code's state before evaluating: a commit of code landing
    meanwhile leaves the starting commit in the report's provenance, marked dirty. A
    partial run records it for the claims it reran alone; the others keep the commit of
    the last whole run."""
    from pathlib import Path

    from tests.support.moving_git import START, moving_git_state
    from theory.report import write_report

    root = Path(__file__).resolve().parents[3]
    (tmp_path / "paper_checks.json").write_bytes((root / "paper_checks.json").read_bytes())
    before = json.loads((root / "paper_checks.json").read_text())["provenance"]
    moving_git_state(monkeypatch)
    write_report(tmp_path, claim_ids=["arpit2019.thm3.range"], progress=False, plots=False)
    got = json.loads((tmp_path / "paper_checks.json").read_text())
    assert got["provenance"] == before
    [rerun] = got["reruns"]
    assert rerun["claims"] == ["arpit2019.thm3.range"] and rerun["paper"] is None
    assert (rerun["provenance"]["commit"], rerun["provenance"]["dirty"]) == (START["commit"], True)
    md = (tmp_path / "paper_checks.md").read_text()
    assert f"rerun alone at commit {START['commit'][:10]} (with uncommitted changes): `arpit2019.thm3.range`" in md
    assert (tmp_path / "paper_checks.html").exists()


def test_a_paper_merge_keeps_the_other_papers_commits(tmp_path, monkeypatch):
    """``--paper`` reruns record their commit for that paper alone: a later claim rerun
    takes its claim out of the paper's rerun (no longer the whole paper), and rerunning
    a paper again replaces its rerun; other papers' commits are untouched."""
    import theory.report as report
    from theory.report import write_report

    ids = {"p1": ["daneshmand2021.eq1.unit_frobenius", "daneshmand2021.a1.alpha_le_inv_sqrt_n"]}
    real = report.paper_of

    class _Paper:  # a paper's rerun without running all of its Monte-Carlo claims
        def __init__(self, key):
            from theory.core.registry import get

            self.claims = tuple(get(i) for i in ids["p1"]) if key == "daneshmand2021" else real(key).claims

    monkeypatch.setattr(report, "paper_of", _Paper)
    commits = iter(["1" * 40, "2" * 40, "3" * 40])
    monkeypatch.setattr(report, "git_state", lambda: {"commit": next(commits), "dirty": False})
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    (tmp_path / "paper_checks.json").write_bytes((root / "paper_checks.json").read_bytes())
    write_report(tmp_path, paper="daneshmand2021", progress=False, plots=False)
    write_report(tmp_path, claim_ids=["daneshmand2021.eq1.unit_frobenius"], progress=False, plots=False)
    got = json.loads((tmp_path / "paper_checks.json").read_text())
    assert [(r["provenance"]["commit"][0], r["paper"], r["claims"]) for r in got["reruns"]] == [
        ("1", None, ["daneshmand2021.a1.alpha_le_inv_sqrt_n"]), ("2", None, ["daneshmand2021.eq1.unit_frobenius"])]
    write_report(tmp_path, paper="daneshmand2021", progress=False, plots=False)
    got = json.loads((tmp_path / "paper_checks.json").read_text())
    assert [(r["provenance"]["commit"][0], r["paper"]) for r in got["reruns"]] == [("3", "daneshmand2021")]
    assert got["provenance"] == json.loads((root / "paper_checks.json").read_text())["provenance"]
    md = (tmp_path / "paper_checks.md").read_text()
    assert "rerun alone at commit 3333333333: the whole paper" in md
    arpit = md[md.index('<a id="arpit2019">'):md.index('<a id="daneshmand2021">')]
    assert "rerun alone" not in arpit


def test_records_carry_their_declarations_and_old_records_take_them_from_the_catalogue():
    from theory.core.registry import get
    from theory.report.records import DECLARED, with_declarations

    claim = get("arpit2019.thm8.eq60_corrected")
    r = record(claim, RunContext()) if not claim.monte_carlo else None
    old = {"id": claim.id, "verdict": "holds"}
    [filled] = with_declarations([old])
    assert all(k in filled for k in DECLARED) and filled["mutations"][0]["name"] == claim.mutations[0].name
    assert r is None  # a Monte-Carlo claim: its record is checked through the committed-report tests
    exact = record(_claim("p.exact", ""), RunContext())
    assert all(k in exact for k in DECLARED) and exact["severity"] is None and exact["mutations"] == []


def test_progress_bars_stay_out_of_logs(capsys):
    """Progress bars show on a terminal only (tqdm's disable=None): a report whose output
    is a log (here: captured, not a terminal) gets no progress updates."""
    run_records([_claim("t.quiet", "")], RunContext(), progress=True)
    assert capsys.readouterr().err == ""


def test_every_progress_bar_of_the_project_is_for_terminals_only():
    """Every tqdm bar of the code passes disable=None (or disables itself by a caller's
    switch, ``None if progress else True``)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    calls = [(path.relative_to(root).as_posix(), m.group(0)) for pkg in ("theory", "simulations")
             for path in sorted((root / pkg).rglob("*.py"))
             for m in re.finditer(r"\btqdm\((?:[^()]|\([^()]*\))*\)", path.read_text())]
    assert calls
    bad = [(p, c) for p, c in calls if "disable=None" not in c]
    assert bad == []
