"""Notes that quote measured numbers.

A note is typed prose, so a number it quotes from a measurement would go stale when the
code or the seed changes. A note that quotes one is therefore a callable: it takes the
claim's evidence (its JSON form, :meth:`~theory.core.evidence.Evidence.to_json`) and
returns the text, and the report calls it when it writes the claim. A note that is a
plain string quotes no measured number.

>>> ev = {"measured": {"level": 0.0531}, "details": [{"part": "a", "mean": 1.25}, {"part": "b", "mean": 2.0}]}
>>> fill_note(lambda ev: f"level {ev['measured']['level']:.2g}; largest mean "
...                      f"{max(d['mean'] for d in ev['details']):.1f}", ev, "paper.claim")
'level 0.053; largest mean 2.0'
>>> fill_note(lambda ev: f"{ev['measured']['gone']:.2f}", ev, "paper.claim")
Traceback (most recent call last):
...
theory.core.notes.NoteFieldError: the note of claim paper.claim cannot be filled from its evidence: KeyError('gone')
"""
from __future__ import annotations

from typing import Callable

__all__ = ["Note", "NoteFieldError", "fill_note", "check_note"]

#: A note: plain text, or a callable of the evidence (JSON form) that returns the text.
Note = str | Callable[[dict], str]


class NoteFieldError(ValueError):
    """A note that its claim's evidence cannot fill."""


def check_note(note, claim: str = "") -> None:
    """Refuse a note that is neither text nor a callable, naming the claim."""
    if not isinstance(note, str) and not callable(note):
        raise TypeError(f"note of claim {claim} must be text or a callable of the evidence, got {note!r}")


def fill_note(note: Note, evidence: dict, claim: str = "") -> str:
    """The note's text for this evidence: the note itself when it is text, else what it
    returns for ``evidence``. A note that cannot be filled (a missing key, a None where a
    number is formatted, anything but text returned) is a :class:`NoteFieldError` naming
    the claim, never a blank."""
    if isinstance(note, str):
        return note
    try:
        text = note(evidence)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError, StopIteration) as exc:
        raise NoteFieldError(f"the note of claim {claim} cannot be filled from its evidence: {exc!r}") from None
    if not isinstance(text, str):
        raise NoteFieldError(f"the note of claim {claim} must give text, got {text!r}")
    return text
