"""Report records: a claim's note is filled from its own evidence; a note the evidence
cannot fill stops the report after every claim has run, naming every such field."""
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
    r = record(_claim("p.filled", "value {=measured.value:.3f}, largest {=max details[*].largest:.2g}"), RunContext())
    assert r["note"] == "value 0.123, largest 0.12" and r["evidence"]["measured"] == {"value": 0.123456}


def test_unfillable_notes_stop_the_report_after_every_claim_ran_and_name_every_field(tmp_path):
    RAN.clear()
    claims = [_claim("p.a", "{=measured.missing}"), _claim("p.b", "fine {=measured.value}"),
              _claim("p.c", "{=details[*].absent:.2f}")]
    partial = tmp_path / "partial.json"
    with pytest.raises(NoteFieldError) as err:
        run_records(claims, RunContext(), progress=False, partial=partial)
    assert len(RAN) == 3
    text = str(err.value)
    assert "p.a" in text and "{=measured.missing}" in text and "p.c" in text and "p.b" not in text
    assert str(partial) in text
    kept = {r["id"]: r for r in json.loads(partial.read_text())["claims"]}
    assert kept["p.b"]["note"] == "fine 0.123456" and "note_error" in kept["p.a"]
    assert kept["p.a"]["note"] == "{=measured.missing}" and kept["p.a"]["evidence"]["measured"] == {"value": 0.123456}


def test_a_report_records_the_commit_it_started_at(tmp_path, monkeypatch):
    """write_report takes the code's state before evaluating: a commit of code landing
    meanwhile leaves the starting commit in the report's provenance, marked dirty."""
    from pathlib import Path

    from theory.report import write_report
    from tests.support.moving_git import START, moving_git_state

    root = Path(__file__).resolve().parents[3]
    (tmp_path / "paper_checks.json").write_bytes((root / "paper_checks.json").read_bytes())
    moving_git_state(monkeypatch)
    write_report(tmp_path, claim_ids=["arpit2019.thm3.range"], progress=False, plots=False)
    got = json.loads((tmp_path / "paper_checks.json").read_text())["provenance"]
    assert (got["commit"], got["dirty"]) == (START["commit"], True)
