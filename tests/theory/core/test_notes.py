"""Note fields: measured numbers a note quotes, filled from the evidence."""
import pytest

from theory.core import Claim, Verdict
from theory.core.notes import fill_note, note_fields

EV = {"measured": {"level": 0.0531, "interval": [0.1, 0.3], "none": None, "text": "rank one", "pairs": [[1, 2], [3, 4]]},
      "details": [{"part": "a", "mean": 1.25, "interval": [1.0, 1.5]}, {"part": "b.c", "mean": 2.0, "interval": [1.5, 2.5]},
                  {"label": "an exact row", "ok": True}, {"part": "c", "mean": 3.0, "interval": None}],
      "sampling": {"replicates_per_row": 64}}


@pytest.mark.parametrize("note, filled", [
    ("no field", "no field"),
    ("set {1, 2}, h^{l-1} and {x: y} stay", "set {1, 2}, h^{l-1} and {x: y} stay"),
    ("{=measured.level:.2g} at {=sampling.replicates_per_row} networks", "0.053 at 64 networks"),
    ("[{=measured.interval[0]}, {=measured.interval[1]:.1f}]", "[0.1, 0.3]"),
    ("{=max measured.interval}", "0.3"),
    ("{=min details[*].mean} to {=max details[*].mean:.2f}", "1.25 to 3.00"),
    ("{=details[part=b.c].mean:+.1f}", "+2.0"),
    ("{=details[part=b.c].interval[1]}", "2.5"),
    ("{=details[0].mean:.0%}", "125%"),
    ("{=measured.pairs[1][0]}", "3"),
    ("{=min measured.pairs[1]}", "3"),
    ("{=measured.text} start", "rank one start"),
    ("{=details[part=a][part=a].mean}", "1.25"),
    ("{=measured.interval[-1]}", "0.3"),
])
def test_fields_are_filled_from_the_evidence(note, filled):
    assert fill_note(note, EV, "c") == filled


@pytest.mark.parametrize("note, message", [
    ("{=measured.missing}", "no 'missing'"),
    ("{=details[*].missing}", "no selected element holds 'missing'"),
    ("{=details[*].mean}", "gives 3 values"),
    ("{=measured.interval}", "gives 2 values"),
    ("{=max measured.level}", "drop max"),
    ("{=details[part=z].mean}", r"\[part=z\] selects no element"),
    ("{=details[mean=1.25][1_0].mean}", r"\[1_0\] is not"),
    ("{=details[7].mean}", r"no element \[7\]"),
    ("{=measured[0]}", r"no element \[0\]"),
    ("{=max details[*].interval[1]}", "every element to be a list"),  # a row without an interval is not skipped
    ("{=max details[*].interval}", "needs numbers"),  # lists are not compared
    ("{=measured.none}", "not a number or a text"),
    ("{=measured.text:.2f}", "cannot format 'rank one'"),
    ("{=details[*][*].mean}", r"\[\*\] needs a list that is not already selected"),
])
def test_a_field_the_evidence_cannot_fill_is_an_error_naming_claim_and_field(note, message):
    with pytest.raises(ValueError, match=message) as err:
        fill_note(note, EV, "paper.claim")
    assert "paper.claim" in str(err.value) and "{=" in str(err.value)


@pytest.mark.parametrize("note", ["{=}", "{= measured..level}", "open {=measured.level", "{=measured.level:.3q}",
                                  "{=measured[x]y}"])
def test_malformed_fields_are_refused_when_a_claim_is_declared_naming_it(note):
    with pytest.raises(ValueError, match="note field"):
        note_fields(note)
    with pytest.raises(ValueError, match=r"claim p\.c"):
        Claim(id="p.c", where="w", statement="s", kind="identity", recorded=Verdict.HOLDS, measure=dict,
              judge=dict, note=note)
