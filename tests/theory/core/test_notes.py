"""Notes that quote measured numbers: a callable of the evidence, filled by the report;
one that its evidence cannot fill is an error naming the claim, never a blank."""
import pytest

from theory.core import Claim, Verdict
from theory.core.notes import NoteFieldError, check_note, fill_note

EV = {"measured": {"level": 0.0531, "none": None}, "details": [{"part": "a", "mean": 1.25}, {"part": "b", "mean": 2.0}],
      "sampling": {"replicates_per_row": 64}}


def test_text_notes_are_kept_and_callables_are_filled():
    assert fill_note("set {1, 2} stays", EV, "c") == "set {1, 2} stays"
    note = lambda ev: (f"{ev['measured']['level']:.2g} at {ev['sampling']['replicates_per_row']} networks; b's mean "  # noqa: E731
                       f"{next(d['mean'] for d in ev['details'] if d['part'] == 'b'):+.1f}")
    assert fill_note(note, EV, "c") == "0.053 at 64 networks; b's mean +2.0"


@pytest.mark.parametrize("note, error", [
    (lambda ev: ev["measured"]["gone"], "KeyError('gone')"),
    (lambda ev: f"{ev['measured']['none']:.2f}", "TypeError"),
    (lambda ev: f"{next(d['mean'] for d in ev['details'] if d['part'] == 'z')}", "StopIteration"),
    (lambda ev: 3.0, "must give text, got 3.0"),
])
def test_a_note_that_cannot_be_filled_names_its_claim(note, error):
    with pytest.raises(NoteFieldError, match="paper.claim") as err:
        fill_note(note, EV, "paper.claim")
    assert error in str(err.value)


def test_a_note_is_text_or_a_callable():
    check_note("text"), check_note(len)
    with pytest.raises(TypeError, match="note of claim p.c must be text or a callable"):
        check_note(3, "p.c")
    with pytest.raises(TypeError, match="must be text or a callable"):
        Claim(id="p.c", where="w", statement="s", kind="identity", recorded=Verdict.HOLDS, measure=len, judge=len,
              note=3)
