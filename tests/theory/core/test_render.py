"""The evidence renderer (theory/core/render.py, theory/core/prose.py): every kind of
check in the committed report reads as words, with numbers at 4 significant digits,
never a raw dict and never a number cut; the new evidence fields (tightness, follows)
and the declared ones (severity, mutations) render, and records without them too."""
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.core import Claim, Evidence, Mutation, Verdict
from theory.core.prose import num, phrase, tidy, value
from theory.core.render import (
    as_record,
    evidence_lines,
    findings,
    mutation_summary,
    record_line,
    render_evidence,
    verdict_text,
)

ROOT = Path(__file__).resolve().parents[3]
RECORDS = json.loads((ROOT / "paper_checks.json").read_text())["claims"]
#: A decimal number in a text (what must carry at most 4 significant digits).
DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e-?\d+)?(?!\.?\d)")


def _significant(text: str) -> int:
    return len(re.sub(r"e.*$", "", text).replace("-", "").replace(".", "").lstrip("0"))


def _raw_dict(text: str) -> bool:
    return bool(re.search(r"\{\s*['\"]", text)) or "': " in text or '": ' in text


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r["id"])
def test_every_committed_record_reads_as_words(rec):
    line = record_line(rec)
    measured_etc = line[len(rec["id"]) + len(rec["where"]) + 4:]
    assert not _raw_dict(line), line
    assert [d for d in DECIMAL.findall(measured_etc) if _significant(d) > 4] == [], line
    lines = evidence_lines(rec, rows=True)  # the method is the judge's own sentence, shown as written
    assert not [label for label, text in lines if label != "Method" and _raw_dict(text)]


def test_the_issue_s_example_reads_as_the_referee_wants():
    rec = next(r for r in RECORDS if r["id"] == "arpit2019.thm8.eq60")
    lo, hi = rec["evidence"]["measured"]["interval"]  # its width follows the claim's alpha
    assert re.fullmatch(r"1\.49\d", num(lo)) and re.fullmatch(r"1\.5[01]\d", num(hi))
    assert record_line(rec) == (
        f"arpit2019.thm8.eq60 (App. C, proof of Theorem 8, Eq. 60): measured 1.502 (interval {num(lo)} to {num(hi)} "
        "at the claim's alpha, 16,000 replicates) at init=proposed_orthogonal, B=2; printed 2 (band 1.96 to 2.04)")
    assert json.dumps(rec["evidence"]["measured"]["mean"]) == "1.5018735317657004"  # the JSON keeps full precision


@pytest.mark.parametrize("x,text", [
    (16000, "16,000"), (0.0001234567, "0.0001235"), (123456.7, "123,500"), (-2.5e-9, "-2.5e-9"), (9.99996, "10"),
    (float("nan"), "NaN"), ("-inf", "minus infinity"), (1e300, "1e300"), (10**20, "1e20"), (0.5, "0.5")])
def test_numbers_at_four_significant_digits(x, text):
    assert num(x) == text


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text("abcdefgh_", min_size=1, max_size=8),
                       st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=12),
       st.integers(10, 120))
def test_a_clipped_phrase_never_cuts_a_number(row, limit):
    """Every number of a phrase cut to ``limit`` characters is a whole number of the uncut
    phrase: the cut falls between phrases, never inside one."""
    number = r"-?\d+(?:,\d{3})*(?:\.\d+)?(?:e-?\d+)?"
    whole = set(re.findall(number, phrase(row, limit=None)))
    cut = phrase(row, limit=limit)
    assert set(re.findall(number, cut)) <= whole | {"1", "2", "3", "4", "5", "6", "7", "8", "9",
                                                                      "10", "11"}  # "and N more"


def test_texts_round_long_decimals_and_keep_the_rest():
    assert tidy("E[V] <= 0.1447213595 (Sec. 3.2, n in 2..1000000)") == "E[V] <= 0.1447 (Sec. 3.2, n in 2..1000000)"
    assert value({"two_values": [1, 2], "nested": {"x_value": 0.123456, "K_n": 2.0}}) == \
        "two values (1, 2), nested (x_value = 0.1235, K_n = 2)"


def _record(**evidence):
    ev = {"verdict": "holds", "measured": 0.5, "expected": "E[X] <= 1", "method": "m", "resolution": "r",
          "margin": None, "margin_unit": "", "counterexample": None, **evidence}
    return {"id": "p.c", "where": "Eq. 1", "verdict": ev["verdict"], "recorded_verdict": ev["verdict"],
            "evidence": ev, "monte_carlo": False}


def test_a_loose_bound_says_so_in_its_verdict_and_every_bound_gives_its_factor():
    loose = _record(tightness={"factor": 12.5, "gap": 1.15, "loose": True, "row": {"depth": 3}})
    assert verdict_text(loose) == "holds, loose: the bound is 12.5 times the data's upper limit at depth=3"
    tight = _record(tightness={"factor": 1.2, "gap": 0.1, "loose": False, "row": {"depth": 3}})
    assert verdict_text(tight) == "holds (tightness 1.2: the bound is 1.2 times the data's upper limit at depth=3)"
    lower = _record(expected="E[X] >= 1", tightness={"factor": 3.0, "gap": 2.0, "loose": True, "row": None})
    assert verdict_text(lower) == "holds, loose: the data's lower limit is 3 times the bound"
    assert dict(evidence_lines(loose))["Tightness"].startswith("loose: the bound is 12.5 times")
    assert dict(evidence_lines(loose))["Verdict"] == "holds, loose (factor 12.5) (recorded: holds)"
    assert "loose" in record_line(loose)


def test_a_true_step_that_does_not_follow_says_which_steps():
    rec = _record(follows={"cites": ["Eq. 56", "Eq. 59"], "follows": False, "why": "the two errors cancel"})
    assert verdict_text(rec) == "true; does not follow from Eq. 56, Eq. 59: the two errors cancel"
    rec["severity"], rec["impact"] = "step", "the conclusion survives"
    assert [r["id"] for r in findings([rec])["step"]] == ["p.c"]
    fine = _record(follows={"cites": ["Eq. 1"], "follows": True, "why": "by sympy"})
    assert verdict_text(fine) == "holds" and dict(evidence_lines(fine))["Derivation"] == "follows from Eq. 1: by sympy"


def test_records_without_the_new_fields_render():
    old = _record()
    for key in ("tightness", "follows"):
        old["evidence"].pop(key, None)
    assert verdict_text(old) == "holds" and mutation_summary(old) is None
    labels = [label for label, _ in evidence_lines(old)]
    assert "Severity" not in labels and "Mutations" not in labels
    assert list(findings([{**old, "verdict": "fails"}])) == [None]


def _judge(m, ctx, c=1.0):
    return Evidence(Verdict.FAILS if c != 1.0 else Verdict.HOLDS, {"mean": m, "se": 0.01, "n": 100,
                                                                   "interval": [m - 0.03, m + 0.03]}, c, "fake", "r")


def test_a_live_check_renders_its_severity_and_its_mutations():
    claim = Claim(id="p.c", where="Eq. 1", statement="X = 1", kind="identity", recorded=Verdict.FAILS,
                  measure=lambda ctx: 1.0, judge=_judge, params={"c": 2.0}, severity="misprint",
                  impact="a factor 2 the text gets right",
                  mutations=(Mutation("c=1", {"c": 1.0}, expect=Verdict.HOLDS),
                             Mutation("printed", {"c": 3.0}, printed=True), Mutation("flip", {"c": 4.0}, mirror=True)))
    ev = claim.judge(1.0, None, c=2.0)
    text = render_evidence(claim, ev)
    assert "Severity: misprint: a factor 2 the text gets right" in text
    assert ("Mutations: 1 mutation must fail on this claim's data (1 the printed form); 1 must give "
            "holds; 1 mirror (not counted)") in text
    assert "    printed (c=3) must fail [the printed form in this corrected claim's judge]" in text
    assert "flip (c=4) must fail [mirror: fails exactly when the claim holds, so it shows nothing]" in text
    assert as_record(claim, ev)["mutations"][1]["printed"] is True
    assert "{" not in text
